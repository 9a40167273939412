"""eventsourcing as the store benchmark's peer: its ``Application.save`` (how its users append), its
``EventStore.put`` (mapper and transcoder), and its SQLite recorder hand-fed rows (the floor: no domain
events, no mapper). Every function returns the CPU seconds (``time.process_time``) of its appends.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, DomainEvent, event
from eventsourcing.persistence import (
    DatetimeAsISO,
    DecimalAsStr,
    EventStore,
    JSONTranscoder,
    Mapper,
    Transcoder,
    UUIDAsHex,
)
from timing import timed

from events.envelope import NewEvent


def es_recorder(path: Path) -> Any:
    """eventsourcing's SQLite application recorder, on the same footing as the others.

    Its pool opens connections in WAL mode with SQLite's default synchronous=FULL, the setting every other
    contender runs with (the ledger's own: an acknowledged append survives a power loss).
    """
    from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

    datastore = SQLiteDatastore(str(path))
    recorder = SQLiteApplicationRecorder(datastore)
    recorder.create_table()
    return recorder


def bench_es_append(path: Path, events: list[NewEvent], batch: int) -> float:
    from eventsourcing.persistence import StoredEvent

    recorder = es_recorder(path)
    originator = uuid.uuid4()

    def run() -> None:
        for start in range(0, len(events), batch):
            recorder.insert_events(
                [
                    StoredEvent(originator, start + i + 1, e.type, orjson.dumps(e.payload))
                    for i, e in enumerate(events[start : start + batch])
                ]
            )

    return timed(run)


@dataclass(frozen=True)
class EsRolled(DomainEvent):
    """The bench's event as an eventsourcing domain event, carrying the same payload."""

    payload: dict[str, Any]


class OrjsonTranscoder(Transcoder):
    """eventsourcing's transcoder interface over orjson: its event store at its fastest (datetimes and UUIDs are
    written by orjson itself)."""

    def encode(self, obj: Any) -> bytes:
        return orjson.dumps(obj)

    def decode(self, data: bytes) -> Any:
        return orjson.loads(data)


def es_domain_events(events: list[NewEvent]) -> list[EsRolled]:
    """The same events as eventsourcing domain events, built up front as the ledger's are."""
    originator, at = uuid.uuid4(), datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
    return [
        EsRolled(originator_id=originator, originator_version=i + 1, timestamp=at, payload=dict(e.payload))
        for i, e in enumerate(events)
    ]


def shipped_transcoder() -> Transcoder:
    """eventsourcing's JSON transcoder with the transcodings its Application registers by default."""
    transcoder = JSONTranscoder()
    for transcoding in (UUIDAsHex(), DecimalAsStr(), DatetimeAsISO()):
        transcoder.register(transcoding)
    return transcoder


def bench_es_store_append(path: Path, events: list[EsRolled], batch: int, transcoder: Transcoder) -> float:
    """eventsourcing's EventStore.put: its mapper and transcoder, then the same recorder as ``es``."""
    store: EventStore[uuid.UUID] = EventStore(mapper=Mapper(transcoder=transcoder), recorder=es_recorder(path))

    def run() -> None:
        for start in range(0, len(events), batch):
            store.put(events[start : start + batch])

    return timed(run)


class BenchCampaign(Aggregate):
    """The bench's campaign as an eventsourcing aggregate: each roll is one of its events."""

    @event("Rolled")
    def rolled(self, payload: dict[str, Any]) -> None:
        self.rolls = getattr(self, "rolls", 0) + 1


def es_application(path: Path) -> Application[Any]:
    app: Application[Any] = Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})
    return app  # synchronous=FULL, as it ships and as every other contender runs


def bench_es_app_save(path: Path, payloads: list[dict[str, Any]], batch: int) -> float:
    """eventsourcing as its users append: an aggregate's command methods trigger its events, then
    ``Application.save`` maps, transcodes and records them in one transaction."""
    app = es_application(path)
    campaign = BenchCampaign()
    app.save(campaign)

    def run() -> None:
        for start in range(0, len(payloads), batch):
            for payload in payloads[start : start + batch]:
                campaign.rolled(payload)
            app.save(campaign)

    elapsed = timed(run)
    app.close()
    return elapsed
