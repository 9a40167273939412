"""What one battle day works on (§2.8–§2.12): the units and sides as they march in and change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from campaign.rulesets.mass_combat.profile import UnitProfile
from campaign.rulesets.mass_combat.setup import Side
from events.errors import InvalidInputError


@dataclass(frozen=True)
class ArmyUnit:
    """A roster unit as it marches into the battle."""

    unit_id: str
    name: str
    side: str
    profile: UnitProfile
    campaign_morale: int = 0
    """Persistent Morale modifiers carried by the campaign (pay, loot, same enemy this year, …)."""


@dataclass
class UnitRun:
    unit: ArmyUnit
    base: int
    morale: int
    roll_mods: dict[str, int]
    ts_before: int
    ts: int
    fate: str = "holds"
    strike_rows: int = 0
    healing_rows: int = 0
    nowhere_to_go: bool = False
    blocked: int = 0
    """Enemy Extraordinary Force points this unit's own side blocks (defence spells)."""
    exempt: bool = False
    """Not subject to Morale (R2-26): passes every Morale roll unrolled; no Morale modifier touches it."""
    wiped_out: bool = False
    """Casualties took every man (R2-22)."""


@dataclass
class SideRun:
    setup: Side
    units: list[UnitRun]
    strategy_mods: dict[str, int] = field(default_factory=dict)
    base_strategy: int = 0
    ts: int = 0
    margin: int = 0
    roll: int = 0
    catastrophe_bonus: int = 0
    """Added to this side's catastrophe roll by enemy Extraordinary Force."""
    army_defence: int = 0

    @property
    def name(self) -> str:
        return self.setup.name


def find_unit(units: Sequence[UnitRun], name: str) -> UnitRun:
    for u in units:
        if u.unit.name == name:
            return u
    raise InvalidInputError.saying("{name!r} is not in that army", name=name)
