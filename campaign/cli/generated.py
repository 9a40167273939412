"""A ruleset's command line, made from its command models: one declaration, read here.

Each command model of a ruleset (``campaign/rulesets/<name>/commands.py``) becomes ``campaign <prefix> <word>``:
its word is the one a person types for it (``typed``: ``fs.battle_start`` is ``fs battle-start``), its help the
first paragraph of its docstring, and its inputs its arguments and options (``campaign/rulesets/inputs.py``):

* an input is an option named after its field (``--enemy-within``; a name's ``_name`` left off: ``--officer``),
  or what its :class:`~campaign.rulesets.inputs.Typed` says (``ARGUMENT``, other names, a pair of flags, a flag
  that sets it false); its help is the field's description, its default the field's;
* a list is a repeated option; a mapping a repeated ``KEY=VALUE`` (``--side Keno=low``); a list of records takes
  one line per record, as the record's ``from_line`` reads it; a table value (a house rule's, an edit's) is read
  as a whole number, ``true``/``false``, a word, or JSON;
* a unit's profile is its fields as options (``--quality``, ``--size``…), and ``--set KEY=VALUE`` for the fields
  that have none; a field left at None is left out of the profile;
* a closed set typed per choice (``Typed(each=True)``) is one command per choice (``fs rest``, ``fs march``…);
* every command takes ``--campaign``, ``--command-id`` and ``--json`` after its own options, and one that rolls
  ``--dice`` first; a name is completed from the campaign in the shell (units, sides, officers, battles).

Bounds are the model's: a value out of them is refused by the model in the program's words, whichever way the
command comes in. Only what is genuinely different is written by hand beside the ruleset's views (a battle read
from a file, a command that shows more than what it appended): ``around`` and the ruleset module's own commands.

Nothing is built until it is asked for: the ruleset's group lists its commands from the models' names and
docstrings, and builds the Click command (its parameters from the model's fields) of the one that runs.
"""

from __future__ import annotations

import copy
import functools
import inspect
import typing
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
import typer.models

from campaign.cli.common import execute
from campaign.cli.options import CampaignOpt, CommandIdOpt, DiceOpt, JsonOpt
from campaign.cli.output import handles_errors
from campaign.rulesets.command import BaseCommand, Overridden, Ruleset, help_of
from campaign.rulesets.inputs import Meaning, Typed, meanings
from campaign.rulesets.kinds import Kind, Means
from campaign.rulesets.tables import RuleTables
from campaign.typed_as import typed
from events.errors import InvalidInputError, Plural, Term, Words

if TYPE_CHECKING:
    from campaign.rulesets.hooks import ArmyLists

Around = Callable[[str | None, bool], AbstractContextManager[None]]
"""A hand-written part around a generated command (campaign, as_json): what it shows besides what it appended."""

S = TypeVar("S", bound=Overridden)
T = TypeVar("T", bound=RuleTables)


@dataclass(frozen=True)
class Typing:
    """What was typed for a command that has an :class:`Extra`: the extra's options' values (by parameter),
    the command's own inputs given and its required ones left out (each as typed: ``--side``, ``NAME``), the
    command as typed (``run()``: built from what was typed, and run), and the options every command takes."""

    extra: Mapping[str, Any]
    given: tuple[str, ...]
    missing: tuple[str, ...]
    run: Callable[[], None]
    shared: Mapping[str, Any]
    """The options every command takes: ``campaign``, ``command_id``, ``as_json`` (and ``dice``)."""


@dataclass(frozen=True)
class Extra:
    r"""Options a hand-written part adds to a generated command (``--from FILE.csv`` on ``muster``).

    ``parameters``: its options (``inspect.Parameter``\ s, typed as Typer reads them); ``run``: handed what was
    typed (:class:`Typing`), it runs the command as typed, or what its options say instead. With an extra, none
    of the command's own arguments and options is required by the command line (``unless``: the words each
    required one's help then ends with, "Required, unless --from."); ``run`` says what is missing."""

    parameters: tuple[inspect.Parameter, ...]
    run: Callable[[Typing], None]
    unless: str = ""


