"""The series a chart draws, folded from a campaign's log: pure, no drawing and no I/O.

The events in effect (retractions honoured: :func:`events.timeline.effective`) are folded with the ruleset's own
fold, one command at a time; after each command the chart reads its measure from the state. A point is kept when
a value changed, and at each battle's end, so a chart shows the campaign's story and not every command of it.

The measures, in each ruleset's own terms:

* morale: five grades — the unit's grade in its latest battle (5 confident … 1 routed); disorder markers — the
  markers a unit carries in the battle being fought; Mass Combat — the campaign Morale the campaign gives a unit
  (pay, bonus, conscription, modifiers); Grimdark — a unit's XP.
* strength: men (five grades), models (disorder, Grimdark) — in the battle being fought, else the roster's —
  and troop strength (Mass Combat).
* treasury: each side's treasury, where the ruleset keeps one.
* glory: disorder officers' Glory; Mass Combat player characters' Reputation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign.commands import fold_for, plugin, tables_in_force
from campaign.i18n import _
from events.envelope import RecordedEvent
from events.errors import InvalidInputError
from events.timeline import by_command, effective

MEASURES = ("morale", "strength", "treasury", "glory")


@dataclass(frozen=True)
class Reading:
    """One value of one series at one moment: a unit's, a side's or an officer's."""

    key: str
    name: str
    side: str | None
    value: int


DAYS_PASS = frozenset({"fighting-spirit", "mass-combat"})
"""The rulesets whose campaigns keep a day (RULES.md §5's calendar: time passes by days of rest and march and by
battle days, as events); the others are told by their battles alone."""


@dataclass(frozen=True)
class Step:
    """A moment of the campaign a chart shows: after the command that ends at ``seq``."""

    seq: int
    label: str
    """What that command did ("attack", "Ruins ends")."""
    when: str = ""
    """Where it lies in the campaign's calendar, as an axis says it (:func:`when_words`): "Ruins, day 3"."""


@dataclass(frozen=True)
class Series:
    name: str
    side: str | None
    values: tuple[int | None, ...]
    """One per step; None where the series has no value (a unit not yet mustered, not in a battle, disbanded)."""


@dataclass(frozen=True)
class Chart:
    campaign: str
    measure: str
    title: str
    axis: str
    """What the values count, for the axis: "grade", "men", "crowns" …"""
    steps: tuple[Step, ...]
    series: tuple[Series, ...]
    levels: tuple[str, ...] = ()
    """For a measure of named levels (grades): the name of value 1, 2, …"""

    def points(self, name: str) -> list[tuple[int, int]]:
        """The series called ``name`` as (seq, value) pairs, gaps left out."""
        found = next((s for s in self.series if s.name == name), None)
        if found is None:
            raise KeyError(name)
        return [(step.seq, v) for step, v in zip(self.steps, found.values, strict=True) if v is not None]


@dataclass(frozen=True)
class Measure:
    title: str
    axis: str
    read: Callable[[Any], list[Reading]]
    levels: Callable[[Any], tuple[str, ...]] | None = None


# -- what each ruleset measures ------------------------------------------------------------------------------


def _fs_grade_order(state: Any) -> tuple[str, ...]:
    """Best to worst, as the tables in force say (a house rule may rename or reorder them)."""
    tables: Any = tables_in_force(plugin("fighting-spirit"), state.overrides)  # a ruleset found by name
    return tuple(str(g) for g in tables.grades.order)


def _fs_levels(state: Any) -> tuple[str, ...]:
    return tuple(reversed(_fs_grade_order(state)))


def _latest_battle_of(state: Any, unit_id: str) -> Any:
    fought = [b for b in state.battles.values() if unit_id in b.units]
    return max(fought, key=lambda b: b.number) if fought else None


def _active_units(state: Any) -> Any:
    battle = state.battles.get(state.active_battle) if state.active_battle else None
    return battle.units if battle is not None else {}


def _fs_morale(state: Any) -> list[Reading]:
    order = _fs_grade_order(state)
    readings = []
    for unit in state.units():
        battle = _latest_battle_of(state, unit.unit_id)
        if unit.disbanded is None and battle is not None:
            grade = battle.units[unit.unit_id].grade
            readings.append(Reading(unit.unit_id, unit.name, unit.side, len(order) - order.index(grade)))
    return readings


def _fs_strength(state: Any) -> list[Reading]:
    fighting = _active_units(state)
    readings = []
    for unit in state.units():
        if unit.disbanded is None:
            record = state.records.get(unit.unit_id)
            men = record.men if record is not None else unit.profile.size
            if unit.unit_id in fighting:
                men = fighting[unit.unit_id].men
            readings.append(Reading(unit.unit_id, unit.name, unit.side, men))
    return readings


