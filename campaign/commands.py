"""Commands are recorded with their inputs, so that any of them can be run again later.

A service method marked ``@command("fs.attack")`` has its arguments (as JSON) written into the log as a
``timeline.command_issued`` event ahead of its effects. ``REGISTRY`` maps the name back to the method, so
``amend`` and ``audit`` can re-run it on a campaign's history with its recorded dice.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any, TypeVar

from pydantic import BaseModel

from events.store import AppendResult

F = TypeVar("F", bound=Callable[..., Any])

CURRENT: ContextVar[tuple[str, dict[str, Any]] | None] = ContextVar("campaign_command", default=None)
"""The command being run by this call stack (set by the decorator, read by ``Ledger.run``)."""

NOT_INPUTS = frozenset({"self", "info", "table", "command_id"})


@dataclasses.dataclass(frozen=True)
class Registered:
    name: str
    service: str
    method: str
    decoders: Mapping[str, Callable[[Any], Any]]


REGISTRY: dict[str, Registered] = {}


def to_json(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def command(name: str, **decoders: Callable[[Any], Any]) -> Callable[[F], F]:
    """Record the decorated service method's inputs as ``name``; ``decoders`` rebuild typed arguments."""

    def decorate(fn: F) -> F:
        signature = inspect.signature(fn)
        service, method = fn.__qualname__.split(".")[0], fn.__name__

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if CURRENT.get() is not None:  # a command calling another records only the outer one
                return fn(*args, **kwargs)
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            command_id, info = bound.arguments.get("command_id"), bound.arguments.get("info")
            if command_id is not None and info is not None:
                # A command id seen before: the earlier result, before any check that its own effects would fail
                # (a retried transfer finds its men gone, a retried muster its name taken).
                store = getattr(bound.arguments["self"], "ledger", bound.arguments["self"]).store
                if seen := store.command_events(info.campaign_id, command_id):
                    return AppendResult(seen, duplicate=True)
            inputs = {k: to_json(v) for k, v in bound.arguments.items() if k not in NOT_INPUTS}
            token = CURRENT.set((name, inputs))
            try:
                return fn(*args, **kwargs)
            finally:
                CURRENT.reset(token)

        REGISTRY[name] = Registered(name, service, method, decoders)
        return wrapper  # type: ignore[return-value]

    return decorate
