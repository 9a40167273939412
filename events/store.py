"""The narrow port every backend implements: append with optimistic concurrency, and reads.

Backends: :mod:`events.memory` (the fake for unit tests) and :mod:`events.sql` (SQLite and
PostgreSQL through SQLAlchemy Core). Application code depends on this module only.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import orjson

from events.canonical import canonical_json, check_json_value, dumps_trusted
from events.envelope import GENESIS_HASH, NewEvent, RecordedEvent
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


class ImportSink(Protocol):
    """Where an import streams a campaign's events, in order, inside one transaction (``connection``)."""

    connection: Any
    count: int
    first: RecordedEvent | None
    last: RecordedEvent | None

    def add(self, event: RecordedEvent) -> None: ...

    def flush(self) -> None:
        """Write what was added so far (the session's end does it too)."""


class _CollectingSink:
    """The default sink: events gathered, then written whole by ``import_stream`` (the fake's way)."""

    def __init__(self) -> None:
        self.connection: Any = None
        self.events: list[RecordedEvent] = []
        self.count = 0
        self.first: RecordedEvent | None = None
        self.last: RecordedEvent | None = None

    def add(self, event: RecordedEvent) -> None:
        self.events.append(event)
        self.first = self.first or event
        self.last = event
        self.count += 1

    def flush(self) -> None:
        pass  # written whole when the session ends


class EventStore(ABC):
    keeps: ClassVar[bool] = True
    """Whether what is appended here is kept (a database, or a process's memory); False for a sandbox that
    holds an amendment's preview and forgets it."""

    @abstractmethod
    def append(
        self,
        campaign_id: str,
        events: Sequence[NewEvent],
        expected_seq: int,
        *,
        command_id: str | None = None,
        meta: Mapping[str, object] | None = None,
    ) -> AppendResult:
        """Append ``events`` after ``expected_seq`` in one transaction, or raise ``ConcurrencyError``.

        A ``command_id`` seen before for this campaign appends nothing and returns the events that
        command appended the first time (an idempotent retry).
        """

    @abstractmethod
    def read(self, campaign_id: str, after_seq: int = 0, upto_seq: int | None = None) -> Iterator[RecordedEvent]:
        """The campaign's events in ``seq`` order."""

    @abstractmethod
    def read_last(self, campaign_id: str, count: int, upto_seq: int | None = None) -> list[RecordedEvent]:
        """The last ``count`` events up to ``upto_seq`` (the head by default), in ``seq`` order: a point read
        of the stream's end, whatever its length."""

    @abstractmethod
    def read_types(
        self,
        campaign_id: str,
        types: Collection[str],
        after_seq: int = 0,
        upto_seq: int | None = None,
        *,
        limit: int | None = None,
        last: bool = False,
    ) -> list[RecordedEvent]:
        """The campaign's events of these exact types in ``seq`` order, after ``after_seq`` and up to ``upto_seq``:
        the first ``limit`` of them, or with ``last`` the last ``limit``. Read by the (campaign, type, seq)
        index: the cost follows what is returned, not the log's length."""

    def read_seqs(self, campaign_id: str, seqs: Collection[int]) -> list[RecordedEvent]:
        """The campaign's events at these seqs, in ``seq`` order (those past the head left out). A SQL store reads
        them by its (campaign, seq) key; this default, for a store held in memory, walks the stream."""
        wanted = set(seqs)
        if not wanted:
            return []
        return [e for e in self.read(campaign_id, min(wanted) - 1, max(wanted)) if e.seq in wanted]

    @abstractmethod
    def read_all(
        self, after_position: int = 0, limit: int | None = None, *, writers_excluded: bool = False
    ) -> list[RecordedEvent]:
        """Events of every campaign in global ``position`` order, up to where no event can be added any more: a
        reader following the log by position never skips one committed late. ``writers_excluded``: the caller
        holds the append lock (``events.sql_write.lock_for_append``), so every event committed is read."""

    @abstractmethod
    def head(self, campaign_id: str) -> Head: ...

    @abstractmethod
    def campaign_ids(self) -> list[str]: ...

    @abstractmethod
    def command_events(self, campaign_id: str, command_id: str) -> tuple[RecordedEvent, ...] | None:
        """The events a command appended, or None if the command id is new."""

    @abstractmethod
    def import_stream(self, campaign_id: str, events: Sequence[RecordedEvent]) -> AppendResult:
        """Write a whole, already-verified campaign stream as it is (an import): seqs, meta and hashes kept."""

    @contextmanager
    def import_session(self, campaign_id: str) -> Iterator[ImportSink]:
        """Stream a campaign in (events checked by the caller as they pass, which raises to abandon it all);
        written when the block ends, in one transaction. SQL stores write it in pages, in bounded memory."""
        sink = _CollectingSink()
        yield sink
        self.import_stream(campaign_id, sink.events)


