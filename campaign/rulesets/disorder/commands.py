"""The disorder-marker ruleset's roster commands (seed 001): units, officers, transfers and house rules, and what
its battle commands share (``battle_commands.py``).

Between battles the roster, the officers and their Glory carry on; markers end with the battle.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Annotated, ClassVar

from pydantic import BaseModel, Field

from campaign.rulesets.battles import DisbandUnit, being_fought, on_table
from campaign.rulesets.command import Command, Phase, Situation
from campaign.rulesets.common import (
    EditUnit,
    MusterUnit,
    TransferMen,
    check_not_confusable,
    check_transfer,
    find_unit,
    new_unit,
    same_name,
)
from campaign.rulesets.common import HouseRule as BaseHouseRule
from campaign.rulesets.decision import Decision, decision_events
from campaign.rulesets.disorder import RULESET
from campaign.rulesets.disorder import rules as dis
from campaign.rulesets.disorder.profile import UnitProfile
from campaign.rulesets.disorder.state import BattleState, CampaignState
from campaign.rulesets.disorder.tables import Tables
from campaign.rulesets.inputs import ARGUMENT, OfficerName, OwnSide, ProfileOf, SideName
from events.errors import InvalidInputError, Words
from events.families.career import OfficerAppointed
from events.families.roster import MenTransferred
from events.recorded import JsonValue
from events.registry import Event

At = Situation[CampaignState, Tables]


class DisCommand(Command[CampaignState, Tables]):
    """A disorder-marker command."""


def current_battle(state: CampaignState) -> BattleState:
    """The battle being fought; a clear refusal if there is none."""
    return being_fought(state, RULESET.prefix)


def in_play(battle: BattleState) -> BattleState:
    """``battle``, refused once its last turn is over (R3-10: the turn in which a force fled is the last)."""
    if battle.last_turn is not None and battle.turn > battle.last_turn:
        raise InvalidInputError.saying(
            "the battle ended with turn {turn} ({sides} fled): record `campaign dis battle-end`",
            turn=battle.last_turn,
            sides=fled(battle),
        )
    return battle


def fled(battle: BattleState) -> Words | str:
    """The forces that fled, joined as the reader's language joins names ("French and Austrians")."""
    names: Words | str = ""
    for i, side in enumerate(side for side, status in battle.force.items() if status == "flees"):
        names = side if i == 0 else Words("{some} and {last}", some=names, last=side)
    return names


def fighting(s: At, name: str) -> tuple[BattleState, dis.Unit]:
    """The battle being fought, and a unit still on its table as the rules read it."""
    battle, unit = on_table(s.state, name, RULESET.prefix)
    return in_play(battle), s.state.in_battle(battle, unit.unit_id, s.tables)


def is_force(s: At, force_name: str, side: str) -> bool:
    """R3-13: a side's force is one; an allied contingent only with an officer of its own
    (``allies.own_officer_makes_force``); one without takes none of a force's rules."""
    if force_name == side:
        return True
    return s.tables.allies.own_officer_makes_force and force_name in s.state.officers


def force(
    s: At, battle: BattleState, unit: dis.Unit, *, gone: bool, status: str | None = None, folded: str | None = None
) -> Decision | None:
    """The morale of ``unit``'s force (§1.3) once this command's ``unit`` (as it is after it; ``gone`` if
    removed) counts; ``status`` the force's status if this command changed it already, ``folded`` a unit whose
    check already counts force at half (R2-7). An allied contingent is not in its side's force (R3-13)."""
    tables, name = s.tables, unit.force
    if not is_force(s, name, unit.side):
        return None
    units = [unit if uid == unit.unit_id else s.state.in_battle(battle, uid, tables) for uid in battle.order]
    gone_ids = {uid for uid, u in battle.units.items() if u.removed}
    if gone or unit.models == 0:
        gone_ids.add(unit.unit_id)
    mine = [u for u in units if u.force == name]
    return dis.force_morale(
        tables,
        battle.battle_id,
        name,
        start_points=battle.start_points(name),
        lost_points=sum(dis.points_lost(tables, u, u.unit_id in gone_ids) for u in mine),
        status=status or battle.force.get(name),
        remaining=[u for u in mine if u.unit_id not in gone_ids],
        folded=folded,
    )


def causes_checked(
    s: At, battle: BattleState, unit: dis.Unit, causes: Sequence[str], force_now: str | None = None
) -> None:
    """R2-7 (4): the causes a check cites have happened (``force_now``: the force's status if this command
    changed it), and a once-per-game cause is not used again; each for ``unit``'s own force (R3-13)."""
    force_name = unit.force if is_force(s, unit.force, unit.side) else None
    happened = ["force_half"] * bool(force_name and (force_now or battle.force.get(force_name)))
    happened += ["officer_removed"] * (force_name in battle.officer_removed)
    used = battle.units[unit.unit_id].checked_for
    dis.causes_that_happened(s.tables, unit, causes, happened=happened, used=used)


