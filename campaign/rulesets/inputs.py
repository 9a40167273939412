"""What a command's input *is*: annotated types that carry their validation and their meaning, declared once.

A command model (``campaign/rulesets/command.py``) types each input by what it is, not by the Python type it
happens to be: ``unit_name: OwnUnit`` is a name, held to the name rule (trimmed, 1–100 characters, no control or
invisible character: ``events/limits.py``), and it names a unit of the side that acts. Every interface reads the
meaning from the type, never from the field's name — renaming a field changes nothing of what it means:

* the name rules (``Command.build``: which inputs are names, wherever they are — in a list, a mapping, a record);
* the server's authorisation (``campaign/server/runner.py``: which side's player may run a command);
* the command line's arguments and options and their shell completion (``campaign/cli/generated.py``);
* the page's pickers and fieldsets, and the CSV import (they read :func:`meanings`).

The vocabulary
--------------
Names, each a ``str`` held to the name rule (:data:`UnitName`, :data:`OwnUnit`, :data:`TargetUnit`,
:data:`EnemyUnit`, :data:`NewUnit`, :data:`SideName`, :data:`OwnSide`, :data:`OfficerName`, :data:`BattleName`,
:data:`NewBattle`, :data:`Name`); what they name is a :class:`Kind`, and whose it is a :class:`Whose`:

* ``Whose.OWN`` — a unit (or side) of the side that acts: the unit that takes the test, moves, pays; a player
  may name only its own sides' in it.
* ``Whose.TARGET`` — a unit the actor acts on (a psion's target, each unit of a melee): what happens to it is its
  side's, so a player may name another side's unit in it only through the game master (README's role table).
* ``Whose.ENEMY`` — a unit of another side than the unit that acts, named for what it did to it (the shooter a
  shot unit names, the unit credited with its destruction): its activation is spent or a kill credited to it, so it
  is its side's or the game master's to name, never the acting unit's player's; a player's form leaves it out.
* ``Whose.ANY`` — a unit named for reference (the shooter credited with the kill, a unit's superior), or in a
  command that is the game master's anyway (the units a battle starts with).

Other inputs: a closed set is a ``Literal`` (:attr:`Kind.CHOICE`), a number (``int``) or a flag (``bool``) as
pydantic types them, free text (:attr:`Kind.TEXT`), dice faces (:data:`Faces`), a distance measured on the
table (:attr:`Kind.INCHES`: ``campaign.rulesets.battles.Measured``), a unit's profile
(:class:`ProfileOf`: a JSON object checked against the ruleset's profile model, kept as given, so the log records
what was typed), a nested record (a pydantic model: a five-grade deployment), or any JSON value
(:attr:`Kind.VALUE`: a table value, a profile's changes). A list (``tuple[UnitName, ...]``) and a mapping
(``dict[SideName, Motivation]``) keep the meaning of what they hold.

Reading a meaning
-----------------
``meaning_of(Model, "field")`` → :class:`Meaning`; ``meanings(Model)`` → every field's, in order (by the field's
name; ``Meaning.key`` is the name the log records it by, its alias if it has one); ``names_in(command)`` → every
name a command's inputs hold, at any depth, with its meaning (what authorisation reads). A :class:`Meaning` says:

* ``kind`` and ``whose``, and ``new`` (a name the command gives to something it creates: a muster's unit);
* its shape: ``many`` (a list of them), ``keys`` (a mapping: the meaning of its keys; ``kind`` is then the
  meaning of its values), ``model`` (a record's or profile's model: read its fields' meanings with
  :func:`meanings` too);
* ``choices`` (a closed set), ``required``, ``optional`` (None allowed), ``default``, bounds
  (``minimum``/``maximum``/``max_length``), ``description`` (its help text) and ``typed``
  (:class:`Typed`: how a person types it on the command line, when that is not ``--field-name VALUE``).

Nothing here imports the command line, the server or a database: the rulesets declare their commands with it.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Annotated, Literal, TypedDict

from pydantic import AfterValidator, BaseModel, BeforeValidator, GetCoreSchemaHandler, ValidationError
from pydantic_core import CoreSchema, ErrorDetails, PydanticCustomError, PydanticUndefined, core_schema

from campaign.i18n import N_
from campaign.rulesets.kinds import (
    BATTLE,
    CAMPAIGN,
    ENEMY_UNIT,
    NAME,
    NEW_BATTLE,
    NEW_CAMPAIGN,
    NEW_UNIT,
    OFFICER,
    OWN_SIDE,
    OWN_UNIT,
    SIDE,
    TARGET_UNIT,
    UNIT,
    Kind,
    Means,
    Whose,
)
from events.errors import InvalidInputError, Term, Words
from events.limits import name_refusal, normal_name

__all__ = [
    "ARGUMENT",
    "BATTLE",
    "CAMPAIGN",
    "ENEMY_UNIT",
    "NAME",
    "NAME_RULE",
    "NEW_BATTLE",
    "NEW_CAMPAIGN",
    "NEW_UNIT",
    "OFFICER",
    "OWN_SIDE",
    "OWN_UNIT",
    "SIDE",
    "TARGET_UNIT",
    "UNIT",
    "UNTYPED",
    "BattleName",
    "Called",
    "CampaignName",
    "EnemyUnit",
    "Faces",
    "Kind",
    "Meaning",
    "Means",
    "Name",
    "Named",
    "NewBattle",
    "NewCampaign",
    "NewUnit",
    "OfficerName",
    "OwnSide",
    "OwnUnit",
    "ProfileOf",
    "SideName",
    "TargetUnit",
    "Typed",
    "UnitName",
    "Whose",
    "acts",
    "meaning_of",
    "meaning_of_type",
    "meanings",
    "names_in",
    "typed_names",
    "worded",
]


@dataclass(frozen=True, slots=True)
class Typed:
    """How a person types an input on the command line, when it is not ``--field-name VALUE`` (an option named
    after the field, ``_name`` left off: ``officer_name`` is ``--officer``).

    ``argument``: a positional argument (in the order of the fields). ``names``: the option's names, the listed
    one first (``("--leadership", "--lv")``, or ``("--in-sight/--out-of-sight",)`` for a pair of flags);
    ``old``: earlier names still read, unlisted (``--models`` for ``--size``); ``inverse``: a flag that sets the
    input to false (``--free`` for ``pay``); ``form``: what one item looks like, for a refusal
    (``"SIDE=PERCENT"``); ``typed=False``: an input nobody types (a version's reading, a setting the command line
    leaves at its default); ``help``: the option's help, if not the field's description. ``each``: a closed set
    the command line offers as one command per choice (``fs rest``, ``fs march`` …, each ``fs.days`` of that
    activity; ``help`` then is each one's, ``{}`` standing for the choice's words); ``only``: those choices only.
    ``given_only``: a field of a profile left out of it unless typed (a rule reads its absence)."""

    argument: bool = False
    names: tuple[str, ...] = ()
    old: tuple[str, ...] = ()
    inverse: bool = False
    form: str | None = None
    typed: bool = True
    help: str | None = None
    each: bool = False
    only: tuple[str, ...] = ()
    given_only: bool = False


@dataclass(frozen=True, slots=True)
class Called:
    """What a person calls one of an input where its kind's word does not say it: the key and the value of a
    mapping (``dict[Annotated[UnitName, Called("joining unit")], Annotated[UnitName, Called("joins unit")]]``),
    the item of a list. A form labels its rows' fields by it; the command line types the pair as ``Typed.form``."""

    what: str


