"""Where a five-grade battle starts (RULES.md §0.3, §5, R2-3): one fatigue per side, and scenario start grades.

Pure: the units deployed arrive with the fatigue the GM stated (if any) and the one their campaign record gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from campaign.rulesets.fighting_spirit.state import RosterUnit
from campaign.rulesets.fighting_spirit.tables import FATIGUES, Tables
from events.errors import InvalidInputError


@dataclass(frozen=True)
class Deployed:
    unit: RosterUnit
    stated: str | None
    """The fatigue the GM stated for it at battle start, if any."""
    record: str
    """The fatigue its campaign record gives (§5)."""


def side_fatigues(tables: Tables, deployed: Sequence[Deployed]) -> dict[str, str]:
    """Each deployed unit's fatigue (by unit id). R2-3: each side has one fatigue, the one the GM states for it,
    else the most tired of its units' records (exhausted > tired > fresh); different fatigues stated for units
    of one side are refused. ``campaign.side_fatigue`` = "per_unit" starts each unit from its own."""
    for d in deployed:
        if d.stated is not None and d.stated not in FATIGUES:
            raise InvalidInputError.saying(
                "fatigue must be one of {fatigues}, not {fatigue!r}", fatigues=", ".join(FATIGUES), fatigue=d.stated
            )
    if str(tables.campaign.side_fatigue) == "per_unit":
        return {d.unit.unit_id: d.stated or d.record for d in deployed}
    by_side: dict[str, str] = {}
    for side in dict.fromkeys(d.unit.side for d in deployed):
        mine = [d for d in deployed if d.unit.side == side]
        stated = sorted({d.stated for d in mine if d.stated is not None}, key=FATIGUES.index)
        if len(stated) > 1:
            raise InvalidInputError.saying(
                "{side} has one fatigue for all its troops (§0.3), not several for units of one side: {stated}",
                side=side,
                stated=", ".join(stated),
            )
        by_side[side] = stated[0] if stated else max((d.record for d in mine), key=FATIGUES.index)
    return {d.unit.unit_id: by_side[d.unit.side] for d in deployed}


def start_grade(tables: Tables, unit: RosterUnit, fatigue: str, scenario_grade: str | None) -> str:
    """The unit's starting grade, which is also its rally cap: its side's fatigue's grade (§0.3), or the grade a
    scenario sets for it (R2-3: Confident, Steady, Shaken or Broken; never Routed)."""
    if scenario_grade is None:
        return tables.start_grade_for(fatigue)
    allowed = tuple(tables.start_grade.scenario_grades)
    if scenario_grade not in allowed:
        raise InvalidInputError.saying(
            "a scenario starts {unit} at one of {grades}, not {grade!r}",
            unit=unit.name,
            grades=", ".join(allowed),
            grade=scenario_grade,
        )
    return scenario_grade
