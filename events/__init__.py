"""The log: envelope, event types, store, hash chain and dice.

An event family registers its types with :data:`events.registry.registry` when it is imported: the registry
imports one when a type of it is first asked for.
"""

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
from events.registry import Event, registry
from events.store import AppendResult, EventStore, Head

__all__ = [
    "GENESIS_HASH",
    "AppendResult",
    "CampaignError",
    "ConcurrencyError",
    "DiceError",
    "Event",
    "EventSchemaError",
    "EventStore",
    "Head",
    "InvalidInputError",
    "NewEvent",
    "NotFoundError",
    "RecordedEvent",
    "VerificationError",
    "registry",
]