def _roster(state: Any) -> list[Any]:
    return sorted(state.roster.values(), key=lambda u: (u.side, u.name, u.unit_id))


def _models(state: Any) -> list[Reading]:
    fighting = _active_units(state)
    return [
        Reading(u.unit_id, u.name, u.side, fighting[u.unit_id].models if u.unit_id in fighting else u.profile.models)
        for u in _roster(state)
        if u.disbanded is None
    ]


def _dis_markers(state: Any) -> list[Reading]:
    fighting = _active_units(state)
    return [
        Reading(u.unit_id, u.name, u.side, fighting[u.unit_id].markers)
        for u in _roster(state)
        if u.disbanded is None and u.unit_id in fighting and fighting[u.unit_id].removed is None
    ]


def _dis_glory(state: Any) -> list[Reading]:
    return [
        Reading(c.officer, c.officer, c.side, c.glory) for c in sorted(state.careers.values(), key=lambda c: c.officer)
    ]


def _gf_xp(state: Any) -> list[Reading]:
    return [Reading(u.unit_id, u.name, u.side, u.xp) for u in _roster(state) if u.disbanded is None]


def _treasury(state: Any) -> list[Reading]:
    return [Reading(side, side, side, int(amount)) for side, amount in sorted(state.treasury.items())]


def _mc_units(field: str) -> Callable[[Any], list[Reading]]:
    def read(state: Any) -> list[Reading]:
        summary = _mc_summary(state)
        return [
            Reading(u["unit_id"], u["name"], u["side"], int(u[field])) for u in summary.units if u["disbanded"] is None
        ]

    return read


def _mc_summary(state: Any) -> Any:
    fold = fold_for("mass-combat")
    assert fold is not None  # a ruleset's name always has a fold
    return fold.summary(state)


def _mc_reputation(state: Any) -> list[Reading]:
    return [
        Reading(c.pc, c.pc, None, state.reputation(c.pc)) for c in sorted(state.careers.values(), key=lambda c: c.pc)
    ]


MEASURE_OF: dict[str, dict[str, Measure]] = {
    "fighting-spirit": {
        "morale": Measure("Morale grade", "grade", _fs_morale, _fs_levels),
        "strength": Measure("Strength", "men", _fs_strength),
        "treasury": Measure("Treasury", "money", _treasury),
    },
    "disorder": {
        "morale": Measure("Disorder markers in battle", "markers", _dis_markers),
        "strength": Measure("Strength", "models", _models),
        "glory": Measure("Officers' Glory", "Glory", _dis_glory),
    },
    "mass-combat": {
        "morale": Measure("Campaign Morale", "Morale", _mc_units("campaign_morale")),
        "strength": Measure("Troop strength", "TS", _mc_units("ts")),
        "treasury": Measure("Treasury", "$", _treasury),
        "glory": Measure("Reputation", "Reputation", _mc_reputation),
    },
    "grimdark": {
        "morale": Measure("Experience", "XP", _gf_xp),
        "strength": Measure("Strength", "models", _models),
        "treasury": Measure("Treasury", "points", _treasury),
    },
}

_WHY_NOT = {
    ("fighting-spirit", "glory"): "five-grade units have no officers with Glory or Reputation",
    ("disorder", "treasury"): "the disorder-marker rules keep no treasury",
    ("grimdark", "glory"): "Grimdark heroes earn XP, not Glory (chart morale shows it)",
}


def measures_of(ruleset: str) -> Mapping[str, Measure]:
    """The measures a ruleset keeps: its plug-in's (``charts``), else those written here for it, else none."""
    from campaign.rulesets import RULESETS, load

    info = RULESETS.get(ruleset)
    if info is not None and info.charts is not None:
        declared: Mapping[str, Measure] = load(info.charts)
        return declared
    return MEASURE_OF.get(ruleset, {})


def measure_for(ruleset: str, measure: str) -> Measure:
    """The measure as this ruleset keeps it; refused in words when the ruleset has none."""
    if measure not in MEASURES:
        raise InvalidInputError(f"no chart called {measure!r}: charts are {', '.join(MEASURES)}")
    kept_by = measures_of(ruleset)
    found = kept_by.get(measure)
    if found is None:
        why = _WHY_NOT.get((ruleset, measure), f"{ruleset} has no {measure} measure")
        kept = ", ".join(m for m in MEASURES if m in kept_by)
        raise InvalidInputError(f"no {measure} chart for a {ruleset} campaign: {why}. Charts it has: {kept}")
    return found


# -- folding the log into steps ------------------------------------------------------------------------------


