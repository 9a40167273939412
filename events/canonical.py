"""Canonical JSON: the byte form that is hashed and stored.

Sorted keys, compact separators, UTF-8, and only integers, strings, booleans, null, lists and objects:
a float would make two replays disagree across platforms, so it is refused rather than rounded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from events.errors import EventSchemaError

_OPTIONS = orjson.OPT_SORT_KEYS
_LIMIT = 2**63


def check_json_value(value: Any, path: str = "$") -> None:
    """Raise :class:`EventSchemaError` unless ``value`` holds only JSON types allowed in events.

    On the append path for every event, so scalars are checked by exact type inline and only containers
    recurse (a bool is an int subclass and is allowed; any other int subclass or a float is not).
    """
    kind = type(value)
    if kind is dict or kind is list or kind is tuple:
        is_object = kind is dict
        for key, item in value.items() if is_object else enumerate(value):
            if is_object and type(key) is not str:
                raise EventSchemaError(f"{path}: object key {key!r} is not a string")
            item_kind = type(item)
            if item_kind is str or item is None or item_kind is bool:
                continue
            if item_kind is int and -_LIMIT <= item < _LIMIT:
                continue
            check_json_value(item, f"{path}.{key}" if is_object else f"{path}[{key}]")
        return
    if kind is str or value is None or kind is bool:
        return
    if kind is int:
        if not -_LIMIT <= value < _LIMIT:
            raise EventSchemaError(f"{path}: integer {value} does not fit in 64 bits")
        return
    if isinstance(value, float):
        raise EventSchemaError(f"{path}: floats are not allowed in events (got {value!r}); use integers")
    raise EventSchemaError(f"{path}: {kind.__name__} is not allowed in events")


def canonical_json(value: Mapping[str, Any] | list[Any]) -> bytes:
    """The canonical bytes of ``value`` after checking it holds no floats or foreign types."""
    check_json_value(value)
    return orjson.dumps(value, option=_OPTIONS)


def dumps_trusted(value: Any) -> bytes:
    """Canonical bytes of a value already checked by :func:`check_json_value` (hot path)."""
    return orjson.dumps(value, option=_OPTIONS)


def loads(data: bytes | str) -> Any:
    return orjson.loads(data)
