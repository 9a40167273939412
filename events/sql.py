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

import sqlite3
import sys
import weakref
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, and_, event, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import Select

from events.envelope import GENESIS_HASH, NewEvent, RecordedEvent
from events.errors import CampaignError, ConcurrencyError, CorruptEventError, InvalidInputError
from events.schema import commands, events
from events.sql_import import import_session
from events.store import EMPTY_HEAD, AppendResult, EventStore, Head, ImportSink, InlineProjector, prepare_events

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


_INT64 = 2**63 - 1


def _column_int(value: int) -> int:
    """A seq, position or count as the integer columns hold them: anything beyond 64 bits means "no bound"
    (no campaign has that many events), so a caller's 10**30 reads like the largest value, never overflows."""
    return max(-_INT64 - 1, min(_INT64, value))


def _translate(exc: Exception, campaign_id: str) -> CampaignError | None:
    """Driver errors (raised through SQLAlchemy or straight from the DBAPI cursor) as the project's own."""
    if isinstance(exc, CampaignError):
        return None
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    # psycopg is looked up, not imported: if no PostgreSQL database was opened, the error cannot be one of its.
    psycopg = sys.modules.get("psycopg")
    if isinstance(orig, OverflowError) or (psycopg and isinstance(orig, psycopg.errors.NumericValueOutOfRange)):
        # A projection's integer column (a treasury's balance) would pass 64 bits: the append is rolled back.
        return InvalidInputError(f"campaign {campaign_id}: a number past 64 bits: nothing was appended")
    if isinstance(orig, sqlite3.IntegrityError) or (
        psycopg is not None and isinstance(orig, psycopg.errors.UniqueViolation)
    ):
        # Only reachable if a writer bypassed the append lock; the unique (campaign_id, seq) still holds.
        return ConcurrencyError(f"campaign {campaign_id} changed while appending: re-read and retry")
    if isinstance(orig, sqlite3.OperationalError) and ("locked" in str(orig) or "busy" in str(orig)):
        return ConcurrencyError("the database stayed locked by another writer: retry")
    return None


_APPEND_SQL = {
    "find_command": "SELECT first_seq FROM commands WHERE campaign_id = ? AND command_id = ?",
    "hash_at": "SELECT hash FROM events WHERE campaign_id = ? AND seq = ?",
    # The campaign's head (NULLs for a new campaign) and the log's last position, in one round trip.
    "head_and_last_position": (
        "SELECT head.seq, head.hash, log.last_position"
        " FROM (SELECT coalesce(max(position), 0) AS last_position FROM events) AS log"
        " LEFT JOIN (SELECT seq, hash FROM events WHERE campaign_id = ? ORDER BY seq DESC LIMIT 1) AS head"
        " ON 1 = 1"
    ),
    "insert_command": (
        "INSERT INTO commands (campaign_id, first_seq, last_seq, command_id, meta) VALUES (?, ?, ?, ?, ?)"
    ),
    # Run with the driver's executemany: SQLAlchemy's per-row parameter processing cost more than the insert
    # itself on the batch path. Still derived from the table definition, only bound positionally.
    "insert_events": (
        f"INSERT INTO events ({', '.join(c.name for c in _INSERT_COLUMNS)})"  # noqa: S608
        f" VALUES ({', '.join('?' for _ in _INSERT_COLUMNS)})"
    ),
}


def _as_bytes(value: Any) -> bytes:
    # A hand edit in the sqlite3 shell (replace(payload, ...)) turns a BLOB into TEXT; read it all the same.
    return value if type(value) is bytes else bytes(value.encode() if isinstance(value, str) else value)


def _not_json(campaign_id: str, seq: int, type_: str) -> CorruptEventError:
    return CorruptEventError(campaign_id, seq, type_, "its stored payload or meta is not JSON")


def _decode(rows: Any, prev_hashes: dict[str, str]) -> list[RecordedEvent]:
    """Rows of ``_READ_COLUMNS`` to events.

    ``prev_hashes`` holds, per campaign, the hash of the event before the first row read; each event's
    ``prev_hash`` is the hash of the row before it (the dict is left holding each campaign's last hash). A
    command's meta is parsed once for all its events: they are adjacent in position order, so only a change
    of command (or of campaign) between two rows parses one, and a page of one campaign looks up no dict.
    """
    out: list[RecordedEvent] = []
    append = out.append
    loads = orjson.loads
    new = tuple.__new__
    campaign: str | None = None
    command: int | None = None
    prev = GENESIS_HASH
    meta: Any = None
    meta_json = b""
    for position, campaign_id, seq, type_, version, payload, hash_, command_seq, stored_meta in rows:
        try:  # free unless raised (Python 3.11+)
            if command_seq != command or campaign_id != campaign:
                if campaign_id != campaign:
                    if campaign is not None:
                        prev_hashes[campaign] = prev
                    prev = prev_hashes.get(campaign_id, GENESIS_HASH)
                    campaign = campaign_id
                meta_json = _as_bytes(stored_meta)
                meta = loads(meta_json)
                command = command_seq
            payload_json = payload if type(payload) is bytes else _as_bytes(payload)
            decoded = loads(payload_json)
        except orjson.JSONDecodeError:
            raise _not_json(campaign_id, seq, type_) from None
        append(
            new(
                RecordedEvent,
                (position, campaign_id, seq, type_, version, decoded, meta, prev, hash_, payload_json, meta_json),
            )
        )
        prev = hash_
    if campaign is not None:
        prev_hashes[campaign] = prev
    return out


