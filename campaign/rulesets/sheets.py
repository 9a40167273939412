"""The battle sheet: each unit in the battle being fought, as its ruleset's battle state holds it.

The summary's battle rows say the battle (its turn or round, its result); what a table reads during a battle is
each unit's own state there: its men or models left, its grade, Shaken or markers, its fatigue, whether it has
activated this turn. That lives in the ruleset's battle state, not in the summary: :func:`battle_sheet` reads it
(the state at the head, as the roster's summary is made from) and gives one card per unit, in the order the
units were deployed, each with its name, its side and its state as items (label, value, and the term set the
value is a word of, for :func:`campaign.i18n.terms.shown`), flags, and what the unit may or must do now by its
ruleset's rules in that state (its activation, grade, Shaken, markers, fate). Each ruleset's plug-in names its
builder (``RulesetInfo.sheet``, in its folder's ``shown``): a ruleset without one has no sheet. Labels and
sentences are marked for translation there and said in the reader's language where they are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

from campaign.plugins import RULESETS, load
from campaign.rulesets.state import Named

if TYPE_CHECKING:
    from projections.fold import Summary, SummaryRow


@dataclass(frozen=True)
class Item:
    label: str
    value: str
    term: str | None = None
    """The ruleset's term set ``value`` is a word of (``grade``), or None: shown as it is."""


@dataclass(frozen=True)
class Card:
    unit_id: str
    name: str
    side: str
    items: tuple[Item, ...]
    flags: tuple[str, ...] = ()
    removed: str | None = None
    """Why it left the table (as recorded: a word of the ruleset's ``casualty`` terms where it has them), or None
    while it is on it."""
    notes: tuple[str, ...] = field(default=())
    now: tuple[str, ...] = ()
    """What the unit may (or must) do now, by its ruleset's rules in its state: sentences marked for
    translation, said in the reader's language where the card is shown; none once it has left the table."""


def left(now: int, start: int) -> str:
    """What is left of what there was: "3/5"."""
    return f"{now}/{start}"


class _Deployed(Protocol):
    """A battle on the table as a sheet walks it: its sides, its units and the order they were deployed in."""

    @property
    def sides(self) -> Sequence[str]: ...
    @property
    def units(self) -> Mapping[str, object]: ...
    @property
    def order(self) -> Sequence[str]: ...


B_co = TypeVar("B_co", covariant=True)
X = TypeVar("X")
B = TypeVar("B", bound=_Deployed)
S = TypeVar("S", bound="_Fought[_Deployed]")


class _Fought(Protocol[B_co]):
    """A ruleset's campaign state as its sheet reads it: its roster and its battles."""

    @property
    def roster(self) -> Mapping[str, Named]: ...
    @property
    def battles(self) -> Mapping[str, B_co]: ...


def deployed(battle: _Deployed) -> list[str]:
    """The battle's units in the order they were deployed (then any the order does not name)."""
    order = [uid for uid in battle.order if uid in battle.units]
    return order + [uid for uid in battle.units if uid not in order]


def name_of(state: _Fought[object], unit_id: str) -> str:
    unit = state.roster.get(unit_id)
    return str(unit.name) if unit is not None else unit_id


def fought(state: _Fought[X], battle: str = "active_battle") -> X | None:
    """The battle being fought (the one the state's field ``battle`` names), or None between battles."""
    found: str | None = getattr(state, battle)
    return state.battles.get(found) if found is not None else None


def deployed_cards(state: S, battle: B | None, card: Callable[[S, B, str], Card]) -> list[Card]:
    """A card (``card(state, battle, unit id)``) for each unit of ``battle``, the one being fought (``fought``
    of the state), by side and then in the order they were deployed; none between battles."""
    if battle is None:
        return []
    return in_side_order([card(state, battle, uid) for uid in deployed(battle)], battle.sides)


def in_side_order(cards: list[Card], sides: Sequence[str]) -> list[Card]:
    """By side (in the battle's order of its sides), then as built."""
    order = {side: i for i, side in enumerate(sides)}
    return sorted(cards, key=lambda c: order.get(c.side, len(order)))


Sheet = Callable[[object, Mapping[str, "SummaryRow"]], list[Card]]
"""A ruleset's battle sheet (its plug-in's ``sheet``): its state and the summary's unit rows by id → a card for
each unit in the battle being fought (none if no battle is)."""


def battle_sheet(ruleset: str, state: object, summary: Summary) -> list[Card]:
    """Each unit in the battle being fought (none if no battle is), by side then as deployed, as the ruleset's
    plug-in declares its sheet (none if it declares none); ``summary`` the summary of ``state``, for what its unit
    rows work out (a five-grade unit's fatigue, a Mass Combat Morale)."""
    info = RULESETS.get(ruleset)
    if info is None or info.sheet is None:
        return []
    sheet: Sheet = load(info.sheet)
    return sheet(state, {str(u["unit_id"]): u for u in summary.units})