ARGUMENT = Typed(argument=True)
"""A positional argument on the command line, named after its field."""
UNTYPED = Typed(typed=False)
"""An input the command line does not take (it keeps its default)."""


def _named(value: str) -> str:
    problem = name_refusal(value)
    if problem is not None:  # the words kept in the error's context: said in the reader's language where shown
        raise PydanticCustomError("name", "{problem}", {"problem": problem})
    return normal_name(value)


NAME_RULE = AfterValidator(_named)
"""The name rule (``events/limits.py``) as a validator: the name trimmed, or refused in words."""

UnitName = Annotated[str, NAME_RULE, UNIT]
"""Any unit of the campaign, by its name (or id)."""
OwnUnit = Annotated[str, NAME_RULE, OWN_UNIT]
"""A unit of the side that acts: the one that takes the test, moves, pays or is paid."""
TargetUnit = Annotated[str, NAME_RULE, TARGET_UNIT]
"""A unit the actor acts on: what happens to it is its own side's (or the game master's) to enter."""
EnemyUnit = Annotated[str, NAME_RULE, ENEMY_UNIT]
"""A unit of another side than the acting unit, named for what it did to it (the shooter, who destroyed it): its
activation spent, a kill credited to it, so its side's or the game master's to name, never the acting player's."""
NewUnit = Annotated[str, NAME_RULE, NEW_UNIT]
"""The name of a unit the command adds to the roster."""
SideName = Annotated[str, NAME_RULE, SIDE]
"""A side (an army, a force) of the campaign."""
OwnSide = Annotated[str, NAME_RULE, OWN_SIDE]
"""The side that acts: the one a new unit joins, or that pays."""
OfficerName = Annotated[str, NAME_RULE, OFFICER]
"""An officer, or a player character (a career that carries on between battles)."""
CampaignName = Annotated[str, NAME_RULE, CAMPAIGN]
"""A campaign of the database, by its name or id."""
NewCampaign = Annotated[str, NAME_RULE, NEW_CAMPAIGN]
"""The name of a campaign about to be made (a new one, a branch)."""
BattleName = Annotated[str, NAME_RULE, BATTLE]
"""A battle fought or being fought, by its name, number or id."""
NewBattle = Annotated[str, NAME_RULE, NEW_BATTLE]
"""The name of a battle the command begins."""
Name = Annotated[str, NAME_RULE, NAME]
"""A name of something the campaign does not list (a Morale modifier, a prisoner)."""


