"""Which language a command-line reader reads: ``--lang``, then ``CAMPAIGN_LANG``, then the locale, then English.

The locale is read as POSIX programs read it for their messages: ``LC_ALL`` overrides ``LC_MESSAGES``, which
overrides ``LANG``; ``ru_RU.UTF-8`` is Russian, ``pl_PL`` Polish, ``C``, ``POSIX`` and any language the program
does not speak are English. A language asked for by name (``--lang``, ``CAMPAIGN_LANG``) must be one of ours:
``--lang de`` is refused in words, not silently read as English. ``--json`` is language-neutral: a command run
with it reads English, whatever was chosen, so scripts see the same words everywhere.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from campaign.i18n import DEFAULT, LANGUAGES, _

ENVIRONMENT = "CAMPAIGN_LANG"
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def named(value: str, where: str = "--lang") -> str:
    """A language given by name: ``ru``, ``RU``, ``ru_RU.UTF-8``, ``pl-PL`` …; refused unless the program speaks it."""
    primary = value.strip().lower().replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
    if primary not in LANGUAGES:
        from events.errors import InvalidInputError  # only to refuse: `campaign --help` imports no `events`

        raise InvalidInputError(
            _("{where} is one of {languages}, not {given!r}").format(
                where=where, languages=", ".join(LANGUAGES), given=value
            )
        )
    return primary


def from_locale(environ: Mapping[str, str]) -> str:
    """The messages' language of the POSIX locale in ``environ`` (English when it is none of ours)."""
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "").strip()
        if value:  # the first one set decides, as for any POSIX program's messages
            primary = value.lower().split(".")[0].split("@")[0].split("_")[0]
            return primary if primary in LANGUAGES else DEFAULT
    return DEFAULT


def chosen(option: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The reader's language: ``--lang`` if given, else ``CAMPAIGN_LANG``, else the locale, else English."""
    env = os.environ if environ is None else environ
    if option:
        return named(option)
    if env.get(ENVIRONMENT, "").strip():
        return named(env[ENVIRONMENT], ENVIRONMENT)
    return from_locale(env)


def in_arguments(args: Sequence[str]) -> tuple[str | None, bool]:
    """``--lang`` as typed anywhere among a command line's arguments (before a ``--``), and whether ``--json`` is
    there: the language must be known before the help is made, which is before Click parses anything."""
    option: str | None = None
    as_json = False
    tokens = list(args)
    for i, typed in enumerate(tokens):
        if typed == "--":
            break
        if typed == "--json":
            as_json = True
        elif typed == "--lang" and i + 1 < len(tokens):
            option = tokens[i + 1]
        elif typed.startswith("--lang="):
            option = typed.removeprefix("--lang=")
    return option, as_json
