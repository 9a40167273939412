"""Which events are in effect after rewinds, undos of rewinds, and dice that no rewind retracts."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from events.envelope import RecordedEvent
from events.timeline import effective, retracted, retracted_among


def log(*kinds: Any) -> list[RecordedEvent]:
    """``"x"`` is a plain event, ``"d"`` a die rolled, ``("r", T)`` a rewind to seq T; seqs count from 1."""
    out = []
    for seq, kind in enumerate(kinds, start=1):
        if isinstance(kind, tuple):
            out.append(
                RecordedEvent(seq, "c", seq, "timeline.rewound", 1, {"to_seq": kind[1], "reason": ""}, {}, "", "")
            )
        else:
            out.append(RecordedEvent(seq, "c", seq, "dice.rolled" if kind == "d" else "x", 1, {}, {}, "", ""))
    return out


def seqs(events: list[RecordedEvent]) -> list[int]:
    return [e.seq for e in effective(events)]


def test_a_rewind_retracts_what_follows_its_target_but_not_the_dice() -> None:
    assert seqs(log("x", "x", "d", "x", ("r", 2), "x")) == [1, 2, 3, 6]


def test_rewinds_that_follow_each_other_each_retract_from_what_was_in_effect() -> None:
    #                 1    2    3    4        5    6        7
    events = log("x", "x", "x", ("r", 2), "x", ("r", 5), "x")
    assert seqs(events) == [1, 2, 5, 7]
    assert retracted(events) == {3}


def test_undoing_a_rewind_is_a_rewind_to_just_before_it_and_restores_what_it_retracted() -> None:
    #                 1    2    3    4        5
    events = log("x", "x", "x", ("r", 1), ("r", 3))
    assert seqs(events) == [1, 2, 3]
    assert retracted(events) == {4}, "the undone rewind is itself retracted (and shown as such)"


def test_undoing_an_undo_retracts_again() -> None:
    #                 1    2    3        4        5
    events = log("x", "x", ("r", 1), ("r", 2), ("r", 3))
    assert seqs(events) == [1]


@given(st.lists(st.one_of(st.just("x"), st.just("d"), st.integers(0, 30)), max_size=30))
def test_without_undos_the_backward_reading_equals_the_forward_one(script: list[Any]) -> None:
    """A rewind whose target is still in effect (all that `rewind` accepts) gives what the first edition's
    forward reading gave: each rewind retracts, from what was in effect, everything after its target."""
    kinds: list[Any] = []
    kept: list[tuple[int, str]] = []
    for item in script:
        seq = len(kinds) + 1
        if isinstance(item, int):
            live = [s for s, k in kept if k == "x"]
            if not live:
                continue
            target = live[item % len(live)]
            kinds.append(("r", target))
            kept = [(s, k) for s, k in kept if s <= target or k == "d"]
        else:
            kinds.append(item)
            kept.append((seq, item))
    assert seqs(log(*kinds)) == [s for s, _ in kept]


@given(
    st.lists(st.one_of(st.just("x"), st.just("d"), st.integers(0, 30)), max_size=30),
    st.sets(st.integers(1, 30)),
)
def test_a_few_events_are_judged_by_the_rewinds_alone_as_by_the_whole_log(script: list[Any], picked: set[int]) -> None:
    """What ``audit`` reads (the audited events and every rewind) gives each of them the same verdict as the log."""
    events = log(*[("r", k) if isinstance(k, int) else k for k in script])
    some = [e for e in events if e.seq in picked]
    rewinds = [e for e in events if e.type == "timeline.rewound"]
    assert retracted_among(some, rewinds) == retracted(events) & {e.seq for e in some}