def friend_checked(
    s: At, battle: BattleState, unit: dis.Unit, causes: Sequence[str], friend_at: str | None
) -> tuple[str | None, Decimal | None]:
    """R3-9: the friendly unit whose removal the check is for (None when it cites no friend_removed), and the
    distance the players measured to it (R3-8)."""
    at = None if friend_at is None else dis.distance(s.tables, friend_at, Words("the removed friend's distance"))
    if "friend_removed" not in causes:
        if at is not None:
            raise InvalidInputError.saying("a distance to a removed friend goes with the cause friend_removed")
        return None, None
    names = {uid: u.name for uid, u in s.state.roster.items()}
    removal = dis.friend_removal(
        s.tables,
        unit,
        turn=battle.turn,
        removals=battle.removed_units(names),
        checked=battle.units[unit.unit_id].checked_removals,
        friend_at=at,
    )
    return removal, at


def with_force(s: At, battle: BattleState, decisions: Sequence[Decision], unit: dis.Unit) -> list[Decision]:
    """The decisions, and the force's morale after them when ``unit`` has left the table."""
    counted = force(s, battle, unit, gone=True)
    return [*decisions, counted] if counted else list(decisions)


def ruled(battle: BattleState, decisions: Sequence[Decision]) -> list[Event]:
    """Decisions on the battle being fought, each as a ``rules.applied`` record followed by its facts."""
    return decision_events(decisions, battle.battle_id, RULESET)


# -- roster and officers ------------------------------------------------------------------------------


class Muster(MusterUnit[CampaignState, Tables]):
    """Add a unit to the roster.

    Its models, troop type (→ Discipline) and points."""

    name: ClassVar[str] = "dis.muster"

    side: Annotated[OwnSide, Field(description="The side (force) it fights for.")]
    profile: Annotated[dict[str, JsonValue], ProfileOf(UnitProfile, "disorder-marker")]

    def decide(self, s: At) -> list[Event]:
        checked = new_unit(s.state, self.unit_name, self.side, UnitProfile, self.profile, "disorder-marker")
        s.tables.discipline_of(checked.troops)
        side = self.side_in(s.state)
        contingents = {u.profile.contingent for u in s.state.roster.values()} - {None}
        if side in contingents:  # R3-13: a contingent fights on a side; it is not one
            raise InvalidInputError.saying(
                "{side} is an allied contingent: muster its units on the side it fights for", side=side
            )
        if checked.contingent is not None:
            sides = {u.side for u in s.state.roster.values()} | {side}
            taken = next((known for known in sides if same_name(known, checked.contingent)), None)
            if taken is not None:
                raise InvalidInputError.saying(
                    "{taken} is a side: an allied contingent has a name of its own (it fights on the side {side})",
                    taken=taken,
                    side=side,
                )
        return [self.mustered(s, checked)]


class Appoint(DisCommand):
    """Appoint the officer commanding a side's force; his Glory and rank follow him.

    From battle to battle."""

    name: ClassVar[str] = "dis.officer"
    phase: ClassVar[Phase] = Phase.BETWEEN
    rolls: ClassVar[bool] = False

    side: Annotated[SideName, ARGUMENT]
    officer: Annotated[OfficerName, ARGUMENT]

    def decide(self, s: At) -> list[Event]:
        state, tables = s.state, s.tables
        if not self.side.strip() or not self.officer.strip():
            raise InvalidInputError.saying("an officer needs a name and a side")
        if state.active_battle is not None:
            raise InvalidInputError.saying("officers take command between battles: end the battle first")
        known = state.careers.get(self.officer)
        if known is None:
            check_not_confusable(self.officer, state.careers, "officer")
        if known is not None and known.side != self.side and state.officers.get(known.side) == self.officer:
            raise InvalidInputError.saying(
                "{officer} commands {side}: appoint another officer there first", officer=self.officer, side=known.side
            )
        rank = tables.rank(known.glory if known else 0)
        return [OfficerAppointed(side=self.side, officer=self.officer, rank=rank)]


class Transfer(TransferMen[CampaignState, Tables]):
    """Models move to another unit of the same side between battles."""

    name: ClassVar[str] = "dis.transfer"
    phase: ClassVar[Phase] = Phase.BETWEEN

    men: int = Field(ge=1, le=1000, description="How many men move.")

    def decide(self, s: At) -> list[Event]:
        state = s.state
        if state.active_battle is not None:
            raise InvalidInputError.saying("models move between units between battles: end the battle first")
        giver, receiver = find_unit(state, self.from_unit), find_unit(state, self.to_unit)
        check_transfer(giver, receiver, self.men, giver.profile.models - 1, "models to spare (one stays)")
        return [MenTransferred(from_unit_id=giver.unit_id, to_unit_id=receiver.unit_id, men=self.men, experience=0)]


class Disband(DisbandUnit[CampaignState, Tables]):
    name: ClassVar[str] = "dis.disband"


class HouseRule(BaseHouseRule[CampaignState, Tables]):
    name: ClassVar[str] = "dis.house_rule"
    ruleset_name: ClassVar[str] = RULESET.name

    path: Annotated[str, ARGUMENT] = Field(
        min_length=1, max_length=200, description="Table path, as the tables name it, e.g. force.flees_at_exactly."
    )


class Edit(EditUnit[CampaignState, Tables]):
    name: ClassVar[str] = "dis.edit"
    profile_model: ClassVar[type[BaseModel] | None] = UnitProfile

    def check(self, tables: Tables, profile: UnitProfile) -> None:
        tables.discipline_of(profile.troops)  # as a muster: troops the tables know
