"""The charts' series over a campaign's time: units' strength, treasury, officers' Glory, at each battle's end
and month's end (and now), each point the campaign as it stood at that seq.

The moments are read by type (the last of them only), and the campaign as it stood at each is read from its
nearest snapshot: what the chart costs follows its points, not the log's length. A point is the campaign at a
seq, which later events never change: kept in ``memo`` for the next heads."""

from __future__ import annotations

from typing import Any

from campaign.executor import Ledger
from campaign.read import views
from projections.state.campaigns import CampaignInfo

MAX_POINTS = 24
MOMENTS = ("battle.ended", "calendar.month_ended")
STRENGTH = ("men", "troops", "models", "ts")

Point = tuple[dict[str, int], dict[str, int], dict[str, int]]
"""Strength by unit, treasury by side, Glory by officer, at one seq."""


def _point(ledger: Ledger, info: CampaignInfo, seq: int) -> Point:
    s = views.summary(ledger, info, seq)
    strength = {
        str(u["name"]): value
        for u in s.units
        if (value := next((u[k] for k in STRENGTH if isinstance(u.get(k), int)), None)) is not None
    }
    glory = {str(c["pc"]): c["glory"] for c in s.careers if isinstance(c.get("glory"), int)}
    return strength, dict(s.treasury), glory


def chart_series(ledger: Ledger, info: CampaignInfo, memo: dict[int, Point] | None = None) -> dict[str, Any]:
    found = ledger.store.read_types(info.campaign_id, MOMENTS, upto_seq=info.last_seq, limit=MAX_POINTS - 1, last=True)
    seqs = [e.seq for e in found]
    if not seqs or seqs[-1] != info.last_seq:
        seqs.append(info.last_seq)
    kept = memo if memo is not None else {}
    points = {seq: kept[seq] if seq in kept else _point(ledger, info, seq) for seq in seqs}
    if memo is not None:
        memo.clear()
        memo.update(points)  # the points still shown, for the next head
    strength: dict[str, dict[int, int]] = {}
    money: dict[str, dict[int, int]] = {}
    glory: dict[str, dict[int, int]] = {}
    for seq, (units, treasury, officers) in points.items():
        for by, values in ((strength, units), (money, treasury), (glory, officers)):
            for name, value in values.items():
                by.setdefault(name, {})[seq] = value

    def lines(by_name: dict[str, dict[int, int]]) -> dict[str, Any]:
        return {
            "labels": [f"#{s}" for s in seqs],
            "lines": [{"label": name, "values": [v.get(s) for s in seqs]} for name, v in sorted(by_name.items())],
        }

    return {"strength": lines(strength), "treasury": lines(money), "glory": lines(glory)}
