"""What a command is, what its decision sees, and what a ruleset declares to plug in (DESIGN.md, "Commands").

A command is a typed value: a frozen pydantic model with a stable ``name`` (``"gf.shoot"``) and a
``schema_version``, whose fields are its inputs (:class:`BaseCommand`, what the executor holds). Its
:meth:`Command.decide` is pure: given the campaign's
state, the tables in force and the campaign's dice (a :class:`Situation`), it returns the events it causes,
or refuses with an :class:`~events.errors.InvalidInputError`. The executor (``campaign/executor.py``) is the
only caller: it records the command's inputs ahead of its effects, so any command can be run again later.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import ErrorDetails

from campaign.typed_as import typed
from events.errors import InvalidInputError, Words
from events.limits import check_inputs
from events.recorded import JsonValue
from events.registry import Event

if TYPE_CHECKING:
    from campaign.rulesets import RulesetInfo
    from campaign.rulesets.tables import Override, RuleTables, Sourced
    from events.dice import Dice
    from projections.fold import RulesetFold

S = TypeVar("S")
T = TypeVar("T")
Out = TypeVar("Out", bound=Mapping[str, object])
"""A recorded rule outcome, of whatever shape its reader keeps it in."""


class Overridden(Protocol):
    """A campaign's state as a ruleset's fold leaves it: whatever else it holds, the house rules in effect."""

    @property
    def overrides(self) -> Sequence[Override]: ...


CS = TypeVar("CS", bound=Overridden)
"""A ruleset's campaign state."""
TT = TypeVar("TT", bound="RuleTables")
"""A ruleset's tables."""


@dataclass(frozen=True)
class Situation(Generic[S, T]):
    """All a decision may read: the campaign as it stands, the tables in force, its dice, fresh ids for the
    units and battles it creates (recorded, so a re-run gets the same ones) and who entered the command."""

    state: S
    tables: T
    dice: Dice
    new_id: Callable[[], str]
    actor: str


class Phase(StrEnum):
    """When in a campaign a command may be entered, as its rules say: the page offers it only then (the decision
    still refuses it in words at any other time: the declaration is what interfaces read, not the check)."""

    ANY = "any"
    BATTLE = "battle"
    """Only while a battle is being fought (a shot, a melee, a turn, the battle's end)."""
    BETWEEN = "between"
    """Only while none is (a battle's start; what the rules keep for between battles, e.g. days passing)."""


class EnteredBy(StrEnum):
    """Who may enter a command, declared once on its model (``BaseCommand.entered_by``): the server's
    authorisation, the page's forms and the API's list of commands read it (:func:`for_players`)."""

    SIDES = "sides"
    """A player, for the sides it plays, where its inputs name the acting side's units or sides (``OwnUnit``,
    ``OwnSide``, ``TargetUnit``: ``campaign/rulesets/inputs.py``), and the game master; one that names none is
    the game master's anyway."""
    GM = "gm"
    """The game master alone, whatever it names: a correction of the record or a ruling, which no player makes
    for its own side."""


def for_players(model: type[BaseCommand]) -> bool:
    """Whether a player may enter a command of type ``model`` (for its own sides: the names it holds are checked
    when it is sent): it is not declared the game master's, and it names a unit or side that acts or is acted on."""
    from campaign.rulesets.inputs import acts  # the meanings read from models: not at start-up

    return model.entered_by is EnteredBy.SIDES and acts(model)


