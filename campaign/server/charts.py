"""The charts' series over a campaign's time: units' strength, treasury, officers' Glory, at each battle's end
and month's end (and now), each point the campaign as it stood at that seq."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campaign import views
from campaign.executor import Ledger
from events.envelope import RecordedEvent
from projections.state.campaigns import CampaignInfo

MAX_POINTS = 24
MOMENTS = ("battle.ended", "calendar.month_ended")
STRENGTH = ("men", "troops", "models", "ts")


def chart_series(ledger: Ledger, info: CampaignInfo, events: Sequence[RecordedEvent]) -> dict[str, Any]:
    seqs = [e.seq for e in events if e.type in MOMENTS][-(MAX_POINTS - 1) :]
    if not seqs or seqs[-1] != info.last_seq:
        seqs.append(info.last_seq)
    strength: dict[str, dict[int, int]] = {}
    money: dict[str, dict[int, int]] = {}
    glory: dict[str, dict[int, int]] = {}
    for seq in seqs:
        s = views.summary(ledger, info, seq)
        for u in s.units:
            value = next((u[k] for k in STRENGTH if isinstance(u.get(k), int)), None)
            if value is not None:
                strength.setdefault(str(u["name"]), {})[seq] = value
        for side, amount in s.treasury.items():
            money.setdefault(side, {})[seq] = amount
        for c in s.careers:
            if isinstance(c.get("glory"), int):
                glory.setdefault(str(c["pc"]), {})[seq] = c["glory"]

    def lines(by_name: dict[str, dict[int, int]]) -> dict[str, Any]:
        return {
            "labels": [f"#{s}" for s in seqs],
            "lines": [{"label": name, "values": [v.get(s) for s in seqs]} for name, v in sorted(by_name.items())],
        }

    return {"strength": lines(strength), "treasury": lines(money), "glory": lines(glory)}