def _word(meaning: Meaning, field: str) -> str:
    """What a person calls an input on the command line: the field's name as recorded, a name's ``_name`` or
    ``_id`` left off (``officer_name`` → officer, ``battle_id`` → battle; ``list_id`` is not a name: kept)."""
    word = meaning.key or field
    for suffix in ("_name", "_id") if meaning.kind.names else ():
        if word.endswith(suffix) and word != suffix.lstrip("_"):
            return word.removesuffix(suffix)
    return word


def _option_names(meaning: Meaning, field: str) -> tuple[str, ...]:
    return meaning.typed.names or (f"--{_word(meaning, field).replace('_', '-')}",)


def _parameter_name(meaning: Meaning, field: str) -> str:
    """The Python parameter an input is read into: its word as an argument; its first option's long name."""
    if meaning.typed.argument:
        return _word(meaning, field)
    first = _option_names(meaning, field)[0].split("/")[0]
    return first.lstrip("-").replace("-", "_")


def _completion(meaning: Meaning) -> Callable[..., list[str]] | None:
    """Names of the campaign for the shell to complete an input naming a unit, side, officer or battle with."""
    if not meaning.kind.names or meaning.kind is Kind.NAME or meaning.new:
        return None
    from campaign.cli.completion import completer

    return completer(meaning.kind)


@functools.cache
def _values(kind: Kind) -> Callable[[str], object] | None:
    """How a text typed for one value becomes it, for the kinds that are not text."""
    if kind is Kind.NUMBER:
        return int
    if kind is Kind.VALUE:
        return read_value
    return None


class _Described(Words):
    """An input's description inside a refusal ("the side it fights for"), said as its help is (the catalogs
    hold each description on one line), without its full stop and in lower case."""

    __slots__ = ()

    def said(
        self,
        translate: Callable[[str], str],
        term: Callable[[Term], str] | None = None,
        grouped: Callable[[int], str] | None = None,
        plural: Plural | None = None,
    ) -> str:
        return translate(" ".join(self.template.split())).rstrip(".").lower()


def read_value(text: str) -> object:
    """A table value or a profile field as typed: JSON for a list or an object, else a whole number, NTR,
    ``true``/``false`` or a word (as a house rule reads it)."""
    from campaign.rulesets.tables import parse_value

    raw = text.strip()
    if raw[:1] in "[{":
        import orjson

        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise InvalidInputError.saying("{text!r} is not valid JSON: {why}", text=raw[:40], why=str(exc)) from None
    return parse_value(raw)


