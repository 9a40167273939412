"""Tampering of every kind is caught by verification, and the first bad event is named."""

from __future__ import annotations

import hashlib
import itertools

import orjson
import pytest

from campaign.executor import Ledger, TableEntry
from events.canonical import canonical_json
from events.envelope import RecordedEvent, chain_hash, envelope_bytes
from events.recorded import JsonValue, seq, whole
from events.registry import registry
from events.verify import verify_events
from tests.conftest import Backend, make_ledger


@pytest.fixture
def played() -> tuple[Ledger, list[RecordedEvent]]:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Ardennes", "fighting-spirit")
    for i in range(4):
        ledger.roll(ledger.resolve(None), "d8", f"confidence test {i}")
    ledger.roll(ledger.resolve(None), "2d6", "table roll", table=TableEntry((3, 5)))
    ledger.reveal(ledger.resolve(None))
    ledger.roll(ledger.resolve(None), "d10", "after the reveal")
    info = ledger.resolve(None)
    return ledger, list(ledger.store.read(info.campaign_id))


def rehash_from(events: list[RecordedEvent], start: int) -> list[RecordedEvent]:
    """What a forger would do: recompute the chain after an edit so every hash links up again."""
    out = events[:start]
    prev = out[-1].hash if out else "0" * 64
    for e in events[start:]:
        payload_json, meta_json = canonical_json(dict(e.payload)), canonical_json(dict(e.meta))
        h = chain_hash(
            prev,
            envelope_bytes(
                campaign_id=e.campaign_id,
                seq=e.seq,
                type=e.type,
                schema_version=e.schema_version,
                payload_json=payload_json,
                meta_json=meta_json,
                prev_hash=prev,
            ),
        )
        out.append(e._replace(prev_hash=prev, hash=h, payload_json=payload_json, meta_json=meta_json))
        prev = h
    return out


def dice_at(events: list[RecordedEvent]) -> list[int]:
    """Indexes of the dice events (each roll's command comes just before it)."""
    return [i for i, e in enumerate(events) if e.type == "dice.rolled"]


def test_an_untouched_log_verifies_and_revealed_rolls_are_rederived(
    played: tuple[Ledger, list[RecordedEvent]],
) -> None:
    _, events = played
    report = verify_events(events[0].campaign_id, events, registry)
    assert report.ok, report.findings
    assert (report.rolls_rederived, report.table_rolls, report.rolls_pending) == (4, 1, 1)
    assert report.head_hash == events[-1].hash


def test_an_edited_payload_is_named(played: tuple[Ledger, list[RecordedEvent]]) -> None:
    _, events = played
    k = dice_at(events)[1]
    edited: dict[str, JsonValue] = dict(events[k].payload, faces=[1], total=1)
    events[k] = events[k]._replace(payload=edited, payload_json=canonical_json(edited))
    report = verify_events(events[0].campaign_id, events, registry)
    assert not report.ok and report.first is not None
    assert (report.first.seq, report.first.check) == (events[k].seq, "chain")


def test_a_deleted_event_is_named(played: tuple[Ledger, list[RecordedEvent]]) -> None:
    _, events = played
    k = dice_at(events)[1]
    after = events[k + 1].seq
    del events[k]
    report = verify_events(events[0].campaign_id, events, registry)
    assert report.first is not None and report.first.seq == after and "missing" in report.first.message


def test_a_reordered_pair_is_named(played: tuple[Ledger, list[RecordedEvent]]) -> None:
    _, events = played
    k = dice_at(events)[1]
    events[k], events[k + 1] = events[k + 1], events[k]
    report = verify_events(events[0].campaign_id, events, registry)
    assert report.first is not None and report.first.seq == events[k].seq and report.first.check == "sequence"


def test_a_forged_roll_with_a_rebuilt_chain_is_caught_by_the_revealed_seed(
    played: tuple[Ledger, list[RecordedEvent]],
) -> None:
    _, events = played
    k = dice_at(events)[0]
    roll = dict(events[k].payload)
    forged_face = 1 if seq(roll["faces"])[0] != 1 else 2
    roll.update(faces=[forged_face], total=forged_face)
    events[k] = events[k]._replace(payload=roll)
    report = verify_events(events[0].campaign_id, rehash_from(events, k), registry)
    assert report.first is not None and report.first.seq == events[k].seq and report.first.check == "dice"
    assert "the seed gives" in report.first.message


def test_an_impossible_face_or_a_reused_roll_index_is_caught(
    played: tuple[Ledger, list[RecordedEvent]],
) -> None:
    _, events = played
    t = next(i for i, e in enumerate(events) if e.type == "dice.rolled" and e.payload["source"] == "table")
    impossible: dict[str, JsonValue] = dict(events[t].payload, faces=[3, 7], total=10)
    bad = list(events)
    bad[t] = events[t]._replace(payload=impossible)
    report = verify_events(events[0].campaign_id, rehash_from(bad, t), registry)
    assert report.first is not None and report.first.seq == events[t].seq
    assert "impossible on a d6" in report.first.message

    k = dice_at(events)[1]
    reused = list(events)
    reused[k] = events[k]._replace(payload=dict(events[k].payload, roll_index=0))
    report = verify_events(events[0].campaign_id, rehash_from(reused, k), registry)
    assert report.first is not None and report.first.seq == events[k].seq and "reuses" in report.first.message


