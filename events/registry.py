"""Event types: frozen pydantic models with explicit, stable names, and their schema versions.

A stored row names its type (``"dice.rolled"``) and its ``schema_version``; never a class path, so a
class can be renamed or moved without breaking old logs. Old versions are read through pure
``dict -> dict`` upcasters, one per version step.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from typing_extensions import TypeAliasType

from events.canonical import model_holds_event_json, payload_bytes
from events.envelope import NewEvent, RecordedEvent
from events.errors import EventSchemaError

JsonValue = TypeAliasType("JsonValue", "int | str | bool | list[JsonValue] | dict[str, JsonValue] | None")
"""What event fields of free shape may hold: JSON without floats (strict validation refuses them)."""


class Event(BaseModel):
    """Base of every event type. Subclasses set ``event_name`` and, when they change, ``schema_version``."""

    # Built the first time an event of the type is encoded or decoded, not at import: a command meets a few of
    # the hundred types, and building them all cost every command's start-up (issue 13).
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, defer_build=True)

    event_name: ClassVar[str]
    schema_version: ClassVar[int] = 1


E = TypeVar("E", bound=type[Event])
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


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
meets a few of the hundred types, and declaring them all cost every command's start-up (issue 13)."""


class EventRegistry:
    """Maps stable names to event classes and holds the upcasters between schema versions. With ``families``
    (an event name's prefix → the modules of :mod:`events.families` that declare such types), the family of
    a type not registered yet is imported, and so registers, when the type is first asked for."""

    def __init__(self, families: Mapping[str, tuple[str, ...]] | None = None) -> None:
        self._types: dict[str, type[Event]] = {}
        self._upcasters: dict[tuple[str, int], Upcaster] = {}
        self._families = dict(families or {})

    def _load(self, prefixes: Collection[str]) -> None:
        # Imported every time asked (a dictionary lookup once imported), never marked done before: a thread that
        # meets a family another thread is importing waits for Python's import lock, then finds its types.
        for prefix in prefixes:
            for module in self._families.get(prefix, ()):
                importlib.import_module(f"events.families.{module}")

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
            raise EventSchemaError(f"unknown event type {name!r}") from None

    def encode(self, event: Event) -> NewEvent:
        cls = type(event)
        if self._types.get(cls.event_name) is not cls:
            raise EventSchemaError(f"{cls.__name__} is not registered")
        # The JSON form (every backend hands back the same payload), straight from the serializer: model_dump's
        # argument handling around it cost half as much again.
        payload = event.__pydantic_serializer__.to_python(event, mode="json")
        # Checked and made canonical here, once: the store hashes and stores these very bytes.
        payload_json = payload_bytes(payload, model_holds_event_json(cls))
        return NewEvent(cls.event_name, payload, cls.schema_version, True, payload_json)

    def upcast(self, name: str, version: int, payload: Mapping[str, Any]) -> dict[str, Any]:
        cls = self.cls_for(name)
        if not isinstance(payload, Mapping):
            raise EventSchemaError(f"{name} v{version} payload is not a JSON object")
        data = dict(payload)
        if version > cls.schema_version:
            raise EventSchemaError(
                f"{name} v{version} is newer than this program knows (v{cls.schema_version}); upgrade it"
            )
        while version < cls.schema_version:
            try:
                step = self._upcasters[(name, version)]
            except KeyError:
                raise EventSchemaError(f"no upcaster for {name} v{version}") from None
            data = step(data)
            version += 1
        return data

    def decode(self, event: RecordedEvent) -> Event:
        """The typed event of a stored one, upcast to the current schema version."""
        return self.decode_payload(event.type, event.schema_version, event.payload)

    def decode_payload(self, name: str, version: int, payload: Mapping[str, Any]) -> Event:
        cls = self.cls_for(name)
        data = self.upcast(name, version, payload)
        try:
            return cls.model_validate(data, strict=False)
        except ValidationError as exc:
            raise EventSchemaError(f"{name} v{version} payload does not match its schema: {exc}") from None


registry = EventRegistry(FAMILIES)
"""The registry of every event type the program knows. Families register into it at import, each imported when
one of its types is first asked for (:data:`FAMILIES`)."""
