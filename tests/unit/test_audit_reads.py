"""What ``audit`` reads instead of the whole log: a roll found by a binary search of point reads, and its
command's rule decided again from the campaign as it stood before it."""

from __future__ import annotations

from typing import Any

from campaign.replay import Sandbox, command_groups, command_of, redecide, roll_seq
from events.envelope import RecordedEvent
from projections.state.campaigns import CampaignInfo
from tests.acceptance.test_amend_rewind import patrol
from tests.conftest import Backend, make_ledger


def test_every_roll_is_found_by_point_reads_in_a_log_longer_than_the_search_window() -> None:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Long March", "fighting-spirit")
    for i in range(400):  # 800 events: the binary search narrows before it scans a window of 256
        ledger.roll(ledger.resolve(None), "d6", f"march {i}")
    info = ledger.resolve(None)
    events = list(ledger.store.read(info.campaign_id))
    seq_of = {e.payload["roll_index"]: e.seq for e in events if e.type == "dice.rolled"}
    assert len(seq_of) == 400
    read: list[int] = []
    real = ledger.store.read_types

    def counted(*args: Any, **kwargs: Any) -> list[RecordedEvent]:
        found = real(*args, **kwargs)
        read.append(len(found))
        return found

    ledger.store.read_types = counted  # type: ignore[method-assign]
    for roll in (0, 1, 127, 200, 398, 399):
        read.clear()
        assert roll_seq(ledger.store, info.campaign_id, roll, info.last_seq) == seq_of[roll]
        assert sum(read) <= 256, f"roll {roll}: {sum(read)} dice read, not a narrowed window"
    assert roll_seq(ledger.store, info.campaign_id, 400, info.last_seq) is None
    assert roll_seq(ledger.store, info.campaign_id, -1, info.last_seq) is None


def test_a_rule_decided_again_from_the_state_before_it_gives_what_a_sandbox_of_the_whole_prefix_gives() -> None:
    ledger, _ = patrol(Backend("memory"))  # E3's patrol: two tests, the second depending on the first

    def info() -> CampaignInfo:
        return ledger.resolve(None)

    events = list(ledger.store.read(info().campaign_id))
    for rule in (e for e in events if e.type == "rules.applied"):
        group = command_of(ledger.store, rule)
        assert group.issued is not None and group.outcomes
        before = [e for e in events if e.seq < group.first_seq]
        sandboxed = command_groups(Sandbox(ledger, before).run(info().campaign_id, group))[0].outcomes
        again = redecide(ledger, info(), group)
        assert again is not None
        recorded = [o["outcome"] for o in group.outcomes]
        assert [o["outcome"] for o in again] == [o["outcome"] for o in sandboxed] == recorded
