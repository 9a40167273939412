"""The log: envelope, event types, store, hash chain and dice.

An event family registers its types with :data:`events.registry.registry` when it is imported: the registry
imports one when a type of it is first asked for. The registry (pydantic's model machinery) is imported from
``events.registry`` by what needs it, not here: a command served by the read models (``status``) never loads it
(issue 13).
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
