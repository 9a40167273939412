"""Each campaign's folded state and summaries, kept inline in the append transaction, with snapshots.

The fold is the ruleset's, handed in by the wiring (projections never import the rulesets); this module only
stores and serves it: the state at the head for commands, any earlier state (``--at SEQ``) from the nearest
snapshot plus the events after it, and summary tables (units, battles, treasuries) for the read commands.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import orjson
from sqlalchemy import Connection, Engine, Table, delete, insert, select

from events.envelope import RecordedEvent
from events.recorded import whole
from events.sql_rows import read_range_in_transaction
from events.store import EventStore
from events.timeline import REWOUND, effective, has_rewind, live_seqs
from projections.driver import by_campaign, execute
from projections.fold import Dumped, FoldFor, RulesetFold, Summary, SummaryRow
from projections.state.campaigns import CampaignInfo
from projections.summaries import summary_row
from projections.tables import (
    battle_history,
    campaign_snapshots,
    campaign_state,
    campaign_summary,
    campaigns,
    event_refs,
    treasuries,
    unit_records,
)

S = TypeVar("S")

SNAPSHOT_EVERY = 256
"""Snapshots fall on multiples of this seq (a storage setting, not a rule), and only once the campaign has
logged twice the last snapshot's bytes since it: a state that grows with the campaign is then copied at a
stride that grows with it, and the snapshots together stay under half the log's bytes plus the last one."""

PROJECTION_TABLES = (campaign_state, campaign_snapshots, unit_records, battle_history, treasuries, campaign_summary)


