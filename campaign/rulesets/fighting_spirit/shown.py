"""How a five-grade campaign is shown: its chart series, its roster as CSV, its battle sheet's cards (the
plug-in's ``charts``, ``roster`` and ``sheet``).

Its charts: morale — the unit's grade in its latest battle (5 confident … 1 routed, as the tables in force name
and order the grades); strength — the men in the battle being fought, else the roster's; treasury — each side's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from campaign.i18n import N_
from campaign.rulesets import hooks
from campaign.rulesets.hooks import Charted, Charts, CsvColumn, Lacking, Measure, Reading
from campaign.rulesets.sheets import Card, Item, fought, in_side_order, left, name_of

if TYPE_CHECKING:
    from campaign.rulesets.fighting_spirit.state import BattleState, CampaignState, UnitState
    from campaign.rulesets.fighting_spirit.tables import Tables
    from projections.fold import SummaryRow


def _grade_order(seen: Charted[CampaignState, Tables]) -> tuple[str, ...]:
    """Best to worst, as the tables in force say (a house rule may rename or reorder them)."""
    return tuple(str(g) for g in seen.tables.grades.order)


def _levels(seen: Charted[CampaignState, Tables]) -> tuple[str, ...]:
    return tuple(reversed(_grade_order(seen)))


def _latest_battle_of(state: CampaignState, unit_id: str) -> BattleState | None:
    battles = [b for b in state.battles.values() if unit_id in b.units]
    return max(battles, key=lambda b: b.number) if battles else None


def _morale(seen: Charted[CampaignState, Tables]) -> list[Reading]:
    order = _grade_order(seen)
    readings = []
    for unit in seen.state.units():
        battle = _latest_battle_of(seen.state, unit.unit_id)
        if unit.disbanded is None and battle is not None:
            grade = battle.units[unit.unit_id].grade
            readings.append(Reading(unit.unit_id, unit.name, unit.side, len(order) - order.index(grade)))
    return readings


def _strength(seen: Charted[CampaignState, Tables]) -> list[Reading]:
    state = seen.state
    fighting = hooks.active_units(state)
    readings = []
    for unit in state.units():
        if unit.disbanded is None:
            record = state.records.get(unit.unit_id)
            men = record.men if record is not None else unit.profile.size
            if unit.unit_id in fighting:
                men = fighting[unit.unit_id].men
            readings.append(Reading(unit.unit_id, unit.name, unit.side, men))
    return readings


CHARTS: Charts[CampaignState, Tables] = {
    "morale": Measure(N_("Morale grade"), N_("grade"), _morale, _levels, level_term="grade"),
    "strength": Measure(N_("Strength"), N_("men"), _strength),
    "treasury": Measure(N_("Treasury"), N_("money"), hooks.treasury),
    "glory": Lacking(N_("five-grade units have no officers with Glory or Reputation")),
}


def _position(row: Mapping[str, object]) -> str:
    return ", ".join(p for p, on in (("prone", row.get("prone")), ("cover", row.get("in_cover"))) if on) or "open"


def _status(row: Mapping[str, object]) -> str:
    panic = row.get("panic")
    return str(
        row.get("removed")
        or (panic if panic and panic != "none" else "")
        or ("abandoned wounded" if row.get("abandoned_wounded") else "")
    )


ROSTER = hooks.columns(
    ("name", "unit"), "side", "grade", "start_grade", "men", "unverified", "dead", "suppression",
    CsvColumn("position", _position), CsvColumn("status", _status),
)  # fmt: skip
"""``fs roster`` as CSV: its table's columns over the rows its ``--json`` prints."""


def sheet(state: CampaignState, units: Mapping[str, SummaryRow]) -> list[Card]:
    """Each unit of the battle being fought: its men left, grade, suppression and fatigue, and what it did."""
    battle = fought(state)
    if battle is None:
        return []
    cards = []
    for uid, u in battle.units.items():
        flags = [
            *([N_("activated")] if u.activations or u.spent else [N_("not activated yet")]),
            *([N_("prone")] if u.prone else []),
            *([N_("in cover")] if u.in_cover else []),
            *([N_("leader lost")] if u.leader_lost else []),
            *([N_("panicking")] if u.panic == "panicking" else []),
            *([N_("last stand")] if u.last_stand else []),
        ]
        items = [
            Item(N_("men"), left(u.men, u.start_men)),
            Item(N_("grade"), u.grade, "grade"),
            Item(N_("suppression"), str(u.suppression)),
            # the fatigue it fights with (the one the battle started with), not its campaign record's now
            *([Item(N_("fatigue"), fatigue, "fatigue")] if (fatigue := _fatigue(u, units.get(uid))) else []),
        ]
        cards.append(Card(uid, name_of(state, uid), u.side, tuple(items), tuple(flags), u.removed, now=fs_now(u)))
    return in_side_order(cards, battle.sides)


def _fatigue(u: UnitState, row: SummaryRow | None) -> str | None:
    if u.fatigue is not None:
        return u.fatigue
    return str(row["fatigue"]) if row is not None and row.get("fatigue") is not None else None


_FS_GRADE = {
    # RULES.md §0.3's allowed behaviour by grade, Broken and Routed as R3-3 lists their actions
    "confident": N_("its grade allows any order"),
    "steady": N_("its grade allows any order"),
    "shaken": N_(
        "its grade allows any order but moving toward the enemy; it leaves cover only after a passed reaction test"
    ),
    "broken": N_(
        "its grade allows only: move toward its own table edge, move to cover, leave cover to withdraw, or fire at "
        "an enemy that fired on it this turn"
    ),
    "routed": N_(
        "its grade allows only moving toward its own table edge, with every action, never stopping; it surrenders "
        'if an enemy is within 12"'
    ),
}


def fs_now(u: UnitState) -> tuple[str, ...]:
    """Five grades: one activation a turn (R3-1); a panicking unit's is one panic test and nothing else (R3-2);
    what it may do in it is its grade's (§0.3, R3-3); No step back passes every test (§0.9)."""
    if u.removed:
        return ()
    stand = (N_("No step back: it passes every morale and reaction test"),) if u.last_stand else ()
    if u.spent or (u.panic == "panicking" and u.panic_tests):
        return (N_("done this turn: its next activation comes next turn"), *stand)
    if u.panic == "panicking":
        if u.activations:
            return (N_("panicking: its panic test is all this activation may do"), *stand)
        return (N_("panicking: its activation will be one panic test and nothing else"), *stand)
    grade = _FS_GRADE.get(u.grade)
    said = (grade,) if grade else ()
    if u.activations:
        return (N_("has activated this turn: no second activation until next turn"), *said, *stand)
    return (N_("may activate this turn (once a turn)"), *said, *stand)
