"""What a game master describes before a Mass Combat battle is resolved (validated input)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from campaign.rulesets.inputs import Called, NewBattle, OfficerName, SideName, UnitName, WordedError
from events.errors import Words


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UnitInBattle(_Model):
    unit: UnitName
    morale_mods: dict[Annotated[str, Called("modifier")], Annotated[int, Called("to the Morale roll")]] = Field(
        default_factory=dict
    )
    """Situational Morale-roll modifiers by name: hereditary_enemy 1, home_soil_defence 2, treason, spies…"""
    nowhere_to_go: bool = False


class Spell(_Model):
    """Extraordinary Force spent by a side (§2.13): magic, psionics, super-powers.

    ``morale``: ±1 Morale per point per TS 100 of the target (``direction`` +1 or −1); ``strike``: the target
    unit moves up a casualty row per point per TS 100, ``healing`` down; ``recon``: +1 Strategy per 3 points;
    ``catastrophe``: +1 to the enemy's catastrophe roll per 2 points; ``defence``: blocks one enemy point on
    the target unit, or one per 2 points against army-wide effects (no target).
    """

    kind: Literal["morale", "strike", "healing", "recon", "catastrophe", "defence"]
    points: int = Field(ge=1, le=1000)
    target: UnitName | None = None
    direction: Literal[-1, 1] = 1


class Commander(_Model):
    name: OfficerName = "commander"
    strategy: int = Field(ge=1, le=30)
    tactics: int | None = Field(default=None, ge=1, le=30)
    luck: bool = False
    unit: UnitName | None = Field(
        default=None,
        description="The unit the army commander leads in person: it never defects at catastrophe 14 (R3-17).",
    )


class ForceUser(_Model):
    """One user of Extraordinary Force (§2.13): the character points he invested and what adds to them. The side's
    users' ES are summed with their fractions, and the side spends the whole points of the sum (R2-23)."""

    points: int = Field(ge=0, le=100_000, description="Character points invested (IQ, Magery, Will, powers…).")
    bonus: int = Field(default=0, ge=0, le=5, description="Enchanted items, psi drugs or tech: +1 to +5 ES.")
    stone: int = Field(default=0, ge=0, le=10_000, description="A power stone's capacity: +1 ES per 10.")
    mana: Literal["low", "normal", "very_high"] = Field(default="normal", description="The mana level: ×¼, ×1, ×2.")


class Side(_Model):
    name: SideName
    role: Literal["attacker", "defender", "open"] = "open"
    commander: Commander
    tl: int = Field(default=3, ge=0, le=16)
    units: tuple[UnitInBattle, ...]
    es: int = Field(default=0, ge=0)
    """Extraordinary Force points the side has for this battle, besides its ``users``'; its spells may not spend
    more than both together."""
    users: tuple[ForceUser, ...] = Field(
        default=(),
        max_length=100,
        description="The side's users of Extraordinary Force, each worked out from his points and summed with "
        "the fractions (two 100-point mages give 1 ES, R2-23).",
    )
    spells: tuple[Spell, ...] = ()
    circumstances: dict[Annotated[str, Called("circumstance")], Annotated[int, Called("to Strategy")]] = Field(
        default_factory=dict
    )
    """Named Strategy modifiers: home_soil 2, forced_march −3, no_supplies −3, partial_surprise −2 …"""
    plan: int = Field(default=0, ge=-3, le=3)
    recon: int = Field(default=0, ge=0, le=2)
    diviner: int = Field(default=0, ge=-2, le=2)
    misc: int = Field(default=0, ge=-5, le=5)
    defensive: dict[Annotated[str, Called("position")], Annotated[int, Called("its value")]] = Field(
        default_factory=dict
    )
    """Defensive-position modifiers by name with the GM's value (defender only); a name starting with '*', or
    one of the tables' starred rows, is starred (R2-16)."""
    position: tuple[str, ...] = ()
    """Defensive positions by their name in the tables (``positions.*``: castle, steep_slope, …), defender only."""
    home_soil: bool = False
    """Fighting on home soil: ``circumstances.home_soil`` to Strategy, not added to a fortification (R2-17)."""
    intensity: int = Field(default=0, ge=0, le=10)
    catastrophe_unit: UnitName | None = None
    """The unit a catastrophe falls on when one must be picked, as the GM names it: the unit that defects at 14,
    the major unit at 15 and 17. Not named, a die draws it (R3-17, R3-18)."""


