"""What the rulesets' folds share: a fold that reads the tables in force at each event, and the rows every
ruleset's summary gives the views (its units, its battles), each ruleset adding its own columns, made again
after an append only where what they read changed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Protocol, TypeVar

from pydantic import TypeAdapter

from campaign.rulesets.state import Listed, Numbered
from campaign.rulesets.tables import Override, Sourced, tables_in_force_cache
from events.envelope import RecordedEvent
from events.recorded import whole
from projections.fold import RowValue, RulesetFold, Summary

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

Row = dict[str, RowValue]
"""A row of a summary as a ruleset makes it (:data:`~projections.fold.SummaryRow`)."""

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
K = TypeVar("K")
"""What a ruleset's summary was made from, handed to the next state's (opaque to the projections)."""


def fold_in_force(
    ruleset: str,
    initial: type[S],
    base: Mapping[str, Sourced],
    typed: Callable[[dict[str, Sourced]], T],
    apply: Callable[[S, RecordedEvent, T], S],
    summarize: Callable[[S, T, K | None], tuple[Summary, K]],
) -> RulesetFold[S]:
    """A ruleset's fold whose ``apply`` and ``summarize`` read its tables as in force: ``base`` as shipped, under
    the campaign's house rules so far (they arrive as events)."""
    tables = tables_in_force_cache(base, typed)

    def step(state: S, event: RecordedEvent) -> S:
        return apply(state, event, tables(state.overrides)) if _reads(event.type) else state

    return RulesetFold(
        ruleset,
        initial,
        step,
        TypeAdapter(initial),
        lambda state, before: summarize(state, tables(state.overrides), before),
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


X = TypeVar("X")


@dataclass(frozen=True)
class Kept:
    """Rows made from one mapping of a state (its roster, its battles…), kept to make the next state's from.

    A state is an immutable value: an event that changes a unit replaces that unit and the roster holding it,
    and leaves every other unit the very same object. So a row is still right when its item and every other
    input it reads (``shared``: the tables in force, the day…) are the very objects it was made from.
    """

    items: Mapping[str, object]
    shared: tuple[object, ...]
    made: dict[str, tuple[object, Row | None]]
    """Each item's key → the item and its row (None: the item has no row)."""
    rows: list[Row]


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def kept_rows(
    items: Mapping[str, X],
    row: Callable[[X], Row | None],
    order: Callable[[Row], SupportsRichComparison],
    before: Kept | None,
    shared: tuple[object, ...] = (),
) -> Kept:
    """The rows of ``items`` (``row`` of each, None for one that has none), sorted by ``order`` (stable, in the
    mapping's order): ``before``'s where an item and ``shared`` are the objects its row was made from.

    ``row`` must read nothing but its item and what ``shared`` holds: whatever else it read could change
    while they stay the same (the contract tests compare with rows made afresh after every command)."""
    if before is not None and before.items is items and _same(before.shared, shared):
        return before
    earlier = before.made if before is not None and _same(before.shared, shared) else {}
    made: dict[str, tuple[object, Row | None]] = {}
    for key, item in items.items():
        was = earlier.get(key)
        made[key] = was if was is not None and was[0] is item else (item, row(item))
    rows = sorted((r for _, r in made.values() if r is not None), key=order)
    return Kept(items, shared, made, rows)


def _unit_order(row: Row) -> tuple[RowValue, RowValue]:
    return row["side"], row["name"]


def _battle_order(row: Row) -> int:
    return whole(row["number"])


def unit_rows(
    roster: Mapping[str, U], columns: Callable[[U], Row], before: Kept | None, shared: tuple[object, ...] = ()
) -> Kept:
    """The units view, by side then name: each unit's id, name and side, its ruleset's ``columns`` (reading the
    unit and ``shared`` only), and whether it was disbanded; made again only for the units that changed."""

    def row(u: U) -> Row:
        return {"unit_id": u.unit_id, "name": u.name, "side": u.side, **columns(u), "disbanded": u.disbanded}

    return kept_rows(roster, row, _unit_order, before, shared)


def battle_rows(battles: Mapping[str, B], columns: Callable[[B], Row], before: Kept | None) -> Kept:
    """The battles view, in the order fought: each battle's id, number and name, then its ruleset's ``columns``
    (reading the battle only); made again only for the battles that changed."""

    def row(b: B) -> Row:
        return {"battle_id": b.battle_id, "number": b.number, "name": b.name, **columns(b)}

    return kept_rows(battles, row, _battle_order, before)


@dataclass(frozen=True)
class KeptSummary:
    """What a ruleset's summary was made from (see :class:`Kept`), for the next state's."""

    units: Kept | None = None
    battles: Kept | None = None
    careers: Kept | None = None