Faces = Annotated[str, Means(Kind.FACES)]
"""Faces of physical dice read at the table, as typed ("4,2"), in the order the rules ask for them: read by
``events.dice.parse_table_dice`` where they are taken (a face is then checked against its die: a 7 on a d6 is
refused there). The API's ``dice`` is one; a page finds its dice input by this meaning."""


def seed_word(ruleset: str, set_name: str) -> BeforeValidator:
    """A closed set's value typed as its recorded value or as any of its terms (``terms.toml``: the seed's word,
    in any of the three languages), read as the value, which is what the command holds and the log records: a
    refusal names the set's values in the reader's words (:func:`terms_listed`), and those words are taken back.
    For a set the rules check themselves (the tables list its values), where no ``Literal`` lets
    ``campaign.i18n.terms.reread`` read it."""

    def read(value: object) -> object:
        if not isinstance(value, str):
            return value
        from campaign.i18n.terms import read as read_term  # word reading: every language alike

        return read_term(ruleset, set_name, value) or value

    return BeforeValidator(read)


def terms_listed(
    ruleset: str, set_name: str, values: Sequence[str], *, last: str = "", quoted: bool = False
) -> str | Term | Words:
    """``values`` of a closed set joined for a refusal that lists them, each said as its term (the seed's word in
    the reader's language, the value as recorded in English); ``last`` "or" joins the last one with "or";
    ``quoted``: each in quotes, as a value to type."""
    said: str | Term | Words = ""
    for at, value in enumerate(values):
        term: Term | Words = Term(ruleset, set_name, value)
        if quoted:
            term = Words("'{term}'", term=term)
        if at == 0:
            said = term
        elif last == "or" and at == len(values) - 1:
            said = Words("{some} or {last}", some=said, last=term)
        elif quoted:  # no value quoted holds the list's separator
            said = Words("{some}, {quoted}", some=said, quoted=term)
        else:  # a term may hold a comma ("потеряно больше, чем осталось"): a language may part them otherwise
            said = Words("{some}, {next}", some=said, next=term)
    return said