def _json(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def logged_bytes(event: RecordedEvent) -> int:
    """What an event adds to the log, as counted against snapshots: its payload and its hash."""
    return len(event.payload_json) + len(event.hash)


SummaryRows = dict[Table, dict[str, dict[str, object]]]
"""Summary rows by table, then by key (unit id, battle id, side, or the campaign's id for its one summary row)."""


def _summary_rows(campaign_id: str, summary: Summary, since: tuple[Summary, SummaryRows] | None = None) -> SummaryRows:
    """The rows of ``summary``; with an earlier summary and its rows (``since``), a row whose source (a unit's or
    a battle's summary) is the very object it was made from is not made and encoded again."""
    return {
        unit_records: _rows(
            summary.units,
            (since[0].units, since[1][unit_records]) if since is not None else None,
            "unit_id",
            lambda u: {
                "campaign_id": campaign_id,
                "unit_id": u["unit_id"],
                "name": u["name"],
                "side": u["side"],
                "summary": _json(u),
            },
        ),
        battle_history: _rows(
            summary.battles,
            (since[0].battles, since[1][battle_history]) if since is not None else None,
            "battle_id",
            lambda b: {
                "campaign_id": campaign_id,
                "battle_id": b["battle_id"],
                "name": b["name"],
                "summary": _json(b),
            },
        ),
        treasuries: {
            side: {"campaign_id": campaign_id, "side": side, "balance": balance}
            for side, balance in summary.treasury.items()
        },
        campaign_summary: {campaign_id: summary_row(campaign_id, summary)},
    }


def _rows(
    sources: Sequence[SummaryRow],
    since: tuple[Sequence[SummaryRow], dict[str, dict[str, object]]] | None,
    key: str,
    row: Callable[[SummaryRow], dict[str, object]],
) -> dict[str, dict[str, object]]:
    """Each source's row by its ``key``; with earlier sources and the rows made of them (``since``), those rows
    where a source is the very one a row was made from."""
    # a unit's or a battle's id (its summary's ``key``) is a string
    if since is None:
        return {str(s[key]): row(s) for s in sources}
    were, made = since
    if sources is were:
        return made
    before = {str(s[key]): s for s in were}
    out: dict[str, dict[str, object]] = {}
    for s in sources:
        k = str(s[key])
        out[k] = made[k] if before.get(k) is s else row(s)
    return out


_KEYS = {unit_records: "unit_id", battle_history: "battle_id", treasuries: "side", campaign_summary: "campaign_id"}
_UPDATED = {
    table: [c.name for c in table.columns if c.name not in ("campaign_id", key)] for table, key in _KEYS.items()
}
_UPDATES = {
    table: f"UPDATE {table.name} SET {', '.join(f'{c} = ?' for c in _UPDATED[table])}"  # noqa: S608
    f" WHERE campaign_id = ? AND {_KEYS[table]} = ?"
    for table in _KEYS
}


@dataclass
class _Held:
    """What the projector wrote last for a campaign, kept between appends of one process: the state at
    ``last_seq`` (states are immutable values), its summary rows and snapshot budget, so the next append
    reads nothing back, decodes nothing and rewrites only what changed."""

    fold: RulesetFold[Any]
    last_seq: int
    last_hash: str
    """The hash of the event at ``last_seq``: an append whose transaction failed after its projectors ran leaves
    a state held at that seq which is not the log's; the hash tells them apart."""
    state: object
    rows: SummaryRows | None
    """None when the state was read from the database, not written here: the rows are then made from it, to be
    compared with the batch's."""
    logged: int
    snapshot_size: int
    summary: Summary | None = None
    """The summary ``rows`` were made from, and what the fold made it from (``kept``): the next append's
    summary makes again only the rows whose inputs it changed (every one, when these are None)."""
    kept: object = None
    dumped: Dumped | None = None
    """The parts of ``state`` as encoded in the stored row, when this writer wrote it: the next append encodes
    again only the parts it changed, and leaves the row's state as it is when it changed none (a roll)."""


class CampaignStateProjector:
    """Inline writer: folds each appended batch into its campaign's stored state, writing only the summary
    rows the batch changed, and a snapshot when one is due."""

    name = "campaign_state"

    def __init__(self, fold_for: FoldFor) -> None:
        self._fold_for = fold_for
        self._held: dict[str, _Held] = {}

    def project(self, connection: Connection, events: Sequence[RecordedEvent]) -> None:
        for campaign_id, batch in by_campaign(events).items():
            self._project_campaign(connection, campaign_id, batch)

    @staticmethod
    def _ruleset(connection: Connection, campaign_id: str, batch: Sequence[RecordedEvent]) -> str | None:
        if batch[0].type == "campaign.created":
            return str(batch[0].payload["ruleset"])
        return connection.execute(select(campaigns.c.ruleset).where(campaigns.c.campaign_id == campaign_id)).scalar()

    def _project_campaign(self, connection: Connection, campaign_id: str, batch: Sequence[RecordedEvent]) -> None:
        # Taken, not peeked: if this transaction fails, nothing held here describes what it did not commit.
        held = self._held.pop(campaign_id, None)
        if held is not None and held.last_seq == batch[0].seq - 1 and held.last_hash == batch[0].prev_hash:
            # The state at the event this batch follows: nobody else wrote this campaign since; no read needed.
            fold, exists = held.fold, True
            state, before, logged, snapshot_size = held.state, held.rows, held.logged, held.snapshot_size
            summary, kept, dumped = held.summary, held.kept, held.dumped
        else:  # another process appended, or this one just started: read what is stored (a new campaign has none)
            row = (
                None
                if batch[0].seq == 1
                else connection.execute(
                    select(
                        campaign_state.c.ruleset,
                        campaign_state.c.state,
                        campaign_state.c.logged_bytes,
                        campaign_state.c.snapshot_bytes,
                    ).where(campaign_state.c.campaign_id == campaign_id)
                ).first()
            )
            exists = row is not None
            found = self._fold_for((row[0] if row is not None else self._ruleset(connection, campaign_id, batch)) or "")
            if found is None:
                return
            fold, before, summary, kept, dumped = found, None, None, None, None
            if row is None:
                state, logged, snapshot_size = fold.initial(), 0, 0
            else:
                state, logged, snapshot_size = fold.decode(bytes(row[1])), int(row[2]), int(row[3])
        step, start = fold.apply, state
        # Unpacked by position: a NamedTuple's attributes are properties, and a rebuild runs this per event.
        for event in batch:
            _, _, seq, kind, _, _, _, _, hash_, payload_json, _ = event
            if kind == "timeline.rewound":
                # The state after a rewind is the state at its seq: what was in effect up to its target and the
                # dice since. From the nearest snapshot it needs (read in this transaction), not the whole log.
                state = state_at(fold, _snapshots_in(connection, campaign_id), _range_in(connection, batch), seq)
            else:
                state = step(state, event)
            logged += len(payload_json) + len(hash_)  # logged_bytes(event)
            if seq % SNAPSHOT_EVERY == 0 and logged >= 2 * snapshot_size:
                encoded = fold.encode(state)
                connection.execute(insert(campaign_snapshots).values(campaign_id=campaign_id, seq=seq, state=encoded))
                logged, snapshot_size = 0, len(encoded)
        last_seq = batch[-1].seq
        if dumped is not None and state is start:  # the stored row holds this very state, encoded by this writer
            execute(
                connection,
                "UPDATE campaign_state SET last_seq = ?, logged_bytes = ?, snapshot_bytes = ? WHERE campaign_id = ?",
                (last_seq, logged, snapshot_size, campaign_id),
            )
        elif exists:
            encoded, dumped = fold.encode_since(state, dumped)
            execute(
                connection,
                "UPDATE campaign_state SET last_seq = ?, state = ?, logged_bytes = ?, snapshot_bytes = ?"
                " WHERE campaign_id = ?",
                (last_seq, encoded, logged, snapshot_size, campaign_id),
            )
        else:
            encoded, dumped = fold.encode_since(state, None)
            connection.execute(
                insert(campaign_state).values(
                    campaign_id=campaign_id,
                    ruleset=fold.ruleset,
                    last_seq=last_seq,
                    state=encoded,
                    logged_bytes=logged,
                    snapshot_bytes=snapshot_size,
                )
            )
        if exists and before is None:
            # The state was read, not written here: its stored rows are the ones made from it (rows depend on the
            # state alone), so they are made again to be compared, and only the rows the batch changed written.
            # Rewriting them all instead was two statements on each table, every other command of a campaign
            # that two server processes write.
            summary, kept = fold.summarize(start, None)
            before = _summary_rows(campaign_id, summary)
        since = (summary, before) if summary is not None and before is not None else None
        summary, kept = fold.summarize(state, kept)
        rows = _summary_rows(campaign_id, summary, since)
        self._write_summaries(connection, campaign_id, before, rows, fresh=not exists)
        self._held[campaign_id] = _Held(
            fold, last_seq, batch[-1].hash, state, rows, logged, snapshot_size, summary, kept, dumped
        )

    @staticmethod
    def _write_summaries(
        connection: Connection, campaign_id: str, before: SummaryRows | None, after: SummaryRows, *, fresh: bool
    ) -> None:
        """Write the rows that changed. Without the rows written last (``before``), every row is replaced,
        unless the campaign is new (``fresh``) and has none yet."""
        for table, now in after.items():
            key = table.c[_KEYS[table]]
            if before is None:
                if not fresh:
                    connection.execute(delete(table).where(table.c.campaign_id == campaign_id))
                if now:
                    connection.execute(insert(table), list(now.values()))
                continue
            was = before[table]
            if was is now:  # the very rows written last: nothing of this table changed
                continue
            gone = [k for k in was if k not in now]
            if gone:
                connection.execute(delete(table).where(table.c.campaign_id == campaign_id, key.in_(gone)))
            added = [r for k, r in now.items() if k not in was]
            if added:
                connection.execute(insert(table), added)
            for k, r in now.items():
                if k in was and was[k] is not r and was[k] != r:
                    # A fixed statement on the driver's cursor: building and compiling a Core update cost a
                    # third of a whole rule command.
                    execute(connection, _UPDATES[table], (*(r[c] for c in _UPDATED[table]), campaign_id, k))

    def hold(
        self,
        campaign_id: str,
        fold: RulesetFold[Any],
        last_seq: int,
        last_hash: str,
        state: object,
        logged: int,
        snapshot: int,
    ) -> None:
        """Keep the state a command just read and decoded at ``last_seq``: the append that follows at
        ``last_seq + 1`` folds its batch into it, not into the same row read and decoded again (the state
        loaded once per command). A state at a seq depends only on the log up to it, which never
        changes; if anyone appends first, the command's append is refused as stale and this is not used."""
        current = self._held.get(campaign_id)
        if current is None or current.last_seq != last_seq or current.last_hash != last_hash:
            self._held[campaign_id] = _Held(fold, last_seq, last_hash, state, None, logged, snapshot)

    def held(self, campaign_id: str, last_seq: int, last_hash: str) -> object:
        """The state at ``last_seq`` (the event of hash ``last_hash``) if it is the one this writer wrote last or
        was handed (:meth:`hold`), else None: what a command decides from, without reading or decoding it."""
        held = self._held.get(campaign_id)
        if held is None or held.last_seq != last_seq or held.last_hash != last_hash:
            return None
        return held.state

    def held_summary(self, campaign_id: str, last_seq: int, last_hash: str) -> Summary | None:
        """The summary of the state :meth:`held` returns, if this writer made it (it wrote that state)."""
        held = self._held.get(campaign_id)
        if held is None or held.last_seq != last_seq or held.last_hash != last_hash:
            return None
        return held.summary

    def reset(self, connection: Connection) -> None:
        self._held.clear()
        for table in PROJECTION_TABLES:
            connection.execute(delete(table))


class CampaignStates(Protocol):
    def get(self, info: CampaignInfo, at_seq: int | None = None) -> Any: ...

    def summary(self, info: CampaignInfo, fold: RulesetFold[S], at_seq: int | None = None) -> Summary:
        """``fold.summary`` of :meth:`get`'s state (one made already, where there is one)."""
        ...


class FoldingCampaignStates:
    """States folded straight from the log: for the in-memory fake, sandboxes, and the reference a rebuild
    must equal. The head state is kept and only newer events are folded into it, unless they rewind."""

    def __init__(self, store: EventStore, fold_for: FoldFor) -> None:
        self._store = store
        self._fold_for = fold_for
        self._head: dict[str, tuple[int, object]] = {}

    def summary(self, info: CampaignInfo, fold: RulesetFold[S], at_seq: int | None = None) -> Summary:
        return fold.summary(self.get(info, at_seq))

    def get(self, info: CampaignInfo, at_seq: int | None = None) -> Any:
        fold = self._fold_for(info.ruleset)
        if fold is None:
            return None
        if at_seq is not None and at_seq < info.last_seq:
            return fold.fold(effective(self._store.read(info.campaign_id, upto_seq=at_seq)))
        cached = self._head.get(info.campaign_id)
        if cached is not None:
            newer = list(self._store.read(info.campaign_id, after_seq=cached[0]))
            if not has_rewind(newer):
                state = fold.fold(newer, cached[1])
                self._head[info.campaign_id] = (newer[-1].seq if newer else cached[0], state)
                return state
        events = list(self._store.read(info.campaign_id))
        state = fold.fold(effective(events))
        self._head[info.campaign_id] = (events[-1].seq if events else 0, state)
        return state


class SqlCampaignStates:
    """States from the stored read models: the head state (held by this process's inline writer when it
    wrote it last, else read and decoded once), earlier ones from the nearest snapshot."""

    def __init__(
        self, engine: Engine, store: EventStore, fold_for: FoldFor, writer: CampaignStateProjector | None = None
    ) -> None:
        self._engine = engine
        self._store = store
        self._fold_for = fold_for
        self._writer = writer

    def summary(self, info: CampaignInfo, fold: RulesetFold[S], at_seq: int | None = None) -> Summary:
        """The summary the inline writer made of the head state it holds (a player's command is checked against
        the roster: made afresh, it was the slowest part of a server's request), else one made now."""
        if (at_seq is None or at_seq >= info.last_seq) and self._writer is not None:
            made = self._writer.held_summary(info.campaign_id, info.last_seq, info.head_hash)
            if made is not None:
                return made
        return fold.summary(self.get(info, at_seq))

    def get(self, info: CampaignInfo, at_seq: int | None = None) -> Any:
        fold = self._fold_for(info.ruleset)
        if fold is None:
            return None
        if (at_seq is None or at_seq >= info.last_seq) and self._writer is not None:
            held = self._writer.held(info.campaign_id, info.last_seq, info.head_hash)
            if held is not None:
                return held
        with self._engine.connect() as conn:
            if at_seq is None or at_seq >= info.last_seq:
                row = conn.execute(
                    select(
                        campaign_state.c.last_seq,
                        campaign_state.c.state,
                        campaign_state.c.logged_bytes,
                        campaign_state.c.snapshot_bytes,
                    ).where(campaign_state.c.campaign_id == info.campaign_id)
                ).first()
                if row is not None:
                    state = fold.decode(bytes(row[1]))
                    if row[0] == info.last_seq:
                        # Written with the directory's entry, in the same transaction: no event after it to read.
                        if self._writer is not None:
                            self._writer.hold(
                                info.campaign_id, fold, info.last_seq, info.head_hash, state, int(row[2]), int(row[3])
                            )
                        return state
                    gap = list(self._store.read(info.campaign_id, after_seq=row[0]))
                    if not has_rewind(gap):
                        # Only a rebuild in progress or a database older than its projections leaves a gap.
                        return fold.fold(gap, state)
                return fold.fold(effective(self._store.read(info.campaign_id)))
            nearest = _snapshots_in(conn, info.campaign_id)

            def between(after: int, upto: int) -> list[RecordedEvent]:
                return list(self._store.read(info.campaign_id, after_seq=after, upto_seq=upto))

            return state_at(fold, nearest, between, at_seq)


class Nearest(Protocol):
    """The latest snapshot at or before a seq, as (its seq, its state); (0, the initial state) when there is none."""

    def __call__(self, seq: int, fold: RulesetFold[S], /) -> tuple[int, S]: ...


def _snapshots_in(connection: Connection, campaign_id: str) -> Nearest:
    def nearest(seq: int, fold: RulesetFold[S]) -> tuple[int, S]:
        row = connection.execute(
            select(campaign_snapshots.c.seq, campaign_snapshots.c.state)
            .where(campaign_snapshots.c.campaign_id == campaign_id, campaign_snapshots.c.seq <= seq)
            .order_by(campaign_snapshots.c.seq.desc())
            .limit(1)
        ).first()
        return (0, fold.initial()) if row is None else (int(row[0]), fold.decode(bytes(row[1])))

    return nearest


def _range_in(connection: Connection, batch: Sequence[RecordedEvent]) -> Callable[[int, int], list[RecordedEvent]]:
    """Events in a seq range as an inline writer sees them: those committed, read through its connection, then
    those of the batch being appended."""
    campaign_id, first = batch[0].campaign_id, batch[0].seq

    def between(after: int, upto: int) -> list[RecordedEvent]:
        committed = read_range_in_transaction(connection, campaign_id, after, min(upto, first - 1))
        return [*committed, *(e for e in batch if after < e.seq <= upto)]

    return between


def state_at(
    fold: RulesetFold[S],
    nearest: Nearest,
    between: Callable[[int, int], list[RecordedEvent]],
    seq: int,
) -> S:
    """The state at ``seq``: the fold of the events in effect up to it (``fold.fold(effective(log[:seq]))``),
    from the nearest snapshot and the events after it (``between(after, upto)``).

    A snapshot at S holds what was in effect up to S; events after S change that only through a rewind in effect
    whose target lies before S (whether an event is in effect depends only on the rewinds after it). So the events
    after S are judged among themselves, and only a rewind reaching back past S sends the search to an earlier
    snapshot, one at or before its target: the cost follows how far back the rewinds reach, not the log's length."""
    start, state = nearest(seq, fold)
    while True:
        tail = between(start, seq)
        if not any(e.type == REWOUND for e in tail):
            return fold.fold(tail, state)
        live = live_seqs(tail)
        reach = min(whole(e.payload["to_seq"]) for e in tail if e.type == REWOUND and e.seq in live)
        if reach >= start:
            return fold.fold([e for e in tail if e.seq in live and e.type != REWOUND], state)
        start, state = nearest(reach, fold)


class Rebuilt(Protocol):
    """A projector a rebuild empties (:meth:`reset`) and refolds from the whole log, page by page."""

    def reset(self, connection: Connection) -> None: ...

    def project(self, connection: Connection, events: Sequence[RecordedEvent]) -> None: ...


def rebuild(
    engine: Engine,
    store: EventStore,
    projectors: Iterable[Rebuilt],
    on_page: Callable[[int], None] | None = None,
    page: int = 5000,
) -> int:
    """Drop every projection and refold it from the log, streamed in pages, in one transaction (under the
    append lock: an append in between pages would meet read models half refolded)."""
    chosen = list(projectors)
    # The pages' events and the folded states die young and hold no cycles: the cyclic collector, run every
    # 700 allocations, only traversed them (measured: a quarter of a rebuild's CPU time at 60k events).
    # Reference counting frees them as before; the collector is back on when the rebuild ends.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _refold(engine, store, chosen, on_page, page)
    finally:
        if collecting:
            gc.enable()


def _refold(
    engine: Engine, store: EventStore, chosen: list[Rebuilt], on_page: Callable[[int], None] | None, page: int
) -> int:
    from events.sql_write import lock_for_append, write_connection

    count = 0
    with write_connection(engine) as conn, conn.begin():
        lock_for_append(conn)
        for projector in chosen:
            projector.reset(conn)
        position = 0
        while True:
            events = store.read_all(after_position=position, limit=page, writers_excluded=True)
            if not events:
                break
            for projector in chosen:
                projector.project(conn, events)
            position = events[-1].position
            count += len(events)
            if on_page is not None:
                on_page(len(events))
    return count


def entity_names(engine: Engine, campaign_id: str) -> dict[str, str]:
    """Unit and battle ids → names, from the projections (what the log view of a command just run needs,
    without reading the whole log)."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(unit_records.c.unit_id, unit_records.c.name)
            .where(unit_records.c.campaign_id == campaign_id)
            .union_all(
                select(battle_history.c.battle_id, battle_history.c.name).where(
                    battle_history.c.campaign_id == campaign_id
                )
            )
        ).all()
    return {str(i): str(name) for i, name in rows}


def dump(engine: Engine) -> bytes:
    """Every projection table's rows, sorted, as canonical JSON: two rebuilds must give the same bytes."""
    out: dict[str, list[list[object]]] = {}
    with engine.connect() as conn:
        for table in (*PROJECTION_TABLES, campaigns, event_refs):
            rows = conn.execute(select(table)).all()
            decoded = [[bytes(v).decode() if isinstance(v, bytes | memoryview) else v for v in r] for r in rows]
            out[str(table.name)] = sorted(decoded, key=orjson.dumps)
    return _json(out)
