"""What the rulesets' folds share: a fold that reads the tables in force at each event, and the rows every
ruleset's summary gives the views (its units, its battles), each ruleset adding its own columns."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, Protocol, TypeVar

from pydantic import TypeAdapter

from campaign.rulesets.state import Listed, Numbered
from campaign.rulesets.tables import Override, Sourced, tables_in_force_cache
from events.envelope import RecordedEvent
from projections.fold import RulesetFold, Summary

Row = dict[str, Any]

FOLDED_FAMILIES = frozenset({"battle", "calendar", "career", "economy", "morale", "roster", "rules"})
"""The event families (``battle`` of ``battle.started``) a ruleset's campaign fold reads. Dice, the timeline, the
campaign's creation and memberships change no ruleset's state (the directory and the timeline fold those): a
test folds every other family's events into the demo campaigns' states and finds each state unchanged."""


class _Tabled(Protocol):
    @property
    def overrides(self) -> tuple[Override, ...]: ...


S = TypeVar("S", bound=_Tabled)
T = TypeVar("T")
U = TypeVar("U", bound=Listed)
B = TypeVar("B", bound=Numbered)


def fold_in_force(
    ruleset: str,
    initial: type[S],
    base: Mapping[str, Sourced],
    typed: Callable[[dict[str, Sourced]], T],
    apply: Callable[[S, RecordedEvent, T], S],
    summary: Callable[[S, T], Summary],
) -> RulesetFold[S]:
    """A ruleset's fold whose ``apply`` and ``summary`` read its tables as in force: ``base`` as shipped, under the
    campaign's house rules so far (they arrive as events)."""
    tables = tables_in_force_cache(base, typed)

    def step(state: S, event: RecordedEvent) -> S:
        return apply(state, event, tables(state.overrides)) if _reads(event.type) else state

    return RulesetFold(
        ruleset, initial, step, TypeAdapter(initial), lambda state: summary(state, tables(state.overrides))
    )


def facts_only(apply: Callable[[T, RecordedEvent], T]) -> Callable[[T, RecordedEvent], T]:
    """``apply``, handed only events of the families a ruleset folds (:data:`FOLDED_FAMILIES`): in a long
    campaign most events are rolls and command records, and a ruleset's ``apply`` tested each one against
    every kind of fact it knows before leaving the state as it was."""
    def step(state: T, event: RecordedEvent) -> T:
        return apply(state, event) if _reads(event.type) else state

    return step


@cache
def _reads(kind: str) -> bool:
    """Whether a ruleset's fold reads events of this type (worked out once per type)."""
    return kind.partition(".")[0] in FOLDED_FAMILIES


def unit_rows(roster: Iterable[U], columns: Callable[[U], Row]) -> list[Row]:
    """The units view, by side then name: each unit's id, name and side, its ruleset's ``columns``, and whether
    it was disbanded."""
    rows = [
        {"unit_id": u.unit_id, "name": u.name, "side": u.side, **columns(u), "disbanded": u.disbanded} for u in roster
    ]
    return sorted(rows, key=lambda r: (r["side"], r["name"]))


def battle_rows(battles: Iterable[B], columns: Callable[[B], Row]) -> list[Row]:
    """The battles view, in the order fought: each battle's id, number and name, then its ruleset's ``columns``."""
    return [
        {"battle_id": b.battle_id, "number": b.number, "name": b.name, **columns(b)}
        for b in sorted(battles, key=lambda b: b.number)
    ]