def _decode_stream(rows: Sequence[Any], prev_hash: str) -> Iterator[RecordedEvent]:
    """Rows of one campaign in ``seq`` order (a ``read`` page), decoded one by one as the caller pulls them.

    Lazily, not into a list: a replay drops each event once folded, so decoded payloads die young and the
    cyclic garbage collector never has a page of them to traverse (that doubled the cost of a read).
    """
    loads = orjson.loads
    new = tuple.__new__
    command_seq = None
    meta: Any = None
    meta_json = b""
    for r in rows:
        try:  # free unless raised (Python 3.11+)
            if r[7] != command_seq:
                command_seq, meta_json = r[7], _as_bytes(r[8])
                meta = loads(meta_json)
            payload_json = r[5] if type(r[5]) is bytes else _as_bytes(r[5])
            payload = loads(payload_json)
        except orjson.JSONDecodeError:
            raise _not_json(r[1], r[2], r[3]) from None
        yield new(
            RecordedEvent,
            (r[0], r[1], r[2], r[3], r[4], payload, meta, prev_hash, r[6], payload_json, meta_json),
        )
        prev_hash = r[6]


def read_in_transaction(conn: Connection, campaign_id: str) -> list[RecordedEvent]:
    """A campaign's whole stream through ``conn``: what an inline projector sees inside the append."""
    query = (
        select(*_READ_COLUMNS).select_from(_JOINED).where(events.c.campaign_id == campaign_id).order_by(events.c.seq)
    )
    return list(_decode_stream(list(conn.execute(query)), GENESIS_HASH))


def write_connection(engine: Engine) -> Connection:
    """A connection whose transactions take the write lock at once (see :mod:`events.db`)."""
    return engine.connect().execution_options(campaign_write=True)


