"""The store contract, written once and run on the in-memory fake, SQLite and a real PostgreSQL."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import text

from campaign.bootstrap import ensure_schema
from events.db import make_engine
from events.envelope import GENESIS_HASH, NewEvent, RecordedEvent, compute_hash
from events.errors import ConcurrencyError, EventSchemaError, InvalidInputError
from events.recorded import JsonObject
from events.sql import SqlEventStore
from events.sql_write import translate as _translate
from events.store import EventStore
from tests.conftest import Backend


def ev(n: int, kind: str = "test.happened") -> NewEvent:
    return NewEvent(kind, {"n": n, "note": f"event {n}"})


def test_given_an_empty_stream_when_appending_then_events_are_numbered_and_chained(backend: Backend) -> None:
    store = backend.store()
    assert store.head("c1").seq == 0 and store.head("c1").hash == GENESIS_HASH
    result = store.append("c1", [ev(1), ev(2)], 0, meta={"actor": "gm"})
    assert [e.seq for e in result.events] == [1, 2]
    assert result.events[0].prev_hash == GENESIS_HASH
    assert result.events[1].prev_hash == result.events[0].hash
    assert all(compute_hash(e) == e.hash for e in result.events)
    read = list(store.read("c1"))
    assert [e.payload for e in read] == [{"n": 1, "note": "event 1"}, {"n": 2, "note": "event 2"}]
    assert [compute_hash(e) for e in read] == [e.hash for e in read]
    assert read[0].meta["actor"] == "gm"
    assert store.head("c1").seq == 2 and store.head("c1").hash == read[-1].hash


def test_given_a_stale_expected_seq_then_concurrency_error_and_nothing_appended(backend: Backend) -> None:
    store = backend.store()
    store.append("c1", [ev(1)], 0)
    with pytest.raises(ConcurrencyError):
        store.append("c1", [ev(2)], 0)
    with pytest.raises(ConcurrencyError):
        store.append("c1", [ev(2)], 5)
    assert [e.seq for e in store.read("c1")] == [1]
    store.append("c1", [ev(2)], 1)
    assert store.head("c1").seq == 2


def test_a_repeated_command_id_appends_nothing_and_returns_the_first_events(backend: Backend) -> None:
    store = backend.store()
    first = store.append("c1", [ev(1), ev(2)], 0, command_id="cmd-A")
    again = store.append("c1", [ev(1), ev(2)], 0, command_id="cmd-A")
    assert again.duplicate and not first.duplicate
    assert [e.hash for e in again.events] == [e.hash for e in first.events]
    assert store.head("c1").seq == 2
    assert store.command_events("c1", "cmd-A") is not None
    assert store.command_events("c1", "cmd-B") is None
    # The same command id in another campaign is a different command.
    assert not store.append("c2", [ev(1)], 0, command_id="cmd-A").duplicate


def test_campaigns_are_independent_streams_and_positions_are_global_and_in_order(backend: Backend) -> None:
    store = backend.store()
    appended = [store.append("a", [ev(1)], 0), store.append("b", [ev(1), ev(2)], 0), store.append("a", [ev(2)], 1)]
    everything = store.read_all()
    positions = [e.position for e in everything]
    assert positions == [e.position for r in appended for e in r.events]  # as the appends returned them
    assert positions == sorted(set(positions))
    if backend.name != "postgres":  # PostgreSQL's are its transactions' ids, shifted (events.pg_append)
        assert positions == [1, 2, 3, 4]
    assert [(e.campaign_id, e.seq) for e in everything] == [("a", 1), ("b", 1), ("b", 2), ("a", 2)]
    assert [e.position for e in store.read_all(after_position=positions[1], limit=1)] == [positions[2]]
    assert [e.seq for e in store.read("b", after_seq=1)] == [2]
    assert [e.seq for e in store.read("a", upto_seq=1)] == [1]
    assert sorted(store.campaign_ids()) == ["a", "b"]


def test_bounds_beyond_64_bits_read_as_no_bound_and_never_overflow(backend: Backend) -> None:
    # Found by the API fuzzer: GET …/log?upto=10**20 reached SQLite as an integer it cannot bind.
    store = backend.store()
    store.append("a", [ev(1), ev(2)], 0)
    huge = 10**20
    assert [e.seq for e in store.read("a", upto_seq=huge)] == [1, 2]
    assert [e.seq for e in store.read("a", after_seq=huge)] == []
    assert [e.seq for e in store.read("a", after_seq=-huge)] == [1, 2]
    assert [e.seq for e in store.read_last("a", huge, upto_seq=huge)] == [1, 2]
    assert [e.seq for e in store.read_types("a", ["test.happened"], upto_seq=huge, limit=huge)] == [1, 2]
    assert [e.seq for e in store.read_all(after_position=-huge, limit=huge)] == [1, 2]
    assert store.read_all(after_position=huge) == []


# Payloads no typed caller can build (a float, an integer key): the store refuses them at run time all the same.
FLOAT: Any = {"x": 1.5}
INT_KEY: Any = {"k": {1: 2}}


@pytest.mark.parametrize("bad", [[], [NewEvent("test.float", FLOAT)], [ev(1), NewEvent("t.x", INT_KEY)]])
def test_malformed_batches_are_refused_whole(backend: Backend, bad: Sequence[NewEvent]) -> None:
    store = backend.store()
    store.append("c1", [ev(1)], 0)
    with pytest.raises((EventSchemaError, InvalidInputError)):
        store.append("c1", bad, 1)
    assert [e.seq for e in store.read("c1")] == [1]
    assert len(store.read_all()) == 1


class ExplodingProjector:
    def __init__(self) -> None:
        self.seen: list[RecordedEvent] = []

    def project(self, connection: object, events: Sequence[RecordedEvent]) -> None:
        self.seen.extend(events)
        if any(e.payload.get("n") == 13 for e in events):
            raise RuntimeError("projection failed")


def test_a_failing_inline_projection_rolls_back_the_whole_append(backend: Backend) -> None:
    projector = ExplodingProjector()
    store: EventStore = backend.store([projector])
    store.append("c1", [ev(1)], 0)
    with pytest.raises(RuntimeError):
        store.append("c1", [ev(12), ev(13)], 1, command_id="unlucky")
    assert [e.seq for e in store.read("c1")] == [1]
    assert store.command_events("c1", "unlucky") is None
    assert store.append("c1", [ev(2)], 1).events[0].seq == 2


def test_unicode_and_large_integers_survive_byte_for_byte(backend: Backend) -> None:
    store = backend.store()
    payload: JsonObject = {"name": "Ваня «Ув» 🎲", "big": 2**62, "neg": -(2**62), "nested": {"z": [1, "é"], "a": None}}
    result = store.append("c1", [NewEvent("test.unicode", payload)], 0)
    read = next(iter(store.read("c1")))
    assert read.payload == payload
    assert read.hash == result.events[0].hash == compute_hash(read)


def test_driver_unique_violations_read_as_a_lost_race() -> None:
    """A writer that bypassed the append lock still cannot duplicate a seq: either driver's error says "retry"."""
    for error in (sqlite3.IntegrityError("UNIQUE constraint failed"), psycopg.errors.UniqueViolation("duplicate key")):
        assert isinstance(_translate(error, "c1"), ConcurrencyError)
    assert _translate(ValueError("something else"), "c1") is None