class Input:
    """One input of a command as the command line takes it: its parameters, and how their values become it."""

    def __init__(self, field: str, meaning: Meaning, fixed: object = None, *, in_profile: bool = False) -> None:
        self.field, self.meaning, self.fixed = field, meaning, fixed
        self.in_profile = in_profile
        self.name = _parameter_name(meaning, field)
        self.options = _option_names(meaning, field)

    @property
    def label(self) -> str:
        return self.options[0].split("/")[0] if not self.meaning.typed.argument else self.name

    def parameters(self) -> Iterator[inspect.Parameter]:
        m = self.meaning
        many = m.many or m.keys is not None
        kind: Any
        default: object
        if m.kind is Kind.FLAG and m.typed.inverse:  # a flag that sets the input false: off unless given
            kind, default = bool, False
        elif many:  # a repeated option (a list, a mapping of KEY=VALUE, one record a line)
            kind, default = list[str], inspect.Parameter.empty if m.required else None
        else:
            kind = bool if m.kind is Kind.FLAG else int if m.kind is Kind.NUMBER else str
            if m.typed.given_only or (m.typed.old and m.required):  # left out unless given; or checked here
                default = None
            else:
                default = inspect.Parameter.empty if m.required else m.default
        if default is None:
            kind = kind | None
        help_ = cli_help(m)
        complete = _completion(m)
        settings: dict[str, Any] = {"help": help_}
        if complete is not None:
            settings["autocompletion"] = complete
        info: object = typer.Argument(**settings) if m.typed.argument else typer.Option(*self.options, **settings)
        marks: tuple[object, ...] = (Means(m.kind, m.whose, m.new),) if m.kind.names and not many else ()
        annotation = Annotated[(kind, *marks, info)] if marks else Annotated[kind, info]
        yield inspect.Parameter(self.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)
        for old in m.typed.old:  # an earlier name of the option, still read, unlisted
            hidden = Annotated[kind | None, typer.Option(old, hidden=True)]
            yield inspect.Parameter(old.lstrip("-"), inspect.Parameter.KEYWORD_ONLY, annotation=hidden, default=None)

    def value(self, given: Mapping[str, Any]) -> object:
        """The input's value from the parameters' (None: left out)."""
        m = self.meaning
        if self.fixed is not None:
            return self.fixed
        value = given[self.name]
        olds = [given[old.lstrip("-")] for old in m.typed.old if given[old.lstrip("-")] is not None]
        if olds:
            if (value is not None and any(o != value for o in olds)) or len(set(olds)) > 1:
                raise InvalidInputError.saying("{option} was given twice, with different values", option=self.label)
            value = olds[0]
        if value is None and m.typed.old and m.required:
            raise InvalidInputError.saying(
                "{option} is required: {what}", option=self.label, what=_Described(m.description)
            )
        if m.kind is Kind.FLAG and m.typed.inverse:
            return not value
        if value is None:
            return None
        if m.keys is not None:
            return self._mapping(value)
        if m.many and m.kind is Kind.RECORD and m.model is not None:
            return tuple(self._record(line) for line in value)
        if m.many:
            read = _values(m.kind)
            return tuple(read(v) if read else v for v in value)
        read = _values(m.kind)
        return read(value) if read is not None and isinstance(value, str) else value

    def _record(self, line: str) -> object:
        from_line = getattr(self.meaning.model, "from_line", None)
        if from_line is None:
            raise InvalidInputError.saying("{option} cannot be typed on the command line", option=self.label)
        try:
            return from_line(line)
        except InvalidInputError as exc:
            refused = exc.words if exc.words is not None else str(exc)
            raise InvalidInputError.saying("{option} {problem}", option=self.label, problem=refused) from None

    def _mapping(self, items: list[str]) -> dict[str, object]:
        m = self.meaning
        assert m.keys is not None
        form = m.typed.form or "NAME=VALUE"
        read = _values(m.kind)
        out: dict[str, object] = {}
        for item in items:
            key, sep, raw = item.rpartition("=")
            if not sep or not key.strip():
                raise InvalidInputError.saying(
                    "{option} takes {form}, not {item!r}", option=self.label, form=form, item=item
                )
            key = key.strip()
            if not m.keys.kind.names:
                key = key.replace("-", "_")
            raw = raw.strip()
            if read is int:
                if not raw.lstrip("-").isdigit():
                    raise InvalidInputError.saying(
                        "{option} takes {form}, not {item!r}", option=self.label, form=form, item=item
                    )
                out[key] = int(raw)
            else:
                out[key] = read(raw) if read is not None else raw
        return out


def cli_help(m: Meaning) -> str | None:
    """An option's help: its own (``Typed.help``), or the field's description led by what one item looks like
    typed (``Typed.form``: "JOINER=UNIT: a hero joins a unit…") and, for an option given once per item, "repeat".
    The description says what the input *is*, in words a form on the page shows as they are; the typing is the
    command line's own, declared once on ``Typed``."""
    if m.typed.help and not m.typed.each:
        return m.typed.help
    text = m.description
    if not text:
        return None
    if m.typed.form:
        text = f"{m.typed.form}: {text[:1].lower()}{text[1:]}"
    if (m.many or m.keys is not None) and not m.typed.argument:
        text = f"{text.rstrip('.')}; repeat."
    return text


class Profile:
    """A unit's profile as options: one per field of its model that has one, and ``--set KEY=VALUE`` for the
    rest (a field left at None is left out, so a rule can tell it was not given)."""

    def __init__(self, field: str, meaning: Meaning) -> None:
        assert meaning.model is not None
        self.field = field
        found = meanings(meaning.model)
        self.inputs = [Input(f, m, in_profile=True) for f, m in found.items() if m.typed.typed]
        self.others = [f for f, m in found.items() if not m.typed.typed]

    def parameters(self) -> Iterator[inspect.Parameter]:
        for one in self.inputs:
            yield from one.parameters()
        if self.others:
            help_ = "Any other profile field: KEY=VALUE (repeat)."
            annotation = Annotated[list[str] | None, typer.Option("--set", help=help_)]
            yield inspect.Parameter("set_", inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=None)

    def value(self, given: Mapping[str, Any]) -> dict[str, object]:
        profile = {one.field: v for one in self.inputs if (v := one.value(given)) is not None}
        for item in (given.get("set_") or []) if self.others else []:
            key, sep, raw = item.partition("=")
            if not sep or not key.strip():
                raise InvalidInputError.saying("--set takes KEY=VALUE, not {item!r}", item=item)
            profile[key.strip().replace("-", "_")] = read_value(raw)
        return profile