def limited(chosen: list[RecordedEvent], limit: int | None, last: bool) -> list[RecordedEvent]:
    """``read_types``' ``limit``: the first ``limit`` of ``chosen``, or with ``last`` the last ``limit``."""
    if limit is None:
        return chosen
    return (chosen[-limit:] if limit > 0 else []) if last else chosen[: max(limit, 0)]


def prepare_events(
    campaign_id: str,
    events: Sequence[NewEvent],
    head: Head,
    first_position: int,
    command_id: str | None,
    meta: Mapping[str, object] | None,
    *,
    rows: list[object] | None = None,
) -> list[RecordedEvent]:
    """Number the events after ``head``, give them positions and chain their hashes; shared by every backend.

    The hashed bytes are assembled from a prefix shared by the whole batch (campaign id and meta), which is
    equal to :func:`events.envelope.envelope_bytes` (tests hold this) but costs one join per event.

    With ``rows``, each event's insert parameters are added to it in the same pass, flat, row after row:
    position, campaign id, seq, command seq (the first event's seq), type, schema version, payload bytes, hash
    (the SQL store's ``INSERT_COLUMNS``; a row of tuples per event cost more than the insert saves).
    """
    if not events:
        raise InvalidInputError("nothing to append: a command must record at least one event")
    if not isinstance(campaign_id, str) or not campaign_id:
        raise InvalidInputError("a campaign id must be a non-empty string")
    base_meta: dict[str, object] = dict(meta or {})
    if command_id is not None:
        base_meta["command_id"] = command_id
    meta_json = canonical_json(base_meta)
    # Everything hashed for one event: prev_hash, then the canonical envelope (sorted keys: campaign_id, meta,
    # payload, prev_hash, schema_version, seq, type), joined from pieces: the batch's head, the event's payload,
    # its type's own two pieces, and its seq (a join of eight pieces cost two thirds of one bytes format).
    # Equal to envelope_bytes (tests hold it).
    head_part = b'{"campaign_id":' + dumps_trusted(campaign_id) + b',"meta":' + meta_json + b',"payload":'
    type_parts: dict[tuple[str, int], tuple[bytes, bytes]] = {}
    last_name: str | None = None
    last_version: int | None = None
    version_part = type_part = b""
    recorded: list[RecordedEvent] = []
    record = recorded.append
    prev = head.hash
    prev_bytes = prev.encode()
    seq = head.seq
    command_seq = seq + 1
    position = first_position
    sha256 = hashlib.sha256
    join = b"".join
    new = tuple.__new__
    dumps, sort_keys = orjson.dumps, orjson.OPT_SORT_KEYS
    # Unpacked by position: a NamedTuple's attributes are properties, and this runs once per event.
    for name, payload, version, checked, made_json in events:
        payload_json = made_json
        if not payload_json:
            if not checked:
                check_json_value(payload)
            # Copied into an exactly-sized bytes object: orjson's own result sits in a larger malloc'd buffer, and
            # keeping a thousand of those alive until the insert cost more than hashing them (3.4 → 1.5 µs).
            payload_json = b"%b" % dumps(payload, None, sort_keys)
        if name is not last_name or version is not last_version:  # the same objects from one type's plan
            parts = type_parts.get((name, version))
            if parts is None:
                parts = type_parts[name, version] = (
                    b'","schema_version":%d,"seq":' % version,
                    b',"type":' + dumps_trusted(name) + b"}",
                )
            version_part, type_part = parts
            last_name, last_version = name, version
        seq += 1
        hash_ = sha256(
            join(
                (
                    prev_bytes,
                    head_part,
                    payload_json,
                    b',"prev_hash":"',
                    prev_bytes,
                    version_part,
                    b"%d" % seq,
                    type_part,
                )
            )
        ).hexdigest()
        record(
            new(
                RecordedEvent,
                (position, campaign_id, seq, name, version, payload, base_meta, prev, hash_, payload_json, meta_json),
            )
        )
        if rows is not None:
            rows += (position, campaign_id, seq, command_seq, name, version, payload_json, hash_)
        prev = hash_
        prev_bytes = hash_.encode()
        position += 1
    return recorded
