"""The log: envelope, event types, store, hash chain and dice.

Importing :mod:`events` registers every event family with :data:`events.registry.registry`.
"""

from events import families
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
    "families",
    "registry",
]
