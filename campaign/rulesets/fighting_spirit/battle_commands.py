"""The five-grade morale rules played during a battle (RULES.md §0.4–§0.10): each command runs a pure rule on
the battle being fought with the campaign's dice, and returns each decision as a ``rules.applied`` record
followed by the facts it caused.

Each command imports its rule where it plays it: the rules (and the event types only they append) load with the
first rule command run, not with the ruleset's models, which every command of the ruleset (``fs rest``) loads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, ClassVar, Literal

from pydantic import Field

from campaign.rulesets.battles import Measured
from campaign.rulesets.command import Command, Phase
from campaign.rulesets.common import find_unit
from campaign.rulesets.decision import Decision, decision_events
from campaign.rulesets.fighting_spirit import RULESET
from campaign.rulesets.fighting_spirit.commands import At, FsCommand, current_battle
from campaign.rulesets.fighting_spirit.state import BattleState, CampaignState, RosterUnit
from campaign.rulesets.fighting_spirit.tables import Tables
from campaign.rulesets.inputs import ARGUMENT, EnemyUnit, OwnUnit, TargetUnit, Typed, seed_word
from events.dice import die
from events.errors import InvalidInputError, Words
from events.registry import Event

EnemyWithin = Annotated[
    Measured | None,
    Field(description='Inches to the nearest enemy, as measured (a Routed unit within 12" surrenders).'),
]
Action = Literal["go_prone_open", "go_prone_cover", "move_while_prone", "leave_cover_shaken", "close_combat"]
"""The actions a reaction test is for (§0.7)."""


def ruled(s: At, decisions: Sequence[Decision]) -> list[Event]:
    """The decisions taken on the battle being fought, each followed by its facts."""
    return decision_events(decisions, current_battle(s.state).battle_id, RULESET)


class OnUnit(FsCommand):
    """A rule played on one unit of the battle being fought (the battle is looked for first, then the unit)."""

    unit_name: Annotated[OwnUnit, ARGUMENT]

    def decide(self, s: At) -> list[Event]:
        decided = self.play(s, current_battle(s.state), find_unit(s.state, self.unit_name))
        return ruled(s, [decided] if isinstance(decided, Decision) else decided)

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision | Sequence[Decision]:
        raise NotImplementedError(f"{type(self).__name__} plays no rule")


class Attack(OnUnit):
    """Record fire or an assault on a unit (a miss too), then the morale test it calls for (§0.4–0.5) and a Green
    unit's panic test at its first fire (R3-4)."""

    name: ClassVar[str] = "fs.attack"
    phase: ClassVar[Phase] = Phase.BATTLE

    killed: int = Field(default=0, ge=0, le=10_000, description="Men killed outright: dead, not unverified casualties.")
    wounded: int = Field(default=0, ge=0, le=10_000, description="Wounded men: unverified casualties until checked.")
    suppressing: Annotated[bool, Typed(names=("--suppress",))] = Field(
        default=False, description="The fire suppressed the unit."
    )
    artillery: bool = Field(default=False, description="Artillery fire (the + threat row).")
    air: bool = Field(default=False, description="An air(space) attack (the artillery row's + threat).")
    assault: bool = Field(default=False, description="An assault (close combat), not fire.")
    """No first-fire panic test follows an assault (R3-4)."""
    leader_hit: bool = Field(default=False, description="The unit's leader became a casualty.")
    by: EnemyUnit | None = Field(
        default=None, description="The enemy unit that attacked (a Broken unit may fire back at it)."
    )
    """Recorded, so that a Broken unit may fire back at it this turn (R3-3); a Broken firer may fire only at an
    enemy that fired on it this turn."""
    enemy_within: EnemyWithin = None

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Sequence[Decision]:
        from campaign.rulesets.fighting_spirit.rules import attack, enemy_at

        inputs = self.keywords("unit_name", "by", "enemy_within")
        by = find_unit(s.state, self.by) if self.by is not None else None
        near = enemy_at(s.tables, self.enemy_within)
        return attack(s.tables, battle, unit, s.dice, **inputs, by=by, enemy_within=near)


