"""Reading a recorded payload's free-shape JSON (:data:`JsonValue`) by the shape a reader expects.

A reader of a field of free shape (a rule's ``inputs`` and ``outcome``, a summary's row) knows what its rule put
there (a value of any type is taken: a row made in memory holds tuples where its JSON holds arrays); each
function here hands the value on typed when it has that shape and raises ``TypeError`` when it has not, as
Python's own ``int(value)`` or ``value[key]`` would on a value of another shape, so a reader that says a record
of another shape as recorded (it catches ``TypeError``, ``KeyError``, ``IndexError``, ``ValueError``) goes on
doing so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from typing_extensions import TypeAliasType

# Declared here, not beside the event types: a reader of the read models (`status`) narrows payloads without
# loading the registry and pydantic's event models (tests/e2e/test_startup.py holds it to that).
JsonValue = TypeAliasType("JsonValue", "int | str | bool | list[JsonValue] | dict[str, JsonValue] | None")
"""A JSON value as an event holds it (integers and strings: no floats in the log)."""

JsonObject = Mapping[str, JsonValue]
"""A JSON object as read: a payload, or a field of free shape holding one."""


def obj(value: object) -> JsonObject:
    """A recorded object."""
    if isinstance(value, dict):
        return value
    raise TypeError(f"not a JSON object: {value!r}")


def seq(value: object) -> Sequence[JsonValue]:
    """A recorded array (a tuple too: a payload built in memory, not read back from the log, may hold one)."""
    if isinstance(value, list | tuple):
        return value
    raise TypeError(f"not a JSON array: {value!r}")


def whole(value: object) -> int:
    """``int(value)`` of a recorded number (or numeral, or boolean), as Python says it."""
    if type(value) is int:  # what a JSON number reads as: handed on as int() would, without its call (folds)
        return value
    if isinstance(value, int | str):
        return int(value)
    raise TypeError(f"not a whole number: {value!r}")


def maybe_whole(value: object) -> int | None:
    """A recorded whole number, or null (a field older records leave out: ``.get`` hands None)."""
    return None if value is None else whole(value)


def texts(value: object) -> list[str]:
    """A recorded array of strings (what ``", ".join`` takes)."""
    items = seq(value)
    if all(isinstance(item, str) for item in items):
        return [str(item) for item in items]
    raise TypeError(f"not an array of strings: {value!r}")


def text(value: object) -> str:
    """A recorded string (a key of another recorded object, say)."""
    if isinstance(value, str):
        return value
    raise TypeError(f"not a JSON string: {value!r}")


def flag(value: object) -> bool:
    """A recorded boolean."""
    if isinstance(value, bool):
        return value
    raise TypeError(f"not a JSON boolean: {value!r}")


def maybe_text(value: object) -> str | None:
    """A recorded string, or null (a field a fact may leave empty, or a key missing: ``.get`` hands None)."""
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"not a JSON string or null: {value!r}")
