"""What every ruleset's campaign state shares, and the facts each of their folds applies alike.

A unit on the roster is known by its id, name and side under every ruleset; a unit's profile edited, a unit
disbanded and a house rule are folded the same way whatever the ruleset. Disorder markers and Grimdark Future
also keep a battle on the table alike: its sides, the units deployed in order, and its end.

Pure, as the folds that call it: no clock, no I/O, only the recorded facts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from campaign.rulesets.tables import Override, table_value
from events.recorded import JsonObject, maybe_text, obj, text, texts

if TYPE_CHECKING:
    from dataclasses import Field

    from pydantic import BaseModel


@dataclass(frozen=True)
class Enlisted:
    """A unit on a campaign's roster, as every ruleset knows it (each adds its profile and its record)."""

    unit_id: str
    name: str
    side: str


class Named(Protocol):
    @property
    def name(self) -> str: ...


class Listed(Named, Protocol):
    """A unit on the roster as the commands and views of every ruleset read it: a name to find it by, a side."""

    @property
    def unit_id(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def disbanded(self) -> str | None: ...


class Numbered(Named, Protocol):
    """A battle as every ruleset's views list it: by its id, its number in the campaign and its name."""

    @property
    def battle_id(self) -> str: ...
    @property
    def number(self) -> int: ...


@dataclass(frozen=True)
class OnTable:
    """A battle as the rulesets that play it turn by turn know it: its place in the campaign and its sides."""

    battle_id: str
    name: str
    number: int
    """Its place in the campaign's battles (1, 2, …): a mapping's order does not survive a JSON snapshot."""
    sides: tuple[str, ...]
    order: tuple[str, ...] = ()
    """The units in the order they were deployed (for the same reason)."""
    ended: bool = False
    result: str | None = None
    winner: str | None = None


E = TypeVar("E", bound=Enlisted)
S = TypeVar("S")


def unit_named(roster: Mapping[str, E], name: str) -> E | None:
    """The roster unit whose name or id is exactly ``name``."""
    return next((u for u in roster.values() if name in (u.name, u.unit_id)), None)


def in_order(roster: Mapping[str, E]) -> list[E]:
    """The roster in a fixed order (side, then name): commands that walk it must not depend on how the state
    was loaded, since a folded state and one read back from storage order dicts differently."""
    return sorted(roster.values(), key=lambda u: (u.side, u.name, u.unit_id))


class _Dataclass(Protocol):
    """What ``dataclasses.replace`` takes (typeshed's ``DataclassInstance``, private to it)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]


class _Profiled(_Dataclass, Protocol):
    @property
    def unit_id(self) -> str: ...
    @property
    def profile(self) -> BaseModel: ...


class _Veteran(_Profiled, Protocol):
    @property
    def battles(self) -> int: ...


class _Battle(_Dataclass, Protocol):
    @property
    def units(self) -> Mapping[str, object]: ...


class _Campaign(_Dataclass, Protocol):
    @property
    def roster(self) -> Mapping[str, _Profiled]: ...
    @property
    def overrides(self) -> tuple[Override, ...]: ...


class _Fighting(_Campaign, Protocol):
    @property
    def roster(self) -> Mapping[str, _Veteran]: ...
    @property
    def battles(self) -> Mapping[str, _Battle]: ...
    @property
    def active_battle(self) -> str | None: ...


C = TypeVar("C", bound=_Campaign)
F = TypeVar("F", bound=_Fighting)
B = TypeVar("B", bound=OnTable)


def roster_fact(state: C, kind: str, p: JsonObject, ruleset: str) -> C | None:
    """``state`` after a fact every ruleset folds alike (a unit's profile edited, a unit disbanded, a house rule
    of ``ruleset``); None for any other fact. A fact about a unit no longer on the roster changes nothing."""
    unit = state.roster.get(text(p["unit_id"])) if kind.startswith("roster.unit_") else None
    if kind == "roster.unit_profile_changed" and unit is not None:
        profile = type(unit.profile).model_validate({**unit.profile.model_dump(mode="json"), **obj(p["profile"])})
        return replace(state, roster={**state.roster, unit.unit_id: replace(unit, profile=profile)})
    if kind == "roster.unit_disbanded" and unit is not None:
        return replace(state, roster={**state.roster, unit.unit_id: replace(unit, disbanded=text(p["reason"]))})
    if kind == "rules.table_overridden" and p["ruleset"] == ruleset:
        return replace(
            state, overrides=(*state.overrides, Override(text(p["path"]), table_value(p["value"]), text(p["source"])))
        )
    return None


def battle_started(state: F, p: JsonObject, battle: Callable[[str, str, int, tuple[str, ...]], OnTable]) -> F:
    """A battle begins: the next in the campaign's order, and the one being fought."""
    started = battle(text(p["battle_id"]), text(p["name"]), len(state.battles) + 1, tuple(texts(p["sides"])))
    return replace(state, battles={**state.battles, started.battle_id: started}, active_battle=started.battle_id)


class _Numbered(Protocol):
    @property
    def number(self) -> int: ...


N = TypeVar("N", bound=_Numbered)


def last_started(battles: Mapping[str, N]) -> N | None:
    """The battle begun last (the highest number), or None before the first: a state read back from its stored
    JSON keeps its battles by id, not in the order they began, so a view must not take the mapping's last."""
    return max(battles.values(), key=lambda b: b.number, default=None)


def change_battle(state: F, battle_id: str, change: Callable[[Any], Any]) -> F:
    """``state`` with ``change`` made to the battle ``battle_id`` (none, for a battle it does not know).

    ``change`` takes and gives the ruleset's own battle, untyped: a bound of ``F`` cannot name the type of its
    battles for ``change`` to be typed by (no type variable within a bound)."""
    if battle_id not in state.battles:
        return state
    return replace(state, battles={**state.battles, battle_id: change(state.battles[battle_id])})


def deployed(state: F, p: JsonObject, unit: object) -> F:
    """A unit deployed on the table of battle ``p["battle_id"]``, after those deployed before it."""
    unit_id = text(p["unit_id"])
    return change_battle(
        state, text(p["battle_id"]), lambda b: replace(b, units={**b.units, unit_id: unit}, order=(*b.order, unit_id))
    )


def battle_ended(state: F, p: JsonObject) -> F:
    """A battle ends with its result: one battle more on the record of each unit that fought in it."""
    battle_id = text(p["battle_id"])
    if battle_id not in state.battles:
        return state
    ended = change_battle(
        state,
        battle_id,
        lambda b: replace(b, ended=True, result=maybe_text(p["result"]), winner=maybe_text(p["winner"])),
    )
    roster = dict(ended.roster)
    for unit_id in state.battles[battle_id].units:
        if unit_id in roster:
            roster[unit_id] = replace(roster[unit_id], battles=roster[unit_id].battles + 1)
    active = None if state.active_battle == battle_id else state.active_battle
    return replace(ended, roster=roster, active_battle=active)


@dataclass(frozen=True)
class Calendar:
    """The campaign's day, and each side's own (RULES.md §5's calendar: time passes only by events).

    Days for one side (``fs front 15 --side Keno``) pass on that side's clock; the campaign's day is the latest
    any side has reached, so a side resting while the other fights is the same days, not added to them. Days
    for every side, and a battle for the sides that fight it, bring those clocks to the campaign's day."""

    day: int = 0
    synced: int = 0
    """The day every side's clock stood at when time last passed for all of them."""
    sides: Mapping[str, int] = field(default_factory=dict)
    """The clocks of the sides that went their own way since (a side not here stands at ``synced``)."""

    def passed(self, days: int, side: str | None) -> Calendar:
        if side is None:
            return Calendar(self.day + days, self.day + days, {})
        clock = self.sides.get(side, self.synced) + days
        return Calendar(max(self.day, clock), self.synced, {**self.sides, side: clock})

    def fought(self, sides: tuple[str, ...]) -> Calendar:
        """A battle on the campaign's day: its sides are there on that day."""
        if not self.sides:
            return self
        return Calendar(self.day, self.synced, {**self.sides, **dict.fromkeys(sides, self.day)})
