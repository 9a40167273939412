"""The command line as a person types it, put in the order Click reads it.

People write ``campaign status --db demo.db``, ``campaign --json -c Peninsula dis status`` and
``campaign fs funds Steel -100``. Click reads an option only at the level that defines it, and takes ``-100``
for an option. So before parsing, the global options move to where they are defined (``--db``, ``--actor``
and ``-v`` to the top, ``-c/--campaign`` and ``--json`` to the command itself), and a command's negative
numbers go after ``--``, where they are plain arguments.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, MutableMapping, Sequence
from contextlib import contextmanager
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import typer.core

from campaign.i18n import N_

if TYPE_CHECKING:
    from collections.abc import Callable

    from typer._click import Context, HelpFormatter
    from typer.models import CommandInfo

TOP_VALUE = ("--db", "--actor", "--lang")
TOP_FLAG = ("--verbose",)
LEAF_VALUE = ("--campaign", "-c")
LEAF_FLAG = ("--json",)
NUMBER = re.compile(r"-\d+(\.\d+)?")
VERBOSE = re.compile(r"-v+")


# Typer carries its own copy of Click: its classes are told apart by what they have, not by Click's types.
Command = Any


def _is_option(param: Any) -> bool:
    return bool(param.param_type_name == "option")


def _subcommands(command: Command) -> dict[str, Command] | None:
    commands: dict[str, Command] | None = getattr(command, "commands", None)
    return commands


def _takes_value(command: Command, name: str) -> bool:
    for param in command.params:
        if _is_option(param) and name in (*param.opts, *param.secondary_opts):
            return not (param.is_flag or param.count)
    return False


def _global(token: str, names: tuple[str, ...]) -> bool:
    return token in names or any(
        token.startswith(f"{n}=") if n.startswith("--") else token.startswith(n) and len(token) > len(n) for n in names
    )


def arrange(root: Command, args: Sequence[str]) -> list[str]:
    """``args`` with the global options where Click expects them and negative numbers made arguments."""
    top: list[str] = []
    leaf: list[str] = []
    path: list[str] = []  # the command names, each level's own options after it
    positionals: list[str] = []
    command = root
    tokens = list(args)
    rest: list[str] = []
    if "--" in tokens:
        cut = tokens.index("--")
        tokens, rest = tokens[:cut], tokens[cut + 1 :]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        wanted = None
        if _global(token, TOP_VALUE) or token in TOP_FLAG or VERBOSE.fullmatch(token):
            wanted = top
        elif _global(token, LEAF_VALUE) or token in LEAF_FLAG:
            wanted = leaf
        if wanted is not None:
            wanted.append(token)
            if token in (*TOP_VALUE, *LEAF_VALUE) and i < len(tokens):
                wanted.append(tokens[i])
                i += 1
            continue
        if token.startswith("-") and len(token) > 1 and not NUMBER.fullmatch(token):
            path.append(token)
            if "=" not in token and _takes_value(command, token) and i < len(tokens):
                path.append(tokens[i])
                i += 1
            continue
        if _subcommands(command) is not None and not positionals:
            sub = command.get_command(None, token)
            path.append(token)
            # Not a command: Click will say so, with its suggestions; the rest is kept in order.
            command = sub if sub is not None else SimpleNamespace(params=[])
            continue
        positionals.append(token)
    if any(p.startswith("-") for p in [*positionals, *rest]):
        return [*top, *path, *leaf, "--", *positionals, *rest]
    return [*top, *path, *leaf, *positionals, *(["--", *rest] if rest else [])]


def _no_type(ctx: object = None) -> None:
    return None


def _in_language(thing: object, attribute: str) -> None:
    """``thing.attribute`` (a help text) in the reader's language; its English is kept beside it, so a process
    that reads several languages (the tests, a server) translates from the English each time."""
    from campaign.i18n import help_said

    source = getattr(thing, f"{attribute}_source", None) or getattr(thing, attribute, None)
    if source:
        setattr(thing, f"{attribute}_source", source)
        said = help_said(str(source))
        setattr(thing, attribute, source if said == " ".join(str(source).split()) else said)


HELP_WORDS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "DEFAULT_STRING": N_("[default: {}]"),
    "ENVVAR_STRING": N_("[env var: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
}
"""Typer's own words in a help's panels (module settings of ``typer.rich_utils``, read as each help is drawn)."""
USAGE_PREFIX = N_("Usage: ")
OPTIONS_METAVAR = N_("[OPTIONS]")
SUBCOMMAND_METAVAR = N_("COMMAND [ARGS]...")
"""Click's words in a usage line (``Usage: campaign fs [OPTIONS] COMMAND [ARGS]...``), on a help and an error."""


