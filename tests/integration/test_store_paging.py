"""Reads that start in the middle of a stream, written once for every backend: each event still carries the
hash of the event before it, whichever campaign's events surround it."""

from __future__ import annotations

from events.envelope import GENESIS_HASH, NewEvent, compute_hash
from events.store import EventStore
from tests.conftest import Backend


def ev(n: int, kind: str = "test.happened") -> NewEvent:
    return NewEvent(kind, {"n": n})


def interleaved(store: EventStore) -> None:
    """Campaign a: seqs 1–6, campaign b: seqs 1–4, appended in alternating commands of two."""
    for k in range(3):
        store.append("a", [ev(2 * k + 1), ev(2 * k + 2)], 2 * k)
        if k < 2:
            store.append("b", [ev(2 * k + 1), ev(2 * k + 2)], 2 * k)


def test_a_read_after_any_seq_continues_the_chain_from_the_event_before(backend: Backend) -> None:
    store = backend.store()
    interleaved(store)
    whole = {e.seq: e for e in store.read("a")}
    for after in range(6):
        tail = list(store.read("a", after_seq=after))
        assert [e.seq for e in tail] == list(range(after + 1, 7))
        assert tail[0].prev_hash == (whole[after].hash if after else GENESIS_HASH)
        assert all(compute_hash(e) == e.hash for e in tail)
    assert list(store.read("a", after_seq=6)) == []
    assert list(store.read("nobody", after_seq=3)) == []


def test_a_page_of_the_global_log_chains_each_campaign_from_its_own_previous_event(backend: Backend) -> None:
    store = backend.store()
    interleaved(store)
    everything = store.read_all()
    for after in range(len(everything)):
        page = store.read_all(after_position=after, limit=3)
        assert [e.position for e in page] == [e.position for e in everything[after : after + 3]]
        assert [e.prev_hash for e in page] == [e.prev_hash for e in everything[after : after + 3]]
        assert all(compute_hash(e) == e.hash for e in page)


def test_a_command_read_back_by_its_id_chains_from_the_command_before(backend: Backend) -> None:
    store = backend.store()
    interleaved(store)
    store.append("b", [ev(5), ev(6)], 4, command_id="late")
    seen = store.command_events("b", "late")
    assert seen is not None
    assert [e.seq for e in seen] == [5, 6]
    assert seen[0].prev_hash == list(store.read("b"))[3].hash