class PcInBattle(_Model):
    name: OfficerName
    side: SideName
    unit: UnitName | None = None
    iq: int = Field(default=10, ge=1, le=30)
    tactics: int | None = None
    weapon: int = Field(ge=1, le=30)
    combat_reflexes: bool = False
    danger_sense: bool = False
    risk: int
    dr: int = Field(default=0, ge=0)
    other_survival_mods: int = 0
    leads: Literal["nothing", "unit", "army"] = "nothing"
    """What the PC leads (R2-13): his Glory adds to his side's Strategy only if he leads his unit or the army."""
    luck: bool = False
    """Luck: a Survival roll that would hurt him is rolled again once, the better kept (R2-14)."""
    unconscious_at: int | None = Field(default=None, ge=1)
    """Damage from the first Survival roll at which the GM rules him unconscious (R2-14: a knocked-out leader)."""
    points: int | None = Field(default=None, ge=0, le=100_000)
    """The character's points, as its GURPS Character Sheet totals them (read with the sheet; no rule reads them:
    `mc es POINTS` reckons the Extraordinary Force of points invested)."""
    dead_at: int | None = Field(default=None, ge=1)
    """Damage from the first Survival roll at which the GM rules him dead (R2-14): a leader who died is a lost
    commander, whose Morale loss lasts until a clear victory (R2-10); dead, he makes no second Survival roll (§2.9:
    only Glory is rolled "even for a dead PC")."""


SPELL_TARGET = {
    "morale": Words("a morale spell needs a target unit"),
    "strike": Words("a strike spell needs a target unit"),
    "healing": Words("a healing spell needs a target unit"),
}
"""A spell that works on one unit, refused without it: each a whole sentence, the spell's kind in the reader's
words for it."""


class BattleSetup(_Model):
    name: NewBattle
    kind: Literal["open_field", "assault"] = "open_field"
    day: int = Field(default=1, ge=1)
    sides: tuple[Side, ...] = Field(min_length=2)
    pcs: tuple[PcInBattle, ...] = ()
    morale_ts: bool = True
    """Apply the optional Morale ↔ TS rule (§2.7) to the TS comparison and the TS after the battle."""
    attacker_has_artillery_or_sappers: bool = False
    siege: bool = False
    """A storm of a besieged place (C-13, R2-16): the besieged hold a starred position, so Tables B and C decide;
    artillery is a special category in a siege, cavalry is not (§2.10)."""

    @model_validator(mode="after")
    def _roles(self) -> BattleSetup:
        roles = sorted(s.role for s in self.sides)
        if set(roles) != {"open"} and roles != ["attacker", "defender"]:
            raise WordedError(Words("the sides all have role 'open', or one attacks and one defends"))
        if self.kind == "assault" and roles != ["attacker", "defender"]:
            raise WordedError(Words("an assault has one attacker and one defender"))
        if self.siege and roles != ["attacker", "defender"]:  # R2-16: a siege battle is fought only as a storm
            raise WordedError(Words("a siege battle is a storm: one side attacks, the besieged side defends"))
        if len({s.name for s in self.sides}) != len(self.sides):
            raise WordedError(Words("the sides need different names"))
        for side in self.sides:
            if (side.defensive or side.position) and side.role != "defender":
                raise WordedError(
                    Words("{side} does not defend: only a defender has a defensive position", side=side.name)
                )
            spent = sum(spell.points for spell in side.spells)
            if spent > side.es and not side.users:  # the users' ES needs the tables: counted when fought
                raise WordedError(
                    Words(
                        "{side} spends {spent} Extraordinary Force points but has {have}",
                        side=side.name,
                        spent=spent,
                        have=side.es,
                    )
                )
            for spell in side.spells:
                if spell.kind in ("morale", "strike", "healing") and spell.target is None:
                    raise WordedError(SPELL_TARGET[spell.kind])
        leaders = [(pc.side, pc.leads) for pc in self.pcs if pc.leads == "army"]
        if len(set(leaders)) != len(leaders):
            raise WordedError(Words("one PC at most leads each army"))
        for pc in self.pcs:
            if pc.leads == "unit" and pc.unit is None:
                raise WordedError(Words("{pc} leads a unit: name it (unit)", pc=pc.name))
        return self
