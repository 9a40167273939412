"""The five-grade morale rules played during a battle (RULES.md §0.4–§0.10): each command runs a pure rule on
the battle being fought with the campaign's dice, and returns each decision as a ``rules.applied`` record
followed by the facts it caused."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from pydantic import Field

from campaign.rulesets import fighting_spirit as fs
from campaign.rulesets.battles import Measured
from campaign.rulesets.command import Command
from campaign.rulesets.common import find_unit
from campaign.rulesets.decision import Decision, decision_events
from campaign.rulesets.fighting_spirit.commands import RULESET, At, FsCommand, Name, current_battle
from campaign.rulesets.fighting_spirit.state import BattleState, CampaignState, RosterUnit
from campaign.rulesets.fighting_spirit.tables import Tables
from events.dice import die
from events.errors import InvalidInputError
from events.registry import Event

Word = Field(min_length=1, max_length=100)


def ruled(s: At, decisions: Sequence[Decision]) -> list[Event]:
    """The decisions taken on the battle being fought, each followed by its facts."""
    return decision_events(decisions, current_battle(s.state).battle_id, RULESET)


class OnUnit(FsCommand):
    """A rule played on one unit of the battle being fought (the battle is looked for first, then the unit)."""

    unit_name: str = Name

    def decide(self, s: At) -> list[Event]:
        decided = self.play(s, current_battle(s.state), find_unit(s.state, self.unit_name))
        return ruled(s, [decided] if isinstance(decided, Decision) else decided)

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision | Sequence[Decision]:
        raise NotImplementedError(f"{type(self).__name__} plays no rule")


class Attack(OnUnit):
    """Fire or an assault on a unit, then the morale test it calls for (§0.4–0.5)."""

    name: ClassVar[str] = "fs.attack"

    killed: int = Field(ge=0, le=10_000)
    wounded: int = Field(ge=0, le=10_000)
    suppressing: bool = False
    artillery: bool = False
    leader_hit: bool = False
    enemy_within: Measured | None = Field(
        default=None, description='Inches to the nearest enemy, as measured (a Routed unit within 12" surrenders).'
    )
    by: str | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="The enemy unit that fired or assaulted (recorded, so that a Broken unit may fire back at it "
        "this turn, R3-3); a Broken firer may fire only at an enemy that fired on it this turn.",
    )
    assault: bool = Field(
        default=False, description="An assault (close combat), not fire: no first-fire panic test (R3-4)."
    )
    air: bool = Field(
        default=False, description="An air(space) attack: fire, and the artillery row's + threat (§0.5, R3-4)."
    )

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Sequence[Decision]:
        inputs = self.keywords("unit_name", "by", "enemy_within")
        by = find_unit(s.state, self.by) if self.by is not None else None
        near = fs.enemy_at(s.tables, self.enemy_within)
        return fs.attack(s.tables, battle, unit, s.dice, **inputs, by=by, enemy_within=near)


class Morale(OnUnit):
    """A morale (confidence) test for the threat rows named (§0.4)."""

    name: ClassVar[str] = "fs.morale"

    rows: tuple[str, ...] = Field(max_length=20)
    enemy_within: Measured | None = Field(
        default=None, description='Inches to the nearest enemy, as measured (a Routed unit within 12" surrenders).'
    )

    def decide(self, s: At) -> list[Event]:
        if not self.rows:
            raise InvalidInputError("name the threat row(s) that call for the test, e.g. --threat leader_lost")
        return super().decide(s)

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        near = fs.enemy_at(s.tables, self.enemy_within)
        return fs.morale_test(s.tables, battle, unit, s.dice, self.rows, enemy_within=near, cause="declared")


class Rally(FsCommand):
    """An officer on the unit's direct chain of command rallies it: communication, then the rally test (§0.6)."""

    name: ClassVar[str] = "fs.rally"

    unit_name: str = Name
    officer_name: str = Name
    distance: Measured = Field(description='Inches between officer and unit, as measured (within 6" in sight: no '
                               "communication test).")  # fmt: skip
    in_sight: bool
    under_artillery: bool = False

    def decide(self, s: At) -> list[Event]:
        battle, officer = current_battle(s.state), find_unit(s.state, self.officer_name)
        unit = find_unit(s.state, self.unit_name)
        inputs = self.keywords("unit_name", "officer_name", "distance")
        apart = fs.inches(s.tables, self.distance, "the distance")
        return ruled(s, [fs.rally(s.state, s.tables, battle, officer, unit, s.dice, **inputs, distance=apart)])


