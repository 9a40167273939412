"""Writers of different campaigns at once on PostgreSQL: each locks its own campaign, none the database; and a
reader following the log by position never skips an event that a slower writer commits after a faster one.

A writer held open in the middle of its transaction is an import (``import_session``): its events are written,
with their positions, when its page is flushed, and committed when its block ends.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import pytest
from sqlalchemy import Engine

from events.envelope import NewEvent, RecordedEvent
from events.errors import ConcurrencyError
from events.sql import SqlEventStore
from events.store import EMPTY_HEAD, prepare_events
from tests.conftest import empty_tables

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg(pg_engine: Engine) -> Iterator[SqlEventStore]:
    """PostgreSQL's writers (SQLite's take its one write lock in turn)."""
    empty_tables(pg_engine)
    yield SqlEventStore(pg_engine)
    empty_tables(pg_engine)


def stream(campaign_id: str, count: int) -> list[RecordedEvent]:
    """A campaign's first ``count`` events, numbered and chained, as an import brings them."""
    made = [NewEvent("test.happened", {"n": n}) for n in range(count)]
    return prepare_events(campaign_id, made, EMPTY_HEAD, 1, f"{campaign_id}-import", {"actor": "test"})


def events(n: int) -> list[NewEvent]:
    return [NewEvent("test.happened", {"n": i}) for i in range(n)]


def test_a_campaign_being_written_holds_up_no_other_campaign_and_refuses_a_second_writer_of_its_own(
    pg: SqlEventStore,
) -> None:
    pg.append("b", events(1), 0)
    with ThreadPoolExecutor(2) as pool, pg.import_session("a") as sink:
        for event in stream("a", 3):
            sink.add(event)
        sink.flush()  # campaign "a" seqs 1–3 written, not committed
        other = pool.submit(pg.append, "b", events(2), 1)
        assert [e.seq for e in other.result(timeout=10).events] == [2, 3]  # campaign "b" waits for nobody
        rival: Future[object] = pool.submit(pg.append, "a", events(1), 0)
        time.sleep(0.5)
        assert not rival.done(), "a second writer of campaign a waits for the first one's transaction"
    with pytest.raises(ConcurrencyError):  # …and is refused once it committed: seq 1 is taken
        rival.result(timeout=10)
    assert [e.seq for e in pg.read("a")] == [1, 2, 3]


def test_a_reader_by_position_never_skips_an_event_committed_after_a_later_one(pg: SqlEventStore) -> None:
    with ThreadPoolExecutor(1) as pool, pg.import_session("slow") as sink:
        for event in stream("slow", 2):
            sink.add(event)
        sink.flush()  # the slow writer holds its positions, and has not committed
        fast = pool.submit(pg.append, "fast", events(2), 0).result(timeout=10)  # committed, at higher positions
        assert all(e.position > 0 for e in fast.events)
        # Below the horizon only: what is read can never be joined, later, by an event of a lower position.
        assert pg.read_all() == []
    everything = pg.read_all()
    assert [(e.campaign_id, e.seq) for e in everything] == [("slow", 1), ("slow", 2), ("fast", 1), ("fast", 2)]
    assert [e.position for e in everything] == sorted(e.position for e in everything)


def test_a_follower_reading_while_writers_race_reads_every_event_once_in_order(pg: SqlEventStore) -> None:
    writers, rounds = 6, 8
    done = threading.Event()
    seen: list[RecordedEvent] = []

    def follow() -> None:
        after = 0
        while True:
            finished = done.is_set()
            page = pg.read_all(after_position=after)
            seen.extend(page)
            after = page[-1].position if page else after
            if finished and not page:
                return

    def write(w: int) -> None:
        chance = random.Random(w)
        for r in range(rounds):
            name = f"w{w}-{r}"
            if chance.random() < 0.5:  # an import that holds its positions a while before it commits
                with pg.import_session(name) as sink:
                    for event in stream(name, 1 + chance.randrange(3)):
                        sink.add(event)
                    sink.flush()
                    time.sleep(chance.uniform(0, 0.05))
            else:
                pg.append(name, events(1 + chance.randrange(3)), 0)

    follower = threading.Thread(target=follow)
    follower.start()
    with ThreadPoolExecutor(writers) as pool:
        list(pool.map(write, range(writers)))
    done.set()
    follower.join(timeout=30)
    assert not follower.is_alive()
    written = pg.read_all(writers_excluded=True)
    assert [(e.campaign_id, e.seq) for e in seen] == [(e.campaign_id, e.seq) for e in written]  # none skipped
    assert [e.position for e in seen] == sorted({e.position for e in seen})  # none twice, in order
    assert len(written) == sum(len(list(pg.read(c))) for c in pg.campaign_ids())
