"""Real processes against one database: racing writers, and a writer killed in the middle of an append."""

from __future__ import annotations

import itertools
import multiprocessing as mp
import os
import signal
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from events.db import make_engine
from events.envelope import NewEvent, RecordedEvent, compute_hash
from events.errors import ConcurrencyError
from events.sql import SqlEventStore
from tests.conftest import Backend

ROUNDS = 25
CTX = mp.get_context("spawn")


def _racer(url: str, name: str, barrier: Any, results: Any) -> None:
    engine = make_engine(url)
    store = SqlEventStore(engine)
    won = lost = 0
    for r in range(ROUNDS):
        head = store.head("war")
        barrier.wait(timeout=60)  # both writers hold the same head before either appends
        event = NewEvent("test.appended", {"writer": name, "round": r})
        try:
            store.append("war", [event], head.seq, command_id=f"{name}-{r}")
            won += 1
        except ConcurrencyError:
            lost += 1
            store.append("war", [event], store.head("war").seq, command_id=f"{name}-{r}")  # the retry succeeds
        barrier.wait(timeout=60)
    repeated = store.append("war", [NewEvent("test.appended", {"writer": name, "round": 0})], 0, command_id=f"{name}-0")
    results.put((name, won, lost, repeated.duplicate))
    engine.dispose()


def test_two_processes_racing_lose_nothing_duplicate_nothing_and_the_loser_retries(
    sql_backend: Backend,
) -> None:
    assert sql_backend.url is not None
    barrier, results = CTX.Barrier(2), CTX.Queue()
    procs = [CTX.Process(target=_racer, args=(sql_backend.url, n, barrier, results)) for n in ("north", "south")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
        assert p.exitcode == 0
    outcomes = {name: (won, lost, dup) for name, won, lost, dup in (results.get(timeout=5) for _ in procs)}
    # Every round has exactly one winner and one loser, who got ConcurrencyError and then succeeded.
    assert sum(o[0] for o in outcomes.values()) == ROUNDS
    assert sum(o[1] for o in outcomes.values()) == ROUNDS
    assert all(o[2] for o in outcomes.values()), "a repeated command id must append nothing"

    events = list(SqlEventStore(sql_backend.engine).read("war"))  # type: ignore[arg-type]
    assert [e.seq for e in events] == list(range(1, 2 * ROUNDS + 1))
    for writer in ("north", "south"):
        rounds = [e.payload["round"] for e in events if e.payload["writer"] == writer]
        assert rounds == list(range(ROUNDS)), f"{writer}'s events were lost, duplicated or reordered"
    assert all(compute_hash(e) == e.hash for e in events)
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(events))


class StallingProjector:
    """Signals that the rows are written (but not committed), then waits to be killed."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def project(self, connection: object, events: Sequence[RecordedEvent]) -> None:
        if len(events) > 1:
            Path(self.marker).write_text(str(len(events)))
            time.sleep(120)


def _doomed_writer(url: str, marker: str) -> None:
    store = SqlEventStore(make_engine(url), [StallingProjector(marker)])  # killed: never disposed
    head = store.head("siege")
    batch = [NewEvent("test.appended", {"n": i}) for i in range(5000)]
    store.append("siege", batch, head.seq, command_id="doomed")


def test_a_process_killed_mid_append_leaves_no_partial_command(sql_backend: Backend, tmp_path: Path) -> None:
    assert sql_backend.url is not None and sql_backend.engine is not None
    store = SqlEventStore(sql_backend.engine)
    store.append("siege", [NewEvent("test.appended", {"n": -1})], 0)
    marker = str(tmp_path / "rows-written")
    proc = CTX.Process(target=_doomed_writer, args=(sql_backend.url, marker))
    proc.start()
    deadline = time.monotonic() + 60
    while not os.path.exists(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert os.path.exists(marker), "the writer never reached the middle of its append"
    os.kill(proc.pid, signal.SIGKILL)  # type: ignore[arg-type]
    proc.join(timeout=30)

    engine = make_engine(sql_backend.url)
    fresh = SqlEventStore(engine)
    assert fresh.head("siege").seq == 1
    assert fresh.command_events("siege", "doomed") is None
    assert len(fresh.read_all()) == 1
    # The log is writable again at once (the killed writer's lock died with it).
    assert fresh.append("siege", [NewEvent("test.appended", {"n": 0})], 1).events[0].seq == 2
    engine.dispose()
