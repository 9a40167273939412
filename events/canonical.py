"""Canonical JSON: the byte form that is hashed and stored.

Sorted keys, compact separators, UTF-8, and only integers, strings, booleans, null, lists and objects:
a float would make two replays disagree across platforms, so it is refused rather than rounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

import orjson

from events.errors import EventSchemaError
from events.recorded import JsonValue

_OPTIONS = orjson.OPT_SORT_KEYS
_TRUSTED_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER
_LIMIT = 2**63


def check_json_value(value: object, path: str = "$") -> None:
    """Raise :class:`EventSchemaError` unless ``value`` holds only JSON types allowed in events.

    On the append path for every event, so scalars are checked by exact type inline and only containers
    recurse (a bool is an int subclass and is allowed; any other int subclass or a float is not).
    """
    kind = type(value)
    # Narrowed by ``type(value) is``, as mypy reads it (``kind is dict`` would not narrow; an isinstance would let a
    # subclass in): containers only, and a bound call to type() is nothing beside the loop it guards.
    if type(value) is dict or type(value) is list or type(value) is tuple:
        is_object = kind is dict
        pairs: Iterable[tuple[object, object]] = value.items() if type(value) is dict else enumerate(value)
        for key, item in pairs:
            if is_object and type(key) is not str:
                raise EventSchemaError.saying("{path}: object key {key!r} is not a string", path=path, key=key)
            item_kind = type(item)
            if item_kind is str or item is None or item_kind is bool:
                continue
            if type(item) is int and -_LIMIT <= item < _LIMIT:  # narrowed so, as mypy reads it
                continue
            check_json_value(item, f"{path}.{key}" if is_object else f"{path}[{key}]")
        return
    if kind is str or value is None or kind is bool:
        return
    if type(value) is int:
        if not -_LIMIT <= value < _LIMIT:
            raise EventSchemaError.saying("{path}: integer {value} does not fit in 64 bits", path=path, value=value)
        return
    if isinstance(value, float):
        raise EventSchemaError.saying(
            "{path}: floats are not allowed in events (got {value!r}); use integers", path=path, value=value
        )
    raise EventSchemaError.saying("{path}: {kind} is not allowed in events", path=path, kind=kind.__name__)


def canonical_json(value: Mapping[str, object] | list[JsonValue]) -> bytes:
    """The canonical bytes of ``value`` after checking it holds no floats or foreign types."""
    check_json_value(value)
    return orjson.dumps(value, option=_OPTIONS)


def dumps_trusted(value: object) -> bytes:
    """Canonical bytes of a value already checked by :func:`check_json_value` (hot path)."""
    return orjson.dumps(value, option=_OPTIONS)


_SCALAR_SCHEMAS = frozenset({"str", "int", "bool", "none"})
_MODEL_SCHEMAS = frozenset({"model", "model-field"})


def _json_scalar(value: object) -> bool:
    kind = type(value)
    return value is None or kind is str or kind is bool or (type(value) is int and -_LIMIT <= value < _LIMIT)


def schema_holds_event_json(  # noqa: PLR0911 (one case per core schema keyword)
    schema: Mapping[str, Any],
    definitions: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    models: bool = True,
    seen: frozenset[str] = frozenset(),
) -> bool:
    """True when every value a model of this pydantic core ``schema`` can hold dumps (``mode="json"``) to event
    JSON but for integers' size: no float, no ``Any``, no custom serializer or validator, no default
    factory but an empty list, dict or tuple. ``models=False`` asks more: that the value is made of dicts with
    string keys, lists, tuples and scalars only (no model inside), so that its JSON form is the value itself with
    tuples as lists (what the registry's encoder reads off a model's fields). ``definitions``: the schemas a
    ``definition-ref`` names (a ``definitions`` node at the top brings its own); ``seen``: those being walked.

    The one walker of core schemas, conservative: any schema node it does not know answers False, and such
    models keep the full value check (or their serializer).
    """
    if "serialization" in schema:
        return False
    kind = schema.get("type")
    known = definitions or {}

    def holds(inner: Mapping[str, Any]) -> bool:
        return schema_holds_event_json(inner, known, models=models, seen=seen)

    if kind in _SCALAR_SCHEMAS:
        return True
    if kind == "definition-ref":
        ref = schema["schema_ref"]
        return ref in seen or (
            ref in known and schema_holds_event_json(known[ref], known, models=models, seen=seen | {ref})
        )
    if kind == "nullable" or (models and kind in _MODEL_SCHEMAS):
        return holds(schema["schema"])
    if kind == "model-fields" and models:
        return (
            not schema.get("computed_fields")
            and "extras_schema" not in schema
            and all(holds(field) for field in schema["fields"].values())
        )
    if kind == "default":
        if "default_factory" in schema:
            # An empty list, dict or tuple is event JSON; what any other factory makes is not known here.
            return schema["default_factory"] in (list, dict, tuple) and holds(schema["schema"])
        default = schema["default"]
        items = default if type(default) in (tuple, list) else (default,)
        return all(_json_scalar(item) for item in items) and holds(schema["schema"])
    if kind == "union":
        return all(holds(c[0] if isinstance(c, tuple | list) else c) for c in schema["choices"])
    if kind == "definitions":
        inner = {**known, **{d["ref"]: d for d in schema["definitions"]}}
        return schema_holds_event_json(schema["schema"], inner, models=models, seen=seen)
    if kind == "dict":
        keys, values = schema.get("keys_schema"), schema.get("values_schema")
        return (
            keys is not None
            and values is not None
            and keys.get("type") == "str"
            and "serialization" not in keys
            and holds(values)
        )
    if kind == "list":
        items_schema = schema.get("items_schema")
        return items_schema is not None and holds(items_schema)
    if kind == "tuple":
        items_schemas = schema.get("items_schema")
        return items_schemas is not None and all(holds(s) for s in items_schemas)
    if kind == "literal":
        return all(_json_scalar(value) for value in schema["expected"])
    return False


@cache
def model_holds_event_json(cls: type) -> bool:
    """:func:`schema_holds_event_json` of a pydantic model class, worked out once per class."""
    return schema_holds_event_json(cls.__pydantic_core_schema__)  # type: ignore[attr-defined]


def payload_bytes(payload: Mapping[str, object], trusted: bool) -> bytes:
    """The canonical bytes of an event payload, checked as :func:`canonical_json` checks it.

    ``trusted`` says the payload comes from a model whose schema holds only event JSON
    (:func:`schema_holds_event_json`): then only integers' size is left to check, and orjson's strict integers
    refuse anything beyond 2**53 (rare in events; such a payload takes the full check).
    """
    if trusted:
        try:
            # Copied into an exactly-sized bytes object: orjson's own result sits in a larger malloc'd buffer,
            # and keeping a thousand of those alive until the insert cost more than hashing them.
            return b"%b" % orjson.dumps(payload, option=_TRUSTED_OPTIONS)
        except orjson.JSONEncodeError:
            pass
    check_json_value(payload)
    try:
        return b"%b" % orjson.dumps(payload, option=_OPTIONS)
    except orjson.JSONEncodeError as exc:  # what check_json_value lets through and orjson does not (a cycle)
        raise EventSchemaError.saying("$: not event JSON ({why})", why=str(exc)) from None