class BaseCommand(BaseModel):
    """A command of any ruleset, as the executor, the log and the interfaces hold it: its name, version and inputs.

    Not generic: what a command of a ruleset decides on (its state and tables) is the ruleset's own, and only its
    :class:`Ruleset` pairs it with them (:meth:`Ruleset.decide`), so code that runs any command never names them."""

    # Built when first validated, not at import: a command line runs one command of the ruleset's thirty.
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, defer_build=True)

    name: ClassVar[str]
    """Stable across versions of the program: it is written into the log."""
    schema_version: ClassVar[int] = 1
    """Raised when the fields change shape; an upcaster reads the older inputs (campaign/commands.py)."""
    rolls: ClassVar[bool] = True
    """Whether it may roll the campaign's dice (and so take ``--dice``)."""
    rolls_with: ClassVar[str | None] = None
    """The flag input without which it rolls nothing (a battle's start rolls only its special objectives): a form
    offers no dice until it is given (None: it may roll whatever its inputs)."""
    phase: ClassVar[Phase] = Phase.ANY
    """When it may be entered: at any time, during a battle only, or between battles only."""
    entered_by: ClassVar[EnteredBy] = EnteredBy.SIDES
    """Who may enter it (:class:`EnteredBy`): by default a player for its own sides, as its inputs' types say."""
    listed: ClassVar[bool] = True
    """Offered to people (the command line's list, the page's forms). False for one a ruleset keeps only so that
    every ruleset's roster has it, which its rules refuse whatever it is given (Grimdark's ``transfer``)."""
    records_since: ClassVar[Mapping[str, int]] = MappingProxyType({})
    """Rule applications it records from a version on (rule → ``schema_version``): a command recorded by an
    older version did not record them, so re-evaluating it does not count their absence as drift."""

    @classmethod
    def build(cls, **fields: object) -> Self:
        """The command from inputs given by a person or a script; a value out of bounds is refused in the
        program's words (an :class:`~events.errors.InvalidInputError`), never as a pydantic error. Every input
        is held to the input rules (``events/limits.py``): the names by their types (``inputs.py``: every name,
        in a list or a record too), the rest as text, numbers within bounds and JSON."""
        from campaign.rulesets.inputs import said_problems, typed_names, worded

        try:
            checked = check_inputs(fields, typed_names(cls))
            return cls(**checked)
        except InvalidInputError as exc:  # an input rule, or a profile that is not one (its type says so)
            # said in the reader's language where the input rule's words are (exc.words)
            raise InvalidInputError.saying(
                "{command}: {problem}", command=typed(cls.name, fields), problem=exc.words or str(exc)
            ) from None
        except ValidationError as exc:
            from campaign.i18n.terms import reread, sets_of  # the seed's words: only when refused

            again = reread(cls, checked, exc.errors())
            if again is not None:  # "Новобранцы" for green: the command holds (and the log records) "green"
                return cls.build(**again)

            # each input by its name in words ("enemy within", as --enemy-within is typed), and what a list or a
            # record holds by what it is ("unit"), not "units.0"
            # a closed set's values listed as its terms (the seed's words), which are read back as typed
            said: list[ErrorDetails] = [{**e, "loc": (worded(cls, tuple(e["loc"])),)} for e in exc.errors()]
            problem = said_problems(said, Words("inputs"), sets_of(cls))
            raise InvalidInputError.saying(
                "{command}: {problem}", command=typed(cls.name, fields), problem=problem
            ) from None

    @classmethod
    def recorded_by(cls, version: int, outcomes: Sequence[Out]) -> list[Out]:
        """``outcomes`` of this command as its ``version`` would have recorded them."""
        return [o for o in outcomes if cls.records_since.get(str(o.get("rule")), 0) <= version]

    def keywords(self, *naming: str) -> dict[str, Any]:
        """The inputs its rule takes by keyword, under the fields' names: all but the fields ``naming`` the units
        (looked up, and passed to the rule, by the command itself)."""
        return {k: v for k, v in self if k not in naming}

    def inputs(self) -> dict[str, JsonValue]:
        """The inputs as recorded in the log: the model's JSON (by the fields' recorded names), defaults included."""
        dumped: dict[str, JsonValue] = self.model_dump(mode="json", by_alias=True)
        return dumped


class Command(BaseCommand, Generic[S, T]):
    """A command's inputs, and the pure decision they lead to on its ruleset's state ``S`` and tables ``T``."""

    def decide(self, s: Situation[S, T]) -> Sequence[Event]:
        raise NotImplementedError(f"{type(self).__name__} does not decide")


Upcaster = Callable[[dict[str, object]], dict[str, object]]
"""Recorded inputs of one version → the next version's (pure, like the event upcasters)."""


def help_of(model: type[BaseCommand]) -> str:
    """A command's help: the first paragraph of its docstring (the rest is for those who read its code), as the
    command line's help and the page's form both say it."""
    import inspect

    doc = inspect.getdoc(model) or ""
    return doc.split("\n\n", 1)[0].strip()


@dataclass(frozen=True)
class Ruleset(Generic[CS, TT]):
    """One ruleset, declared once: its commands, its fold and summary, and its tables' typed view.

    ``upcasters`` maps ``(command name, version)`` to the function reading that version's recorded inputs as
    the next one's; version 0 is the inputs recorded before commands were models (the service methods'
    parameter names).
    """

    info: RulesetInfo
    commands: tuple[type[Command[CS, TT]], ...]
    make_fold: Callable[[Mapping[str, Sourced]], RulesetFold[CS]]
    tables_type: type[TT]
    """The ruleset's tables model (a :class:`~campaign.rulesets.tables.RuleTables`): ``tables_type.of(values)``."""
    upcasters: Mapping[tuple[str, int], Upcaster] = field(default_factory=dict)

    def decide(self, command: BaseCommand, s: Situation[CS, TT]) -> Sequence[Event]:
        """``command``'s decision on this ruleset's ``s``: refused unless it is one of this ruleset's commands."""
        if not isinstance(command, self.commands):
            raise InvalidInputError.saying(
                "{command} is not a command of {ruleset}", command=command.name, ruleset=self.info.name
            )
        return command.decide(s)


Plugin = Ruleset[Overridden, "RuleTables"]
"""A ruleset as found by its name (``campaign.commands.plugin``): of a state and tables its own commands know."""
