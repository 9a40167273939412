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
        # positions grow in commit order but need not be dense (PostgreSQL's come from a sequence)
        start = everything[after - 1].position if after else 0
        page = store.read_all(after_position=start, limit=3)
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


def test_the_last_events_are_the_streams_end_in_seq_order(backend: Backend) -> None:
    store = backend.store()
    interleaved(store)
    whole = list(store.read("a"))
    assert [e.seq for e in store.read_last("a", 2)] == [5, 6]
    assert store.read_last("a", 2) == whole[4:]
    assert [e.seq for e in store.read_last("a", 3, upto_seq=4)] == [2, 3, 4]
    assert store.read_last("a", 3, upto_seq=4)[0].prev_hash == whole[0].hash
    assert store.read_last("a", 100) == whole
    assert store.read_last("a", 1, upto_seq=1) == whole[:1] and whole[0].prev_hash == GENESIS_HASH
    assert store.read_last("a", 0) == [] and store.read_last("nobody", 5) == []


def typed(store: EventStore) -> list[str]:
    """Campaign c: seq 1 x, 2 y, 3 x, 4 z, 5 y, 6 x, 7 x, with campaign d's x events in between."""
    kinds = ["t.x", "t.y", "t.x", "t.z", "t.y", "t.x", "t.x"]
    for seq, kind in enumerate(kinds):
        store.append("c", [ev(seq + 1, kind)], seq)
        store.append("d", [ev(seq + 1, "t.x")], seq)
    return kinds


def test_events_by_type_come_in_seq_order_each_with_the_hash_before_it(backend: Backend) -> None:
    store = backend.store()
    typed(store)
    whole = list(store.read("c"))
    xs = store.read_types("c", ["t.x"])
    assert [e.seq for e in xs] == [1, 3, 6, 7]
    assert xs == [e for e in whole if e.type == "t.x"]
    assert [e.prev_hash for e in xs] == [GENESIS_HASH, whole[1].hash, whole[4].hash, whole[5].hash]
    assert [e.seq for e in store.read_types("c", ["t.x", "t.y"])] == [1, 2, 3, 5, 6, 7]
    assert [e.seq for e in store.read_types("c", {"t.y", "t.z"}, after_seq=2, upto_seq=4)] == [4]
    assert store.read_types("c", ["t.none"]) == [] and store.read_types("nobody", ["t.x"]) == []


def test_events_by_type_are_cut_at_the_first_or_last_limit(backend: Backend) -> None:
    store = backend.store()
    typed(store)
    assert [e.seq for e in store.read_types("c", ["t.x", "t.y"], limit=3)] == [1, 2, 3]
    assert [e.seq for e in store.read_types("c", ["t.x", "t.y"], limit=3, last=True)] == [5, 6, 7]
    assert [e.seq for e in store.read_types("c", ["t.x"], upto_seq=6, limit=2, last=True)] == [3, 6]
    assert [e.seq for e in store.read_types("c", ["t.x"], after_seq=1, limit=1)] == [3]
    assert store.read_types("c", ["t.x"], limit=0) == []