@contextmanager
def _sqlite_transaction(conn: Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` on the driver's connection: SQLAlchemy's begin and commit, their events
    and transaction objects, cost a fifth of a one-event append. A projector's Core statement inside makes
    SQLAlchemy begin a transaction of its own over this one (:mod:`events.db` issues no second ``BEGIN``); it
    is committed or rolled back with it."""
    driver = conn.connection.driver_connection
    assert driver is not None
    driver.execute("BEGIN IMMEDIATE")
    try:
        yield
        if conn.in_transaction():
            conn.commit()
        if driver.in_transaction:
            driver.commit()
    except BaseException:
        if conn.in_transaction():
            conn.rollback()
        if driver.in_transaction:
            driver.rollback()
        raise


def _close_all(connections: list[Connection], *, hard: bool = False) -> None:
    """Close the kept connections. ``hard`` when the engine was disposed: its pool is already closed, and a
    connection closed the ordinary way would go back into it and stay open on the file until collected."""
    while connections:
        conn = connections.pop()
        if hard:
            conn.invalidate()
        conn.close()


def lock_for_append(conn: Connection) -> None:
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({APPEND_LOCK_KEY})")


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
        if engine.dialect.name == "sqlite":
            idle = self._idle
            event.listen(engine, "engine_disposed", lambda _engine: _close_all(idle, hard=True))
            weakref.finalize(self, _close_all, idle)

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
            with _sqlite_transaction(conn) if conn.dialect.name == "sqlite" else conn.begin():
                lock_for_append(conn)
                yield conn
            clean = True
        except Exception as exc:
            translated = _translate(exc, campaign_id)
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
            sql = _APPEND_SQL[name]
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
        meta: Mapping[str, Any] | None = None,
    ) -> AppendResult:
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
                    raise ConcurrencyError(
                        f"campaign {campaign_id} is at seq {head.seq}, not {expected_seq}: re-read and retry"
                    )
                recorded = prepare_events(campaign_id, events_, head, int(last_position) + 1, command_id, meta)
                first_seq = recorded[0].seq
                cursor.execute(
                    self._statement(conn, "insert_command"),
                    (campaign_id, first_seq, recorded[-1].seq, command_id, recorded[0].meta_json),
                )
                # Fed by a generator (DBAPI drivers take any iterable): no second list of rows is held.
                # Unpacked by position, not by attribute: a NamedTuple's attributes are properties, and this
                # runs once per event.
                rows: Any = (
                    (position, campaign, seq, first_seq, type_, version, payload_json, hash_)
                    for position, campaign, seq, type_, version, _, _, _, hash_, payload_json, _ in recorded
                )
                cursor.executemany(self._statement(conn, "insert_events"), rows)
            finally:
                cursor.close()
            return self._projected(conn, recorded)

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
        return select(*_READ_COLUMNS).select_from(_JOINED)

    def _read_sql(self, conn: Connection, bounded: bool) -> str:
        """The page query of ``read``, generated once per dialect, for the DBAPI cursor.

        Decoding through SQLAlchemy's Result cost more per row than the read itself; the pooled
        connection and its transaction are still SQLAlchemy's.
        """
        key = f"{conn.dialect.name}:{bounded}"
        if key not in self._read_sql_by_key:
            m = "?" if conn.dialect.paramstyle == "qmark" else "%s"
            columns = ", ".join(f"{c.table.name}.{c.name}" for c in _READ_COLUMNS)
            upto = f" AND events.seq <= {m}" if bounded else ""
            self._read_sql_by_key[key] = (
                f"SELECT {columns} FROM events JOIN commands ON commands.campaign_id = events.campaign_id"  # noqa: S608
                f" AND commands.first_seq = events.command_seq WHERE events.campaign_id = {m} AND events.seq > {m}"
                f"{upto} ORDER BY events.seq LIMIT {READ_PAGE}"
            )
        return self._read_sql_by_key[key]

    def read(self, campaign_id: str, after_seq: int = 0, upto_seq: int | None = None) -> Iterator[RecordedEvent]:
        # Keyset pages, each in its own short connection: a reader that stops early holds no cursor open.
        last = _column_int(after_seq)
        upto_seq = None if upto_seq is None else _column_int(upto_seq)
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
            yield from _decode_stream(rows, prev_hash)
            if len(rows) < READ_PAGE:
                return
            last, prev_hash = rows[-1][2], rows[-1][6]

    def read_last(self, campaign_id: str, count: int, upto_seq: int | None = None) -> list[RecordedEvent]:
        if count <= 0:
            return []
        count = _column_int(count)
        query = self._select().where(events.c.campaign_id == campaign_id)
        if upto_seq is not None:
            query = query.where(events.c.seq <= _column_int(upto_seq))
        with self.engine.connect() as conn:
            rows = list(reversed(conn.execute(query.order_by(events.c.seq.desc()).limit(count)).all()))
            if not rows:
                return []
            first = rows[0][2]
            prev = self._hashes_before(conn, [(campaign_id, first)]).get(campaign_id, GENESIS_HASH)
        return list(_decode_stream(rows, prev))

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
        after_seq = _column_int(after_seq)
        upto_seq = None if upto_seq is None else _column_int(upto_seq)
        limit = None if limit is None else _column_int(limit)
        before = events.alias("before")
        prev_hash = (
            select(before.c.hash)
            .where(before.c.campaign_id == events.c.campaign_id, before.c.seq == events.c.seq - 1)
            .scalar_subquery()
        )
        rows: list[Any] = []
        with self.engine.connect() as conn:
            # One index range per type (equality on campaign and type, a range of seq), each already in seq
            # order and cut at ``limit``; merged here, so ``--last 20 --type …`` reads at most 20 rows a type.
            for type_ in sorted(set(types)):
                query = (
                    select(*_READ_COLUMNS, prev_hash)
                    .select_from(_JOINED)
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
        return [next(_decode_stream([r], GENESIS_HASH if r[9] is None else str(r[9]))) for r in rows]

    def read_all(self, after_position: int = 0, limit: int | None = None) -> list[RecordedEvent]:
        after_position = _column_int(after_position)
        limit = None if limit is None else _column_int(limit)
        m = "?"
        with self.engine.connect() as conn:
            if conn.dialect.paramstyle != "qmark":
                m = "%s"
            columns = ", ".join(f"{c.table.name}.{c.name}" for c in _READ_COLUMNS)
            sql = (
                f"SELECT {columns} FROM events JOIN commands ON commands.campaign_id = events.campaign_id"  # noqa: S608
                f" AND commands.first_seq = events.command_seq WHERE events.position > {m} ORDER BY events.position"
                + ("" if limit is None else f" LIMIT {int(limit)}")
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
            return _decode(rows, prev_hashes)

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
        return tuple(_decode(rows, self._hashes_before(conn, [(campaign_id, found[0])] if found[0] > 1 else [])))