SHARED = (
    inspect.Parameter("campaign", inspect.Parameter.KEYWORD_ONLY, annotation=CampaignOpt, default=None),
    inspect.Parameter("command_id", inspect.Parameter.KEYWORD_ONLY, annotation=CommandIdOpt, default=None),
    inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, annotation=JsonOpt, default=False),
)
DICE = inspect.Parameter("dice", inspect.Parameter.KEYWORD_ONLY, annotation=DiceOpt, default=None)


def command_function(
    model: type[BaseCommand],
    fixed: Mapping[str, object] | None = None,
    around: Around | None = None,
    extra: Extra | None = None,
) -> Callable[..., None]:
    """``model`` as a command line function: its inputs' parameters (``fixed``: inputs the command itself sets,
    as ``fs rest`` sets the activity), an ``extra``'s, then the shared options; run through the one executor."""
    parts: list[Input | Profile] = []
    for field, meaning in meanings(model).items():
        if fixed and field in fixed:
            parts.append(Input(field, meaning, fixed[field]))
        elif not meaning.typed.typed:
            continue
        elif meaning.kind is Kind.PROFILE:
            parts.append(Profile(field, meaning))
        else:
            parts.append(Input(field, meaning))
    own = [p for part in parts if not (isinstance(part, Input) and part.fixed is not None) for p in part.parameters()]
    required = [p.name for p in own if p.default is inspect.Parameter.empty]
    defaults = {p.name: p.default for p in own}
    if extra is not None:
        own = [_optional(p, extra.unless) for p in own]
    arguments = [p for p in own if _is_argument(p)]
    options = [p for p in own if not _is_argument(p)]
    shared = [DICE, *SHARED] if model.rolls else list(SHARED)

    def run(**given: Any) -> None:
        def as_typed() -> None:
            inputs = {}
            for part in parts:
                value = part.value(given)
                if value is not None:  # text as typed, trimmed: " boots" and "boots" are one reason
                    inputs[part.field] = value.strip() if isinstance(value, str) else value
            command = model.build(**inputs)
            with (around or _nothing)(given["campaign"], given["as_json"]):
                execute(
                    given["campaign"],
                    command,
                    dice=given.get("dice"),
                    command_id=given["command_id"],
                    as_json=given["as_json"],
                )

        if extra is None:
            as_typed()
            return
        said = {p.name: _said(p) for p in (*arguments, *options)}
        typed_in = tuple(said[n] for n, d in defaults.items() if given[n] not in (None, d, []))
        missing = tuple(said[n] for n in required if given[n] is None)
        values = {p.name: given[p.name] for p in extra.parameters}
        extra.run(Typing(values, typed_in, missing, as_typed, {p.name: given[p.name] for p in shared}))

    parameters = [*arguments, *options, *(extra.parameters if extra else ()), *shared]
    run.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": None}
    run.__name__ = run.__qualname__ = model.__name__.lower()
    return handles_errors(run)


def _optional(parameter: inspect.Parameter, unless: str) -> inspect.Parameter:
    """A required input as one the command line does not require (None unless given), its help ending with
    ``unless`` ("Required, unless --from.")."""
    if parameter.default is not inspect.Parameter.empty:
        return parameter
    kind, *marks = typing.get_args(parameter.annotation)
    if unless:
        marks = [_helped(m, unless) for m in marks]
    return parameter.replace(annotation=Annotated[(kind | None, *marks)], default=None)


def _helped(info: object, unless: str) -> object:
    if isinstance(info, typer.models.ParameterInfo):
        info = copy.copy(info)
        info.help = f"{info.help or ''} {unless}".strip()
    return info


