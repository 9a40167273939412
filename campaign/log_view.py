"""The log as ``campaign log`` pages it: the last N events, events after a seq, events of some types, read by
the store's indexes instead of decoding the whole log (issue 14).

Two things the whole log used to be read for come from small indexed reads of their own: which events are
retracted (from the campaign's rewinds alone, as :func:`events.timeline.live_seqs` decides: a rewind in effect
at seq R to T retracts every event T < seq < R except the dice's own, and a rewind is in effect unless a later
one in effect retracts it) and the names of units and battles (from their mustering and battle-start events).
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign.describe import unit_names
from events.envelope import RecordedEvent
from events.registry import registry
from events.store import EventStore
from events.timeline import NEVER_RETRACTED, REWOUND

NAMING = ("roster.unit_mustered", "battle.started")
PAGE = 500
"""Events read at a time while looking for the ones in effect."""


@dataclass(frozen=True)
class LogPage:
    entries: list[tuple[RecordedEvent, bool]]
    """The events shown, in seq order, each with whether a rewind retracted it."""
    names: dict[str, str]


def matching_types(prefix: str) -> list[str]:
    """Every event type that starts with ``prefix`` (``dice.`` → ``dice.rolled``, …): ``names()`` imports every
    family first."""
    return [name for name in registry.names() if name.startswith(prefix)]


def _retracted_by(rewinds: list[RecordedEvent]) -> list[tuple[int, int]]:
    """The open seq intervals (to, at) that the rewinds still in effect retract: read backwards, a rewind is
    in effect unless a later one in effect went back before it."""
    spans: list[tuple[int, int]] = []
    floor: int | None = None
    for rewind in reversed(rewinds):
        if floor is None or rewind.seq <= floor:
            to_seq = int(rewind.payload["to_seq"])
            spans.append((to_seq, rewind.seq))
            floor = to_seq if floor is None else min(floor, to_seq)
    return spans


def is_retracted(event: RecordedEvent, spans: list[tuple[int, int]]) -> bool:
    if event.type in NEVER_RETRACTED:
        return False
    return any(to < event.seq < at for to, at in spans)


def log_page(
    store: EventStore,
    campaign_id: str,
    *,
    after: int = 0,
    upto: int | None = None,
    type_prefix: str | None = None,
    last: int | None = None,
    limit: int | None = None,
    show_all: bool = False,
) -> LogPage:
    """The events ``log`` shows, read page by page from the end (``last``) or from ``after`` (``limit``).

    Without ``--all`` the retracted events and the rewinds themselves are left out, as ``effective`` does; a
    page that they thin out is topped up from the next one, so ``--last 20`` still shows twenty in effect.
    """
    spans = _retracted_by(store.read_types(campaign_id, [REWOUND], upto_seq=upto))
    names = unit_names(store.read_types(campaign_id, NAMING, upto_seq=upto))
    types = matching_types(type_prefix) if type_prefix else None
    wanted = last if last is not None else limit

    def shown(e: RecordedEvent) -> bool:
        return show_all or (e.type != REWOUND and not is_retracted(e, spans))

    chosen: list[RecordedEvent] = []
    if last is not None:
        end, size = upto, min(PAGE, last + 8)  # a first page just past what is asked, doubling if thinned out
        while len(chosen) < last:
            page = (
                store.read_last(campaign_id, size, upto_seq=end)
                if types is None
                else store.read_types(campaign_id, types, upto_seq=end, limit=size, last=True)
            )
            page = [e for e in page if e.seq > after]
            chosen[:0] = [e for e in page if shown(e)]
            if len(page) < size:
                break
            end, size = page[0].seq - 1, min(PAGE, 2 * size)
        chosen = chosen[len(chosen) - last :] if len(chosen) > last else chosen
        if limit is not None:
            chosen = chosen[:limit]
    else:
        start = after
        while wanted is None or len(chosen) < wanted:
            if types is None:
                page = list(_take(store, campaign_id, start, upto, PAGE))
            else:
                page = store.read_types(campaign_id, types, start, upto, limit=PAGE)
            chosen.extend(e for e in page if shown(e))
            if len(page) < PAGE:
                break
            start = page[-1].seq
        if wanted is not None:
            chosen = chosen[:wanted]
    return LogPage([(e, is_retracted(e, spans)) for e in chosen], names)


def _take(store: EventStore, campaign_id: str, after: int, upto: int | None, count: int) -> list[RecordedEvent]:
    """The next ``count`` events after ``after``: the store's keyset read, stopped early."""
    stop = after + count if upto is None else min(upto, after + count)
    return list(store.read(campaign_id, after_seq=after, upto_seq=stop))
