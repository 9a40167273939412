"""What every ruleset's commands share: finding a unit, checking a new one or a transfer, a house rule, and
the one command that belongs to no ruleset (a plain roll of the campaign's dice)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol, TypeVar

from pydantic import BaseModel, Field, ValidationError

from campaign.rulesets.command import Command, Situation
from campaign.rulesets.decision import problems
from campaign.rulesets.tables import RuleTables, Value, check_override
from events.dice import parse
from events.errors import InvalidInputError
from events.families.rules import TableOverridden
from events.registry import Event

M = TypeVar("M", bound=BaseModel)
S = TypeVar("S")
T = TypeVar("T", bound=RuleTables)

NAME_MAX = 100


class RosterUnit(Protocol):
    @property
    def unit_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def disbanded(self) -> str | None: ...


U_co = TypeVar("U_co", bound=RosterUnit, covariant=True)
U = TypeVar("U", bound=RosterUnit)


class Roster(Protocol[U_co]):
    @property
    def roster(self) -> Mapping[str, U_co]: ...
    def unit_by_name(self, name: str) -> U_co | None: ...


def find_unit(state: Roster[U], name: str, *, active: bool = True) -> U:
    """The roster unit of that name (or id); with ``active``, a disbanded one is refused."""
    found = state.unit_by_name(name)
    if found is None:
        known = ", ".join(sorted(u.name for u in state.roster.values())) or "none yet"
        raise InvalidInputError(f"unknown unit {name!r} (units: {known})")
    if active and found.disbanded:
        raise InvalidInputError(f"{found.name} was disbanded ({found.disbanded})")
    return found


def check_transfer(giver: RosterUnit, receiver: RosterUnit, men: int, available: int, what: str) -> None:
    """What every ruleset asks of a transfer of ``men`` from ``giver`` (``available`` of ``what``)."""
    if men <= 0:
        raise InvalidInputError("transfer at least one man")
    if giver.unit_id == receiver.unit_id:
        raise InvalidInputError("a unit cannot transfer men to itself")
    if giver.side != receiver.side:
        raise InvalidInputError(f"{giver.name} fights for {giver.side} and {receiver.name} for {receiver.side}")
    if men > available:
        raise InvalidInputError(f"{giver.name} has {available} {what}; it cannot transfer {men}")


def new_unit(state: Roster[Any], name: str, side: str, model: type[M], profile: Mapping[str, Any], what: str) -> M:
    """A unit about to join the roster: a name and a side, a name not taken, and a valid ``what`` profile."""
    if not name.strip() or not side.strip():
        raise InvalidInputError("a unit needs a name and a side")
    if state.unit_by_name(name) is not None:
        raise InvalidInputError(f"a unit named {name!r} is already on the roster")
    try:
        return model.model_validate(profile)
    except ValidationError as exc:
        raise InvalidInputError(f"not a {what} unit profile: {problems(exc, 'profile')}") from None


class HouseRule(Command[S, T]):
    """Replace one table value from now on: an event, so a replay uses the tables in force at each point.
    Each ruleset subclasses it under its own name (``gf.house_rule``) and may check values further."""

    rolls: ClassVar[bool] = False
    ruleset_name: ClassVar[str]

    path: str = Field(min_length=1, max_length=200)
    value: Value
    note: str = Field(default="", max_length=500)

    def check_value(self, tables: T) -> None:
        """A value's check beyond its kind: here, for every ruleset, that a ``….dice`` value is dice."""
        if self.path.endswith(".dice"):
            parse(str(self.value))

    def decide(self, s: Situation[S, T]) -> list[Event]:
        check_override(s.tables.values, self.path, self.value)
        if self.path in s.tables.refused:  # R2-36: no rule reads it
            raise InvalidInputError(s.tables.refused[self.path])
        self.check_value(s.tables)
        return [
            TableOverridden(
                ruleset=self.ruleset_name,
                path=self.path,
                value=self.value,
                source=f"HOUSE RULE by {s.actor}",
                note=self.note,
            )
        ]


class RollDice(Command[None, None]):
    """A roll of the campaign's dice for anything the rules do not cover (a scatter, a random event)."""

    name: ClassVar[str] = "ledger.roll"

    notation: str = Field(min_length=1, max_length=40)
    purpose: str = Field(max_length=200)

    def decide(self, s: Situation[None, None]) -> list[Event]:
        spec = parse(self.notation)
        if not self.purpose.strip():
            raise InvalidInputError("--purpose must say what the roll is for")
        s.dice.roll(spec, self.purpose.strip())
        return []


COMMON: tuple[type[Command[Any, Any]], ...] = (RollDice,)
"""The commands of no ruleset, recorded under ``ledger.…``."""
