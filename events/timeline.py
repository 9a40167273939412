"""Which events of a campaign are in effect: rewinds retract the events after their target.

A rewind at seq R with target T retracts every event with T < seq < R, except the dice's own events: rolled
dice stay rolled, a revealed seed stays public and a committed one stays the commitment. Rewinds may follow
each other; each retracts from what was in effect when it was appended.
"""

from __future__ import annotations

from collections.abc import Iterable

from events.envelope import RecordedEvent

NEVER_RETRACTED = frozenset({"dice.rolled", "dice.seed_revealed", "dice.seed_committed"})
"""What no rewind can undo: the dice that were rolled and the seeds that were revealed or committed to."""


def effective(events: Iterable[RecordedEvent]) -> list[RecordedEvent]:
    """The events in effect, in order: what projections fold."""
    kept: list[RecordedEvent] = []
    for event in events:
        if event.type == "timeline.rewound":
            to_seq = event.payload["to_seq"]
            kept = [e for e in kept if e.seq <= to_seq or e.type in NEVER_RETRACTED]
            continue
        kept.append(event)
    return kept


def retracted(events: Iterable[RecordedEvent]) -> set[int]:
    """The seqs of retracted events (what ``log --all`` marks)."""
    all_events = list(events)
    live = {e.seq for e in effective(all_events)}
    return {e.seq for e in all_events if e.seq not in live and e.type != "timeline.rewound"}


def has_rewind(events: Iterable[RecordedEvent]) -> bool:
    return any(e.type == "timeline.rewound" for e in events)
