"""The SQLAlchemy Core event store, one implementation for SQLite and PostgreSQL.

Appends are serialised: SQLite takes its write lock at ``BEGIN IMMEDIATE``; PostgreSQL takes a
transaction-scoped advisory lock. Holding it, the store checks the head, numbers the events and gives
them gap-free global positions in commit order, so a projection worker following ``read_all`` by
position can never skip an event committed late.

Storage layout: each append writes one ``commands`` row holding the command's meta (who, when, which
command id) and one ``events`` row per event pointing at it by ``command_seq``. The meta is part of each
event's envelope and of its hash; it is only stored once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, and_, func, insert, select, tuple_
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.sql import Select

from events.envelope import GENESIS_HASH, NewEvent, RecordedEvent
from events.errors import ConcurrencyError
from events.schema import commands, events
from events.store import EMPTY_HEAD, AppendResult, EventStore, Head, InlineProjector, prepare_events

READ_PAGE = 5000
APPEND_LOCK_KEY = 0x0CA4_9A16
"""PostgreSQL advisory lock taken by every append (``pg_advisory_xact_lock``)."""

_INSERT_COLUMNS = (
    events.c.position,
    events.c.campaign_id,
    events.c.seq,
    events.c.command_seq,
    events.c.type,
    events.c.schema_version,
    events.c.payload,
    events.c.hash,
)
_READ_COLUMNS = (
    events.c.position,
    events.c.campaign_id,
    events.c.seq,
    events.c.type,
    events.c.schema_version,
    events.c.payload,
    events.c.hash,
    events.c.command_seq,
    commands.c.meta,
)
_JOINED = events.join(
    commands, and_(commands.c.campaign_id == events.c.campaign_id, commands.c.first_seq == events.c.command_seq)
)


def _as_bytes(value: Any) -> bytes:
    # A hand edit in the sqlite3 shell (replace(payload, ...)) turns a BLOB into TEXT; read it all the same.
    return value if type(value) is bytes else bytes(value.encode() if isinstance(value, str) else value)


def _decode(rows: Any, prev_hashes: dict[str, str]) -> list[RecordedEvent]:
    """Rows of ``_READ_COLUMNS`` to events.

    ``prev_hashes`` holds, per campaign, the hash of the event before the first row read; each event's
    ``prev_hash`` is the hash of the row before it. A command's meta is parsed once for all its events.
    """
    out: list[RecordedEvent] = []
    metas: dict[tuple[str, int], tuple[Any, bytes]] = {}
    loads = orjson.loads
    new = tuple.__new__
    for position, campaign_id, seq, type_, version, payload, hash_, command_seq, meta in rows:
        key = (campaign_id, command_seq)
        parsed = metas.get(key)
        if parsed is None:
            meta_json = _as_bytes(meta)
            parsed = metas[key] = (loads(meta_json), meta_json)
        payload_json = payload if type(payload) is bytes else _as_bytes(payload)
        prev = prev_hashes.get(campaign_id, GENESIS_HASH)
        prev_hashes[campaign_id] = hash_
        out.append(
            new(
                RecordedEvent,
                (
                    position,
                    campaign_id,
                    seq,
                    type_,
                    version,
                    loads(payload_json),
                    parsed[0],
                    prev,
                    hash_,
                    payload_json,
                    parsed[1],
                ),
            )
        )
    return out


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
        self._insert_command = insert(commands)
        self._insert_sql_by_dialect: dict[str, str] = {}

    def _insert_sql(self, conn: Connection) -> str:
        """The events INSERT, generated once per dialect and run with the driver's executemany.

        SQLAlchemy's per-row parameter processing cost more than the insert itself on the batch path;
        the statement is still derived from the table definition, only bound positionally.
        """
        name = conn.dialect.name
        if name not in self._insert_sql_by_dialect:
            marker = "?" if conn.dialect.paramstyle == "qmark" else "%s"
            columns = ", ".join(c.name for c in _INSERT_COLUMNS)
            placeholders = ", ".join(marker for _ in _INSERT_COLUMNS)
            self._insert_sql_by_dialect[name] = f"INSERT INTO events ({columns}) VALUES ({placeholders})"  # noqa: S608
        return self._insert_sql_by_dialect[name]

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
                last_position = conn.execute(select(func.coalesce(func.max(events.c.position), 0))).scalar_one()
                recorded = prepare_events(campaign_id, events_, head, last_position + 1, command_id, meta)
                first_seq = recorded[0].seq
                conn.execute(
                    self._insert_command,
                    {
                        "campaign_id": campaign_id,
                        "first_seq": first_seq,
                        "last_seq": recorded[-1].seq,
                        "command_id": command_id,
                        "meta": recorded[0].meta_json,
                    },
                )
                conn.exec_driver_sql(
                    self._insert_sql(conn),
                    [
                        (
                            e.position,
                            e.campaign_id,
                            e.seq,
                            first_seq,
                            e.type,
                            e.schema_version,
                            e.payload_json,
                            e.hash,
                        )
                        for e in recorded
                    ],
                )
                result = tuple(recorded)
                for projector in self._projectors:
                    projector.project(conn, result)
                return AppendResult(result, duplicate=False)
        except IntegrityError as exc:
            # Only reachable if a writer bypassed the append lock; the unique (campaign_id, seq) still holds.
            raise ConcurrencyError(f"campaign {campaign_id} changed while appending: re-read and retry") from exc
        except OperationalError as exc:
            if "locked" in str(exc.orig) or "busy" in str(exc.orig):
                raise ConcurrencyError("the database stayed locked by another writer: retry") from exc
            raise

    def _select(self) -> Select[Any]:
        return select(*_READ_COLUMNS).select_from(_JOINED)

    def read(self, campaign_id: str, after_seq: int = 0, upto_seq: int | None = None) -> Iterator[RecordedEvent]:
        # Keyset pages, each in its own short connection: a reader that stops early holds no cursor open.
        last = after_seq
        prev_hashes: dict[str, str] = {}
        while True:
            condition = and_(events.c.campaign_id == campaign_id, events.c.seq > last)
            if upto_seq is not None:
                condition = and_(condition, events.c.seq <= upto_seq)
            query = self._select().where(condition).order_by(events.c.seq).limit(READ_PAGE)
            with self.engine.connect() as conn:
                if last > 0 and campaign_id not in prev_hashes:
                    prev_hashes.update(self._hashes_before(conn, [(campaign_id, last + 1)]))
                page = _decode(conn.execute(query), prev_hashes)
            yield from page
            if len(page) < READ_PAGE:
                return
            last = page[-1].seq

    def read_all(self, after_position: int = 0, limit: int | None = None) -> list[RecordedEvent]:
        query = self._select().where(events.c.position > after_position).order_by(events.c.position)
        if limit is not None:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            firsts: dict[str, int] = {}
            for row in rows:
                firsts.setdefault(row[1], row[2])
            prev_hashes = self._hashes_before(conn, [(c, s) for c, s in firsts.items() if s > 1])
            return _decode(rows, prev_hashes)

    @staticmethod
    def _hashes_before(conn: Connection, starts: list[tuple[str, int]]) -> dict[str, str]:
        """For each (campaign, seq): the hash of the event at seq - 1, where the chain continues from."""
        if not starts:
            return {}
        wanted = [(campaign_id, seq - 1) for campaign_id, seq in starts]
        rows = conn.execute(
            select(events.c.campaign_id, events.c.hash).where(tuple_(events.c.campaign_id, events.c.seq).in_(wanted))
        )
        return {str(c): str(h) for c, h in rows}

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

    def _command_events(self, conn: Connection, campaign_id: str, command_id: str) -> tuple[RecordedEvent, ...] | None:
        found = conn.execute(
            select(commands.c.first_seq, commands.c.last_seq).where(
                commands.c.campaign_id == campaign_id, commands.c.command_id == command_id
            )
        ).first()
        if found is None:
            return None
        rows = conn.execute(
            self._select()
            .where(events.c.campaign_id == campaign_id, events.c.seq.between(found[0], found[1]))
            .order_by(events.c.seq)
        )
        return tuple(_decode(rows, self._hashes_before(conn, [(campaign_id, found[0])] if found[0] > 1 else [])))