class Morale(OnUnit):
    """Take a morale (confidence) test for named threat rows (§0.4)."""

    name: ClassVar[str] = "fs.morale"
    phase: ClassVar[Phase] = Phase.BATTLE

    rows: Annotated[tuple[Annotated[str, seed_word("fighting-spirit", "threat")], ...], Typed(names=("--threat",))] = (
        Field(max_length=20, description="Threat row(s) that call for the test.")
    )
    enemy_within: EnemyWithin = None

    def decide(self, s: At) -> list[Event]:
        if not self.rows:
            raise InvalidInputError.saying("name the threat rows that call for the test, e.g. --threat leader_lost")
        return super().decide(s)

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        from campaign.rulesets.fighting_spirit.rules import enemy_at, morale_test

        near = enemy_at(s.tables, self.enemy_within)
        return morale_test(s.tables, battle, unit, s.dice, self.rows, enemy_within=near, cause="declared")


class Rally(FsCommand):
    """An officer rallies a unit: communication test, then the rally test (§0.6).

    The officer is on the unit's direct chain of command."""

    name: ClassVar[str] = "fs.rally"
    phase: ClassVar[Phase] = Phase.BATTLE

    unit_name: Annotated[OwnUnit, ARGUMENT]
    officer_name: Annotated[OwnUnit, Field(description="A superior on the unit's direct chain of command.")]
    distance: Measured = Field(description="Inches between officer and unit, e.g. 6 or 6.5.")
    """As measured: within 6" in sight, no communication test."""
    in_sight: Annotated[bool, Typed(names=("--in-sight/--out-of-sight",))] = True
    under_artillery: bool = Field(default=False, description="Still under artillery fire.")

    def decide(self, s: At) -> list[Event]:
        battle, officer = current_battle(s.state), find_unit(s.state, self.officer_name)
        unit = find_unit(s.state, self.unit_name)
        from campaign.rulesets.fighting_spirit.rules import inches, rally

        inputs = self.keywords("unit_name", "officer_name", "distance")
        apart = inches(s.tables, self.distance, Words("the distance"))
        return ruled(s, [rally(s.state, s.tables, battle, officer, unit, s.dice, **inputs, distance=apart)])


class React(OnUnit):
    """A reaction test for an action (§0.7); a failed action may not be retried this turn."""

    name: ClassVar[str] = "fs.react"
    phase: ClassVar[Phase] = Phase.BATTLE

    action: Annotated[
        Action,
        Typed(
            argument=True,
            help="go_prone_open, go_prone_cover, move_while_prone, leave_cover_shaken, close_combat",
        ),
    ]

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        from campaign.rulesets.fighting_spirit.pressure import reaction_test

        return reaction_test(s.tables, battle, unit, s.dice, self.action)


class Panic(OnUnit):
    """A panic test (§0.8): on the quality's trigger, or while panicking the one test of its activation."""

    name: ClassVar[str] = "fs.panic"
    phase: ClassVar[Phase] = Phase.BATTLE

    trigger: Annotated[str | None, seed_word("fighting-spirit", "trigger")] = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="enemy_in_sight, armour_in_sight, terrifying_assault (a first fire's test comes with fs attack); "
        "none while panicking",
    )

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        from campaign.rulesets.fighting_spirit.rules import panic_test

        return panic_test(s.tables, battle, unit, s.dice, self.trigger)


class LastStand(OnUnit):
    """ "No step back!" (§0.9): d8 for Keno Guard, d6 otherwise, success on 6+."""

    name: ClassVar[str] = "fs.last_stand"
    phase: ClassVar[Phase] = Phase.BATTLE

    friends_within_12: int = Field(ge=0, le=1_000, description='Friendly units within 12".')
    enemy_squads_in_sight: Annotated[int, Typed(names=("--enemy-squads",))] = Field(
        ge=0, le=1_000, description="Enemy squads in sight, not retreating."
    )
    enemy_within: Annotated[
        Measured | None,
        Field(description='Inches to the nearest enemy, as measured (on a failure, within 12" it surrenders).'),
    ] = None

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        from campaign.rulesets.fighting_spirit.pressure import last_stand
        from campaign.rulesets.fighting_spirit.rules import enemy_at

        near = enemy_at(s.tables, self.enemy_within)
        inputs = self.keywords("unit_name", "enemy_within")
        return last_stand(s.tables, battle, unit, s.dice, **inputs, enemy_within=near)