class React(OnUnit):
    """A reaction test for an action (§0.7); a failed action may not be tried again this turn."""

    name: ClassVar[str] = "fs.react"

    action: str = Word

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        return fs.reaction_test(s.tables, battle, unit, s.dice, self.action)


class Panic(OnUnit):
    """A panic test (§0.8): on the quality's trigger, or each activation while panicking."""

    name: ClassVar[str] = "fs.panic"

    trigger: str | None = Field(default=None, min_length=1, max_length=100)

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        return fs.panic_test(s.tables, battle, unit, s.dice, self.trigger)


class LastStand(OnUnit):
    """ "No step back!" (§0.9): d8 for Keno Guard, d6 otherwise."""

    name: ClassVar[str] = "fs.last_stand"

    friends_within_12: int = Field(ge=0, le=1_000)
    enemy_squads_in_sight: int = Field(ge=0, le=1_000)
    enemy_within: Measured | None = Field(
        default=None, description='Inches to the nearest enemy, as measured (on a failure, within 12" it surrenders).'
    )

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        near = fs.enemy_at(s.tables, self.enemy_within)
        inputs = self.keywords("unit_name", "enemy_within")
        return fs.last_stand(s.tables, battle, unit, s.dice, **inputs, enemy_within=near)


class EndLastStand(OnUnit):
    """ "No step back" ends: wiped out, or no enemy in view but Broken ones."""

    name: ClassVar[str] = "fs.last_stand_end"
    rolls: ClassVar[bool] = False

    reason: str = Word

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        return fs.end_last_stand(s.tables, battle, unit, self.reason)


class Surrender(OnUnit):
    """A Routed unit with an enemy within 12" surrenders (§0.3)."""

    name: ClassVar[str] = "fs.surrender"
    rolls: ClassVar[bool] = False

    enemy_within: Measured = Field(description="Inches to the nearest enemy, as measured.")

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        return fs.surrender_check(s.tables, battle, unit, fs.inches(s.tables, self.enemy_within, "the enemy within"))


class Psi(FsCommand):
    """A psi action (§0.10): the psi die, a step down per 12" band after the first; success on ≥ the number."""

    name: ClassVar[str] = "fs.psi"

    psion_name: str = Name
    target_name: str = Name
    effect: str = Word
    distance: Measured = Field(description='Inches from psion to target, as measured (bands of 12").')
    in_sight: bool
    blast_choice: str = Field(default="grades", min_length=1, max_length=100)

    def decide(self, s: At) -> list[Event]:
        battle, psion = current_battle(s.state), find_unit(s.state, self.psion_name)
        target = find_unit(s.state, self.target_name)
        inputs = self.keywords("psion_name", "target_name", "distance")
        apart = fs.inches(s.tables, self.distance, "the distance")
        return ruled(s, fs.psi(s.state, s.tables, battle, psion, target, s.dice, **inputs, distance=apart))


class Defence(OnUnit):
    """A unit's defence against aimed small arms: its d4, or a psion's psi die (§0.10)."""

    name: ClassVar[str] = "fs.defence"

    aimed: bool = True
    from_air: bool = False
    on_psion: bool = True
    """R2-4 (d): the psi die serves only against aimed small arms, not from the air, hitting the psion himself."""

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        fs.active_unit(battle, unit)
        sides = fs.defence_die(s.tables, unit, aimed=self.aimed, from_air=self.from_air, on_psion=self.on_psion)
        roll = s.dice.roll(die(sides), f"defence of {unit.name} against small arms")
        which = "psi die" if sides != s.tables.number("defence.aimed_small_arms_die") else "d4"
        return Decision(
            "defence",
            "§0.10",
            unit.unit_id,
            {"die": sides, "aimed": self.aimed, "from_air": self.from_air, "on_psion": self.on_psion},
            {"roll": roll.total},
            f"{unit.name} defends against small arms with its {which} (d{sides}): rolled {roll.total}",
            (),
            (roll,),
        )


BATTLE_COMMANDS: tuple[type[Command[CampaignState, Tables]], ...] = (
    Attack,
    Morale,
    Rally,
    React,
    Panic,
    LastStand,
    EndLastStand,
    Surrender,
    Psi,
    Defence,
)
