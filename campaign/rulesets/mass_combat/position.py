"""A defender's position and home soil (§2.10, R2-16, R2-17): Strategy modifiers, the result tables, casualty rows."""

from __future__ import annotations

from dataclasses import dataclass

from campaign.rulesets.mass_combat.setup import Side
from campaign.rulesets.mass_combat.tables import Tables
from campaign.rulesets.tables import pick
from events.errors import InvalidInputError


@dataclass(frozen=True)
class Position:
    strategy: dict[str, int]
    """Named Strategy modifiers: the position rows and home soil."""
    starred: bool
    """The defender holds a starred row: the result comes from Tables B and C, not A (R2-16)."""
    casualty_rows: int
    """What the starred rows add to the defender's casualty row (§2.12), each after the −2 for enemy artillery or
    sappers (R3-20); nothing under Table A."""
    defensive_bonus: int
    """The defensive-position bonus a defending PC's second Survival roll adds (§2.12, R2-22): every position row,
    starred rows after the −2 for enemy artillery or sappers. Home soil is no position row, and R2-17 weighs it
    against a fortification for Strategy only, so a fortification home soil outweighs still counts here."""


def _rows(tables: Tables, side: Side) -> list[tuple[str, int, bool]]:
    """(name, value, starred) of every position row the side holds."""
    starred_names = set(tables.positions.starred)
    rows = []
    for given, value in side.defensive.items():
        name = given.lstrip("*")
        rows.append((name, value, given.startswith("*") or name in starred_names))
    for name in side.position:
        if name in ("starred", "starred_vs_artillery") or name not in tables.positions.rows:
            known = ", ".join(sorted(tables.positions.rows))
            raise InvalidInputError.saying("no defensive position {name!r}: one of {known}", name=name, known=known)
        rows.append((name, pick(tables.positions.rows, name, "positions"), name in starred_names))
    return rows


def position(tables: Tables, side: Side, *, enemy_artillery_or_sappers: bool) -> Position:
    """The side's position modifiers. Starred rows lose 2 against artillery or sappers; home soil is not added to
    a fortification (the larger of the two counts, after that −2), but still adds to slopes and a defile."""
    strategy: dict[str, int] = {}
    rows = _rows(tables, side) if side.role == "defender" else []
    fortification = set(tables.circumstances.home_soil_not_with)
    fort_total = 0
    defensive_bonus = 0
    against = tables.positions.starred_vs_artillery if enemy_artillery_or_sappers else 0
    lowered: list[tuple[str, int, bool]] = []
    for name, given, starred in rows:
        # R3-20: the −2 lowers a starred row's own value, not below 0, everywhere it counts
        value = max(min(given, 0), given + against) if starred else given
        lowered.append((name, value, starred))
        defensive_bonus += value
        if starred and name in fortification:
            fort_total += value
        strategy[f"position {name.replace('_', ' ')}"] = value
    home = side.circumstances.get("home_soil")
    if home is None and side.home_soil:
        home = tables.circumstances.home_soil
    fortified = any(starred and name in fortification for name, _, starred in rows)
    if home is not None:
        if fortified and home > fort_total:
            for name, _, starred in rows:
                if starred and name in fortification:
                    strategy.pop(f"position {name.replace('_', ' ')}")
            strategy["home soil (larger than the fortification)"] = home
        elif not fortified:
            strategy["home soil"] = home
    starred_any = any(starred for _, _, starred in rows)
    casualty_rows = sum(value for _, value, starred in lowered if starred)
    return Position(strategy, starred_any, casualty_rows, defensive_bonus)
