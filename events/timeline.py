"""Which events of a campaign are in effect: rewinds retract the events after their target.

A rewind at seq R with target T retracts every event with T < seq < R, except the dice's own events: rolled
dice stay rolled, a revealed seed stays public and a committed one stays the commitment. A rewind can itself be
retracted by a later one (that is how ``undo`` takes back a rewind or an amendment): a retracted rewind retracts
nothing, so what it had retracted is in effect again. Nothing is ever deleted.

Read backwards, this is one pass: an event is retracted when some later rewind still in effect targets a seq
before it, and every rewind seen so far (they all come after it) is later.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from events.envelope import RecordedEvent
from events.recorded import whole

if TYPE_CHECKING:
    from events.store import EventStore

NEVER_RETRACTED = frozenset(
    {
        "dice.rolled",
        "dice.set_aside",
        "dice.seed_revealed",
        "dice.seed_committed",
        "dice.share_committed",
        "membership.granted",
        "membership.removed",
    }
)
"""What no rewind can undo: the dice that were rolled (and set aside by a reroll), the seeds that were revealed
or committed to (and the shares of entropy mixed into them), and who was given which role (not part of the
story being rewound; changed only by another membership event)."""

REWOUND = "timeline.rewound"


def live_seqs(events: Iterable[RecordedEvent]) -> set[int]:
    """The seqs of every event in effect, rewinds in effect included."""
    ordered = list(events)
    floor: int | None = None
    live: set[int] = set()
    for event in reversed(ordered):
        if event.type in NEVER_RETRACTED or floor is None or event.seq <= floor:
            live.add(event.seq)
            if event.type == REWOUND:
                to_seq = whole(event.payload["to_seq"])
                floor = to_seq if floor is None else min(floor, to_seq)
    return live


def effective(events: Iterable[RecordedEvent]) -> list[RecordedEvent]:
    """The events in effect, in order, rewinds left out: what projections fold."""
    ordered = list(events)
    live = live_seqs(ordered)
    return [e for e in ordered if e.seq in live and e.type != REWOUND]


def retracted(events: Iterable[RecordedEvent]) -> set[int]:
    """The seqs of retracted events (what ``log --all`` marks), retracted rewinds included."""
    ordered = list(events)
    live = live_seqs(ordered)
    return {e.seq for e in ordered if e.seq not in live}


def by_command(events: Iterable[RecordedEvent]) -> list[list[RecordedEvent]]:
    """Events (in effect, in ``seq`` order) grouped one group per command: a group starts at its
    ``timeline.command_issued``, and where the seqs skip, since the dice of a retracted command stay in effect
    (they were rolled) and belong to no command still in effect."""
    groups: list[list[RecordedEvent]] = []
    for event in events:
        if event.type == "timeline.command_issued" or not groups or event.seq != groups[-1][-1].seq + 1:
            groups.append([])
        groups[-1].append(event)
    return groups


def has_rewind(events: Iterable[RecordedEvent]) -> bool:
    return any(e.type == REWOUND for e in events)


def retracted_among(events: Iterable[RecordedEvent], rewinds: Iterable[RecordedEvent]) -> set[int]:
    """Which of ``events`` are retracted, given the campaign's rewinds (all of them, read by type): whether an
    event is in effect depends only on the rewinds after it and on whether those are, so a few events are
    judged without the rest of the log."""
    mine = list(events)
    by_seq = {e.seq: e for e in mine}
    by_seq.update((e.seq, e) for e in rewinds)
    live = live_seqs(by_seq[s] for s in sorted(by_seq))
    return {e.seq for e in mine if e.seq not in live}


def live_events(store: EventStore, campaign_id: str) -> Iterator[RecordedEvent]:
    """The campaign's events in effect, in order, rewinds left out (what :func:`effective` gives), streamed: which
    are retracted is known from the rewinds alone (read by type), since only the rewinds after an event decide."""
    rewinds = store.read_types(campaign_id, [REWOUND])
    live = live_seqs(rewinds)
    kept = sorted((e.seq, whole(e.payload["to_seq"])) for e in rewinds if e.seq in live)
    floors = list(itertools.accumulate(reversed([to for _, to in kept]), min))[::-1]
    """floors[i]: the lowest target of the rewinds in effect from the i-th on; an event before the i-th and after
    the (i-1)-th is retracted when it lies above it."""
    at = 0
    for event in store.read(campaign_id):
        while at < len(kept) and kept[at][0] <= event.seq:
            at += 1
        if event.type == REWOUND:
            continue
        if event.type in NEVER_RETRACTED or at == len(kept) or event.seq <= floors[at]:
            yield event
