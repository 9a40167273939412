"""The envelope every event travels in, and the hash chain that links a campaign's events.

``hash = sha256(prev_hash + canonical_json(envelope without hash))``. The global ``position`` is left out
of the hashed envelope on purpose: it belongs to one database, so an exported campaign imported elsewhere
(or a branch copied to a new stream) keeps its chain.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, NamedTuple, TypedDict

from events.canonical import dumps_trusted

if TYPE_CHECKING:
    from events.recorded import JsonObject, JsonValue

GENESIS_HASH = "0" * 64
"""The ``prev_hash`` of a campaign's first event."""


class NewEvent(NamedTuple):
    """An event about to be appended: its stable type name, schema version and JSON payload.

    A NamedTuple, as :class:`RecordedEvent` is: one is built per event appended, and a frozen dataclass's
    ``__init__`` cost more than the registry's whole check of the payload.
    """

    type: str
    payload: JsonObject
    schema_version: int = 1
    checked: bool = False
    """True when the payload was already checked to hold only event JSON types (the registry does this)."""
    payload_json: bytes = b""
    """The payload's canonical bytes when already made (the registry makes them while checking)."""


class Envelope(TypedDict):
    """A recorded event as plain data (:meth:`RecordedEvent.as_dict`)."""

    position: int
    campaign_id: str
    seq: int
    type: str
    schema_version: int
    payload: dict[str, JsonValue]
    meta: dict[str, JsonValue]
    prev_hash: str
    hash: str


class RecordedEvent(NamedTuple):
    """An event as stored: its place in the log and in its campaign's chain.

    A NamedTuple rather than a dataclass: one is built for every event appended or read, and a tuple is
    five times cheaper to build. ``payload_json`` and ``meta_json`` are the exact stored bytes that were hashed.
    """

    position: int
    campaign_id: str
    seq: int
    type: str
    schema_version: int
    payload: JsonObject
    meta: JsonObject
    """Who entered the command and how: ``actor``, ``command``, ``recorded_at`` (informational) and ``command_id``
    as this program records them; an imported log's may hold other keys, so each is read narrowed (events.recorded)."""
    prev_hash: str
    hash: str
    payload_json: bytes = b""
    meta_json: bytes = b""

    def as_dict(self) -> Envelope:
        """The envelope as plain data (what ``--json`` prints and ``export`` writes)."""
        return {
            "position": self.position,
            "campaign_id": self.campaign_id,
            "seq": self.seq,
            "type": self.type,
            "schema_version": self.schema_version,
            "payload": dict(self.payload),
            "meta": dict(self.meta),
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


def envelope_bytes(
    *,
    campaign_id: str,
    seq: int,
    type: str,
    schema_version: int,
    payload_json: bytes,
    meta_json: bytes,
    prev_hash: str,
) -> bytes:
    """Canonical JSON of the envelope without its hash, assembled from already-canonical parts.

    Equal, byte for byte, to ``canonical_json`` of the same envelope as a dict (a property test holds
    this); assembling it avoids serialising the payload twice on the append path.
    """
    return b"".join(
        (
            b'{"campaign_id":',
            dumps_trusted(campaign_id),
            b',"meta":',
            meta_json,
            b',"payload":',
            payload_json,
            b',"prev_hash":',
            dumps_trusted(prev_hash),
            b',"schema_version":',
            str(schema_version).encode(),
            b',"seq":',
            str(seq).encode(),
            b',"type":',
            dumps_trusted(type),
            b"}",
        )
    )


def chain_hash(prev_hash: str, envelope: bytes) -> str:
    return hashlib.sha256(prev_hash.encode("ascii") + envelope).hexdigest()


def compute_hash(event: RecordedEvent) -> str:
    """Recompute an event's hash from its stored parts (what ``verify`` does)."""
    return chain_hash(
        event.prev_hash,
        envelope_bytes(
            campaign_id=event.campaign_id,
            seq=event.seq,
            type=event.type,
            schema_version=event.schema_version,
            payload_json=event.payload_json or dumps_trusted(event.payload),
            meta_json=event.meta_json or dumps_trusted(event.meta),
            prev_hash=event.prev_hash,
        ),
    )