def _help_words() -> None:
    """Typer's panel words in the reader's language, set as a help is drawn: importing ``typer.rich_utils``
    (with Rich's markdown and traceback) costs 90–260 ms of CPU here, more than a command's whole start-up
    leaves, so it is not imported before a help is asked for. Set each time, English too: one process may draw
    help in several languages (the tests, a shell)."""
    from typer import rich_utils

    from campaign.i18n import _

    for name, english in HELP_WORDS.items():
        setattr(rich_utils, name, _(english))


def _drawn_in_language(command: Command) -> None:
    """``command``'s help drawn with Typer's panel words in the reader's language, and its usage line ("Usage:
    campaign fs funds [OPTIONS] …", on a help and above a usage error) too (once per command)."""
    if getattr(command, "_in_language", False):
        return
    draw = command.format_help

    def format_help(ctx: Context, formatter: HelpFormatter) -> None:
        _help_words()
        with names_in_language(command.params):
            draw(ctx, formatter)

    def format_usage(ctx: Context, formatter: HelpFormatter) -> None:
        from campaign.i18n import _

        words = {OPTIONS_METAVAR: _(OPTIONS_METAVAR), SUBCOMMAND_METAVAR: _(SUBCOMMAND_METAVAR)}
        # (a help draws its usage within its own names_in_language: a name said there is ours too)
        ours = {id(p) for p in command.params if not _is_option(p) and (named_by_us(p) or _said(p))}
        with names_in_language(command.params):
            for param in command.params:
                if not _is_option(param):
                    words.update(dict.fromkeys(param.get_usage_pieces(ctx), usage_name(param, id(param) in ours)))
            pieces = [words.get(piece, piece) for piece in command.collect_usage_pieces(ctx)]
        formatter.write_usage(ctx.command_path, " ".join(pieces), _(USAGE_PREFIX))

    command.format_help = format_help
    command.format_usage = format_usage
    command._in_language = True


def usage_name(param: Any, ours: bool) -> str:
    """An argument as a usage line names it, as Click does and as an option's value is named here: in capitals
    (``NOTATION``, ``ЗАПИСЬ_БРОСКА``), in brackets when it may be left out (``[NAME]``), ``...`` after one that
    takes several; a name its declaration chose (``MEASURE``, ``[UNIT|SIDE]``) as chosen. Typer's own braces
    (``{notation}``) read as a placeholder left unfilled."""
    name = str(param.metavar if param.metavar is not None else param.name)
    if ours:
        name = name.upper().replace(" ", "_").replace("-", "_")
    if not param.required and not name.startswith("["):
        name = f"[{name}]"
    return name + ("..." if param.nargs != 1 else "")


def named_by_us(param: Any) -> bool:
    """Whether ``param``'s shown name is its own field's (an argument's name, an option's value named after the
    option), not words its declaration chose (``FILE|URL``) nor its choices."""
    if not _is_option(param):
        return param.metavar is None and param.nargs == 1
    return bool(getattr(param, "_metavar_named", False))


def name_said(param: Any) -> str | None:
    """``param``'s shown name in the reader's language: its field's words as the command models name them (in
    context "field", one translation for the views, the forms and here), as Click shows it — an argument as
    its words (``{отряд}``), an option's value in capitals (``--wounds РАНЫ``); None in English, for a name
    a declaration chose as its declaration translates it, and None where the catalogs have no other words."""
    from campaign.i18n import DEFAULT, _, language

    if language() == DEFAULT:
        return None
    if not named_by_us(param):
        # a name its declaration chose (``FILE``, ``[UNIT|SIDE]``), declared with N_ and so in the catalogs; one
        # the catalogs do not hold (``en|ru|pl``) stays as declared
        chosen = param.metavar
        said = _(chosen) if isinstance(chosen, str) and chosen.strip() else chosen
        return said if said != chosen else None
    name = field_name(param)
    if not name:
        return None
    from campaign.read.describe import label

    words = label(name)
    if words == label_english(name):
        return None
    return words.upper().replace(" ", "_") if _is_option(param) else words


def field_name(param: Any) -> str:
    """The field a parameter is named after: an option's long name (``--set`` of ``set_``), an argument's."""
    if _is_option(param):
        long = next((o for o in param.opts if o.startswith("--")), param.opts[0])
        return str(long).lstrip("-").replace("-", "_")
    return str(param.name or "").rstrip("_")


