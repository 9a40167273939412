"""Undo and rewind read a window at the log's end, not the whole log, and decide on it exactly as on the
whole log; the state after a rewind comes from the nearest snapshot it needs, not from a refold of the log.

The oracle is the whole-log way: :func:`plan_rewind` / :func:`plan_undo` given every event of the campaign (what
``Timeline.rewind`` and ``Timeline.undo`` did before), and ``fold.fold(effective(log[:seq]))`` for a state."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from campaign import timeline as timeline_module
from campaign.commands import fold_for
from campaign.executor import Ledger
from campaign.read.describe import describe, explained_by, unit_names
from campaign.read.views import unit_history
from campaign.timeline import Timeline, plan_rewind, plan_undo
from events import sql, sql_rows
from events.envelope import RecordedEvent
from events.errors import CampaignError, InvalidInputError
from events.timeline import effective
from projections import campaign_state
from projections.campaign_state import state_at
from tests.conftest import Backend, empty_tables, examples, make_ledger
from tests.integration.test_projections import hypo_engine  # noqa: F401  (a fixture)
from tests.integration.test_timeline_properties import PLAYS, apply_op, timeline_op

op = st.one_of(timeline_op, st.tuples(st.just("roll")))


def _outcome(plan: Any, *args: Any) -> Any:
    try:
        return plan(*args)
    except InvalidInputError as exc:
        return ("refused", str(exc))


@settings(
    max_examples=examples(80),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data(), ruleset=st.sampled_from(sorted(PLAYS)))
def test_the_window_decides_as_the_whole_log_on_any_play(
    hypo_engine: Engine,  # noqa: F811
    data: st.DataObject,
    ruleset: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On any play of the four rulesets with undos, rewinds, amends and rolls (which take dice left on the table)
    interleaved: for every seq, a rewind there is refused with the same words or leaves the same dice on the table
    on its window as on the whole log; an undo likewise, read back two events at a time; and the state at every
    seq, from snapshots at any seqs, is the fold of what was in effect up to it."""
    monkeypatch.setattr(timeline_module, "UNDO_PAGE", 2)
    hypo_engine.dispose()  # closes the write connections the stores of earlier examples keep for their next append
    empty_tables(hypo_engine)
    ledger = make_ledger(Backend("sqlite", hypo_engine))
    name, play, step = PLAYS[ruleset]
    play(ledger, data.draw(st.lists(step, max_size=6), label="play"))
    for chosen in data.draw(st.lists(op, max_size=8), label="timeline"):
        if chosen[0] == "roll":
            with contextlib.suppress(CampaignError):
                ledger.roll(ledger.resolve(name), "2d6", "property test")
        else:
            apply_op(ledger, name, chosen)
    info = ledger.resolve(name)
    timeline = Timeline(ledger)
    whole = list(ledger.store.read(info.campaign_id))
    for seq in range(1, info.last_seq):
        window = timeline.rewind_window(info, seq)
        assert window[-1].seq == info.last_seq
        assert _outcome(plan_rewind, window, info, seq) == _outcome(plan_rewind, whole, info, seq), seq
    assert _outcome(plan_undo, timeline.undo_window(info), info) == _outcome(plan_undo, whole, info)

    fold = fold_for(info.ruleset)
    assert fold is not None
    for unit in fold.summary(fold.fold(effective(whole))).units:  # `unit NAME`'s history, streamed
        for at in (None, info.last_seq // 2):
            unit_id = str(unit["unit_id"])
            streamed = unit_history(ledger.store, info.campaign_id, unit_id, at)
            assert streamed == whole_log_unit_history(whole[:at], unit_id), (unit["name"], at)
    truth = [fold.fold(effective(whole[:seq])) for seq in range(len(whole) + 1)]
    snapshot_seqs = data.draw(st.sets(st.integers(1, info.last_seq)), label="snapshots")

    def nearest(seq: int, _: Any) -> tuple[int, Any]:
        at = max((s for s in snapshot_seqs if s <= seq), default=0)
        return at, truth[at]

    for seq in range(1, info.last_seq + 1):
        assert state_at(fold, nearest, lambda a, b: whole[a:b], seq) == truth[seq], seq


def test_undoing_an_undo_of_an_undo_puts_the_battles_dice_back_on_the_table(
    hypo_engine: Engine,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found by `HYPOTHESIS_PROFILE=explore`: a battle, its undo (its dice on the table), the undo of that undo
    (the battle back, the table empty). A third undo takes back the second, so the first is in effect again and
    the battle's twelve dice go back on the table: its window must reach back to the battle, which the first
    undo's target points to, though the battle lies before the seq the third undo goes back to."""
    monkeypatch.setattr(timeline_module, "UNDO_PAGE", 2)
    hypo_engine.dispose()
    empty_tables(hypo_engine)
    ledger = make_ledger(Backend("sqlite", hypo_engine))
    name, play, _ = PLAYS["mass-combat"]
    play(ledger, [("battle", 0)])
    timeline = Timeline(ledger)
    timeline.undo(ledger.resolve(name))
    dice = ledger.resolve(name).on_table
    assert len(dice) == 12
    timeline.undo(ledger.resolve(name))
    assert ledger.resolve(name).on_table == ()
    info = ledger.resolve(name)
    whole = list(ledger.store.read(info.campaign_id))
    plan = plan_undo(timeline.undo_window(info), info)
    assert plan == plan_undo(whole, info)
    assert [seq for seq, _ in plan.on_table] == list(dice)
    timeline.undo(info)
    assert ledger.resolve(name).on_table == dice


def whole_log_unit_history(events: list[RecordedEvent], unit_id: str) -> list[dict[str, Any]]:
    """What ``unit NAME`` gave before it paged: the whole log read, its effective events kept, then filtered."""
    kept = effective(events)
    names = unit_names(kept)
    covered = explained_by(kept)
    mine = {e.seq for e in kept if e.payload.get("unit_id") == unit_id}
    return [
        {"seq": e.seq, "type": e.type, "what": describe(e, names), "shown": covered.get(e.seq) not in mine}
        for e in kept
        if e.payload.get("unit_id") == unit_id and e.type != "roster.unit_mustered"
    ]


ROLLS = 1500


@pytest.fixture
def long_campaign(sql_backend: Backend) -> Ledger:
    ledger = make_ledger(sql_backend)
    ledger.create_campaign("Long", "fighting-spirit")
    for i in range(ROLLS):
        ledger.roll(ledger.resolve("Long"), "d6", f"roll {i}")
    return ledger


def _decoded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every event any read decodes (the store's reads and the inline writer's, inside the append)."""
    seqs: list[int] = []
    stream, rows = sql_rows.decode_stream, sql_rows.decode_rows

    def counting_stream(*args: Any) -> Iterator[RecordedEvent]:
        for event in stream(*args):
            seqs.append(event.seq)
            yield event

    def counting_rows(*args: Any) -> list[RecordedEvent]:
        decoded = rows(*args)
        seqs.extend(e.seq for e in decoded)
        return decoded

    for module in (sql, sql_rows):
        monkeypatch.setattr(module, "decode_stream", counting_stream)
        monkeypatch.setattr(module, "decode_rows", counting_rows)
    return seqs


def test_undo_and_rewind_read_the_logs_end_not_the_whole_log(
    long_campaign: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A campaign of 1,500 rolls (3,001 events). Undoing the last roll, undoing that undo, and rewinding to the
    end of the roll before the last decode events from the end of the log only: none before the last snapshot
    (snapshots fall every 256 seqs), so at most 256 + the few they append, not the 3,001 the whole log holds."""
    ledger = long_campaign
    end = ledger.resolve("Long").last_seq
    assert end == 1 + 2 * ROLLS
    before = ledger.states.get(ledger.resolve("Long"))
    floor = end - end % campaign_state.SNAPSHOT_EVERY
    seqs = _decoded(monkeypatch)
    _, what, start = Timeline(ledger).undo(ledger.resolve("Long"))
    assert (what, start) == ("ledger.roll", end - 1)
    assert seqs and min(seqs) > floor, min(seqs)
    seqs.clear()
    Timeline(ledger).undo(ledger.resolve("Long"))  # the undo of the undo: the last roll in effect again
    assert min(seqs) > floor, min(seqs)
    seqs.clear()
    Timeline(ledger).rewind(ledger.resolve("Long"), end - 2, "a test")
    assert min(seqs) > floor, min(seqs)
    assert len(seqs) < 2 * campaign_state.SNAPSHOT_EVERY
    info = ledger.resolve("Long")
    rolls = ledger.store.read_types(info.campaign_id, ["dice.rolled"], after_seq=end - 4)
    assert [e.seq for e in rolls] == [end - 2, end]  # the rewound roll's die stays rolled, and on the table
    assert info.on_table == (end,)
    assert ledger.states.get(info) == before  # Fighting Spirit's state does not hold rolls
