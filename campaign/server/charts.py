"""The charts' series over a campaign's time: units' strength, treasury, officers' Glory, at each battle's end
and month's end (and now), each point the campaign as it stood at that seq, and named in the campaign's calendar
("end of Ruins, day 3", "end of month 1, day 30", "now, day 31"), never by the log's seqs.

The moments are read by type (the last of them only), and the campaign as it stood at each is read from its
nearest snapshot: what the chart costs follows its points, not the log's length. A point is the campaign at a
seq, which later events never change: kept in ``memo`` for the next heads."""

from __future__ import annotations

from typing import TypedDict

from campaign.executor import Ledger
from campaign.i18n import N_, _
from campaign.read import views
from campaign.read.charts import AnyMeasure, day_words, keeps_days, measures_of, when_words
from events.envelope import RecordedEvent
from events.recorded import whole
from projections.fold import Summary
from projections.state.campaigns import CampaignInfo

MAX_POINTS = 24
MOMENTS = ("battle.ended", "calendar.month_ended")
STRENGTH = ("men", "troops", "models", "ts")
SERIES = {
    "strength": N_("Units' strength on the roster"),
    "treasury": N_("Treasury"),
    "glory": N_("Officers' Glory"),
}
"""Each chart's name: its heading, its canvas's accessible name and its table's caption (said in the reader's
language where the fragment is rendered). A ruleset's own name for a measure (its ``Measure.named``) replaces it."""
ABOUT = {
    "strength": N_(
        "Each unit's {counts} as its roster counts them, not its losses in a battle being fought: the battle sheet "
        "shows those."
    ),
}
"""What a chart's values are, where its name alone could mislead (said under the name)."""
COUNTS = {"strength": N_("{counts} on the roster"), "treasury": N_("in the treasury"), "glory": N_("earned")}
"""What the values of a chart's table count: the header over its series' columns."""

Point = tuple[dict[str, int], dict[str, int], dict[str, int], str]
"""Strength by unit, treasury by side, Glory by officer, at one seq; and where that seq lies in the calendar."""


def _point(ledger: Ledger, info: CampaignInfo, seq: int, moment: RecordedEvent | None) -> Point:
    s = views.summary(ledger, info, seq)
    strength = {
        str(u["name"]): value
        for u in s.units
        if (value := next((v for k in STRENGTH if isinstance(v := u.get(k), int)), None)) is not None
    }
    glory = {
        str(c["pc"]): earned
        for c in s.careers
        if isinstance(earned := c.get("glory", c.get("reputation")), int)  # Mass Combat's careers: Reputation
    }
    return strength, dict(s.treasury), glory, _when(info.ruleset, s, moment)


def _when(ruleset: str, s: Summary, moment: RecordedEvent | None) -> str:
    """The point's name on the axis: the battle it ends, the month it ends, or now; with the day where the
    ruleset keeps one."""
    day = s.day if keeps_days(ruleset) else None
    if moment is not None and moment.type == "battle.ended":
        battle_id = moment.payload.get("battle_id")
        name = next((str(b["name"]) for b in s.battles if b.get("battle_id") == battle_id), None)
        return when_words(day, name or _("the battle"), ended=True)
    # a month's end records its month counted from 0 (the first is month 0)
    if moment is None:
        return ", ".join(p for p in (_("now"), day_words(day)) if p)
    said = _("end of month {month}").format(month=whole(moment.payload["month"]) + 1)
    return ", ".join(p for p in (said, day_words(day)) if p)


def charted(ruleset: str) -> tuple[str, ...]:
    """The page's charts a ruleset has: those of :data:`SERIES` whose measure it keeps (``campaign chart``'s
    declaration, :func:`campaign.read.charts.measures_of`). Decided from the ruleset, not from the data: a chart
    the ruleset keeps is shown before it has a point (officers earn Glory at their first battle's end), and one
    it never keeps (Grimdark's Glory, the disorder rules' treasury) is not shown at all."""
    kept = measures_of(ruleset)
    return tuple(key for key in SERIES if key in kept)


class Line(TypedDict):
    label: str
    values: list[int | None]
    """By point: none where the unit (side, officer) had no value then."""


class Chart(TypedDict):
    """One chart of the page (its script draws it from this data)."""

    title: str
    about: str
    counts: str
    labels: list[str]
    """Each point's moment in words."""
    lines: list[Line]


def chart_series(ledger: Ledger, info: CampaignInfo, memo: dict[int, Point] | None = None) -> dict[str, Chart]:
    found = ledger.store.read_types(info.campaign_id, MOMENTS, upto_seq=info.last_seq, limit=MAX_POINTS - 1, last=True)
    moments: dict[int, RecordedEvent | None] = {e.seq: e for e in found}
    seqs = [e.seq for e in found]
    if not seqs or seqs[-1] != info.last_seq:
        seqs.append(info.last_seq)
        moments[info.last_seq] = None
    kept = memo if memo is not None else {}
    points = {seq: kept[seq] if seq in kept else _point(ledger, info, seq, moments[seq]) for seq in seqs}
    if memo is not None:
        memo.clear()
        memo.update(points)  # the points still shown, for the next head
    strength: dict[str, dict[int, int]] = {}
    money: dict[str, dict[int, int]] = {}
    glory: dict[str, dict[int, int]] = {}
    for seq, (units, treasury, officers, _when_said) in points.items():
        for by, values in ((strength, units), (money, treasury), (glory, officers)):
            for name, value in values.items():
                by.setdefault(name, {})[seq] = value

    labels = [points[s][3] for s in seqs]

    counts = _(_counted(info.ruleset))
    measures = measures_of(info.ruleset)

    def lines(key: str, by_name: dict[str, dict[int, int]]) -> Chart:
        return {
            "title": _(_named(measures.get(key)) or SERIES[key]),  # the script's data too, not the template alone
            "about": _(ABOUT[key]).format(counts=counts) if key in ABOUT else "",
            "counts": _(COUNTS[key]).format(counts=counts),
            "labels": labels,
            "lines": [{"label": name, "values": [v.get(s) for s in seqs]} for name, v in sorted(by_name.items())],
        }

    by_key = {"strength": strength, "treasury": money, "glory": glory}
    return {key: lines(key, by_key[key]) for key in charted(info.ruleset)}


def _counted(ruleset: str) -> str:
    """What the ruleset's units count: men or models (its plug-in's ``counts``)."""
    from campaign.rulesets import RULESETS

    info = RULESETS.get(ruleset)
    return N_("men") if info is not None and info.counts == "men" else N_("models")


def _named(measure: AnyMeasure | None) -> str | None:
    """The ruleset's own name for the measure, if it gives one."""
    return measure.named if measure is not None else None
