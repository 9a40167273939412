"""The log as ``campaign log`` pages it: the last N events, events after a seq, events of some types, read by
the store's indexes instead of decoding the whole log.

Two things the whole log used to be read for come from small indexed reads of their own: which events are
retracted (from the campaign's rewinds alone, as :func:`events.timeline.live_seqs` decides: a rewind in effect
at seq R to T retracts every event T < seq < R except the dice's own, and a rewind is in effect unless a later
one in effect retracts it) and the names of units and battles (from their mustering and battle-start events).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from campaign.read.describe import unit_names
from events.envelope import RecordedEvent
from events.recorded import seq as array
from events.recorded import whole
from events.registry import registry
from events.store import EventStore
from events.timeline import NEVER_RETRACTED, REWOUND

if TYPE_CHECKING:
    from sqlalchemy import Engine

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
            to_seq = whole(rewind.payload["to_seq"])
            spans.append((to_seq, rewind.seq))
            floor = to_seq if floor is None else min(floor, to_seq)
    return spans


def is_retracted(event: RecordedEvent, spans: list[tuple[int, int]]) -> bool:
    if event.type in NEVER_RETRACTED:
        return False
    return any(to < event.seq < at for to, at in spans)


def ref_index(store: EventStore) -> Engine | None:
    """The database whose ``event_refs`` index this store keeps inline (``log --unit``/``--battle`` page
    through it), or None (a store in memory, or one wired without the index): the whole log is read then."""
    from events.sql import SqlEventStore
    from projections.event_refs import EventRefsProjector

    if isinstance(store, SqlEventStore) and any(isinstance(p, EventRefsProjector) for p in store.projectors):
        return store.engine
    return None


def log_page(  # noqa: PLR0913 (the log's filters, by keyword)
    store: EventStore,
    campaign_id: str,
    *,
    after: int = 0,
    upto: int | None = None,
    type_prefix: str | None = None,
    unit: str | None = None,
    battle: str | None = None,
    last: int | None = None,
    limit: int | None = None,
    show_all: bool = False,
) -> LogPage:
    """The events ``log`` shows, read page by page from the end (``last``) or from ``after`` (``limit``).

    Without ``--all`` the retracted events and the rewinds themselves are left out, as ``effective`` does; a
    page that they thin out is topped up from the next one, so ``--last 20`` still shows twenty in effect.

    With ``unit`` or ``battle`` (a name, matched as ``log``'s filter matches it, or an id) the pages are of the
    events that concern it, read by the ``event_refs`` index; the store must keep it (:func:`ref_index`).
    """
    spans = _retracted_by(store.read_types(campaign_id, [REWOUND], upto_seq=upto))
    names = unit_names(store.read_types(campaign_id, NAMING, upto_seq=upto))
    wanted = last if last is not None else limit
    about = _about(names, unit, battle)
    fetch = _by_refs(store, campaign_id, names, unit, battle, type_prefix) if about else None
    types = matching_types(type_prefix) if type_prefix and fetch is None else None

    def shown(e: RecordedEvent) -> bool:
        return (show_all or (e.type != REWOUND and not is_retracted(e, spans))) and (about is None or about(e))

    chosen: list[RecordedEvent] = []
    if last is not None:
        end, size = upto, min(PAGE, last + 8)  # a first page just past what is asked, doubling if thinned out
        while len(chosen) < last:
            if fetch is not None:
                read, edge, page = fetch(after, end, size, True)
            else:
                page = (
                    store.read_last(campaign_id, size, upto_seq=end)
                    if types is None
                    else store.read_types(campaign_id, types, upto_seq=end, limit=size, last=True)
                )
                read = len(page)
                page = [e for e in page if e.seq > after]
                edge = page[0].seq if page else after
            chosen[:0] = [e for e in page if shown(e)]
            if read < size or edge <= after:
                break
            end, size = edge - 1, min(PAGE, 2 * size)
        chosen = chosen[len(chosen) - last :] if len(chosen) > last else chosen
        if limit is not None:
            chosen = chosen[:limit]
    else:
        start = after
        while wanted is None or len(chosen) < wanted:
            if fetch is not None:
                read, edge, page = fetch(start, upto, PAGE, False)
            else:
                if types is None:
                    page = list(_take(store, campaign_id, start, upto, PAGE))
                else:
                    page = store.read_types(campaign_id, types, start, upto, limit=PAGE)
                read = len(page)
                edge = page[-1].seq if page else start
            chosen.extend(e for e in page if shown(e))
            if read < PAGE:
                break
            start = edge
        if wanted is not None:
            chosen = chosen[:wanted]
    return LogPage([(e, is_retracted(e, spans)) for e in chosen], names)


def dice_before(
    store: EventStore, campaign_id: str, events: list[RecordedEvent], *, among: bool = False
) -> list[RecordedEvent]:
    """The ``dice.rolled`` events of the rolls the rule applications among ``events`` used that ``events`` do not
    hold (a page of the log that begins after its first command's dice): a rule's sentence in the reader's
    language says its dice. A roll index only grows with seq, so they are the last rolls before the page, read
    by the type index, a page at a time back to the earliest index wanted. ``among``: ``events`` are a filtered
    page (one battle's), which may leave out rolls between them too: read back from the last of them."""
    held = {whole(e.payload["roll_index"]) for e in events if e.type == "dice.rolled"}
    wanted = {whole(i) for e in events if e.type == "rules.applied" for i in array(e.payload.get("dice") or ())} - held
    if not wanted or not events:
        return []
    found: list[RecordedEvent] = []
    upto, size = events[-1 if among else 0].seq - (0 if among else 1), max(8, len(wanted))
    while upto > 0:
        page = store.read_types(campaign_id, ["dice.rolled"], upto_seq=upto, limit=size, last=True)
        found[:0] = page
        if len(page) < size or whole(page[0].payload["roll_index"]) <= min(wanted):
            break
        upto, size = page[0].seq - 1, min(PAGE, 2 * size)
    return [e for e in found if whole(e.payload["roll_index"]) in wanted]


def _ids(names: dict[str, str], name: str) -> set[str]:
    """The ids a name given to ``--unit`` or ``--battle`` stands for, as ``log``'s filter matches them."""
    from campaign.rulesets.common import same_name

    return {k for k, v in names.items() if same_name(v, name)} | {name}


def _about(names: dict[str, str], unit: str | None, battle: str | None) -> Callable[[RecordedEvent], bool] | None:
    """Whether an event is about the unit (its ``unit_id`` or ``officer_id``) and the battle asked for."""
    if unit is None and battle is None:
        return None
    units = _ids(names, unit) if unit is not None else set()
    battles = _ids(names, battle) if battle is not None else set()

    def about(e: RecordedEvent) -> bool:
        if unit is not None and e.payload.get("unit_id") not in units and e.payload.get("officer_id") not in units:
            return False
        return battle is None or e.payload.get("battle_id") in battles

    return about


def _by_refs(
    store: EventStore,
    campaign_id: str,
    names: dict[str, str],
    unit: str | None,
    battle: str | None,
    type_prefix: str | None,
) -> Callable[[int, int | None, int, bool], tuple[int, int, list[RecordedEvent]]]:
    """A reader of the events about the unit (or else the battle) by the ``event_refs`` index: given (after,
    upto, count, last), how many index rows it read, the seq it stopped at (the first read, with ``last``; else
    the last) and their events of the type asked for, in seq order."""
    from projections.event_refs import battle_ref, ref_seqs, unit_ref

    engine = ref_index(store)
    if engine is None:
        raise ValueError("log --unit/--battle by index needs a store that keeps event_refs")
    refs = (
        {unit_ref(i) for i in _ids(names, unit)}
        if unit is not None
        else {battle_ref(i) for i in _ids(names, battle or "")}
    )

    def fetch(after: int, upto: int | None, count: int, last: bool) -> tuple[int, int, list[RecordedEvent]]:
        seqs = ref_seqs(engine, campaign_id, refs, after, upto, limit=count, last=last)
        page = store.read_seqs(campaign_id, seqs)
        edge = (seqs[0] if last else seqs[-1]) if seqs else after
        return len(seqs), edge, [e for e in page if not type_prefix or e.type.startswith(type_prefix)]

    return fetch


def _take(store: EventStore, campaign_id: str, after: int, upto: int | None, count: int) -> list[RecordedEvent]:
    """The next ``count`` events after ``after``: the store's keyset read, stopped early."""
    stop = after + count if upto is None else min(upto, after + count)
    return list(store.read(campaign_id, after_seq=after, upto_seq=stop))
