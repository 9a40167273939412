"""What a ruleset's plug-in hands the read side and the file readers through its hooks (``RulesetInfo.charts``,
``roster``, ``sheet``, ``army_list``): the shapes are declared here, below every module that asks for them, so
that a ruleset's folder declares its own chart series, roster columns and list reader without importing the
modules that show them (the layers contract: the rulesets sit under the read side and the interchange)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Sized
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from events.errors import Words
    from events.registry import Event
    from projections.fold import RulesetFold, Summary

S = TypeVar("S")
"""A ruleset's campaign state."""
T = TypeVar("T")
"""A ruleset's tables."""


@dataclass(frozen=True)
class Reading:
    """One value of one series at one moment: a unit's, a side's or an officer's."""

    key: str
    name: str
    side: str | None
    value: int


@dataclass(frozen=True)
class Charted(Generic[S, T]):
    """The campaign as a chart reads it after one command: its state, its fold (for its summary), and its tables
    in force (worked out only for a measure that asks for them)."""

    state: S
    fold: RulesetFold[S]
    """The ruleset's :class:`~projections.fold.RulesetFold`."""
    in_force: Callable[[], T] = field(repr=False)

    @property
    def tables(self) -> T:
        """The ruleset's tables, as the campaign's house rules so far leave them."""
        return self.in_force()

    def summary(self) -> Summary:
        """The summary of the state: the rows of the views."""
        return self.fold.summary(self.state)


@dataclass(frozen=True)
class Measure(Generic[S, T]):
    """One chart of a ruleset (``campaign chart MEASURE``): its title, what its axis counts, its series read from
    the campaign after each command, and for a measure of named levels (grades) the name of value 1, 2, …"""

    title: str
    axis: str
    read: Callable[[Charted[S, T]], list[Reading]]
    levels: Callable[[Charted[S, T]], tuple[str, ...]] | None = None
    named: str | None = None
    """Its own name for the measure on the page's charts, where the program's would mislead (Mass Combat's
    player characters earn Reputation, not Glory); marked for translation."""
    level_term: str | None = None
    """The seed's term set (``terms.toml``) its levels are values of: ``grade``, so they are said in its words."""


@dataclass(frozen=True)
class Lacking:
    """A chart a ruleset does not keep, and why, in words ("the disorder-marker rules keep no treasury")."""

    why: str


Charts = Mapping[str, Measure[S, T] | Lacking]
"""A ruleset's ``charts`` hook (of its state and tables): each measure it keeps (or says why it does not) by the
chart's name."""


@dataclass(frozen=True)
class CsvColumn:
    """A roster view's column as CSV: its header (the muster's name for it, where it is a muster input) and the
    value of a row of the view's data."""

    header: str
    value: Callable[[Mapping[str, object]], object]


def column(header: str, key: str | None = None) -> CsvColumn:
    """A column whose cell is the row's value under ``key`` (``header`` where not given)."""
    read = key or header
    return CsvColumn(header, lambda row: row.get(read))


def columns(*given: str | tuple[str, str] | CsvColumn) -> tuple[CsvColumn, ...]:
    """A roster's columns: each a header whose cell is the row's value under it, a (header, key) pair, or a
    column as it is."""
    return tuple(g if isinstance(g, CsvColumn) else column(g) if isinstance(g, str) else column(*g) for g in given)


def in_battle(header: str, words: Callable[[Mapping[str, object]], str]) -> CsvColumn:
    """A column saying the unit in the battle being fought (its row's ``in_battle``, ``words`` of it), empty for a
    unit not on the table."""

    def cell(row: Mapping[str, object]) -> str:
        battle = row.get("in_battle")
        return words(battle) if isinstance(battle, dict) else ""

    return CsvColumn(header, cell)


P_co = TypeVar("P_co", covariant=True)
U_co = TypeVar("U_co", bound="_Enrolled", covariant=True)
P = TypeVar("P")
U = TypeVar("U", bound="_Enrolled")


class _Enrolled(Protocol):
    @property
    def unit_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def disbanded(self) -> str | None: ...


class _Placed(Protocol[P_co]):
    @property
    def units(self) -> Mapping[str, P_co]: ...


