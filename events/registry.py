"""Event types: frozen pydantic models with explicit, stable names, and their schema versions.

A stored row names its type (``"dice.rolled"``) and its ``schema_version``; never a class path, so a
class can be renamed or moved without breaking old logs. Old versions are read through pure
``dict -> dict`` upcasters, one per version step.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar, NamedTuple, TypeVar

import orjson
from orjson import JSONEncodeError
from pydantic import BaseModel, ConfigDict, ValidationError

from events.canonical import model_holds_event_json, payload_bytes, schema_holds_event_json
from events.envelope import NewEvent, RecordedEvent
from events.errors import EventSchemaError
from events.recorded import JsonObject, JsonValue


class Event(BaseModel):
    """Base of every event type. Subclasses set ``event_name`` and, when they change, ``schema_version``."""

    # Built the first time an event of the type is encoded or decoded, not at import: a command meets a few of
    # the hundred types, and building them all cost every command's start-up.
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, defer_build=True)

    event_name: ClassVar[str]
    schema_version: ClassVar[int] = 1


E = TypeVar("E", bound=type[Event])
Upcaster = Callable[[dict[str, JsonValue]], dict[str, JsonValue]]
"""A pure step from one schema version's payload to the next's (it reads the old fields narrowed: events.recorded)."""
_new_event = tuple.__new__
_dumps = orjson.dumps
_STRICT_SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER
_SCALARS = frozenset({"str", "int", "bool", "none", "literal"})


def _flat_sequence(schema: Mapping[str, Any]) -> bool:
    """A list or tuple of scalars (or of None-or-scalars): ``list(value)`` is its JSON form."""
    items = schema.get("items_schema")
    if schema.get("type") == "list":
        items = [items] if items is not None else None
    if schema.get("type") not in ("list", "tuple") or "serialization" in schema or not items:
        return False
    for item in items:
        value = item["schema"] if item.get("type") == "nullable" and "serialization" not in item else item
        if not (schema_holds_event_json(value, models=False) and value.get("type") in _SCALARS):
            return False
    return True


def _json_copy(value: object) -> object:
    """A plain value (:func:`~events.canonical.schema_holds_event_json`, ``models=False``) as JSON holds it:
    dicts and lists copied, tuples made lists."""
    # ``type(value) is``, each time: what mypy narrows by (a name bound to type(value) it does not follow), and no
    # isinstance, which cost a sixth of the copy and would take a subclass in.
    if type(value) is dict:
        return {key: _json_copy(item) for key, item in value.items()}
    if type(value) is list or type(value) is tuple:
        return [_json_copy(item) for item in value]
    return value


class _EncodePlan(NamedTuple):
    """How :meth:`EventRegistry.encode` makes a type's payload, worked out once per type.

    A strict model whose every field is plain (:func:`~events.canonical.schema_holds_event_json`, ``models=False``)
    holds in ``__dict__`` what its serializer's JSON mode returns, but for sequences, which become lists, and
    containers, which are copied: ``flat`` names the fields that are sequences of scalars (``list(value)``),
    ``deep`` the other containers (:func:`_json_copy`); ``fields`` is how many values the model holds (0: some
    field is not plain, and the serializer makes the payload). A test holds both ways equal for every registered
    type.
    """

    name: str
    version: int
    trusted: bool
    fields: int
    flat: tuple[str, ...]
    deep: tuple[str, ...]

    @classmethod
    def of(cls, model: type[Event]) -> _EncodePlan:
        trusted = model_holds_event_json(model)  # builds the model's schema when deferred
        core: Mapping[str, Any] = model.__pydantic_core_schema__
        definitions: dict[str, Any] = {}
        if core.get("type") == "definitions":
            definitions = {d["ref"]: d for d in core["definitions"]}
            core = core["schema"]
        fields: Mapping[str, Any] = {}
        if core.get("type") == "model" and core.get("config", {}).get("strict") and "serialization" not in core:
            inner = core["schema"]
            if inner.get("type") == "model-fields" and not inner.get("computed_fields"):
                fields = inner["fields"]
        flat: list[str] = []
        deep: list[str] = []
        for key, field in fields.items():
            schema = field["schema"]
            if set(field) - {"type", "schema", "metadata"} or not schema_holds_event_json(
                schema, definitions, models=False
            ):
                break  # an alias, an exclusion, a serializer of its own, or a value that is not plain
            while schema.get("type") in ("default", "nullable"):
                schema = schema["schema"]
            if schema.get("type") in _SCALARS:
                continue
            (flat if _flat_sequence(schema) else deep).append(key)
        else:
            if fields and trusted:
                return cls(model.event_name, model.schema_version, trusted, len(fields), tuple(flat), tuple(deep))
        return cls(model.event_name, model.schema_version, trusted, 0, (), ())


FAMILIES: Mapping[str, tuple[str, ...]] = {
    "battle": ("battle", "career"),
    "calendar": ("calendar",),
    "campaign": ("campaign",),
    "career": ("career",),
    "dice": ("dice",),
    "economy": ("economy",),
    "membership": ("membership",),
    "morale": ("morale", "economy"),
    "roster": ("roster", "economy"),
    "rules": ("rules",),
    "timeline": ("timeline",),
}
"""The modules of :mod:`events.families` declaring the event types whose names start ``PREFIX.`` (a test checks
it against every type). :data:`registry` imports a family when one of its types is first asked for: a command
meets a few of the hundred types, and declaring them all cost every command's start-up."""


