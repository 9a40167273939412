"""Which events of a campaign are in effect: rewinds retract the events after their target.

A rewind at seq R with target T retracts every event with T < seq < R, except dice (rolled dice stay
rolled). Rewinds may follow each other; each retracts from what was in effect when it was appended.
"""

from __future__ import annotations

from collections.abc import Iterable

from events.envelope import RecordedEvent


def effective(events: Iterable[RecordedEvent]) -> list[RecordedEvent]:
    """The events in effect, in order: what projections fold."""
    kept: list[RecordedEvent] = []
    for event in events:
        if event.type == "timeline.rewound":
            to_seq = event.payload["to_seq"]
            kept = [e for e in kept if e.seq <= to_seq or e.type == "dice.rolled"]
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
