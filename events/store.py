"""The narrow port every backend implements: append with optimistic concurrency, and reads.

Backends: :mod:`events.memory` (the fake for unit tests) and :mod:`events.sql` (SQLite and
PostgreSQL through SQLAlchemy Core). Application code depends on this module only.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from events.canonical import canonical_json, check_json_value, dumps_trusted
from events.envelope import GENESIS_HASH, NewEvent, RecordedEvent, chain_hash, envelope_bytes
from events.errors import InvalidInputError


@dataclass(frozen=True, slots=True)
class Head:
    """The last event of a campaign's stream: its ``seq`` (0 when empty) and hash."""

    seq: int
    hash: str


EMPTY_HEAD = Head(0, GENESIS_HASH)


@dataclass(frozen=True, slots=True)
class AppendResult:
    events: tuple[RecordedEvent, ...]
    duplicate: bool
    """True when the command id had been seen: nothing was appended, ``events`` are the earlier ones."""

    @property
    def head(self) -> Head:
        last = self.events[-1]
        return Head(last.seq, last.hash)


class InlineProjector(Protocol):
    """Keeps read models current inside the append's transaction (``connection`` is the backend's)."""

    def project(self, connection: Any, events: Sequence[RecordedEvent]) -> None: ...


class EventStore(ABC):
    @abstractmethod
    def append(
        self,
        campaign_id: str,
        events: Sequence[NewEvent],
        expected_seq: int,
        *,
        command_id: str | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> AppendResult:
        """Append ``events`` after ``expected_seq`` in one transaction, or raise ``ConcurrencyError``.

        A ``command_id`` seen before for this campaign appends nothing and returns the events that
        command appended the first time (an idempotent retry).
        """

    @abstractmethod
    def read(self, campaign_id: str, after_seq: int = 0, upto_seq: int | None = None) -> Iterator[RecordedEvent]:
        """The campaign's events in ``seq`` order."""

    @abstractmethod
    def read_all(self, after_position: int = 0, limit: int | None = None) -> list[RecordedEvent]:
        """Events of every campaign in global ``position`` order."""

    @abstractmethod
    def head(self, campaign_id: str) -> Head: ...

    @abstractmethod
    def campaign_ids(self) -> list[str]: ...

    @abstractmethod
    def command_events(self, campaign_id: str, command_id: str) -> tuple[RecordedEvent, ...] | None:
        """The events a command appended, or None if the command id is new."""


@dataclass(frozen=True, slots=True)
class PreparedRow:
    """One event with its seq, canonical JSON and hash computed, ready for any backend to insert."""

    campaign_id: str
    seq: int
    type: str
    schema_version: int
    payload: Mapping[str, Any]
    meta: Mapping[str, Any]
    payload_json: bytes
    meta_json: bytes
    prev_hash: str
    hash: str

    def recorded(self, position: int) -> RecordedEvent:
        return RecordedEvent(
            position=position,
            campaign_id=self.campaign_id,
            seq=self.seq,
            type=self.type,
            schema_version=self.schema_version,
            payload=self.payload,
            meta=self.meta,
            prev_hash=self.prev_hash,
            hash=self.hash,
            payload_json=self.payload_json,
            meta_json=self.meta_json,
        )


def prepare_rows(
    campaign_id: str,
    events: Sequence[NewEvent],
    head: Head,
    command_id: str | None,
    meta: Mapping[str, Any] | None,
) -> list[PreparedRow]:
    """Number the events after ``head`` and chain their hashes; shared by every backend."""
    if not events:
        raise InvalidInputError("nothing to append: a command must record at least one event")
    base_meta: dict[str, Any] = dict(meta or {})
    if command_id is not None:
        base_meta["command_id"] = command_id
    meta_json = canonical_json(base_meta)
    if not isinstance(campaign_id, str) or not campaign_id:
        raise InvalidInputError("a campaign id must be a non-empty string")
    rows: list[PreparedRow] = []
    prev = head.hash
    seq = head.seq
    for event in events:
        check_json_value(event.payload)
        payload_json = dumps_trusted(event.payload)
        seq += 1
        digest = chain_hash(
            prev,
            envelope_bytes(
                campaign_id=campaign_id,
                seq=seq,
                type=event.type,
                schema_version=event.schema_version,
                payload_json=payload_json,
                meta_json=meta_json,
                prev_hash=prev,
            ),
        )
        rows.append(
            PreparedRow(
                campaign_id,
                seq,
                event.type,
                event.schema_version,
                event.payload,
                base_meta,
                payload_json,
                meta_json,
                prev,
                digest,
            )
        )
        prev = digest
    return rows