class _Rostered(Protocol[U_co]):
    @property
    def roster(self) -> Mapping[str, U_co]: ...


class _Fielding(Protocol[P_co]):
    @property
    def battles(self) -> Mapping[str, _Placed[P_co]]: ...
    @property
    def active_battle(self) -> str | None: ...


class _Counted(Protocol):
    @property
    def models(self) -> int: ...


class _CountedUnit(_Enrolled, Protocol):
    @property
    def profile(self) -> _Counted: ...


class _Counting(_Rostered[_CountedUnit], _Fielding[_Counted], Protocol):
    """A state of a ruleset counting models: on its roster's profiles and on the table."""


class _Paying(Protocol):
    @property
    def treasury(self) -> Mapping[str, int]: ...


def active_units(state: _Fielding[P]) -> Mapping[str, P]:
    """The units of the battle being fought, by id (none between battles)."""
    battle = state.battles.get(state.active_battle) if state.active_battle else None
    return battle.units if battle is not None else {}


def roster_in_order(state: _Rostered[U]) -> list[U]:
    """The roster's units by side, then name."""
    return sorted(state.roster.values(), key=lambda u: (u.side, u.name, u.unit_id))


C = TypeVar("C", bound=_Counting)
M = TypeVar("M", bound=_Paying)


def models(seen: Charted[C, T]) -> list[Reading]:
    """Each unit's models: in the battle being fought, else on the roster (the strength of a ruleset counting
    models)."""
    fighting = active_units(seen.state)
    return [
        Reading(u.unit_id, u.name, u.side, fighting[u.unit_id].models if u.unit_id in fighting else u.profile.models)
        for u in roster_in_order(seen.state)
        if u.disbanded is None
    ]


def treasury(seen: Charted[M, T]) -> list[Reading]:
    """Each side's treasury."""
    return [Reading(side, side, side, int(amount)) for side, amount in sorted(seen.state.treasury.items())]


class ListRead(Protocol):
    """An army list read from another program's file: the command importing it, and what reading it leaves out."""

    @property
    def command(self) -> Any: ...

    @property
    def notes(self) -> tuple[Words, ...]:
        """What reading it left out, each said in the reader's language where shown (by :meth:`ArmyLists.in_words`)."""
        ...


class ListPlan(Protocol):
    """What importing a list would do to the campaign as it stands."""

    @property
    def list_name(self) -> str: ...

    @property
    def side(self) -> str: ...

    @property
    def events(self) -> Sequence[Event]: ...

    @property
    def updated(self) -> Sized: ...

    @property
    def changes_units(self) -> bool: ...


class ArmyLists(Protocol):
    """A ruleset's ``army_list`` hook: it imports the army lists another program writes (``import-list``, the
    page's upload), each file read into one of its commands, shown as a plan before it is run."""

    source: str
    """The program whose lists it reads, as a person names it ("Army Forge")."""
    command: str
    """The name of the ruleset's command a list is read into (``gf.import_list``): its ``import-list`` on the
    command line is this reader's, not made from the command's model."""
    help: str
    """``import-list``'s help, laid out as a command's docstring."""

    def read(self, data: bytes, side: str, *, what: str | Words | None = None) -> ListRead:
        """The list in ``data`` as ``side``'s import command; refused in words when it cannot be imported
        (``what`` names the file; None: the reader's own words for a file that came with no name)."""
        ...

    def plan(self, state: Any, tables: Any, command: Any) -> ListPlan:
        """What the command would do to the campaign ``state`` under ``tables``, appending nothing."""
        ...

    def in_words(self, plan: Any, notes: Iterable[Words] = ()) -> list[str]:
        """The plan a line each, for a person: in the reader's language."""
        ...

    def as_json(self, plan: Any, notes: Iterable[Words] = ()) -> dict[str, object]:
        """The plan for ``--json``: in English, whoever reads."""
        ...


__all__ = [
    "ArmyLists",
    "Charted",
    "Charts",
    "CsvColumn",
    "Lacking",
    "ListPlan",
    "ListRead",
    "Measure",
    "Reading",
    "active_units",
    "column",
    "columns",
    "in_battle",
    "models",
    "roster_in_order",
    "treasury",
]
