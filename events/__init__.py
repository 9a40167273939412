"""The log: envelope, event types, store, hash chain and dice.

An event family registers its types with :data:`events.registry.registry` when it is imported: the registry
imports one when a type of it is first asked for. The registry (pydantic's model machinery) is imported from
``events.registry`` by what needs it, not here, and the store's interface when first asked for: a command served
by the read models (``status``) loads neither (start-up time).
"""

import importlib
from typing import TYPE_CHECKING

from events.envelope import GENESIS_HASH, NewEvent, RecordedEvent
from events.errors import (
    CampaignError,
    ConcurrencyError,
    DiceError,
    EventSchemaError,
    InvalidInputError,
    NotFoundError,
    VerificationError,
)

if TYPE_CHECKING:
    from events.store import AppendResult, EventStore, Head

__all__ = [
    "GENESIS_HASH",
    "AppendResult",
    "CampaignError",
    "ConcurrencyError",
    "DiceError",
    "EventSchemaError",
    "EventStore",
    "Head",
    "InvalidInputError",
    "NewEvent",
    "NotFoundError",
    "RecordedEvent",
    "VerificationError",
]


def __getattr__(name: str) -> type:
    """The store's interface (``AppendResult``, ``EventStore``, ``Head``), imported when first asked for."""
    if name in ("AppendResult", "EventStore", "Head"):
        found: type = getattr(importlib.import_module("events.store"), name)  # each a class (TYPE_CHECKING above)
        return found
    raise AttributeError(f"module 'events' has no attribute {name!r}")
