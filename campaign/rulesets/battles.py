"""What the commands of the rulesets played turn by turn on a table share (five grades, disorder markers, Grimdark
Future): the battle being fought, a unit still on its table, what waits until it ends, the units a new battle
deploys, the next turn, a unit disbanded, and a distance measured on the table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Annotated, ClassVar, Protocol, TypeVar

from pydantic import AfterValidator, BeforeValidator, Field

from campaign.rulesets.command import Command, Situation
from campaign.rulesets.common import Roster, check_new_battle, find_unit
from campaign.rulesets.inputs import ARGUMENT, Kind, Means, OwnUnit, WordedError
from campaign.rulesets.state import Listed
from events.errors import InvalidInputError, Words
from events.families.battle import BattleStarted, TurnBegan
from events.families.economy import UnitDisbanded
from events.recorded import JsonValue
from events.registry import Event

T = TypeVar("T")


def _as_typed(value: object) -> object:
    """A number given for a distance (an older log's whole inches, a script's JSON number) as it would be typed."""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return str(value)
    return value


FARTHEST = 10_000
"""Inches: farther than any table reaches."""


def _split(text: str) -> tuple[str, str] | None:
    """A distance typed as inches ("6", "6.5") as its whole and decimal digits, or None if it is not one."""
    whole, dot, fraction = text.partition(".")
    if not (whole.isascii() and whole.isdigit()) or (dot and not (fraction.isascii() and fraction.isdigit())):
        return None
    return whole, fraction


def _inches(value: str) -> str:
    typed = value.strip()
    if typed.startswith("-"):
        raise WordedError(Words("cannot be negative"))
    if _split(typed) is None:
        raise WordedError(Words("must be inches as measured (e.g. 6 or 6.5)"))
    if Decimal(typed) > FARTHEST:
        raise WordedError(Words("is more than {limit} inches: farther than any table", limit=FARTHEST))
    return typed


Measured = Annotated[
    str, BeforeValidator(_as_typed), Field(min_length=1, max_length=20), AfterValidator(_inches), Means(Kind.INCHES)
]
"""A distance in inches as measured at the table ("6", "6.5"), kept as typed: the rules read it exactly (no float
reaches the log), to as many decimals as their tables take (RULES.md R3-8)."""

_PLACES = (Words("whole inches (e.g. 3)"), Words("inches, to a tenth at most (e.g. 3 or 1.5)"))


def measured(text: str, what: str | Words, decimals: int, limit: int = FARTHEST) -> Decimal:
    """``text`` as a distance in inches, exactly as measured: at most ``decimals`` places, never rounded (R3-8),
    and at most ``limit``; refused in words, naming ``what`` it is."""
    typed = text.strip()
    parts = _split(typed)
    places = (
        _PLACES[decimals]
        if 0 <= decimals < len(_PLACES)
        else Words("inches, to {decimals} decimal places at most", decimals=decimals)
    )
    if parts is None or len(parts[1]) > decimals:
        raise InvalidInputError.saying("{what} {text!r}: give {places}", what=what, text=text, places=places)
    value = Decimal(typed)
    if value > limit:
        raise InvalidInputError.saying(
            "{what} {text!r}: no such distance is more than {limit} inches", what=what, text=text, limit=limit
        )
    return value


class _Placed(Protocol):
    @property
    def removed(self) -> str | None: ...


P_co = TypeVar("P_co", bound=_Placed, covariant=True)


class _Table(Protocol[P_co]):
    @property
    def battle_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def units(self) -> Mapping[str, P_co]: ...


U_co = TypeVar("U_co", bound=Listed, covariant=True)
B_co = TypeVar("B_co", bound=_Table[_Placed], covariant=True)
U = TypeVar("U", bound=Listed)
B = TypeVar("B", bound=_Table[_Placed])


class Fighting(Roster[U_co], Protocol[U_co, B_co]):
    @property
    def active_battle(self) -> str | None: ...
    @property
    def battles(self) -> Mapping[str, B_co]: ...


class _Turned(_Table[_Placed], Protocol):
    @property
    def turn(self) -> int: ...


Played = Fighting[Listed, _Table[_Placed]]
"""A state of a ruleset played turn by turn on a table, as its shared commands read it."""
F = TypeVar("F", bound=Played)
FT = TypeVar("FT", bound=Fighting[Listed, _Turned])


def being_fought(state: Fighting[Listed, B], prefix: str) -> B:
    """The battle being fought; a clear refusal if there is none (``prefix``: the ruleset's command group)."""
    if state.active_battle is None:
        raise InvalidInputError.saying(
            "no battle is being fought: start one with `campaign {prefix} battle-start`", prefix=prefix
        )
    return state.battles[state.active_battle]


def on_table(state: Fighting[U, B], name: str, prefix: str) -> tuple[B, U]:
    """The battle being fought and the roster unit ``name``, which must still be on its table."""
    battle = being_fought(state, prefix)
    unit = find_unit(state, name)
    if unit.unit_id not in battle.units:
        raise InvalidInputError.saying("{unit} is not in the battle {battle!r}", unit=unit.name, battle=battle.name)
    removed = battle.units[unit.unit_id].removed
    if removed:
        raise InvalidInputError.saying("{unit} is no longer on the table ({removed})", unit=unit.name, removed=removed)
    return battle, unit


def started(
    s: Situation[F, T],
    name: str,
    sides: tuple[str, ...],
    settings: dict[str, dict[str, JsonValue]],
    scenario: str = "",
) -> BattleStarted:
    """A new battle, under a name no battle of the campaign had, with a fresh id."""
    check_new_battle(name, [b.name for b in s.state.battles.values()])
    return BattleStarted(battle_id=s.new_id(), name=name, scenario=scenario, sides=sides, settings=settings)


def between_battles(state: Played, unit: Listed, why: str | Words) -> None:
    """Refuse what only happens between battles (``why``) to a unit in the battle being fought."""
    if state.active_battle is not None and unit.unit_id in state.battles[state.active_battle].units:
        raise InvalidInputError.saying("{unit} is in the battle being fought: {why}", unit=unit.name, why=why)


def deploying(
    state: Fighting[U, _Table[_Placed]], battle_name: str, names: Iterable[str]
) -> tuple[list[U], tuple[str, ...]]:
    """The units a new battle deploys, each once, and its sides (two at least, in the order they come); refused
    while another battle is being fought."""
    if state.active_battle is not None:
        raise InvalidInputError.saying(
            "the battle {battle!r} is still being fought", battle=state.battles[state.active_battle].name
        )
    if not battle_name.strip():
        raise InvalidInputError.saying("a battle needs a name")
    deployed: list[U] = []
    for unit_name in names:
        unit = find_unit(state, unit_name)
        if unit in deployed:
            raise InvalidInputError.saying("{unit} is deployed twice", unit=unit.name)
        deployed.append(unit)
    sides = tuple(dict.fromkeys(u.side for u in deployed))
    if len(sides) < 2:
        raise InvalidInputError.saying("a battle needs units of two sides at least")
    return deployed, sides


class DisbandUnit(Command[F, T]):
    """Disband a unit between battles: it is paid no more and fights no more.

    Its record stays. Each ruleset subclasses it under its own name (``dis.disband``)."""

    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]
    reason: str = Field(default="disbanded", min_length=1, max_length=200)

    def decide(self, s: Situation[F, T]) -> list[Event]:
        unit = find_unit(s.state, self.unit_name)
        between_battles(s.state, unit, Words("end the battle first"))
        return [UnitDisbanded(unit_id=unit.unit_id, reason=self.reason or "disbanded")]


class NextTurn(Command[FT, T]):
    """Begin the next turn.

    Each ruleset whose battles count turns subclasses it under its own name (``dis.turn``)."""

    rolls: ClassVar[bool] = False
    ruleset_prefix: ClassVar[str]

    def decide(self, s: Situation[FT, T]) -> list[Event]:
        battle = being_fought(s.state, self.ruleset_prefix)
        return [TurnBegan(battle_id=battle.battle_id, turn=battle.turn + 1)]