class WordedError(ValueError):
    """A model's own check refusing its inputs in words (a battle's sides that neither all fight in the open nor
    attack and defend): raised in a validator, kept by pydantic in the error's context, and said by
    :func:`said_problems` in the reader's language. ``str()`` is the English."""

    def __init__(self, words: Words) -> None:
        self.words = words
        super().__init__(str(words))


def said_problems(
    errors: Sequence[ErrorDetails],
    whole: str | Words,
    sets: Callable[[list[str]], str | None] | None = None,
) -> str | Words:
    """Validation errors (pydantic's shape) as one line for a person, as ``problems_in`` says them, but each
    :class:`WordedError` in its own words (without pydantic's "Value error, "), said in the reader's language; a
    model's check of the whole is its words alone; a closed set's values as terms where ``sets`` names the set
    that holds them (``problems_said``)."""
    from campaign.rulesets.decision import problems_said  # the rules' event types: not at start-up

    said: str | Words = ""
    for error in errors:
        refused = (error.get("ctx") or {}).get("error")
        where = ".".join(map(str, error["loc"]))
        if isinstance(refused, WordedError):
            part: str | Words = (
                Words("{where} {problem}", where=where, problem=refused.words) if where else refused.words
            )
        else:
            part = problems_said([error], whole, sets)
        said = Words("{some}; {last}", some=said, last=part) if said else part
    return said


NOT_A_PROFILE = {
    "five-grade": N_("not a five-grade unit profile: {problems}"),
    "disorder-marker": N_("not a disorder-marker unit profile: {problems}"),
    "Mass Combat": N_("not a Mass Combat unit profile: {problems}"),
    "Grimdark Future": N_("not a Grimdark Future unit profile: {problems}"),
}
"""A profile refused, by its ruleset's word for it (``what`` of :class:`ProfileOf`): each a whole sentence, so
that a reader's language says the ruleset's word where its grammar puts it."""


def not_a_profile(what: str, problems: object) -> InvalidInputError:
    """The refusal of a unit profile that is not a ``what`` one (``problems``: what is wrong with it)."""
    template = NOT_A_PROFILE.get(what)
    if template is None:  # a ruleset's own word (the fifth ruleset's), in its English
        return InvalidInputError(f"not a {what} unit profile: {problems}")
    return InvalidInputError.saying(template, problems=problems)


@dataclass(frozen=True, slots=True)
class ProfileOf:
    """The marker of a unit's profile, ``Annotated[dict[str, JsonValue], ProfileOf(UnitProfile, "five-grade")]``:
    a JSON object that must read as ``model`` (a ``what`` unit profile, ``what`` the ruleset's word). The input
    keeps the object as given, so the log records what was typed and a rule can tell a value left out from its
    default (Mass Combat settles a missing experience from the quality, R2-12); the command line takes the
    model's fields as options."""

    model: type[BaseModel]
    what: str

    def check(self, value: dict[str, object]) -> dict[str, object]:
        try:
            self.model.model_validate(value)
        except ValidationError as exc:
            from campaign.i18n.terms import reread, sets_of  # the seed's words for a closed set: only when refused

            again = reread(self.model, value, exc.errors())
            if again is not None and again != value:  # "Новобранцы" for green: the profile holds "green"
                return self.check(again)
            raise not_a_profile(self.what, said_problems(exc.errors(), Words("profile"), sets_of(self.model))) from None
        return value

    def __get_pydantic_core_schema__(self, source: object, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))


