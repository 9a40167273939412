"""Each campaign's folded state and summaries, kept inline in the append transaction, with snapshots.

The fold is the ruleset's, handed in by the wiring (projections never import the rulesets); this module only
stores and serves it: the state at the head for commands, any earlier state (``--at SEQ``) from the nearest
snapshot plus the events after it, and summary tables (units, battles, treasuries) for the read commands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import orjson
from sqlalchemy import Connection, Engine, delete, insert, select, update

from events.envelope import RecordedEvent
from events.sql import read_in_transaction
from events.store import EventStore
from events.timeline import effective, has_rewind
from projections.fold import FoldFor, RulesetFold
from projections.state.campaigns import CampaignInfo
from projections.tables import battle_history, campaign_snapshots, campaign_state, campaigns, treasuries, unit_records

SNAPSHOT_EVERY = 256
"""A snapshot every this many events of a campaign (a storage setting, not a rule)."""

PROJECTION_TABLES = (campaign_state, campaign_snapshots, unit_records, battle_history, treasuries)


def _json(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


class CampaignStateProjector:
    """Inline writer: folds each appended batch into its campaign's stored state."""

    name = "campaign_state"

    def __init__(self, fold_for: FoldFor) -> None:
        self._fold_for = fold_for

    def project(self, connection: Connection, events: Sequence[RecordedEvent]) -> None:
        batches: dict[str, list[RecordedEvent]] = {}
        for event in events:
            batches.setdefault(event.campaign_id, []).append(event)
        for campaign_id, batch in batches.items():
            self._project_campaign(connection, campaign_id, batch)

    @staticmethod
    def _ruleset(connection: Connection, campaign_id: str, batch: Sequence[RecordedEvent]) -> str | None:
        if batch[0].type == "campaign.created":
            return str(batch[0].payload["ruleset"])
        return connection.execute(select(campaigns.c.ruleset).where(campaigns.c.campaign_id == campaign_id)).scalar()

    def _project_campaign(self, connection: Connection, campaign_id: str, batch: Sequence[RecordedEvent]) -> None:
        row = connection.execute(
            select(campaign_state.c.ruleset, campaign_state.c.state).where(campaign_state.c.campaign_id == campaign_id)
        ).first()
        ruleset = row[0] if row is not None else self._ruleset(connection, campaign_id, batch)
        fold = self._fold_for(ruleset or "")
        if fold is None:
            return
        state = fold.decode(bytes(row[1])) if row is not None else fold.initial()
        for event in batch:
            if event.type == "timeline.rewound":
                # Refold what is still in effect: the stream so far (read in this transaction) plus this batch.
                committed = [e for e in read_in_transaction(connection, campaign_id) if e.seq < batch[0].seq]
                upto = [e for e in batch if e.seq <= event.seq]
                state = fold.fold(effective([*committed, *upto]))
                continue
            state = fold.apply(state, event)
            if event.seq % SNAPSHOT_EVERY == 0:
                connection.execute(
                    insert(campaign_snapshots).values(campaign_id=campaign_id, seq=event.seq, state=fold.encode(state))
                )
        encoded = fold.encode(state)
        last_seq = batch[-1].seq
        if row is None:
            connection.execute(
                insert(campaign_state).values(
                    campaign_id=campaign_id, ruleset=fold.ruleset, last_seq=last_seq, state=encoded
                )
            )
        else:
            connection.execute(
                update(campaign_state)
                .where(campaign_state.c.campaign_id == campaign_id)
                .values(last_seq=last_seq, state=encoded)
            )
        self._summaries(connection, campaign_id, fold, state)

    @staticmethod
    def _summaries(connection: Connection, campaign_id: str, fold: RulesetFold[Any], state: Any) -> None:
        summary = fold.summary(state)
        for table in (unit_records, battle_history, treasuries):
            connection.execute(delete(table).where(table.c.campaign_id == campaign_id))
        if summary.units:
            connection.execute(
                insert(unit_records),
                [
                    {
                        "campaign_id": campaign_id,
                        "unit_id": u["unit_id"],
                        "name": u["name"],
                        "side": u["side"],
                        "summary": _json(u),
                    }
                    for u in summary.units
                ],
            )
        if summary.battles:
            connection.execute(
                insert(battle_history),
                [
                    {"campaign_id": campaign_id, "battle_id": b["battle_id"], "name": b["name"], "summary": _json(b)}
                    for b in summary.battles
                ],
            )
        if summary.treasury:
            connection.execute(
                insert(treasuries),
                [
                    {"campaign_id": campaign_id, "side": side, "balance": balance}
                    for side, balance in summary.treasury.items()
                ],
            )

    def reset(self, connection: Connection) -> None:
        for table in PROJECTION_TABLES:
            connection.execute(delete(table))