def _said(parameter: inspect.Parameter) -> str:
    """An input as a person types it: its option (``--side``) or its argument (``NAME``)."""
    for info in typing.get_args(parameter.annotation)[1:]:
        if isinstance(info, typer.models.OptionInfo):  # under Annotated, its first name is where a default would be
            names = info.param_decls or (info.default,)
            return str(names[0]).split("/")[0]
    return parameter.name.upper()


def _is_argument(parameter: inspect.Parameter) -> bool:
    return any(isinstance(m, typer.models.ArgumentInfo) for m in getattr(parameter.annotation, "__metadata__", ()))


def _nothing(campaign: str | None, as_json: bool) -> AbstractContextManager[None]:
    return nullcontext()


class Generated(typer.models.CommandInfo):
    """A command of a ruleset's group, its function made from its model when the command is first built."""

    def __init__(self, name: str, make: Callable[[], Callable[..., Any]], **settings: Any) -> None:
        self._make: Callable[[], Callable[..., Any]] | None = make
        self._callback: Callable[..., Any] | None = None
        super().__init__(name, **settings)

    @property
    def callback(self) -> Callable[..., Any] | None:
        if self._callback is None and self._make is not None:
            self._callback, self._make = self._make(), None
        return self._callback

    @callback.setter
    def callback(self, value: Callable[..., Any] | None) -> None:
        self._callback = value


def commands_of(
    model: type[BaseCommand], around: Around | None = None, extra: Extra | None = None
) -> Iterator[tuple[str, Callable[[], Callable[..., Any]], str, bool]]:
    """Each command line command ``model`` is: (word, its function's maker, help, hidden)."""
    listed = model.listed
    for field, info in model.model_fields.items():  # its fields' markers only: meanings are read when it is built
        each = next((m for m in info.metadata if isinstance(m, Typed) and m.each), None)
        if each is not None:  # one command per choice, which it sets (fs rest, fs march …)
            meaning = meanings(model)[field]
            for choice in meaning.typed.only or meaning.choices:
                word = typed(model.name, {field: choice}).rpartition(" ")[2]
                said = (meaning.typed.help or help_of(model)).format(str(choice).replace("_", " "))
                make = functools.partial(command_function, model, {field: choice}, around, extra)
                yield word, make, said, not listed
            return
    word = typed(model.name).rpartition(" ")[2]
    make = functools.partial(command_function, model, None, around, extra)
    yield word, make, help_of(model), not listed
    recorded = model.name.partition(".")[2].replace("_", "-")
    if recorded != word:  # the word it is recorded by still works, unlisted (``gf round`` is ``gf turn``)
        yield recorded, make, help_of(model), True


def ruleset_app(
    plugin: Ruleset[S, T],
    help_: str,
    *,
    around: Mapping[str, Around] | None = None,
    extras: Mapping[str, Extra] | None = None,
    own: Callable[[typer.Typer], None] | None = None,
    skip: frozenset[str] = frozenset(),
) -> typer.Typer:
    """The command group of ``plugin``'s ruleset: every command model's command (but those in ``skip``, written
    by hand), ``around`` the hand-written parts of some and ``extras`` the options some take besides their model's
    (each by the model's name), and what ``own`` registers on it (the ruleset's views and its own commands)."""
    app = typer.Typer(help=help_, no_args_is_help=True)
    lists = army_lists(plugin.info.army_list)
    for model in plugin.commands:
        if model.name in skip or (lists is not None and model.name == lists.command):
            continue
        made = commands_of(model, (around or {}).get(model.name), (extras or {}).get(model.name))
        for word, make, said, hidden in made:
            app.registered_commands.append(Generated(word, make, help=said, hidden=hidden))
    if own is not None:
        own(app)
    if not any(c.name == "tables" for c in app.registered_commands):  # a ruleset whose views did not name them
        from campaign.cli.common import add_tables_view

        add_tables_view(app, plugin, plugin.info.title)
    if lists is not None:  # its command reads a list from a file: the reader's, not made from the model
        from campaign.cli.interchange_cli import import_list_of

        app.command("import-list")(import_list_of(plugin.info.name, lists.help))
    return app


def army_lists(hook: str | None) -> ArmyLists | None:
    """The plug-in's reader of army lists (its ``army_list``), if it has one."""
    if hook is None:
        return None
    from campaign.plugins import load

    found: ArmyLists = load(hook)
    return found