def label_english(name: str) -> str:
    """A parameter's field name in the words the catalogs hold it by (context "field")."""
    from campaign.i18n import reading_in
    from campaign.read.describe import label

    with reading_in("en"):
        return label(name)


@contextmanager
def names_in_language(params: Sequence[Any]) -> Iterator[None]:
    """Within the block, ``params`` show their names in the reader's language (a usage line, a help, an error's
    hint), then as before: one command tree serves every language a process reads (the tests, a shell)."""
    saved = []
    for param in params:
        said = name_said(param)
        if said is not None:
            saved.append((param, param.metavar))
            param.metavar = said
            param._name_said = True
    try:
        yield
    finally:
        for param, metavar in saved:
            param.metavar = metavar
            param._name_said = False


def _said(param: Any) -> bool:
    """Whether ``param``'s shown name is one :func:`names_in_language` gave it (its field's, in other words)."""
    return bool(getattr(param, "_name_said", False))


def tidy_help(command: Command) -> None:
    """Help without Typer's ``<str>``/``<bool>`` type column: an option's value is named after the option, a
    flag shows nothing; each help text in the reader's language (its English is the catalogs' message), and
    Typer's own panel words too."""
    help_option = command.get_help_option(SimpleNamespace(help_option_names=["--help"]))  # made once, kept
    _drawn_in_language(command)
    for thing, attribute in ((command, "help"), (command, "short_help")):
        _in_language(thing, attribute)
    for param in [*command.params, *([help_option] if help_option is not None else [])]:
        _in_language(param, "help")
        if not _is_option(param):  # an argument: its name says what it is; no type column
            param.display_type_rich = _no_type
            continue
        if param.metavar is not None or getattr(getattr(param, "type_descriptor", None), "is_choice", False):
            continue  # named already, or its choices are its best name
        if _is_option(param):
            if param.is_flag or param.count:
                param.metavar = ""
            else:
                long = next((o for o in param.opts if o.startswith("--")), param.opts[0])
                param.metavar = long.lstrip("-").upper().replace("-", "_")
                param._metavar_named = True
        else:  # an argument: its name says what it is; no type column
            param.display_type_rich = _no_type
    subcommands = _subcommands(command) or {}
    for sub in (subcommands.built if isinstance(subcommands, Pending) else subcommands).values():
        tidy_help(sub)  # a pending command is tidied when it is built


class Pending(MutableMapping[str, Command]):
    """A group's commands, each built (and tidied) the first time it is asked for: a rule command builds the
    one it runs, not its ruleset's thirty (60 ms of its start-up); help lists them all."""

    def __init__(self, infos: dict[str, CommandInfo | None], build: Callable[[CommandInfo], Command]) -> None:
        self.infos = infos
        self.build = build
        self.built: dict[str, Command] = {}

    def __getitem__(self, name: str) -> Command:
        if name not in self.built:
            info = self.infos[name]  # KeyError: no such command
            assert info is not None  # a command set (None for its info) is built already
            command = self.build(info)
            tidy_help(command)
            self.built[name] = command
        return self.built[name]

    def __setitem__(self, name: str, command: Command) -> None:
        self.infos.setdefault(name, None)
        self.built[name] = command

    def __delitem__(self, name: str) -> None:
        del self.infos[name]
        self.built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self.infos)

    def __len__(self) -> int:
        return len(self.infos)


def lazy_group(app: typer.Typer) -> Command:
    """``app``'s group (its options and help as Typer makes them) with its commands :class:`Pending`."""
    from copy import copy

    from typer.main import get_command_from_info, get_command_name, get_group

    bare = copy(app)
    bare.registered_commands = []
    group = get_group(bare)
    infos: dict[str, CommandInfo | None] = {
        info.name or get_command_name(getattr(info.callback, "__name__", "")): info for info in app.registered_commands
    }

    def build(info: CommandInfo) -> Command:
        return get_command_from_info(
            info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
        )

    group.commands = Pending(infos, build)
    return group


