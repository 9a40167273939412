"""The command line's side of :mod:`events.limits`: every argument of every command checked before it runs.

Which rule applies goes by the parameter's type, as the command models' inputs do (``campaign/rulesets/
inputs.py``): a parameter typed as a name (``UnitName``, ``CampaignName``…, alone or a list of them) is held to
the name rule and trimmed, in the words of the argument as typed ("psion must not be empty"); a command id
(:class:`CommandId`) to its rule; a number to the bounds of every number; everything else as text. A list
option's items are ``NAME=VALUE`` forms: text, at most 200 characters (the widest name column); the names inside
them are held to the name rule by the command's model, whichever way the command comes in.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

from campaign.rulesets.kinds import Means
from events.limits import check_command_id, check_name, check_number, check_text, check_utf8

LIST_ITEM_LIMIT = 200


class CommandId:
    """The marker of a command id (``--command-id``): held to the command id's rule, not a text's."""


def _label(parameter: str) -> str:
    return parameter.rstrip("_").replace("_", "-")


@functools.cache
def _meanings(fn: Callable[..., Any]) -> dict[str, Means | type[CommandId] | None]:
    """What each parameter of ``fn`` is, by its type: the :class:`~campaign.rulesets.kinds.Means` it is marked
    with (a name, or a list of names), a command id, or nothing said."""
    return {parameter: _marker(hint) for parameter, hint in typing.get_type_hints(fn, include_extras=True).items()}


def _marker(hint: object) -> Means | type[CommandId] | None:
    for part in (hint, *typing.get_args(hint)):  # Annotated[…], X | None, list[…]
        for mark in getattr(part, "__metadata__", ()):
            if mark is CommandId or isinstance(mark, Means):
                return mark
        if part is not hint and (found := _marker(part)) is not None:
            return found
    return None


def checked_arguments(fn: Callable[..., Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """``fn``'s arguments with names trimmed, or :class:`~events.errors.InvalidInputError` naming the first bad
    one."""
    meanings = _meanings(fn)
    out = dict(arguments)
    for parameter, value in arguments.items():
        what = _label(parameter)
        meaning = meanings.get(parameter)
        names = isinstance(meaning, Means) and meaning.kind.names
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int):
            check_number(value, what)
        elif isinstance(value, Path):
            check_utf8(str(value), what)
        elif isinstance(value, str):
            if meaning is CommandId:
                check_command_id(value)
            elif names:
                out[parameter] = check_name(value, what)
            else:
                check_text(value, what)
        elif isinstance(value, list | tuple):
            items = []
            for item in value:
                if isinstance(item, str) and names:
                    items.append(check_name(item, what))
                    continue
                if isinstance(item, str):
                    check_text(item, what, LIST_ITEM_LIMIT)
                elif isinstance(item, int) and not isinstance(item, bool):
                    check_number(item, what)
                items.append(item)
            out[parameter] = type(value)(items) if isinstance(value, tuple) else items
    return out
