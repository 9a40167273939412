"""The command line's side of :mod:`events.limits`: every argument of every command checked before it runs.

Which rule applies goes by the parameter's name: names of things (``name``, ``unit``, ``side`` …), command
ids, numbers, and everything else as text. A list option's items are ``NAME=VALUE`` forms: text, at most
200 characters (the widest name column). The names inside a list (``--unit`` of ``dis``/``gf battle-start``,
the NAME of ``fs battle-start --unit NAME=FATIGUE``, ``--join``) are held to the name rule by the command's model
(:data:`events.limits.NAME_LIST_INPUTS`), whichever way the command comes in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from events.limits import NAME_INPUTS, check_command_id, check_name, check_number, check_text, check_utf8

LIST_ITEM_LIMIT = 200


def _label(parameter: str) -> str:
    return parameter.rstrip("_").replace("_", "-")


def checked_arguments(arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments with names trimmed, or :class:`~events.errors.InvalidInputError` naming the first bad one."""
    out = dict(arguments)
    for parameter, value in arguments.items():
        what = _label(parameter)
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int):
            check_number(value, what)
        elif isinstance(value, Path):
            check_utf8(str(value), what)
        elif isinstance(value, str):
            if parameter == "command_id":
                check_command_id(value)
            elif parameter in NAME_INPUTS:
                out[parameter] = check_name(value, what)
            else:
                check_text(value, what)
        elif isinstance(value, list | tuple):
            for item in value:
                if isinstance(item, str):
                    check_text(item, what, LIST_ITEM_LIMIT)
                elif isinstance(item, int) and not isinstance(item, bool):
                    check_number(item, what)
    return out
