"""The SQLAlchemy Core event store, one implementation for SQLite and PostgreSQL.

Appends are serialised: SQLite takes its write lock at ``BEGIN IMMEDIATE``; PostgreSQL takes a
transaction-scoped advisory lock. Holding it, the store checks the head, numbers the events and gives
them gap-free global positions in commit order, so a projection worker following ``read_all`` by
position can never skip an event committed late.

Storage layout: each append writes one ``commands`` row holding the command's meta (who, when, which
command id) and one ``events`` row per event pointing at it by ``command_seq``. The meta is part of each
event's envelope and of its hash; it is only stored once.

Around the store: :mod:`events.sql_rows` reads and decodes rows, :mod:`events.sql_write` holds the write
transaction, the lock and the append's fixed statements, :mod:`events.sql_import` streams a campaign in.
"""

from __future__ import annotations

import weakref
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, event, select
from sqlalchemy.sql import Select

from events import pg_append
from events.envelope import GENESIS_HASH, NewEvent, RecordedEvent
from events.errors import ConcurrencyError
from events.pg_append import HORIZON
from events.schema import commands, events
from events.sql_import import import_session
from events.sql_rows import JOINED, READ_COLUMNS, READ_PAGE, column_int, decode_rows, decode_stream
from events.sql_write import (
    APPEND_SQL,
    INSERT_COLUMNS,
    MULTI_ROW_INSERT,
    checkpoint,
    close_all,
    insert_events_sql,
    sqlite_transaction,
    translate,
    write_connection,
)
from events.store import EMPTY_HEAD, AppendResult, EventStore, Head, ImportSink, InlineProjector, prepare_events

SEQS_PAGE = 500
"""Seqs asked for in one ``IN (…)`` of ``read_seqs`` (below SQLite's and PostgreSQL's bound-parameter limits)."""