class CampaignStates(Protocol):
    def get(self, info: CampaignInfo, at_seq: int | None = None) -> Any: ...


class FoldingCampaignStates:
    """States folded straight from the log: for the in-memory fake, sandboxes, and the reference a rebuild
    must equal. The head state is kept and only newer events are folded into it, unless they rewind."""

    def __init__(self, store: EventStore, fold_for: FoldFor) -> None:
        self._store = store
        self._fold_for = fold_for
        self._head: dict[str, tuple[int, Any]] = {}

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
    def __init__(self, engine: Engine, store: EventStore, fold_for: FoldFor) -> None:
        self._engine = engine
        self._store = store
        self._fold_for = fold_for

    def get(self, info: CampaignInfo, at_seq: int | None = None) -> Any:
        fold = self._fold_for(info.ruleset)
        if fold is None:
            return None
        with self._engine.connect() as conn:
            if at_seq is None or at_seq >= info.last_seq:
                row = conn.execute(
                    select(campaign_state.c.last_seq, campaign_state.c.state).where(
                        campaign_state.c.campaign_id == info.campaign_id
                    )
                ).first()
                if row is not None:
                    state = fold.decode(bytes(row[1]))
                    gap = list(self._store.read(info.campaign_id, after_seq=row[0]))
                    if not has_rewind(gap):
                        # Only a rebuild in progress or a database older than its projections leaves a gap.
                        return fold.fold(gap, state)
                return fold.fold(effective(self._store.read(info.campaign_id)))
            snapshot = conn.execute(
                select(campaign_snapshots.c.seq, campaign_snapshots.c.state)
                .where(campaign_snapshots.c.campaign_id == info.campaign_id, campaign_snapshots.c.seq <= at_seq)
                .order_by(campaign_snapshots.c.seq.desc())
                .limit(1)
            ).first()
        start, state = (0, fold.initial()) if snapshot is None else (snapshot[0], fold.decode(bytes(snapshot[1])))
        tail = list(self._store.read(info.campaign_id, after_seq=start, upto_seq=at_seq))
        if has_rewind(tail):  # a rewind may reach back before the snapshot: fold what was in effect then
            return fold.fold(effective(self._store.read(info.campaign_id, upto_seq=at_seq)))
        return fold.fold(tail, state)


def rebuild(
    engine: Engine,
    store: EventStore,
    projectors: Iterable[Any],
    on_page: Callable[[int], None] | None = None,
    page: int = 5000,
) -> int:
    """Drop every projection and refold it from the log, streamed in pages, in one transaction."""
    from events.sql import lock_for_append, write_connection

    chosen = list(projectors)
    count = 0
    with write_connection(engine) as conn, conn.begin():
        lock_for_append(conn)
        for projector in chosen:
            projector.reset(conn)
        position = 0
        while True:
            events = store.read_all(after_position=position, limit=page)
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
    out: dict[str, list[Any]] = {}
    with engine.connect() as conn:
        for table in (*PROJECTION_TABLES, campaigns):
            rows = conn.execute(select(table)).all()
            decoded = [[bytes(v).decode() if isinstance(v, bytes | memoryview) else v for v in r] for r in rows]
            out[str(table.name)] = sorted(decoded, key=orjson.dumps)
    return _json(out)
