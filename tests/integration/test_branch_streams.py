"""``branch NAME --at SEQ`` runs in bounded memory (as every command does): the parent is read
page by page and the branch written through the store's import session, command by command, in one transaction;
what it holds does not grow with the history it copies. Before, it held the whole parent log and every copied
event (544 MiB for a 90k-event parent)."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator

import pytest

from campaign.executor import Ledger
from campaign.timeline import branch
from events import sql, sql_import
from events.envelope import RecordedEvent
from events.registry import registry
from events.verify import verify_events
from tests.conftest import Backend, make_ledger

PAGE = 100
"""The read and import pages in these tests: small, so that a few thousand events are many pages."""

ROLLS = 1500


@pytest.fixture
def long_parent(sql_backend: Backend, monkeypatch: pytest.MonkeyPatch) -> Ledger:
    monkeypatch.setattr(sql, "READ_PAGE", PAGE)
    monkeypatch.setattr(sql_import, "IMPORT_PAGE", PAGE)
    ledger = make_ledger(sql_backend)
    ledger.create_campaign("Long", "fighting-spirit")
    for i in range(ROLLS):
        ledger.roll(ledger.resolve("Long"), "d6", f"roll {i}")
    return ledger


def _peak_branching(ledger: Ledger, name: str, at_seq: int) -> int:
    tracemalloc.start()
    try:
        branch(ledger, ledger.resolve("Long"), name, at_seq)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_branching_holds_pages_not_the_history_it_copies(long_parent: Ledger) -> None:
    """The same parent branched after a fifth of its log and at its end: the memory peak of the longer copy is
    within 150 bytes per extra copied event of the shorter one's. Holding every event of the parent and of the
    branch (the old way) costs several kilobytes per event."""
    ledger = long_parent
    events_per_roll = ledger.resolve("Long").last_seq // ROLLS  # 2: the roll and its command's record
    end = ledger.resolve("Long").last_seq
    short = 1 + events_per_roll * (ROLLS // 5)
    _peak_branching(ledger, "Warm-up", short)  # first-use caches (statements, schemas) out of the measure
    peaks = {short: _peak_branching(ledger, "Short", short), end: _peak_branching(ledger, "Whole", end)}
    per_event = (peaks[end] - peaks[short]) / (end - short)
    assert per_event < 150, peaks
    whole = list(ledger.store.read(ledger.resolve("Whole").campaign_id))
    assert len(whole) == end + 2  # the shared history, then the branch's own two events
    assert [e.type for e in whole[-2:]] == ["timeline.branched", "dice.seed_committed"]
    report = verify_events(whole[0].campaign_id, whole, registry)
    assert report.ok, report.findings


def test_branching_reads_the_parent_page_by_page_up_to_its_command_end(
    long_parent: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parent is read lazily: branching at #201 pulls the events up to #202, the first of the next command
    (to know that #201 ends its command), not the other 2,800."""
    ledger = long_parent
    parent_id = ledger.resolve("Long").campaign_id
    pulled: list[int] = []
    read = type(ledger.store).read

    def counting(
        self: object, campaign_id: str, after_seq: int = 0, upto_seq: int | None = None
    ) -> Iterator[RecordedEvent]:
        for event in read(self, campaign_id, after_seq, upto_seq):  # type: ignore[arg-type]
            if campaign_id == parent_id:
                pulled.append(event.seq)
            yield event

    monkeypatch.setattr(type(ledger.store), "read", counting)
    result = branch(ledger, ledger.resolve("Long"), "Early", 201)
    assert pulled == list(range(1, 203))
    assert [e.type for e in result.events] == ["timeline.branched", "dice.seed_committed"]
    assert [e.seq for e in result.events] == [202, 203]
    assert result.events[0].payload["parent_hash"] == ledger.store.read_last(parent_id, 1, upto_seq=201)[0].hash