def test_sqlite_keeps_one_write_connection_between_appends_and_lets_it_go_on_failure_and_dispose(
    tmp_path: Path,
) -> None:
    """The kept connection never outlives a failed transaction or the engine, and holds no lock between appends."""
    engine = make_engine(str(tmp_path / "kept.db"))
    ensure_schema(engine)
    store = SqlEventStore(engine)
    store.append("c1", [ev(1)], 0)
    assert engine.pool.checkedout() == 1  # type: ignore[attr-defined]  # the kept one
    other = sqlite3.connect(tmp_path / "kept.db", timeout=0, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # no write lock is held between appends
    other.execute("ROLLBACK")
    other.close()
    with pytest.raises(ConcurrencyError):
        store.append("c1", [ev(2)], 0)
    assert engine.pool.checkedout() == 0  # type: ignore[attr-defined]  # closed, not kept, after the failure
    store.append("c1", [ev(2)], 1)
    assert [e.seq for e in store.read("c1")] == [1, 2]
    engine.dispose()
    assert _open_on(tmp_path / "kept.db") == [], "a disposed engine's kept connection still holds the file"


def _open_on(path: Path) -> list[str]:
    """This process's file descriptors on ``path`` (or its -wal/-shm)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(path)):
            found.append(target)
    return found


class _WritesThenFails:
    """A projector that writes through SQLAlchemy Core (which begins its own transaction over the append's),
    then fails: the append and its write must both be gone."""

    def __init__(self) -> None:
        self.fail = True

    def project(self, connection: Any, events: Sequence[RecordedEvent]) -> None:
        connection.execute(
            text("INSERT INTO campaign_secrets (campaign_id, epoch, seed) VALUES ('c1', :e, 'x')"), {"e": events[0].seq}
        )
        if self.fail:
            raise RuntimeError("projector failed")


def test_sqlite_a_projector_that_wrote_then_failed_leaves_nothing_and_the_next_append_commits_both(
    tmp_path: Path,
) -> None:
    engine = make_engine(str(tmp_path / "fails.db"))
    ensure_schema(engine)
    projector = _WritesThenFails()
    store = SqlEventStore(engine, [projector])
    with pytest.raises(RuntimeError, match="projector failed"):
        store.append("c1", [ev(1)], 0)
    projector.fail = False
    store.append("c1", [ev(1)], 0)
    store.append("c1", [ev(2)], 1)
    with engine.connect() as conn:
        seeds = conn.execute(text("SELECT epoch FROM campaign_secrets ORDER BY epoch")).scalars().all()
    assert [e.seq for e in store.read("c1")] == [1, 2] and seeds == [1, 2]
    engine.dispose()