@dataclass(frozen=True)
class Meaning:
    """What one input is (see the module's docstring)."""

    kind: Kind
    whose: Whose = Whose.ANY
    new: bool = False
    many: bool = False
    keys: Meaning | None = None
    model: type[BaseModel] | None = None
    choices: tuple[object, ...] = ()
    required: bool = True
    optional: bool = False
    default: object = None
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None
    description: str = ""
    title: str = ""
    """What a form labels it (the field's ``title``): where its recorded name is no word a reader knows."""
    each: str = ""
    """What one value of a mapping (or item of a list) is called (:class:`Called`), as its rows label it."""
    key: str = ""
    """The input's name as the log records it (its alias, if any); empty for what a list or mapping holds."""
    typed: Typed = field(default_factory=Typed)

    @property
    def names(self) -> bool:
        """Whether this input is a name (of a unit, side, officer, battle or other thing)."""
        return self.kind.names and self.keys is None

    @property
    def holds_names(self) -> bool:
        """Whether names are found in it: it is one, a list or mapping of them, or a record holding some."""
        if self.kind.names or (self.keys is not None and self.keys.kind.names):
            return True
        inside = meanings(self.model).values() if self.kind is Kind.RECORD and self.model is not None else ()
        return any(m.holds_names for m in inside)

    @property
    def word(self) -> str:
        """What a person calls one of it in a refusal ("unit", "side"): its kind's word for a name."""
        return self.kind.value if self.kind.names else self.key.replace("_", " ")