def test_a_revealed_seed_that_does_not_match_its_commitment_is_caught(
    played: tuple[Ledger, list[RecordedEvent]],
) -> None:
    _, events = played
    index = next(i for i, e in enumerate(events) if e.type == "dice.seed_revealed")
    fake = hashlib.sha256(b"another seed").hexdigest()
    events[index] = events[index]._replace(payload=dict(events[index].payload, seed=fake))
    report = verify_events(events[0].campaign_id, rehash_from(events, index), registry)
    assert report.first is not None and report.first.seq == index + 1
    assert "does not match the commitment" in report.first.message


def campaign_revealing_every(rolls: int, every: int) -> list[RecordedEvent]:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Long", "fighting-spirit")
    for i in range(rolls):
        ledger.roll(ledger.resolve(None), "2d6", f"roll {i}")
        if (i + 1) % every == 0:
            ledger.reveal(ledger.resolve(None))
    return list(ledger.store.read(ledger.resolve(None).campaign_id))


@pytest.mark.parametrize("every", [50, 10**9])
def test_verify_keeps_a_few_integers_per_roll_not_its_event_or_model(every: int) -> None:
    """Streaming in bounded memory: what verify holds grows by under 400 bytes a roll (the faces an offered die
    must repeat, and a seeded roll's indexes until its seed is revealed), whether or not seeds are revealed.
    Holding each roll's event and pydantic model until the end cost 1,440 bytes a roll."""
    import tracemalloc

    peaks = {}
    for rolls in (200, 2000):
        events = campaign_revealing_every(rolls, every)
        tracemalloc.start()
        report = verify_events(events[0].campaign_id, iter(events), registry)
        peaks[rolls] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert report.ok and report.rolls_rederived + report.rolls_pending == rolls
        assert report.rolls_pending == (0 if every == 50 else rolls)
    assert (peaks[2000] - peaks[200]) / 1800 < 400, peaks


def test_a_forged_roll_is_caught_when_its_seed_is_revealed_later_in_the_log() -> None:
    events = campaign_revealing_every(6, 3)
    second = dice_at(events)[4]  # a roll of the second epoch, revealed at the end
    payload = dict(events[second].payload)
    faces = [7 - whole(f) for f in seq(payload["faces"])]
    payload.update(faces=list[JsonValue](faces), total=sum(faces))
    forged = rehash_from([*events[:second], events[second]._replace(payload=payload), *events[second + 1 :]], second)
    report = verify_events(events[0].campaign_id, forged, registry)
    assert [(f.seq, f.check) for f in report.findings] == [(events[second].seq, "dice")]
    assert report.rolls_rederived == 5 and "but the seed gives" in report.findings[0].message


def test_verify_recomputes_each_hash_as_compute_hash_does(played: tuple[Ledger, list[RecordedEvent]]) -> None:
    """The per-command envelope head that verify reuses gives every event's hash, byte for byte; a payload edit
    in the second event of a command (same meta as the first) still changes it."""
    from events.envelope import compute_hash

    _, events = played
    assert all(e.payload_json and e.meta_json for e in events)  # verify's own hashing path, from stored bytes
    assert [compute_hash(e) for e in events] == [e.hash for e in events]
    assert verify_events(events[0].campaign_id, events, registry).ok
    k, second = next((k, e) for k, (a, e) in enumerate(itertools.pairwise(events), 1) if a.meta_json == e.meta_json)
    payload = {**second.payload, "x": 1}
    edited = second._replace(payload=payload, payload_json=orjson.dumps(payload, option=orjson.OPT_SORT_KEYS))
    report = verify_events(events[0].campaign_id, [*events[:k], edited, *events[k + 1 :]], registry)
    assert [(f.seq, f.check) for f in report.findings] == [(second.seq, "chain")]
    assert "stored hash does not match" in report.findings[0].message


def test_a_payload_that_fails_its_schema_is_named_by_verify(played: tuple[Ledger, list[RecordedEvent]]) -> None:
    _, events = played
    roll = next(i for i, e in enumerate(events) if e.type == "dice.rolled")
    bad = dict(events[roll].payload, total="seven")
    forged = rehash_from([*events[:roll], events[roll]._replace(payload=bad), *events[roll + 1 :]], roll)
    report = verify_events(forged[0].campaign_id, forged, registry)
    assert report.first is not None and report.first.seq == events[roll].seq and report.first.check == "schema"
