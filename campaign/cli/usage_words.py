"""What the command line's framework says of a command line it could not read, in the reader's language.

Click's messages ("Missing argument 'side'.", "No such option: --nope", "Usage: …", "Try 'campaign --help' for
help.") are Click's and Typer's, not ours. Upstream Click reads each through ``gettext.gettext``, so a catalog of
Click's domain would translate them; the copy of Click that Typer 0.29 carries (``typer._click``) dropped those
calls and builds its sentences with f-strings, and Typer's own few (``typer.core``, ``typer.rich_utils``) read the
process-wide ``gettext`` domain, whose language is the environment's, not the reader's of this command line. So
the words are said here, from what each exception holds (the option, the parameter and its kind, the value), with
Click's English as the catalogs' message: in English they read as Click writes them; in Russian and Polish through
the program's catalogs, like every other message. A message this module does not know is shown as Click made it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from campaign.i18n import DEFAULT, N_, _, language

if TYPE_CHECKING:
    from typer._click.exceptions import BadParameter, MissingParameter, UsageError

PANEL_WORDS = {
    "ERRORS_PANEL_TITLE": N_("Error"),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
    "ABORTED_TEXT": N_("Aborted."),
    "DEPRECATED_STRING": N_("(deprecated) "),
}
"""Typer's words around an error (module settings of ``typer.rich_utils``, read as the error is drawn)."""

_MISSING = {
    "argument": N_("Missing argument {name}."),
    "option": N_("Missing option {name}."),
    "parameter": N_("Missing parameter {name}."),
}

_FAILED = (
    (re.compile(r"^No such command (?P<name>'.*')\.$"), N_("No such command {name}.")),
    (re.compile(r"^Missing command\.$"), N_("Missing command.")),
    (
        re.compile(r"^Got unexpected extra argument\(s\) \((?P<args>.*)\)$"),
        N_("Got unexpected extra argument(s) ({args})"),
    ),
    (re.compile(r"^Option (?P<name>'.*') requires an argument\.$"), N_("Option {name} requires an argument.")),
    (
        re.compile(r"^Option (?P<name>'.*') requires (?P<n>\d+) arguments\.$"),
        N_("Option {name} requires {n} arguments."),
    ),
    (re.compile(r"^Option (?P<name>'.*') does not take a value\.$"), N_("Option {name} does not take a value.")),
    (re.compile(r"^Argument (?P<name>'.*') takes (?P<n>\d+) values\.$"), N_("Argument {name} takes {n} values.")),
)
"""The sentences Click and Typer make with ``ctx.fail`` or a plain ``UsageError``: only their text is kept."""

_SUGGESTED = re.compile(r"^No such command (?P<name>'.*')\. Did you mean (?P<options>.*)\?$")
"""Typer's suggestion after Click's sentence."""

_REASONS = (
    (re.compile(r"^not a whole number$"), N_("not a whole number")),
    (re.compile(r"^not a number$"), N_("not a number")),
    (re.compile(r"^not true or false$"), N_("not true or false")),
    (re.compile(r"^it must be at least (?P<n>\S+)$"), N_("it must be at least {n}")),
    (re.compile(r"^it must be at most (?P<n>\S+)$"), N_("it must be at most {n}")),
    (re.compile(r"^it must be more than (?P<n>\S+)$"), N_("it must be more than {n}")),
    (re.compile(r"^it must be less than (?P<n>\S+)$"), N_("it must be less than {n}")),
    (re.compile(r"^(?P<value>'.*') is not one of (?P<choices>.*)\.$"), N_("{value} is not one of {choices}.")),
)
"""Why a value was refused, as :func:`campaign.cli.argv.in_words` and Typer's choices say it."""

_ENVVAR = re.compile(r" \(env var: (?P<name>'[^']*')\)$")


def _said(patterns: tuple[tuple[re.Pattern[str], str], ...], text: str) -> str | None:
    for pattern, message in patterns:
        match = pattern.match(text)
        if match:
            return _(message).format(**match.groupdict())
    return None