class CampaignGroup(typer.core.TyperGroup):
    """The ``campaign`` command: arranges its arguments (see above), tidies its help, and loads a command's
    module only when that command runs. ``lazy`` maps each command's name to its module, the function there
    that registers it (or the attribute holding its Typer group) and its one-line help, which the command
    list shows without importing anything."""

    lazy: dict[str, tuple[str, str, str]] = {}  # noqa: RUF012 (set by the subclass, read only)
    _listing = False

    def list_commands(self, ctx: Context | None) -> list[str]:
        return [*self.commands, *(name for name in self.lazy if name not in self.commands)]

    def get_command(self, ctx: Context | None, cmd_name: str) -> Command | None:
        if cmd_name in self.commands or cmd_name not in self.lazy:
            return self.commands.get(cmd_name)
        module_name, attribute, short_help = self.lazy[cmd_name]
        if self._listing:  # the command list of `campaign --help`: its line of help is all it needs
            from campaign.i18n import _

            return typer.core.TyperCommand(cmd_name, help=_(short_help))
        import importlib

        from typer.main import get_group

        module = importlib.import_module(module_name)
        found = getattr(module, attribute)
        if isinstance(found, typer.Typer):
            command: Any = lazy_group(found)
        else:  # a function registering its commands on the app given to it
            holder = typer.Typer()
            found(holder)
            command = get_group(holder).commands[cmd_name]
        command.name = cmd_name
        tidy_help(command)
        self.commands[cmd_name] = command
        return command

    def make_context(self, *args: Any, **kwargs: Any) -> Context:
        from typer._click.exceptions import UsageError

        try:
            return super().make_context(*args, **kwargs)
        except UsageError as exc:  # the program's own options misread: said in the reader's language
            from campaign.cli.usage_words import in_language

            shown = in_language(exc)
            if shown is exc:
                raise
            raise shown from exc

    def invoke(self, ctx: Context) -> Any:
        from typer._click.exceptions import BadParameter, UsageError

        try:
            return super().invoke(ctx)
        except UsageError as exc:  # a command line Click could not read: said in the reader's language
            from campaign.cli.usage_words import in_language

            if isinstance(exc, BadParameter):  # a value typed for an argument or option that is not of its kind
                exc.message = in_words(exc.message)
            shown = in_language(exc)
            if shown is exc:
                raise
            raise shown from exc

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def main(self, args: Sequence[str] | None = None, *rest: Any, **kwargs: Any) -> Any:
        import sys

        given = sys.argv[1:] if args is None else list(args)
        if any(token.startswith(("--show-completion", "--install-completion")) for token in given):
            from campaign.cli import completion  # loaded only when asked for (start-up time)

            named = completion.named_shell(given, self.list_commands(None))
            if named is not None:
                completion.answer(*named)
        from campaign.i18n import language, restore, use

        before = use(language())  # the language read before this command line, given back after it
        try:
            reads_in(given)
            tidy_help(self)
            return super().main(arrange(self, given), *rest, **kwargs)
        finally:
            restore(before)  # a second command line in the same process (a test, a shell) chooses afresh


def reads_in(given: Sequence[str]) -> str:
    """Set the reader's language for this command line before anything is parsed or any help made: ``--lang``,
    ``CAMPAIGN_LANG``, the locale, English (:mod:`campaign.i18n.choice`); English with ``--json``, which is
    language-neutral. A language the program does not speak is refused in words (exit 2)."""
    import sys

    from campaign.i18n import DEFAULT, use
    from campaign.i18n.choice import chosen, in_arguments

    option, as_json = in_arguments(given)
    try:
        lang = chosen(option)
    except Exception as exc:
        from events.errors import InvalidInputError  # only for a refusal: `campaign --help` imports no `events`

        if not isinstance(exc, InvalidInputError):
            raise
        typer.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    use(DEFAULT if as_json else lang)
    return lang


PYDANTIC_SAYS = (
    (re.compile(r"^Input should be a valid integer.*$"), "not a whole number"),
    (re.compile(r"^Input should be a valid number.*$"), "not a number"),
    (re.compile(r"^Input should be a valid boolean.*$"), "not true or false"),
    (re.compile(r"^Input should be greater than or equal to (\S+)$"), r"it must be at least \1"),
    (re.compile(r"^Input should be less than or equal to (\S+)$"), r"it must be at most \1"),
    (re.compile(r"^Input should be greater than (\S+)$"), r"it must be more than \1"),
    (re.compile(r"^Input should be less than (\S+)$"), r"it must be less than \1"),
)
"""What Typer 0.29 says of a value it could not read (pydantic's words), in the program's: "Invalid value for
'amount': not a whole number" (it said "Input should be a valid integer, unable to parse string as an integer")."""


def in_words(message: str) -> str:
    for said, words in PYDANTIC_SAYS:
        if said.match(message):
            return said.sub(words, message)
    return message.removeprefix("Input should be ")
