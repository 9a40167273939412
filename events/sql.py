"""The SQLAlchemy Core event store, one implementation for SQLite and PostgreSQL.

Appends are serialised: SQLite takes its write lock at ``BEGIN IMMEDIATE``; PostgreSQL takes a
transaction-scoped advisory lock. Holding it, the store checks the head, numbers the events and gives
them gap-free global positions in commit order, so a projection worker following ``read_all`` by
position can never skip an event committed late.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, and_, func, insert, select
from sqlalchemy.exc import IntegrityError, OperationalError

from events.envelope import NewEvent, RecordedEvent
from events.errors import ConcurrencyError
from events.schema import commands, events
from events.store import EMPTY_HEAD, AppendResult, EventStore, Head, InlineProjector, prepare_rows

READ_PAGE = 5000
APPEND_LOCK_KEY = 0x0CA4_9A16
"""PostgreSQL advisory lock taken by every append (``pg_advisory_xact_lock``)."""

_COLUMNS = (
    events.c.position,
    events.c.campaign_id,
    events.c.seq,
    events.c.type,
    events.c.schema_version,
    events.c.payload,
    events.c.meta,
    events.c.prev_hash,
    events.c.hash,
)


def _row_to_event(row: Any) -> RecordedEvent:
    payload_json = row[5].encode()
    meta_json = row[6].encode()
    return RecordedEvent(
        position=row[0],
        campaign_id=row[1],
        seq=row[2],
        type=row[3],
        schema_version=row[4],
        payload=orjson.loads(payload_json),
        meta=orjson.loads(meta_json),
        prev_hash=row[7],
        hash=row[8],
        payload_json=payload_json,
        meta_json=meta_json,
    )


def write_connection(engine: Engine) -> Connection:
    """A connection whose transactions take the write lock at once (see :mod:`events.db`)."""
    return engine.connect().execution_options(campaign_write=True)


def lock_for_append(conn: Connection) -> None:
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({APPEND_LOCK_KEY})")


class SqlEventStore(EventStore):
    def __init__(self, engine: Engine, projectors: Sequence[InlineProjector] = ()) -> None:
        self.engine = engine
        self._projectors = list(projectors)
        self._insert = insert(events)
        self._insert_command = insert(commands)

    def append(
        self,
        campaign_id: str,
        events_: Sequence[NewEvent],
        expected_seq: int,
        *,
        command_id: str | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> AppendResult:
        try:
            with write_connection(self.engine) as conn, conn.begin():
                lock_for_append(conn)
                if command_id is not None:
                    seen = self._command_events(conn, campaign_id, command_id)
                    if seen is not None:
                        return AppendResult(seen, duplicate=True)
                head = self._head(conn, campaign_id)
                if head.seq != expected_seq:
                    raise ConcurrencyError(
                        f"campaign {campaign_id} is at seq {head.seq}, not {expected_seq}: re-read and retry"
                    )
                rows = prepare_rows(campaign_id, events_, head, command_id, meta)
                last_position = conn.execute(select(func.coalesce(func.max(events.c.position), 0))).scalar_one()
                conn.execute(
                    self._insert,
                    [
                        {
                            "position": last_position + i,
                            "campaign_id": r.campaign_id,
                            "seq": r.seq,
                            "type": r.type,
                            "schema_version": r.schema_version,
                            "payload": r.payload_json.decode(),
                            "meta": r.meta_json.decode(),
                            "prev_hash": r.prev_hash,
                            "hash": r.hash,
                        }
                        for i, r in enumerate(rows, start=1)
                    ],
                )
                if command_id is not None:
                    conn.execute(
                        self._insert_command,
                        {
                            "campaign_id": campaign_id,
                            "command_id": command_id,
                            "first_seq": rows[0].seq,
                            "last_seq": rows[-1].seq,
                        },
                    )
                recorded = tuple(r.recorded(last_position + i) for i, r in enumerate(rows, start=1))
                for projector in self._projectors:
                    projector.project(conn, recorded)
                return AppendResult(recorded, duplicate=False)
        except IntegrityError as exc:
            # Only reachable if a writer bypassed the append lock; the unique (campaign_id, seq) still holds.
            raise ConcurrencyError(f"campaign {campaign_id} changed while appending: re-read and retry") from exc
        except OperationalError as exc:
            if "locked" in str(exc.orig) or "busy" in str(exc.orig):
                raise ConcurrencyError("the database stayed locked by another writer: retry") from exc
            raise

    def read(self, campaign_id: str, after_seq: int = 0, upto_seq: int | None = None) -> Iterator[RecordedEvent]:
        # Keyset pages, each in its own short connection: a reader that stops early holds no cursor open.
        last = after_seq
        while True:
            condition = and_(events.c.campaign_id == campaign_id, events.c.seq > last)
            if upto_seq is not None:
                condition = and_(condition, events.c.seq <= upto_seq)
            query = select(*_COLUMNS).where(condition).order_by(events.c.seq).limit(READ_PAGE)
            with self.engine.connect() as conn:
                page = [_row_to_event(row) for row in conn.execute(query)]
            yield from page
            if len(page) < READ_PAGE:
                return
            last = page[-1].seq

    def read_all(self, after_position: int = 0, limit: int | None = None) -> list[RecordedEvent]:
        query = select(*_COLUMNS).where(events.c.position > after_position).order_by(events.c.position)
        if limit is not None:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            return [_row_to_event(row) for row in conn.execute(query)]

    def head(self, campaign_id: str) -> Head:
        with self.engine.connect() as conn:
            return self._head(conn, campaign_id)

    def campaign_ids(self) -> list[str]:
        query = select(events.c.campaign_id).where(events.c.seq == 1).order_by(events.c.position)
        with self.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def command_events(self, campaign_id: str, command_id: str) -> tuple[RecordedEvent, ...] | None:
        with self.engine.connect() as conn:
            return self._command_events(conn, campaign_id, command_id)

    @staticmethod
    def _head(conn: Connection, campaign_id: str) -> Head:
        row = conn.execute(
            select(events.c.seq, events.c.hash)
            .where(events.c.campaign_id == campaign_id)
            .order_by(events.c.seq.desc())
            .limit(1)
        ).first()
        return EMPTY_HEAD if row is None else Head(row[0], row[1])

    @staticmethod
    def _command_events(conn: Connection, campaign_id: str, command_id: str) -> tuple[RecordedEvent, ...] | None:
        found = conn.execute(
            select(commands.c.first_seq, commands.c.last_seq).where(
                commands.c.campaign_id == campaign_id, commands.c.command_id == command_id
            )
        ).first()
        if found is None:
            return None
        rows = conn.execute(
            select(*_COLUMNS)
            .where(events.c.campaign_id == campaign_id, events.c.seq.between(found[0], found[1]))
            .order_by(events.c.seq)
        )
        return tuple(_row_to_event(row) for row in rows)
