"""The disorder-marker ruleset's battle commands (seed 001, RULES.md §1): each a typed value with its pure decision.

A command that costs a unit models decides, in one batch, everything the loss calls for: the permanent marker at
half strength, the morale check (one for all causes), and the force's morale. Markers end with the battle.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, ClassVar

from pydantic import Field

from campaign.i18n import N_
from campaign.rulesets.battles import Measured, deploying, started
from campaign.rulesets.battles import NextTurn as BaseNextTurn
from campaign.rulesets.command import Command, Phase
from campaign.rulesets.common import side_named
from campaign.rulesets.decision import Decision, decision_events
from campaign.rulesets.disorder import RULESET
from campaign.rulesets.disorder import rules as dis
from campaign.rulesets.disorder.commands import (
    Appoint,
    At,
    Disband,
    DisCommand,
    Edit,
    HouseRule,
    Muster,
    Transfer,
    causes_checked,
    current_battle,
    fighting,
    fled,
    force,
    friend_checked,
    in_play,
    is_force,
    ruled,
    with_force,
)
from campaign.rulesets.disorder.state import CampaignState
from campaign.rulesets.disorder.tables import Tables
from campaign.rulesets.inputs import (
    ARGUMENT,
    Called,
    NewBattle,
    OwnUnit,
    SideName,
    Typed,
    UnitName,
    seed_word,
    terms_listed,
)
from events.errors import InvalidInputError, Words
from events.families.battle import BattleEnded, OfficerRemoved, UnitDeployed, UnitRemoved
from events.recorded import JsonValue, maybe_text, whole
from events.registry import Event

Cause = Annotated[str, seed_word("disorder", "cause"), Field(min_length=1, max_length=50)]
CloseOrder = Annotated[bool, Field(description="In close order or square (+1).")]
OfficerNear = Annotated[bool, Field(description='Within 12" of a unit containing an officer (+1).')]
MAX_CAUSES = 10
"""No check has more causes than the tables know (four); ten leaves room to spare."""
FriendAt = Field(
    default=None,
    description='Inches, as measured, to the friendly unit removed (friend_removed: within 12").',
)
"""Recorded with the check: the distance R3-9 reads for friend_removed."""


class StartBattle(DisCommand):
    """Start a scenario with the units deployed (two sides at least, each under an officer).

    Each unit at its roster strength."""

    name: ClassVar[str] = "dis.battle_start"
    phase: ClassVar[Phase] = Phase.BETWEEN
    rolls: ClassVar[bool] = False

    battle_name: Annotated[NewBattle, ARGUMENT] = Field(alias="name")
    units: Annotated[tuple[UnitName, ...], Typed(names=("--unit",))] = Field(
        min_length=1, max_length=200, description="A unit deployed at its roster strength."
    )
    scenario: str = Field(default="", max_length=200)
    encounter: bool = Field(
        default=False,
        description="A plain encounter battle: the side that destroys more enemy models wins.",
    )
    """With no scenario objectives: its winner is the side that destroyed more of the enemy's models (§1.8,
    R3-12)."""

    def decide(self, s: At) -> list[Event]:
        state = s.state
        deployed, sides = deploying(state, self.battle_name, self.units)
        leaderless = [side for side in sides if side not in state.officers]
        if leaderless:
            raise InvalidInputError.saying(
                "no officer commands {sides}: appoint one with `campaign dis officer SIDE NAME`",
                sides=", ".join(leaderless),
            )
        officers: dict[str, dict[str, JsonValue]] = {side: {"officer": state.officers[side]} for side in sides}
        begun = started(s, self.battle_name, sides, officers, self.scenario)
        events: list[Event] = [begun]
        kept = {} if s.tables.markers.cleared_after_battle else state.permanent_markers()
        for u in deployed:
            placed: dict[str, JsonValue] = {
                "points": u.profile.points,
                "troops": u.profile.troops,
                "permanent": kept.get(u.unit_id, 0),
            }
            if u.profile.contingent is not None:
                placed["contingent"] = u.profile.contingent
            events.append(
                UnitDeployed(
                    battle_id=begun.battle_id, unit_id=u.unit_id, side=u.side, men=u.profile.models, state=placed
                )
            )
        if self.encounter:
            counted = " and ".join(str(c) for c in s.tables.encounter.counts)
            kind = Decision(
                "encounter",
                "§1.8",
                None,
                {"encounter": True, "counts": [str(c) for c in s.tables.encounter.counts]},
                {"winner_by": "models destroyed"},
                f"{self.battle_name} is an encounter battle: the side that destroys more of the enemy's models "
                f"({counted}) wins",
            )
            events.extend(decision_events([kind], begun.battle_id, RULESET))
        return events


class NextTurn(BaseNextTurn[CampaignState, Tables]):
    name: ClassVar[str] = "dis.turn"
    phase: ClassVar[Phase] = Phase.BATTLE
    ruleset_prefix: ClassVar[str] = RULESET.prefix

    def decide(self, s: At) -> list[Event]:
        battle = current_battle(s.state)
        if battle.last_turn is not None:  # R3-10: the turn in which a force fled is the last
            raise InvalidInputError.saying(
                "the battle ended with turn {turn} ({sides} fled): record battle-end",
                turn=battle.last_turn,
                sides=fled(battle),
            )
        return super().decide(s)


class Hit(DisCommand):
    """Models lost to shooting or melee, then the permanent marker at half strength, the morale check (§1.4) and
    the force's morale (§1.3).

    One morale check for this and any cause that came with it (``also``)."""

    name: ClassVar[str] = "dis.hit"
    phase: ClassVar[Phase] = Phase.BATTLE

    unit_name: Annotated[OwnUnit, ARGUMENT]
    lost: int = Field(ge=1, le=1000, description="Models lost.")
    cause: Annotated[str, seed_word("disorder", "loss")] = Field(
        default="shooting", max_length=50, description="shooting or melee."
    )
    also: tuple[Cause, ...] = Field(
        default=(),
        max_length=MAX_CAUSES,
        description="Another cause in the same action: friend_removed, officer_removed, force_half.",
    )
    close_order: CloseOrder = False
    officer_near: OfficerNear = False
    friend_at: Measured | None = FriendAt

    def decide(self, s: At) -> list[Event]:
        if self.cause not in dis.LOSS_CAUSES:
            allowed = terms_listed("disorder", "loss", dis.LOSS_CAUSES, last="or")  # "shooting or melee"
            raise InvalidInputError.saying(
                "models are lost to {causes} here, not {cause!r}", causes=allowed, cause=self.cause
            )
        tables = s.tables
        battle, unit = fighting(s, self.unit_name)
        if self.lost > unit.models:  # as `fs attack` refuses it: RULES.md §1.3–1.4 cap no loss
            raise InvalidInputError.saying(
                "{unit} has {models} models left; it cannot lose {lost}",
                unit=unit.name,
                models=unit.models,
                lost=self.lost,
            )
        friend, at = friend_checked(s, battle, unit, self.also, self.friend_at)
        after, facts, text = dis.lose_models(unit, battle.battle_id, self.lost, self.cause)
        decisions = [
            Decision(
                "models_lost",
                "§1.3",
                unit.unit_id,
                {"lost": self.lost, "cause": self.cause, "models": unit.models},
                {"models": after.models},
                text,
                tuple(facts),
            )
        ]
        gone = after.models == 0
        marker = None if gone else dis.permanent_marker(tables, after, battle.battle_id)
        if marker is not None:
            decisions.append(marker)
            after = replace(after, permanent=1)
            gone = bool(marker.outcome["flees"])
        # R2-7: recount the force before the check; beyond the flight threshold nobody checks at all.
        counted = force(s, battle, after, gone=gone, folded=None if gone else after.unit_id)
        status = maybe_text(counted.outcome["status"]) if counted else None
        if gone or status == "flees":
            return ruled(battle, [*decisions, counted] if counted else decisions)
        causes: tuple[str, ...] = ("casualties", *self.also)
        if status == "half" and "force_half" not in causes:
            causes = (*causes, "force_half")  # its own losses brought the force to half: one more cause
        causes_checked(s, battle, after, causes, status)
        check = dis.morale_check(
            tables,
            after,
            s.dice,
            battle.battle_id,
            causes=causes,
            lost=self.lost,
            close_order=self.close_order,
            officer_near=self.officer_near,
            friend_removed=friend,
            friend_at=at,
        )
        decisions.extend([check, counted] if counted else [check])
        if check.outcome["result"] == "flees":
            fled = force(s, battle, after, gone=True, status=status)
            decisions.extend([fled] if fled else [])
        return ruled(battle, decisions)


class CheckMorale(DisCommand):
    """A morale check without casualties (§1.3): one check for all causes, −1 per extra cause.

    A friend removed nearby, the officer lost, the force at half."""

    name: ClassVar[str] = "dis.check"
    phase: ClassVar[Phase] = Phase.BATTLE

    unit_name: Annotated[OwnUnit, ARGUMENT]
    causes: Annotated[tuple[Cause, ...], Typed(names=("--cause",))] = Field(
        max_length=MAX_CAUSES, description="friend_removed, officer_removed or force_half."
    )
    close_order: CloseOrder = False
    officer_near: OfficerNear = False
    friend_at: Measured | None = FriendAt

    def decide(self, s: At) -> list[Event]:
        if "casualties" in self.causes:
            raise InvalidInputError.saying("a check for casualties comes with the loss: use `campaign dis hit`")
        tables = s.tables
        battle, unit = fighting(s, self.unit_name)
        causes_checked(s, battle, unit, self.causes)
        friend, at = friend_checked(s, battle, unit, self.causes, self.friend_at)
        inputs = self.keywords("unit_name", "friend_at")
        check = dis.morale_check(tables, unit, s.dice, battle.battle_id, **inputs, friend_removed=friend, friend_at=at)
        if check.outcome["result"] != "flees":
            return ruled(battle, [check])
        return ruled(battle, with_force(s, battle, [check], unit))


class AddMarker(DisCommand):
    """A disorder marker from another source (§1.2); the third flees the unit.

    A source other than a morale check: a lost melee, a scenario rule."""

    name: ClassVar[str] = "dis.marker"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]
    reason: str = Field(max_length=200, description="Where it comes from, e.g. 'lost a melee'.")

    def decide(self, s: At) -> list[Event]:
        battle, unit = fighting(s, self.unit_name)
        decision = dis.add_marker(s.tables, unit, battle.battle_id, self.reason)
        if not decision.outcome["flees"]:
            return ruled(battle, [decision])
        return ruled(battle, with_force(s, battle, [decision], unit))


class Rally(DisCommand):
    """A rally action (§1.6): 2d6 + Discipline − markers (+ bonuses) ≥ 6 removes the non-permanent markers."""

    name: ClassVar[str] = "dis.rally"
    phase: ClassVar[Phase] = Phase.BATTLE

    unit_name: Annotated[OwnUnit, ARGUMENT]
    close_order: CloseOrder = False
    officer_near: OfficerNear = False

    def decide(self, s: At) -> list[Event]:
        battle, unit = fighting(s, self.unit_name)
        tried = battle.units[unit.unit_id].rallied_in.count(battle.turn)
        decision = dis.rally(s.tables, unit, s.dice, battle.battle_id, **self.keywords("unit_name"), tried=tried)
        return ruled(battle, [decision])


class Retreat(DisCommand):
    """A retreat (§1.5): one model captured per full inch it could not move; off the table, the unit is gone.

    ``needed`` inches, ``moved`` of them (all by default)."""

    name: ClassVar[str] = "dis.retreat"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]
    needed: Measured = Field(description="Inches it must retreat (½ its move, unrounded), e.g. 2.5.")
    """Half its move, unrounded (R3-8)."""
    moved: Measured | None = Field(default=None, description="Inches it could move, if blocked, e.g. 1.5.")
    off_table: bool = Field(default=False, description="A model left the table.")

    def decide(self, s: At) -> list[Event]:
        need = dis.distance(s.tables, self.needed, Words("the retreat"), halved=True)
        done = need if self.moved is None else dis.distance(s.tables, self.moved, Words("the distance moved"))
        tables = s.tables
        battle, unit = fighting(s, self.unit_name)
        decision = dis.retreat(tables, unit, battle.battle_id, needed=need, moved=done, off_table=self.off_table)
        decisions = [decision]
        after = replace(unit, models=unit.models - whole(decision.outcome["captured"]))
        gone = self.off_table or after.models == 0
        if not gone and decision.outcome["captured"]:
            marker = dis.permanent_marker(tables, after, battle.battle_id)
            if marker is not None:
                decisions.append(marker)
                after = replace(after, permanent=1)
                gone = bool(marker.outcome["flees"])
        if decision.outcome["captured"] or gone:
            counted = force(s, battle, after, gone=gone)
            if counted:
                decisions.append(counted)
        return ruled(battle, decisions)


class Remove(DisCommand):
    """Remove a unit from the table (then the force's morale is counted).

    For a reason no other command records (destroyed in one melee, say)."""

    name: ClassVar[str] = "dis.remove"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]
    reason: str = Field(max_length=200, description="e.g. 'destroyed in melee'.")

    def decide(self, s: At) -> list[Event]:
        if not self.reason.strip():
            raise InvalidInputError.saying("say why the unit is removed")
        battle, unit = fighting(s, self.unit_name)
        removed = Decision(
            "unit_removed",
            "§1.2",
            unit.unit_id,
            {"reason": self.reason},
            {"removed": True},
            f"{unit.name} is removed: {self.reason}",
            (UnitRemoved(battle_id=battle.battle_id, unit_id=unit.unit_id, reason=self.reason),),
        )
        return ruled(battle, with_force(s, battle, [removed], unit))


class OfficerDown(DisCommand):
    """The side's officer is removed from play: each of its units checks (once per game); −2 Glory.

    RULES.md §1.3."""

    name: ClassVar[str] = "dis.officer_down"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    side: Annotated[SideName, ARGUMENT]

    def decide(self, s: At) -> list[Event]:
        state = s.state
        battle = in_play(current_battle(state))
        contingents = {u.contingent for u in battle.units.values() if u.contingent is not None}
        forces = [*battle.sides, *sorted(c for c in contingents if is_force(s, c, ""))]
        if self.side not in forces:  # R3-13: a contingent with an officer of its own is a force of its own
            raise InvalidInputError.saying(
                "{side!r} is not a side (or a contingent with an officer of its own) of this battle ({forces})",
                side=self.side,
                forces=", ".join(forces),
            )
        if self.side in battle.officer_removed:
            raise InvalidInputError.saying("the officer of {side} was already removed in this battle", side=self.side)
        units = sorted(
            state.roster[uid].name
            for uid, u in battle.units.items()
            if (u.contingent or u.side) == self.side and u.removed is None
        )
        officer = state.officers.get(self.side, "")
        decision = Decision(
            "officer_removed",
            "§1.3",
            None,
            {"side": self.side, "officer": officer},
            {"units_to_check": list(units)},
            f"{self.side}'s officer {officer} is removed from play: "
            f"each of its units takes a morale check (officer_removed): {', '.join(units) or 'none left'}",
            (OfficerRemoved(battle_id=battle.battle_id, side=self.side),),
        )
        return ruled(battle, [decision])


class EndBattle(DisCommand):
    """The last turn is played out (§1.8): each force's Glory goes to its officer; markers end with the battle.

    ``winner`` is a side, or None for a draw; ``objectives`` the scenario objectives each side holds."""

    name: ClassVar[str] = "dis.battle_end"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    winner: SideName | None = Field(default=None, description="The side that won; leave out for a draw.")
    objectives: Annotated[
        dict[SideName, Annotated[int, Field(ge=0, le=1000), Called("objectives held")]], Typed(form="SIDE=N")
    ] = Field(default_factory=dict, description="The scenario objectives each side holds at the end.")

    def decide(self, s: At) -> list[Event]:
        state, tables = s.state, s.tables
        battle = current_battle(state)
        held = dict(self.objectives)
        winner = side_named(battle.sides, self.winner) if self.winner is not None else None
        strangers = sorted(set(held) - set(battle.sides))
        if strangers:
            raise InvalidInputError.saying("{sides}: not a side of this battle", sides=", ".join(strangers))
        counted: dict[str, JsonValue] = {}
        if battle.encounter and held:
            raise InvalidInputError.saying(
                "an encounter battle has no scenario objectives (§1.8): leave out --objectives"
            )
        if battle.encounter and len(battle.sides) == 2:  # R3-12; with three sides or more the players name it
            computed, scores = dis.encounter_result(tables, battle.sides, battle.losses())
            if self.winner is not None and winner != computed:
                first, second = battle.sides
                won = (
                    N_(
                        "an encounter battle is won by the side that destroyed more models: {first} destroyed "
                        "{first_score} models of {second}, {second} {second_score} of {first}; so {computed} won, "
                        "not {winner}"
                    )
                    if computed
                    else N_(
                        "an encounter battle is won by the side that destroyed more models: {first} destroyed "
                        "{first_score} models of {second}, {second} {second_score} of {first}; so a draw, not "
                        "{winner}"
                    )
                )
                raise InvalidInputError.saying(
                    won,
                    first=first,
                    second=second,
                    first_score=scores[first],
                    second_score=scores[second],
                    computed=computed,
                    winner=winner,
                )
            winner, counted = computed, {"scores": dict(scores)}
        decisions: list[Decision] = []
        removed = [u for u in battle.units.values() if u.removed]
        for side in battle.sides:
            officer = str(state.officers.get(side, ""))
            career = state.careers.get(officer)
            decisions.append(
                dis.glory(
                    tables,
                    battle.battle_id,
                    side,
                    officer,
                    result="drawn" if winner is None else ("won" if winner == side else "lost"),
                    objectives=held.get(side, 0),
                    enemy_removed=sum(1 for u in removed if u.side != side),
                    own_fled=sum(
                        1
                        for u in removed
                        if u.side == side and u.contingent is None and (u.removed or "").startswith("fled")
                    ),  # its own units: never an allied contingent's (R3-13)
                    officer_removed=side in battle.officer_removed,
                    glory_before=career.glory if career else 0,
                )
            )
        result = "draw" if winner is None else f"won by {winner}"
        ended = Decision(
            "battle_end",
            "§1.8",
            None,
            {"winner": winner, "objectives": dict(held), "markers_cleared": s.tables.markers.cleared_after_battle},
            {"result": result, **counted},
            f"{battle.name} ends: {result}; {dis.markers_after_battle(s.tables)}",
            (BattleEnded(battle_id=battle.battle_id, result=result, winner=winner),),
        )
        return ruled(battle, [*decisions, ended])


COMMANDS: tuple[type[Command[CampaignState, Tables]], ...] = (
    Muster,
    Appoint,
    Transfer,
    Disband,
    HouseRule,
    Edit,
    StartBattle,
    NextTurn,
    Hit,
    CheckMorale,
    AddMarker,
    Rally,
    Retreat,
    Remove,
    OfficerDown,
    EndBattle,
)