class EventRegistry:
    """Maps stable names to event classes and holds the upcasters between schema versions. With ``families``
    (an event name's prefix → the modules of :mod:`events.families` that declare such types), the family of
    a type not registered yet is imported, and so registers, when the type is first asked for."""

    def __init__(self, families: Mapping[str, tuple[str, ...]] | None = None) -> None:
        self._types: dict[str, type[Event]] = {}
        self._upcasters: dict[tuple[str, int], Upcaster] = {}
        self._plans: dict[type[Event], _EncodePlan] = {}
        self._quick: dict[type[Event], tuple[str, int, int, tuple[str, ...], tuple[str, ...]]] = {}
        """The plans of the types whose payload is read off the model (``fields`` > 0), unpacked."""
        self._families = dict(families or {})
        self.discover: Callable[[], None] | None = None
        """Called once when a type of a family not known here is asked for: the campaign layer sets it to read the
        installed rulesets, whose own event types (named by each one's prefix) it adds as families."""

    def add_family(self, prefix: str, modules: Collection[str]) -> None:
        """The modules (dotted names) declaring the event types whose names start ``PREFIX.``: imported when one
        of them is first asked for."""
        known = self._families.get(prefix, ())
        self._families[prefix] = (*known, *(m for m in modules if m not in known))

    def _load(self, prefixes: Collection[str]) -> None:
        # Imported every time asked (a dictionary lookup once imported), never marked done before: a thread that
        # meets a family another thread is importing waits for Python's import lock, then finds its types.
        if any(p not in self._families for p in prefixes):
            self._discover()
        for prefix in prefixes:
            for module in self._families.get(prefix, ()):
                importlib.import_module(module if "." in module else f"events.families.{module}")

    def _discover(self) -> None:
        discover, self.discover = self.discover, None
        if discover is not None:
            discover()

    def register(self, cls: E) -> E:
        name = getattr(cls, "event_name", None)
        if not isinstance(name, str) or "." not in name:
            raise TypeError(f"{cls.__name__} needs an event_name like 'family.something_happened'")
        if name in self._types:
            raise TypeError(f"event name {name!r} is already registered by {self._types[name].__name__}")
        self._types[name] = cls
        return cls

    def upcaster(self, name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Register the pure function that turns a ``from_version`` payload into ``from_version + 1``."""

        def decorate(fn: Upcaster) -> Upcaster:
            key = (name, from_version)
            if key in self._upcasters:
                raise TypeError(f"an upcaster for {name} v{from_version} is already registered")
            self._upcasters[key] = fn
            return fn

        return decorate

    def names(self) -> list[str]:
        self._discover()
        self._load(list(self._families))
        return sorted(self._types)

    def cls_for(self, name: str) -> type[Event]:
        try:
            return self._types[name]
        except KeyError:
            self._load([name.partition(".")[0]])
        try:
            return self._types[name]
        except KeyError:
            raise EventSchemaError.saying("unknown event type {name!r}", name=name) from None

    def encode(self, event: Event) -> NewEvent:
        # The common way, in one frame: a type whose plan reads the payload off the model (see _EncodePlan), its
        # canonical bytes made and checked by orjson's strict integers. Every event a command appends passes here,
        # and each step below was timed: the payload copied once, sequences made lists in place, the
        # bytes copied out of orjson's oversized buffer (keeping a thousand of those alive cost more than this).
        quick = self._quick.get(type(event))
        if quick is not None:
            payload = event.__dict__.copy()
            name, version, fields, flat, deep = quick
            if len(payload) == fields:
                for key in flat:
                    value = payload[key]
                    if value is not None:
                        payload[key] = [*value]
                if deep:
                    for key in deep:
                        payload[key] = _json_copy(payload[key])
                try:
                    data = b"%b" % _dumps(payload, None, _STRICT_SORTED)
                except JSONEncodeError:  # an integer past 2**53: the full check says whether it fits in 64 bits
                    data = payload_bytes(payload, False)
                return _new_event(NewEvent, (name, payload, version, True, data))
        return self._encode_planned(event)

    def _encode_planned(self, event: Event) -> NewEvent:
        """Every other case: the type's first event (its plan made), a model not built by validation, a type whose
        payload only its serializer can make."""
        cls = type(event)
        plan = self._plans.get(cls)
        if plan is None:
            if self._types.get(cls.event_name) is not cls:
                raise EventSchemaError(f"{cls.__name__} is not registered")
            plan = self._plans[cls] = _EncodePlan.of(cls)
            if plan.fields:
                self._quick[cls] = (plan.name, plan.version, plan.fields, plan.flat, plan.deep)
                return self.encode(event)
        name, version, trusted, fields, flat, deep = plan
        payload: dict[str, Any] | None = None
        if fields:
            # The plain form read off the model's own values (see _EncodePlan): a third of the serializer's cost.
            payload = event.__dict__.copy()
            if len(payload) == fields:
                for key in flat:
                    value = payload[key]
                    if value is not None:
                        payload[key] = list(value)
                for key in deep:
                    payload[key] = _json_copy(payload[key])
            else:  # not built by validation (model_construct): the serializer knows
                payload = None
        if payload is None:
            # The JSON form (every backend hands back the same payload), straight from the serializer:
            # model_dump's argument handling around it cost half as much again.
            payload = event.__pydantic_serializer__.to_python(event, mode="json")
        # Checked and made canonical here, once: the store hashes and stores these very bytes.
        return _new_event(NewEvent, (name, payload, version, True, payload_bytes(payload, trusted)))

    def upcast(self, name: str, version: int, payload: JsonObject) -> dict[str, JsonValue]:
        cls = self.cls_for(name)
        if not isinstance(payload, Mapping):
            raise EventSchemaError.saying("{name} v{version} payload is not a JSON object", name=name, version=version)
        data = dict(payload)
        if version > cls.schema_version:
            raise EventSchemaError.saying(
                "{name} v{version} is newer than this program knows (v{known}); upgrade it",
                name=name,
                version=version,
                known=cls.schema_version,
            )
        while version < cls.schema_version:
            try:
                step = self._upcasters[(name, version)]
            except KeyError:
                raise EventSchemaError.saying("no upcaster for {name} v{version}", name=name, version=version) from None
            data = step(data)
            version += 1
        return data

    def decode(self, event: RecordedEvent) -> Event:
        """The typed event of a stored one, upcast to the current schema version."""
        return self.decode_payload(event.type, event.schema_version, event.payload)

    def decode_payload(self, name: str, version: int, payload: JsonObject) -> Event:
        cls = self.cls_for(name)
        data = self.upcast(name, version, payload)
        try:
            return cls.model_validate(data, strict=False)
        except ValidationError as exc:
            # pydantic's own account of the mismatch is English; the sentence around it is the reader's language
            raise EventSchemaError.saying(
                "{name} v{version} payload does not match its schema: {why}", name=name, version=version, why=str(exc)
            ) from None


registry = EventRegistry(FAMILIES)
"""The registry of every event type the program knows. Families register into it at import, each imported when
one of its types is first asked for (:data:`FAMILIES`)."""