def _without_none(annotation: object) -> tuple[object, bool]:
    """``X | None`` → (X, True); anything else → (it, False)."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) < len(typing.get_args(annotation)):
            return (args[0] if len(args) == 1 else typing.Union[tuple(args)]), True  # noqa: UP007
    return annotation, False


def meaning_of_type(annotation: object, metadata: tuple[object, ...] = ()) -> Meaning:
    """The meaning of a type (its ``Annotated`` markers in ``metadata`` or on it): what an interface's own
    parameter typed with this vocabulary is (the command line's ``unit NAME``, typed ``UnitName``)."""
    annotation, optional = _without_none(annotation)
    while typing.get_origin(annotation) is Annotated:
        metadata = (*typing.get_args(annotation)[1:], *metadata)
        annotation = typing.get_args(annotation)[0]
        annotation, also = _without_none(annotation)
        optional = optional or also
    means = next((m for m in metadata if isinstance(m, Means)), None)
    profile = next((m for m in metadata if isinstance(m, ProfileOf)), None)
    called = next((m.what for m in metadata if isinstance(m, Called)), "")
    origin = typing.get_origin(annotation)
    if means is not None:
        found = Meaning(means.kind, means.whose, means.new)
    elif profile is not None:
        found = Meaning(Kind.PROFILE, model=profile.model)
    elif origin in (tuple, list, frozenset, set):
        inner = meaning_of_type(typing.get_args(annotation)[0])
        found = replace(inner, many=True, each=inner.title, title="")
    elif origin in (dict, Mapping):
        key_type, value_type = typing.get_args(annotation)
        value = meaning_of_type(value_type)
        found = replace(value, keys=meaning_of_type(key_type), each=value.title, title="")
    elif origin is Literal:
        found = Meaning(Kind.CHOICE, choices=typing.get_args(annotation))
    elif annotation is bool:
        found = Meaning(Kind.FLAG)
    elif annotation is int:
        found = Meaning(Kind.NUMBER)
    elif annotation is str:
        found = Meaning(Kind.TEXT)
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        found = Meaning(Kind.RECORD, model=annotation)
    else:
        found = Meaning(Kind.VALUE)
    if called:
        found = replace(found, title=called)
    return replace(found, optional=optional) if optional else found


class _Bounds(TypedDict):
    minimum: int | None
    maximum: int | None
    max_length: int | None


def _bounds(metadata: tuple[object, ...]) -> _Bounds:
    def last(attribute: str) -> int | None:  # the last marker giving it wins
        found = None
        for item in metadata:
            value = getattr(item, attribute, None)
            if isinstance(value, int):
                found = value
        return found

    return {"minimum": last("ge"), "maximum": last("le"), "max_length": last("max_length")}


@functools.cache
def meanings(model: type[BaseModel]) -> Mapping[str, Meaning]:
    """Every input of ``model`` (a command, a record or a profile model) by its field's name, in order."""
    out: dict[str, Meaning] = {}
    for name, info in model.model_fields.items():
        read = meaning_of_type(info.annotation, tuple(info.metadata))
        typed = next((m for m in info.metadata if isinstance(m, Typed)), Typed())
        required = info.is_required()
        default = None if required or info.default_factory is not None else info.default
        if default is PydanticUndefined:
            default = None
        out[name] = replace(
            read,
            required=required,
            default=default,
            description=info.description or "",
            title=info.title or read.title,
            key=info.alias or name,
            typed=typed,
            **_bounds(tuple(info.metadata)),
        )
    return types.MappingProxyType(out)


def meaning_of(model: type[BaseModel], name: str) -> Meaning:
    """What input ``name`` of ``model`` is (its field's name, or the name the log records it by)."""
    found = meanings(model)
    if name in found:
        return found[name]
    by_key = next((m for m in found.values() if m.key == name), None)
    if by_key is None:
        raise KeyError(f"{model.__name__} has no input {name!r}")
    return by_key


def typed_names(model: type[BaseModel]) -> frozenset[str]:
    """The inputs of ``model`` whose types hold names (by field name and recorded name): their types check them."""
    return frozenset(k for name, m in meanings(model).items() if m.holds_names for k in (name, m.key))


@dataclass(frozen=True, slots=True)
class Named:
    """One name a command's inputs hold: the input it is in (``key``, as recorded), its meaning and the name."""

    key: str
    meaning: Meaning
    value: str


def names_in(value: BaseModel) -> Iterator[Named]:
    """Every name ``value``'s inputs hold (a command's, a record's), at any depth, with its meaning: what the
    server's authorisation reads. A list's names and a mapping's keys and values each come with the meaning of
    one (``many`` and ``keys`` cleared)."""
    for name, meaning in meanings(type(value)).items():
        yield from _names(meaning.key, meaning, getattr(value, name))


def _names(key: str, meaning: Meaning, value: object) -> Iterator[Named]:
    one = replace(meaning, many=False, keys=None)
    if value is None:
        return
    if meaning.keys is not None and isinstance(value, Mapping):
        for k, v in value.items():
            yield from _names(key, meaning.keys, k)
            yield from _names(key, one, v)
    elif meaning.many and isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from _names(key, one, item)
    elif meaning.kind is Kind.RECORD and isinstance(value, BaseModel):  # by the command's input it is in
        yield from (Named(key, named.meaning, named.value) for named in names_in(value))
    elif meaning.kind.names and isinstance(value, str):
        yield Named(key, meaning, value)


def acts(model: type[BaseModel]) -> bool:
    """Whether ``model`` names something of the side that acts or that it acts on (``Whose.OWN`` or
    ``Whose.TARGET``): a command a player may run for its own sides; one that names neither is the game
    master's."""
    return any(_whose(m) for m in meanings(model).values())


def _whose(meaning: Meaning) -> bool:
    if meaning.whose is not Whose.ANY or (meaning.keys is not None and meaning.keys.whose is not Whose.ANY):
        return True
    return meaning.kind is Kind.RECORD and meaning.model is not None and acts(meaning.model)


def worded(model: type[BaseModel], loc: tuple[int | str, ...]) -> str:
    """A validation error's location in a person's words: the input by its name as recorded ("wounds by a"),
    and what is inside a list, a mapping or a record by what it is ("unit", not "units.0")."""
    if not loc:
        return ""
    found = meanings(model)
    head = str(loc[0])
    meaning = found.get(head) or next((m for m in found.values() if m.key == head), None)
    if meaning is None or len(loc) == 1:
        return head.replace("_", " ")
    rest = loc[1:]
    if meaning.kind is Kind.RECORD and meaning.model is not None:
        inner = [part for part in rest if isinstance(part, str) and part in meanings(meaning.model)]
        if inner:
            return worded(meaning.model, tuple(rest[rest.index(inner[0]) :]))
    if meaning.keys is not None and rest[-1:] == ("[key]",):
        return meaning.keys.word
    if meaning.kind.names:
        return meaning.word
    return ".".join([head, *map(str, rest)]).replace("_", " ")
