"""``campaign log`` paged by the store's indexes shows exactly what filtering the whole log showed."""

from __future__ import annotations

import itertools

import pytest

import campaign.read.log as log_view
from campaign.read.describe import unit_names
from campaign.read.log import log_page
from campaign.read.views import log_filter
from events.envelope import NewEvent, RecordedEvent
from events.memory import InMemoryEventStore


def campaign_with_rewinds() -> InMemoryEventStore:
    """Seqs 1–30: a unit and a battle, dice and funds; rewinds at 12 back to 8, at 18 back to 11 (which takes
    back the first, as an undo does) and at 28 back to 20."""
    store = InMemoryEventStore()
    kinds: list[NewEvent] = [
        NewEvent("campaign.created", {"name": "C"}),
        NewEvent("roster.unit_mustered", {"unit_id": "u1", "name": "Blue Foot"}),
        NewEvent("battle.started", {"battle_id": "b1", "name": "Hill"}),
    ]
    for seq in range(4, 31):
        if seq in (12, 18, 28):
            kinds.append(NewEvent("timeline.rewound", {"to_seq": {12: 8, 18: 11, 28: 20}[seq]}))
        elif seq % 3 == 0:
            kinds.append(NewEvent("dice.rolled", {"total": seq}))
        else:
            kinds.append(NewEvent("economy.funds_changed", {"amount": seq}))
    for n, event in enumerate(kinds):
        store.append("c", [event], n)
    return store


def reference(
    events: list[RecordedEvent],
    after: int,
    upto: int | None,
    type_prefix: str | None,
    last: int | None,
    limit: int | None,
    show_all: bool,
) -> list[tuple[int, bool]]:
    """What ``log`` showed before paging: the whole log filtered, then the last N, then the first M."""
    chosen = [e for e in events if upto is None or e.seq <= upto]
    entries = [
        (e.seq, gone)
        for e, gone in log_filter(chosen, show_all=show_all, unit=None, battle=None)
        if e.seq > after and (not type_prefix or e.type.startswith(type_prefix))
    ]
    if last is not None:
        entries = entries[max(0, len(entries) - last) :]
    return entries if limit is None else entries[:limit]


@pytest.mark.parametrize("page", [2, 500])
def test_every_combination_of_paging_options_shows_what_the_whole_log_showed(
    page: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(log_view, "PAGE", page)
    store = campaign_with_rewinds()
    events = list(store.read("c"))
    combinations = itertools.product(
        (0, 5, 20),
        (None, 10, 24, 30),
        (None, "dice.", "economy.", "timeline."),
        (None, 0, 1, 4, 50),
        (None, 3),
        (False, True),
    )
    for after, upto, type_prefix, last, limit, show_all in combinations:
        got = log_page(
            store, "c", after=after, upto=upto, type_prefix=type_prefix, last=last, limit=limit, show_all=show_all
        )
        expected = reference(events, after, upto, type_prefix, last, limit, show_all)
        assert [(e.seq, gone) for e, gone in got.entries] == expected, (after, upto, type_prefix, last, limit, show_all)
        assert got.names == unit_names(e for e in events if upto is None or e.seq <= upto)


def test_the_last_events_skip_the_retracted_ones_and_the_rewinds_unless_all() -> None:
    store = campaign_with_rewinds()
    # Worked by hand. Read backwards: 28 (back to 20) is in effect, so is 18 (back to 11, 18 ≤ 20); 12 is not
    # (12 > 11): 9–11 are in effect again. Retracted: 12–17 and 21–27, except the dice (multiples of 3).
    # The last eight in effect, rewinds left out: 15, 19, 20, 21, 24, 27, 29, 30.
    assert [e.seq for e, _ in log_page(store, "c", last=8).entries] == [15, 19, 20, 21, 24, 27, 29, 30]
    # Up to 14 only the rewind at 12 (back to 8) counts: 10 and 11 are gone, 9 is a die.
    assert [e.seq for e, _ in log_page(store, "c", upto=14, last=5).entries] == [7, 8, 9, 13, 14]
    with_all = log_page(store, "c", upto=14, last=5, show_all=True).entries
    assert [(e.seq, gone) for e, gone in with_all] == [(10, True), (11, True), (12, False), (13, False), (14, False)]
    # With every rewind counted, the one at 12 is retracted by the one at 18 and so are its own retractions.
    marked_all = {e.seq: gone for e, gone in log_page(store, "c", show_all=True).entries}
    assert [s for s, gone in marked_all.items() if gone] == [12, 13, 14, 16, 17, 22, 23, 25, 26]
    marked = log_page(store, "c", after=7, upto=13, show_all=True).entries
    assert [(e.seq, gone) for e, gone in marked] == [
        (8, False),
        (9, False),
        (10, True),
        (11, True),
        (12, False),
        (13, False),
    ]
