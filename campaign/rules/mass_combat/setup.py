"""What a game master describes before a Mass Combat battle is resolved (validated input)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UnitInBattle(_Model):
    unit: str
    morale_mods: dict[str, int] = Field(default_factory=dict)
    """Situational Morale-roll modifiers by name: hereditary_enemy 1, home_soil_defence 2, treason, spies…"""
    morale_es: int = 0
    """Morale changed by Extraordinary Force (magic, psionics): ±1 per point per TS 100."""
    strike: int = Field(default=0, ge=0)
    healing: int = Field(default=0, ge=0)
    nowhere_to_go: bool = False


class Commander(_Model):
    name: str = "commander"
    strategy: int = Field(ge=1, le=30)
    tactics: int | None = Field(default=None, ge=1, le=30)
    luck: bool = False


class Side(_Model):
    name: str
    role: Literal["attacker", "defender", "open"] = "open"
    commander: Commander
    tl: int = Field(default=3, ge=0, le=16)
    units: tuple[UnitInBattle, ...]
    es_on_enemy_catastrophe: int = Field(default=0, ge=0)
    circumstances: dict[str, int] = Field(default_factory=dict)
    """Named Strategy modifiers: home_soil 2, forced_march −3, no_supplies −3, partial_surprise −2 …"""
    plan: int = Field(default=0, ge=-3, le=3)
    recon: int = Field(default=0, ge=0, le=2)
    diviner: int = Field(default=0, ge=-2, le=2)
    misc: int = Field(default=0, ge=-5, le=5)
    defensive: dict[str, int] = Field(default_factory=dict)
    """Defensive-position modifiers (defender only); names starting with '*' are the starred rows."""
    intensity: int = Field(default=0, ge=0, le=10)
    catastrophe_unit: str | None = None
    """The unit a catastrophe falls on when one must be picked (default: the strongest major unit)."""


class PcInBattle(_Model):
    name: str
    side: str
    unit: str | None = None
    iq: int = Field(default=10, ge=1, le=30)
    tactics: int | None = None
    weapon: int = Field(ge=1, le=30)
    combat_reflexes: bool = False
    danger_sense: bool = False
    risk: int
    dr: int = Field(default=0, ge=0)
    other_survival_mods: int = 0


class BattleSetup(_Model):
    name: str
    kind: Literal["open_field", "assault"] = "open_field"
    day: int = Field(default=1, ge=1)
    sides: tuple[Side, Side]
    pcs: tuple[PcInBattle, ...] = ()
    morale_ts: bool = True
    """Apply the optional Morale ↔ TS rule (§2.7) to the TS comparison and the TS after the battle."""
    attacker_has_artillery_or_sappers: bool = False
    siege: bool = False

    @model_validator(mode="after")
    def _roles(self) -> BattleSetup:
        roles = sorted(s.role for s in self.sides)
        if self.kind == "open_field" and roles != ["open", "open"]:
            raise ValueError("an open-field battle has two sides with role 'open'")
        if self.kind == "assault" and roles != ["attacker", "defender"]:
            raise ValueError("an assault has one attacker and one defender")
        if self.sides[0].name == self.sides[1].name:
            raise ValueError("the two sides need different names")
        return self