class EndLastStand(OnUnit):
    """End "No step back": wiped out, or no enemy in view but Broken ones (back to Steady)."""

    name: ClassVar[str] = "fs.last_stand_end"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    reason: str = Field(min_length=1, max_length=100, description="wiped_out or only_broken_enemies")

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        from campaign.rulesets.fighting_spirit.pressure import end_last_stand

        return end_last_stand(s.tables, battle, unit, self.reason)


class Surrender(OnUnit):
    """A Routed unit with an enemy within 12" surrenders.

    RULES.md §0.3."""

    name: ClassVar[str] = "fs.surrender"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    enemy_within: Measured = Field(description="Inches to the nearest enemy, e.g. 12 or 12.5.")

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        from campaign.rulesets.fighting_spirit.pressure import surrender_check
        from campaign.rulesets.fighting_spirit.rules import inches

        return surrender_check(s.tables, battle, unit, inches(s.tables, self.enemy_within, Words("the enemy within")))


class Psi(FsCommand):
    """A psi action (§0.10): the psi die, a step down per 12" band after the first; success on ≥ the number."""

    name: ClassVar[str] = "fs.psi"
    phase: ClassVar[Phase] = Phase.BATTLE

    psion_name: Annotated[OwnUnit, ARGUMENT]
    target_name: Annotated[TargetUnit, ARGUMENT]
    effect: Annotated[str, seed_word("fighting-spirit", "psi_effect")] = Field(
        min_length=1,
        max_length=100,
        description="remove_suppression, inspire, no_step_back, psi_detection, "
        "avert_eyes, psi_strike, panic, confusion, psi_blast, kill",
    )
    distance: Measured = Field(description="Inches from psion to target, e.g. 12 or 12.5.")
    """As measured: the rules read it in bands of 12"."""
    in_sight: Annotated[bool, Typed(names=("--in-sight/--out-of-sight",))] = True
    blast_choice: Annotated[Literal["grades", "panic"], Typed(names=("--blast",))] = Field(
        default="grades", description="psi_blast: grades (−2) or panic."
    )

    def decide(self, s: At) -> list[Event]:
        battle, psion = current_battle(s.state), find_unit(s.state, self.psion_name)
        target = find_unit(s.state, self.target_name)
        from campaign.rulesets.fighting_spirit.pressure import psi
        from campaign.rulesets.fighting_spirit.rules import inches

        inputs = self.keywords("psion_name", "target_name", "distance")
        apart = inches(s.tables, self.distance, Words("the distance"))
        return ruled(s, psi(s.state, s.tables, battle, psion, target, s.dice, **inputs, distance=apart))


class Defence(OnUnit):
    """Roll a unit's defence against small-arms fire (a psion uses its psi die instead of the d4 only against
    aimed fire, not from the air, that hits the psion himself: R2-4)."""

    name: ClassVar[str] = "fs.defence"
    phase: ClassVar[Phase] = Phase.BATTLE

    aimed: Annotated[bool, Typed(names=("--fragments",), inverse=True)] = Field(
        default=True, description="Fragments or blast, not aimed fire."
    )
    from_air: bool = Field(default=False, description="Fire from the air.")
    on_psion: Annotated[bool, Typed(names=("--hit-elsewhere",), inverse=True)] = Field(
        default=True, description="The hit fell on the unit, not on the psion himself."
    )
    """R2-4 (d): the psi die serves only against aimed small arms, not from the air, hitting the psion himself."""

    def play(self, s: At, battle: BattleState, unit: RosterUnit) -> Decision:
        from campaign.rulesets.fighting_spirit.rules import active_unit

        active_unit(battle, unit)
        from campaign.rulesets.fighting_spirit.pressure import defence_die

        sides = defence_die(s.tables, unit, aimed=self.aimed, from_air=self.from_air, on_psion=self.on_psion)
        roll = s.dice.roll(die(sides), f"defence of {unit.name} against small arms", side=unit.side)
        which = "psi die" if sides != s.tables.defence.aimed_small_arms_die else "d4"
        return Decision(
            "defence",
            "§0.10",
            unit.unit_id,
            {
                "die": sides,
                "aimed": self.aimed,
                "from_air": self.from_air,
                "on_psion": self.on_psion,
                "psi_die": which == "psi die",
            },
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