def _hint(exc: BadParameter) -> str | None:
    """The parameter an error names, as Click names it: ``'side'``, ``'--reason'`` or ``'-c' / '--campaign'``."""
    from campaign.cli.argv import names_in_language

    hint: str | Sequence[str] | None
    if exc.param_hint is not None:
        hint = exc.param_hint
    elif exc.param is not None:
        with names_in_language([exc.param]):  # an argument by its name in the reader's words
            hint = exc.param.get_error_hint()
    else:
        hint = None
    if hint is not None and not isinstance(hint, str):
        hint = " / ".join(repr(x) for x in hint)
    if hint:
        envvar = _ENVVAR.search(hint)
        if envvar:
            hint = hint[: envvar.start()] + " " + _("(env var: {name})").format(name=envvar["name"])
    return str(hint) if hint else None


def _reason(text: str) -> str:
    return _said(_REASONS, text) or text


def _missing(exc: MissingParameter) -> str | None:
    kind = exc.param_type or (exc.param.param_type_name if exc.param is not None else "parameter")
    if kind not in _MISSING:
        return None
    hint = _hint(exc)
    extra = exc.param.get_missing_message(ctx=exc.ctx) if exc.param is not None else ""
    if not hint or exc.message or (extra and not extra.startswith("Choose from:")):
        return None  # a parameter's own words: shown as Click made them
    said = _(_MISSING[kind]).format(name=hint)
    if extra:  # Typer lists a choice's values after it
        said += " " + _("Choose from:") + extra.removeprefix("Choose from:")
    return said


def said(exc: UsageError) -> str | None:  # noqa: PLR0911 (one sentence per kind of Click's errors)
    """``exc``'s message in the reader's language, or None (English, or a message not known here)."""
    if language() == DEFAULT:
        return None
    from typer._click.exceptions import BadParameter, MissingParameter, NoSuchOption

    kind = type(exc).__name__  # the class itself, not its subclasses: each says its own words
    if kind == "NoSuchOption" and isinstance(exc, NoSuchOption):
        if exc.message != f"No such option: {exc.option_name}":
            return None
        words = _("No such option: {name}").format(name=exc.option_name)
        if exc.possibilities:
            words += " " + _("(Possible options: {options})").format(options=", ".join(sorted(exc.possibilities)))
        return words
    if kind == "MissingParameter" and isinstance(exc, MissingParameter):
        return _missing(exc)
    if kind == "BadParameter" and isinstance(exc, BadParameter):
        hint = _hint(exc)
        reason = _reason(exc.message)
        if hint:
            return _("Invalid value for {name}: {reason}").format(name=hint, reason=reason)
        return _("Invalid value: {reason}").format(reason=reason)
    if kind in ("UsageError", "BadOptionUsage", "BadArgumentUsage"):
        match = _SUGGESTED.match(exc.message)
        if match:
            no_such = _("No such command {name}.").format(name=match["name"])
            return no_such + " " + _("Did you mean {options}?").format(options=match["options"])
        return _said(_FAILED, exc.message)
    return None


def panel_words() -> None:
    """Typer's words around an error in the reader's language (set each time: one process may read several)."""
    from typer import rich_utils

    for name, english in PANEL_WORDS.items():
        setattr(rich_utils, name, _(english))


def in_language(exc: BaseException) -> BaseException:
    """The exception to show for ``exc``: a usage error saying the same in the reader's language (the same
    context, so the same usage line and hint, and the same exit status), or ``exc`` itself."""
    from typer._click.exceptions import UsageError

    if type(exc).__name__ == "NoArgsIsHelpError" or not isinstance(exc, UsageError):
        return exc
    panel_words()
    words = said(exc)
    if words is None:
        return exc
    shown = UsageError(words, exc.ctx)
    shown.exit_code = exc.exit_code
    return shown