class SqlEventStore(EventStore):
    def __init__(self, engine: Engine, projectors: Sequence[InlineProjector] = ()) -> None:
        self.engine = engine
        self._projectors = list(projectors)
        self._read_sql_by_key: dict[str, str] = {}
        self._statements: dict[str, str] = {}
        # One write connection kept between appends on SQLite: checking one out of the pool and back (the
        # pool's reset, its events, a new Connection object) cost as much as the append's own statements.
        # Not on PostgreSQL, where the checkout's ping is what notices a server that went away.
        self._idle: list[Connection] = []
        self.checkpoint_each_write = False
        """On SQLite, copy each write into the database file as soon as it is committed (a passive checkpoint of
        the WAL): a long-running server sets it, so a ``cp campaign.db`` while it runs holds everything it
        acknowledged (a command checkpoints as it closes instead). ``bench/checkpoint_bench.py``, paired on
        2026-12-02: +0.7 ms CPU and +22 ms wall a command (19.6 → 44.7 ms on a loaded shared disk: the database
        file's own sync). Done before the answer, not on a timer after it: a copy made right after a command was
        acknowledged must hold it; a server that needs more commands a second than a disk syncs runs on
        PostgreSQL."""
        if engine.dialect.name == "sqlite":
            idle = self._idle
            event.listen(engine, "engine_disposed", lambda _engine: close_all(idle, hard=True))
            weakref.finalize(self, close_all, idle)

    def _take_write_connection(self) -> Connection:
        try:
            return self._idle.pop()
        except IndexError:
            return write_connection(self.engine)

    def _give_back(self, conn: Connection, clean: bool) -> None:
        """Keep the connection for the next append if its transaction ended cleanly, else close it."""
        if clean and not conn.invalidated and not self._idle and self.engine.dialect.name == "sqlite":
            self._idle.append(conn)
        else:
            conn.close()

    @contextmanager
    def _locked_write(self, campaign_id: str) -> Iterator[Connection]:
        """One write transaction under the append lock; driver errors come out as the project's own."""
        conn = self._take_write_connection()
        clean = False
        try:
            with sqlite_transaction(conn) if conn.dialect.name == "sqlite" else conn.begin():
                # SQLite's BEGIN IMMEDIATE is its lock; on PostgreSQL an import locks its campaign by the seqs it
                # inserts, as an append does (events.pg_append)
                yield conn
            clean = True
            if self.checkpoint_each_write and conn.dialect.name == "sqlite":
                checkpoint(conn)
        except Exception as exc:
            translated = translate(exc, campaign_id)
            if translated is None:
                if isinstance(exc, ConcurrencyError):
                    exc.campaign_id = campaign_id
                raise
            if isinstance(translated, ConcurrencyError):
                translated.campaign_id = campaign_id
            raise translated from exc
        finally:
            self._give_back(conn, clean)

    def _projected(self, conn: Connection, recorded: Sequence[RecordedEvent]) -> AppendResult:
        """Run the inline projectors on what was just written, in the same transaction."""
        result = tuple(recorded)
        for projector in self._projectors:
            projector.project(conn, result)
        return AppendResult(result, duplicate=False)

    def _statement(self, conn: Connection, name: str) -> str:
        """A fixed statement of the append path in the dialect's parameter style, generated once."""
        key = f"{conn.dialect.name}:{name}"
        sql = self._statements.get(key)
        if sql is None:
            sql = APPEND_SQL[name]
            if conn.dialect.paramstyle != "qmark":
                sql = sql.replace("?", "%s")
            self._statements[key] = sql
        return sql

    def append(
        self,
        campaign_id: str,
        events_: Sequence[NewEvent],
        expected_seq: int,
        *,
        command_id: str | None = None,
        meta: Mapping[str, object] | None = None,
    ) -> AppendResult:
        if self.engine.dialect.name == "postgresql":
            return pg_append.append(
                self.engine, self._projectors, self._command_events, campaign_id, events_, expected_seq, command_id,
                meta,
            )  # fmt: skip
        with self._locked_write(campaign_id) as conn:
            # Fixed statements on the DBAPI cursor: building and cache-keying Core expressions for these
            # small statements cost more than the whole single-event append. The connection and the
            # transaction are SQLAlchemy's.
            cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            try:
                if command_id is not None:
                    cursor.execute(self._statement(conn, "find_command"), (campaign_id, command_id))
                    if cursor.fetchone() is not None:
                        seen = self._command_events(conn, campaign_id, command_id)
                        assert seen is not None
                        return AppendResult(seen, duplicate=True)
                cursor.execute(self._statement(conn, "head_and_last_position"), (campaign_id,))
                ((seq, hash_, last_position),) = cursor.fetchall()  # one row, always: the log side is an aggregate
                head = EMPTY_HEAD if seq is None else Head(seq, hash_)
                if head.seq != expected_seq:
                    raise ConcurrencyError.saying(
                        "campaign {campaign} is at seq {seq}, not {expected}: re-read and retry",
                        campaign=campaign_id,
                        seq=head.seq,
                        expected=expected_seq,
                    )
                params: list[Any] = []
                recorded = prepare_events(
                    campaign_id, events_, head, int(last_position) + 1, command_id, meta, rows=params
                )
                cursor.execute(
                    self._statement(conn, "insert_command"),
                    (campaign_id, recorded[0].seq, recorded[-1].seq, command_id, recorded[0].meta_json),
                )
                self._insert_events(conn, cursor, params)
            finally:
                cursor.close()
            return self._projected(conn, recorded)

    def _insert_events(self, conn: Connection, cursor: Any, params: list[Any]) -> None:
        """Insert the events' rows (``params``: flat, :data:`INSERT_COLUMNS` row after row) by multi-row ``INSERT``
        statements of 64, 32, … 1 rows: SQLite inserts a thousand rows a third faster so than by ``executemany``
        of one row at a time, which also wanted a tuple built per row. Seven statement shapes at most, each
        prepared once per connection; 512 parameters at most, under every SQLite's and PostgreSQL's limit."""
        width = len(INSERT_COLUMNS)
        count = len(params) // width
        at = 0
        while count:
            rows = MULTI_ROW_INSERT
            while rows > count:
                rows >>= 1
            end = at + rows * width
            cursor.execute(self._insert_sql(conn, rows), params[at:end])
            at = end
            count -= rows

    def _insert_sql(self, conn: Connection, rows: int) -> str:
        key = f"{conn.dialect.name}:insert_events:{rows}"
        sql = self._statements.get(key)
        if sql is None:
            sql = self._statements[key] = insert_events_sql(rows, conn.dialect.paramstyle == "qmark")
        return sql

    def import_stream(self, campaign_id: str, events_: Sequence[RecordedEvent]) -> AppendResult:
        """Write a verified stream verbatim: one commands row per run of events sharing a command's meta."""
        with (
            self._locked_write(campaign_id) as conn,
            import_session(conn, campaign_id, self._projectors, keep=True) as sink,
        ):
            for event in events_:
                sink.add(event)
        assert sink.recorded is not None
        return AppendResult(tuple(sink.recorded), duplicate=False)

    @contextmanager
    def import_session(self, campaign_id: str) -> Iterator[ImportSink]:
        """A whole campaign streamed in, page by page, in one transaction (see :mod:`events.sql_import`)."""
        with self._locked_write(campaign_id) as conn, import_session(conn, campaign_id, self._projectors) as sink:
            yield sink

    def _select(self) -> Select[Any]:
        return select(*READ_COLUMNS).select_from(JOINED)

    def _read_sql(self, conn: Connection, bounded: bool) -> str:
        """The page query of ``read``, generated once per dialect, for the DBAPI cursor.

        Decoding through SQLAlchemy's Result cost more per row than the read itself; the pooled
        connection and its transaction are still SQLAlchemy's.
        """
        key = f"{conn.dialect.name}:{bounded}"
        if key not in self._read_sql_by_key:
            m = "?" if conn.dialect.paramstyle == "qmark" else "%s"
            columns = ", ".join(f"{c.table.name}.{c.name}" for c in READ_COLUMNS)
            upto = f" AND events.seq <= {m}" if bounded else ""
            self._read_sql_by_key[key] = (
                f"SELECT {columns} FROM events JOIN commands ON commands.campaign_id = events.campaign_id"  # noqa: S608
                f" AND commands.first_seq = events.command_seq WHERE events.campaign_id = {m} AND events.seq > {m}"
                f"{upto} ORDER BY events.seq LIMIT {READ_PAGE}"
            )
        return self._read_sql_by_key[key]

    def read(self, campaign_id: str, after_seq: int = 0, upto_seq: int | None = None) -> Iterator[RecordedEvent]:
        # Keyset pages, each in its own short connection: a reader that stops early holds no cursor open.
        last = column_int(after_seq)
        upto_seq = None if upto_seq is None else column_int(upto_seq)
        prev_hash: str | None = None if last > 0 else GENESIS_HASH
        while True:
            params: tuple[Any, ...] = (campaign_id, last) if upto_seq is None else (campaign_id, last, upto_seq)
            with self.engine.connect() as conn:
                if prev_hash is None:
                    prev_hash = self._hashes_before(conn, [(campaign_id, last + 1)]).get(campaign_id, GENESIS_HASH)
                cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
                try:
                    cursor.execute(self._read_sql(conn, upto_seq is not None), params)
                    rows: list[Any] = list(cursor.fetchall())
                finally:
                    cursor.close()
            yield from decode_stream(rows, prev_hash)
            if len(rows) < READ_PAGE:
                return
            last, prev_hash = rows[-1][2], rows[-1][6]

    def read_last(self, campaign_id: str, count: int, upto_seq: int | None = None) -> list[RecordedEvent]:
        if count <= 0:
            return []
        count = column_int(count)
        query = self._select().where(events.c.campaign_id == campaign_id)
        if upto_seq is not None:
            query = query.where(events.c.seq <= column_int(upto_seq))
        with self.engine.connect() as conn:
            rows = list(reversed(conn.execute(query.order_by(events.c.seq.desc()).limit(count)).all()))
            if not rows:
                return []
            first = rows[0][2]
            prev = self._hashes_before(conn, [(campaign_id, first)]).get(campaign_id, GENESIS_HASH)
        return list(decode_stream(rows, prev))

    def read_types(
        self,
        campaign_id: str,
        types: Collection[str],
        after_seq: int = 0,
        upto_seq: int | None = None,
        *,
        limit: int | None = None,
        last: bool = False,
    ) -> list[RecordedEvent]:
        if limit is not None and limit <= 0:
            return []
        after_seq = column_int(after_seq)
        upto_seq = None if upto_seq is None else column_int(upto_seq)
        limit = None if limit is None else column_int(limit)
        prev_hash = _prev_hash()
        rows: list[Any] = []
        with self.engine.connect() as conn:
            # One index range per type (equality on campaign and type, a range of seq), each already in seq
            # order and cut at ``limit``; merged here, so ``--last 20 --type …`` reads at most 20 rows a type.
            for type_ in sorted(set(types)):
                query = (
                    select(*READ_COLUMNS, prev_hash)
                    .select_from(JOINED)
                    .where(events.c.campaign_id == campaign_id, events.c.type == type_, events.c.seq > after_seq)
                )
                if upto_seq is not None:
                    query = query.where(events.c.seq <= upto_seq)
                query = query.order_by(events.c.seq.desc() if last else events.c.seq)
                if limit is not None:
                    query = query.limit(limit)
                rows.extend(conn.execute(query).all())
        rows.sort(key=lambda r: r[2])
        if limit is not None:
            rows = rows[-limit:] if last else rows[:limit]
        return [next(decode_stream([r], GENESIS_HASH if r[9] is None else str(r[9]))) for r in rows]

    @property
    def projectors(self) -> tuple[InlineProjector, ...]:
        """The inline projectors run in every append (a reader asks whether an index it pages through is kept)."""
        return tuple(self._projectors)

    def read_seqs(self, campaign_id: str, seqs: Collection[int]) -> list[RecordedEvent]:
        wanted = sorted({column_int(s) for s in seqs})
        if not wanted:
            return []
        prev_hash = _prev_hash()
        rows: list[Any] = []
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), SEQS_PAGE):
                chunk = wanted[start : start + SEQS_PAGE]
                query = (
                    select(*READ_COLUMNS, prev_hash)
                    .select_from(JOINED)
                    .where(events.c.campaign_id == campaign_id, events.c.seq.in_(chunk))
                    .order_by(events.c.seq)
                )
                rows.extend(conn.execute(query).all())
        return [next(decode_stream([r], GENESIS_HASH if r[9] is None else str(r[9]))) for r in rows]

    def read_all(
        self, after_position: int = 0, limit: int | None = None, *, writers_excluded: bool = False
    ) -> list[RecordedEvent]:
        after_position = column_int(after_position)
        limit = None if limit is None else column_int(limit)
        m = "?"
        with self.engine.connect() as conn:
            if conn.dialect.paramstyle != "qmark":
                m = "%s"
            # On PostgreSQL only below the horizon (events.pg_append): what is read there can no longer be joined
            # by an event of a lower position. A reader holding the append lock waits for nobody (no append runs),
            # and must not stop at a transaction that writes no event (the horizon is the whole server's).
            following = conn.dialect.name == "postgresql" and not writers_excluded
            below = f" AND events.position < {HORIZON}" if following else ""
            columns = ", ".join(f"{c.table.name}.{c.name}" for c in READ_COLUMNS)
            sql = (
                f"SELECT {columns} FROM events JOIN commands ON commands.campaign_id = events.campaign_id"  # noqa: S608
                f" AND commands.first_seq = events.command_seq WHERE events.position > {m}{below}"
                " ORDER BY events.position" + ("" if limit is None else f" LIMIT {int(limit)}")
            )
            cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            try:
                cursor.execute(sql, (after_position,))
                rows = cursor.fetchall()
            finally:
                cursor.close()
            firsts: dict[str, int] = {}
            last = None
            for row in rows:
                if row[1] != last:  # campaigns come in runs: one dict look-up per run, not per row
                    last = row[1]
                    firsts.setdefault(last, row[2])
            prev_hashes = self._hashes_before(conn, [(c, s) for c, s in firsts.items() if s > 1])
            return decode_rows(rows, prev_hashes)

    def _hashes_before(self, conn: Connection, starts: list[tuple[str, int]]) -> dict[str, str]:
        """For each (campaign, seq): the hash of the event at seq - 1, where the chain continues from.

        One point read of the unique ``(campaign_id, seq)`` index per campaign: a row-value ``IN (VALUES …)``
        is planned by SQLite as a scan of the campaign's whole index, which made every command's state load
        grow with its log.
        """
        found: dict[str, str] = {}
        if not starts:
            return found
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            sql = self._statement(conn, "hash_at")
            for campaign_id, seq in starts:
                cursor.execute(sql, (campaign_id, seq - 1))
                row = cursor.fetchone()
                if row is not None:
                    found[campaign_id] = str(row[0])
        finally:
            cursor.close()
        return found

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
        return tuple(decode_rows(rows, self._hashes_before(conn, [(campaign_id, found[0])] if found[0] > 1 else [])))


def _prev_hash() -> Any:
    """The hash of the event just before each one read (a column of its own), for reads that start anywhere: each
    event read alone is decoded against its own predecessor's hash, so its chain is checked as it is read."""
    before = events.alias("before")
    return (
        select(before.c.hash)
        .where(before.c.campaign_id == events.c.campaign_id, before.c.seq == events.c.seq - 1)
        .scalar_subquery()
    )