def _label(group: Sequence[RecordedEvent], battle_names: dict[str, str]) -> tuple[str, bool]:
    """Words for a step, and whether a battle ended in it."""
    for event in group:
        if event.type == "battle.ended":
            name = battle_names.get(str(event.payload.get("battle_id")), "the battle")
            return f"{name} ends", True
    issued = group[0]
    if issued.type != "timeline.command_issued":
        return issued.type.partition(".")[2].replace("_", " "), False
    return str(issued.payload["command"]).partition(".")[2].replace("_", " "), False


def when_words(day: int | None, battle: str | None = None, *, ended: bool = False, after: str | None = None) -> str:
    """A moment in the campaign's calendar, as short as an axis needs: the battle being fought ("Ruins"), or at
    its end ("end of Ruins"), with the campaign's day where its ruleset keeps one ("Ruins, day 3", "day 16");
    between battles of a ruleset without days, the battle fought last ("after Ruins", "before the first battle").
    ``day`` is None for a ruleset without days."""
    if battle is not None:
        where = _("end of {battle}").format(battle=battle) if ended else battle
    elif day is None:
        where = _("after {battle}").format(battle=after) if after else _("before the first battle")
    else:
        where = ""
    return ", ".join(part for part in (where, day_words(day)) if part)


def day_words(day: int | None) -> str:
    """The campaign's day on an axis ("day 16"); nothing for a ruleset without days."""
    return "" if day is None else _("day {day}").format(day=day)


def _day(ruleset: str, state: Any) -> int | None:
    day = getattr(state, "day", None)
    return day if ruleset in DAYS_PASS and isinstance(day, int) else None


def _matches(reading: Reading, only: str | None) -> bool:
    if only is None:
        return True
    wanted = only.strip().casefold()
    return wanted in (reading.name.casefold(), (reading.side or "").casefold())


def chart(campaign: str, ruleset: str, events: Iterable[RecordedEvent], measure: str, only: str | None = None) -> Chart:
    """The chart of ``measure`` for a campaign's log; ``only`` keeps one unit, side or officer (by name)."""
    how = measure_for(ruleset, measure)
    fold = fold_for(ruleset)
    assert fold is not None  # measure_for knows only rulesets
    state = fold.initial()
    battle_names: dict[str, str] = {}
    steps: list[Step] = []
    rows: list[dict[str, int]] = []
    names: dict[str, tuple[str, str | None]] = {}
    seen_any: set[str] = set()
    fighting: str | None = None
    fought_last: str | None = None
    for group in by_command(effective(events)):
        ended: str | None = None
        for event in group:
            if event.type == "battle.started":
                battle_names[str(event.payload["battle_id"])] = fighting = str(event.payload["name"])
            elif event.type == "battle.ended":
                ended = battle_names.get(str(event.payload.get("battle_id")), fighting)
            state = fold.apply(state, event)
        readings = [r for r in how.read(state) if _matches(r, only)]
        seen_any.update(r.name for r in how.read(state))
        row = {r.key: r.value for r in readings}
        for r in readings:
            names.setdefault(r.key, (r.name, r.side))
        label, battle_end = _label(group, battle_names)
        if row and (battle_end or not rows or row != rows[-1]):
            when = when_words(_day(ruleset, state), ended or fighting, ended=ended is not None, after=fought_last)
            steps.append(Step(group[-1].seq, label, when))
            rows.append(row)
        if ended is not None:
            fighting, fought_last = None, ended
    if only is not None and not names:
        known = ", ".join(sorted(seen_any)) or "none yet"
        raise InvalidInputError(f"no unit, side or officer called {only!r} has a {measure} here (known: {known})")
    if not rows:
        raise InvalidInputError(f"nothing to chart yet: no {how.title.lower()} has been recorded in {campaign}")
    shown = _display_names(names)
    series = tuple(Series(shown[key], names[key][1], tuple(row.get(key) for row in rows)) for key in names)
    levels = how.levels(state) if how.levels is not None else ()
    return Chart(campaign, measure, f"{campaign}: {how.title}", how.axis, tuple(steps), series, levels)


def _display_names(names: dict[str, tuple[str, str | None]]) -> dict[str, str]:
    """Each series' name; names shared by several units are told apart by their side, then by a number."""
    counts: dict[str, int] = {}
    for name, _side in names.values():
        counts[name] = counts.get(name, 0) + 1
    shown: dict[str, str] = {}
    used: set[str] = set()
    for key, (name, side) in names.items():
        label = name if counts[name] == 1 else f"{name} ({side})" if side else name
        base, n = label, 2
        while label in used:
            label, n = f"{base} #{n}", n + 1
        used.add(label)
        shown[key] = label
    return shown
