"""The append on PostgreSQL: a read of the head, then every write of the command in one statement.

Campaigns are independent streams, so an append locks its own campaign only, and it does so with the key it
writes: the unique ``(campaign_id, seq)`` of ``events``. A second writer of the same campaign inserting the same
seq waits for the first one's transaction and is refused (:class:`~events.errors.ConcurrencyError`) when it
commits; a writer of another campaign waits for nobody. No advisory lock: the one every append took serialised
the whole database (half of a server thread's time waited on it, with eleven round trips held inside).

Global positions are the transaction's id, shifted left by :data:`POSITION_BITS`, plus the event's place in the
transaction: a sequence PostgreSQL already keeps, and one that its snapshots describe. Every transaction whose
id is below a snapshot's ``xmin`` has ended, so a reader that takes events by position only below ``xmin`` shifted
(:data:`HORIZON`) can never meet, later, an event committed late with a lower position than one it read: the
ordering a projection worker following ``read_all`` needs, without a lock that orders the writers. (An event
store over PostgreSQL meets the same problem with a plain sequence: a later ``nextval`` can commit first.)
Within a campaign positions follow seqs: a writer gets its transaction id as it writes, after it read the
head, so after the transaction that wrote the head.

The writes of an append (its command row, its events, and what every inline projector writes) are gathered
while the projectors run (:class:`AppendWrites`) and sent as one statement of data-modifying ``WITH`` clauses:
in autocommit it is a transaction of its own, and it is all or nothing. A projector's reads run at once and
see the database as committed before the append (no projector reads what it or another writes in the same
append). Writes that one statement cannot hold (two on one table, whose order inside a statement PostgreSQL
leaves open; more parameters than a statement takes) are sent in order in a transaction instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Engine, event

from events.envelope import NewEvent, RecordedEvent
from events.errors import ConcurrencyError, InvalidInputError
from events.pg_engine import BATCH, begin_on_driver, gathering, plain_read
from events.sql_write import translate
from events.store import EMPTY_HEAD, AppendResult, Head, InlineProjector, prepare_events

POSITION_BITS = 22
"""Positions per transaction: 4,194,304 events (an import of a campaign is one transaction). The transaction
ids left are 2**41: seventy years of a thousand transactions a second."""
POSITION = f"(pg_current_xact_id()::text::bigint << {POSITION_BITS})"
"""The first position of the current transaction."""
HORIZON = f"(pg_snapshot_xmin(pg_current_snapshot())::text::bigint << {POSITION_BITS})"
"""No event below this position can still be written: every transaction that could write one has ended."""
MAX_PARAMETERS = 30_000
"""The most parameters put into one statement (PostgreSQL takes 65,535)."""

HEAD_SQL = (
    "SELECT h.seq, h.hash, c.first_seq FROM (SELECT 1) AS one"
    " LEFT JOIN LATERAL (SELECT seq, hash FROM events WHERE campaign_id = %s ORDER BY seq DESC LIMIT 1) AS h"
    " ON TRUE LEFT JOIN commands AS c ON c.campaign_id = %s AND c.command_id = %s"
)
"""The campaign's head and whether the command id was seen, in one round trip (NULLs for a new campaign)."""

INSERT_COMMAND = "INSERT INTO commands (campaign_id, first_seq, last_seq, command_id, meta) VALUES (%s, %s, %s, %s, %s)"
EVENT_COLUMNS = "position, campaign_id, seq, command_seq, type, schema_version, payload, hash"
EVENT_ROW = "%s, %s, %s, %s, %s, %s, %s"
"""An event row's parameters after its position (campaign id … hash), as :func:`events.store.prepare_events` lays
them out."""

_NAMED = re.compile(r"%\((\w+)\)s")
_TABLE = re.compile(r"^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+\"?(\w+)", re.IGNORECASE)
_VALUES = re.compile(r"^(INSERT INTO .*? VALUES )(\(.*\))$", re.DOTALL)


class _Part:
    __slots__ = ("params", "returns", "sql", "table")

    def __init__(self, sql: str, params: Sequence[object], table: str | None, returns: bool = False) -> None:
        self.sql = sql
        self.params = params
        self.table = table
        self.returns = returns
        """A ``SELECT`` run for its effect (a notification), joined to the statement's result."""


def _positional(sql: str, params: Mapping[str, object]) -> tuple[str, list[object]]:
    """SQLAlchemy's ``%(name)s`` placeholders as ``%s``, with the values in their order."""
    values: list[object] = []

    def take(match: re.Match[str]) -> str:
        values.append(params[match.group(1)])
        return "%s"

    return _NAMED.sub(take, sql), values


class AppendWrites:
    """The writes of one append, gathered while its inline projectors run, then sent (:meth:`send`)."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        self.parts: list[_Part] = []
        self.gathering = True
        self.base: int | None = None
        """The first position, once the writes went out in a transaction (:meth:`spill`)."""
        self._events: tuple[str, list[object], int] | None = None

    def events(self, command_params: Sequence[object], rows: list[object], count: int) -> None:
        self.parts.append(_Part(INSERT_COMMAND, command_params, "commands"))
        self._events = ("", rows, count)
        self.parts.append(_Part("", [], "events"))  # its place among the parts: written by send()

    def add(self, sql: str, params: Sequence[object], *, returns: bool = False) -> None:
        """A statement of ``%s`` placeholders: kept for :meth:`send`."""
        match = _TABLE.match(sql)
        self.parts.append(_Part(sql, list(params), match.group(1).lower() if match else None, returns))

    def add_named(self, sql: str, params: Mapping[str, object]) -> None:
        self.add(*_positional(sql, params))

    def add_many(self, sql: str, rows: Sequence[Any], *, named: bool) -> bool:
        """An ``INSERT … VALUES (…)`` run once per row, kept as one insert of all the rows; False if ``sql`` is not
        one (then the caller runs it as it is)."""
        found = _VALUES.match(sql.strip())
        if found is None or not rows or " RETURNING " in sql.upper():
            return False
        head, row = found.groups()
        params: list[object] = []
        for values in rows:
            if named:
                row_sql, flat = _positional(row, values)
            else:
                row_sql, flat = row, list(values)
            params.extend(flat)
        self.add(head + ", ".join([row_sql] * len(rows)), params)
        return True

    def _one_statement(self) -> bool:
        tables = [p.table for p in self.parts if p.table is not None]
        size = sum(len(p.params) for p in self.parts) + (len(self._events[1]) if self._events else 0)
        return len(tables) == len(set(tables)) and size <= MAX_PARAMETERS

    def spill(self) -> None:
        """A write that cannot wait for the statement (it returns rows, or is not a plain insert, update or delete):
        open a transaction, write what was gathered so far, and let it and what follows run in that transaction
        (:meth:`send` then commits it)."""
        if not self.gathering:
            return
        self.gathering = False
        assert self._events is not None
        _, rows, count = self._events
        begin_on_driver(self.driver)
        cursor = self.driver.cursor()
        try:
            cursor.execute(f"SELECT {POSITION}")
            self.base = int(cursor.fetchone()[0])
            for part in self.parts:
                if part.table == "events":
                    _insert_events(cursor, self.base, rows, count)
                else:
                    cursor.execute(part.sql, part.params)
        finally:
            cursor.close()

    def send(self) -> int:
        """Write everything gathered (or commit what :meth:`spill` began); the first position of the events."""
        if self.gathering and self._one_statement():
            self.gathering = False
            assert self._events is not None
            _, rows, count = self._events
            return self._send_one(rows, count)
        try:
            self.spill()
            self.driver.commit()
        except BaseException:
            self.abandon()
            raise
        assert self.base is not None
        return self.base

    def abandon(self) -> None:
        """The append failed: nothing of it is written (a transaction that :meth:`spill` began is rolled back)."""
        self.gathering = False
        if self.driver.info.transaction_status != 0:
            self.driver.rollback()

    def _send_one(self, rows: list[object], count: int) -> int:
        params: list[object] = []
        for part in self.parts:
            params.extend(_without_positions(rows) if part.table == "events" else part.params)
        shape: tuple[int | tuple[str, bool], ...] = (count, *((p.sql, p.returns) for p in self.parts))
        sql = _STATEMENTS.get(shape)
        if sql is None:
            sql = _numbered(self._one_sql(count))
            if len(_STATEMENTS) < 1000:  # the shapes of a ruleset's commands, kept: a bound for odd ones
                _STATEMENTS[shape] = sql
        # PostgreSQL's own placeholders, so psycopg sends the text as it is: it parses a statement of %s placeholders
        # longer than 4,096 characters again at every execution (a seventh of a server's CPU on the load bench).
        from psycopg import RawCursor  # here: a SQLite database never loads the driver

        raw = RawCursor(self.driver)
        try:
            raw.execute(sql, params)
            base = int(raw.fetchone()[0])  # type: ignore[index]
        finally:
            raw.close()
        if self.driver.info.transaction_status != 0:  # inside a transaction someone else began: it ends here
            self.driver.commit()
        return base

    def _one_sql(self, count: int) -> str:
        clauses = ["x AS (SELECT " + POSITION + " AS base)"]
        joined: list[str] = []
        for n, part in enumerate(self.parts):
            if part.table == "events":
                values = ", ".join(f"((SELECT base FROM x) + {i}, {EVENT_ROW})" for i in range(count))  # noqa: S608
                clauses.append(f"w{n} AS (INSERT INTO events ({EVENT_COLUMNS}) VALUES {values})")  # noqa: S608
                continue
            clauses.append(f"w{n} AS ({part.sql})")
            if part.returns:
                joined.append(f" LEFT JOIN w{n} ON TRUE")
        return "WITH " + ", ".join(clauses) + " SELECT x.base FROM x" + "".join(joined)  # noqa: S608


_STATEMENTS: dict[tuple[int | tuple[str, bool], ...], str] = {}
"""The one statement of each shape of append seen (its parts' statements, and its events' count), numbered."""
_MARK = re.compile(r"%%|%s")


def _numbered(sql: str) -> str:
    """``%s`` placeholders as ``$1``, ``$2``, …, and ``%%`` as ``%``."""
    at = 0

    def mark(found: re.Match[str]) -> str:
        nonlocal at
        if found.group() == "%%":
            return "%"
        at += 1
        return f"${at}"

    return _MARK.sub(mark, sql)


def _without_positions(rows: list[object]) -> list[object]:
    """The rows' parameters less each row's first (its position, given by the statement)."""
    width = 8
    return [value for at in range(0, len(rows), width) for value in rows[at + 1 : at + width]]


def _insert_events(cursor: Any, base: int, rows: list[object], count: int) -> None:
    """The events by inserts of 64 rows at most, their positions from ``base``."""
    width, at = 8, 0
    while at < count:
        chunk = min(64, count - at)
        flat: list[object] = []
        for i in range(at, at + chunk):
            flat.append(base + i)
            flat.extend(rows[i * width + 1 : (i + 1) * width])
        row = "(" + ", ".join(["%s"] * width) + ")"
        cursor.execute(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES " + ", ".join([row] * chunk), flat)  # noqa: S608
        at += chunk


def gathered(connection: Connection) -> AppendWrites | None:
    """The append's writes being gathered on ``connection``, if any."""
    found = gathering(connection)
    return found if isinstance(found, AppendWrites) else None


def defer_writes(engine: Engine) -> None:
    """While an append gathers its writes, SQLAlchemy's inserts, updates and deletes on its connection are kept
    for its statement instead of being run (their results are not read: nothing returns rows)."""

    @event.listens_for(engine, "do_execute")
    def _one(cursor: Any, statement: str, parameters: Any, context: Any) -> bool | None:
        writes = gathered(context.root_connection)
        if writes is None or plain_read(statement):
            return None
        if not deferrable(statement):
            writes.spill()
            return None
        if isinstance(parameters, Mapping):
            writes.add_named(statement, parameters)
        else:
            writes.add(statement, parameters or ())
        return True

    @event.listens_for(engine, "do_executemany")
    def _many(cursor: Any, statement: str, parameters: Any, context: Any) -> bool | None:
        writes = gathered(context.root_connection)
        if writes is None:
            return None
        named = bool(parameters) and isinstance(parameters[0], Mapping)
        if deferrable(statement) and writes.add_many(statement, parameters, named=named):
            return True
        writes.spill()
        return None


def deferrable(statement: str) -> bool:
    """An insert, update or delete whose result nobody reads: it can wait for the append's statement."""
    return _TABLE.match(statement) is not None and " RETURNING " not in statement.upper()


def refused_as_stale(campaign_id: str, head_seq: int, expected_seq: int) -> ConcurrencyError:
    error = ConcurrencyError(f"campaign {campaign_id} is at seq {head_seq}, not {expected_seq}: re-read and retry")
    error.campaign_id = campaign_id
    return error


def with_positions(recorded: list[RecordedEvent], base: int) -> tuple[RecordedEvent, ...]:
    return tuple(e._replace(position=base + i) for i, e in enumerate(recorded))


def append(
    engine: Engine,
    projectors: Sequence[InlineProjector],
    command_events: Callable[[Connection, str, str], tuple[RecordedEvent, ...] | None],
    campaign_id: str,
    events_: Sequence[NewEvent],
    expected_seq: int,
    command_id: str | None,
    meta: Mapping[str, object] | None,
) -> AppendResult:
    """:meth:`events.sql.SqlEventStore.append` on PostgreSQL: one read of the head (and of the command id), then
    one statement of every write (see the module's docstring)."""
    with engine.connect() as conn:
        driver = conn.connection.driver_connection
        assert driver is not None
        cursor = driver.cursor()
        try:
            cursor.execute(HEAD_SQL, (campaign_id, campaign_id, command_id))
            seq, hash_, seen = cursor.fetchone()
        finally:
            cursor.close()
        if seen is not None:
            assert command_id is not None
            earlier = command_events(conn, campaign_id, command_id)
            assert earlier is not None  # the command's row was just read: its events are there
            return AppendResult(earlier, duplicate=True)
        head = EMPTY_HEAD if seq is None else Head(int(seq), str(hash_))
        if head.seq != expected_seq:
            raise refused_as_stale(campaign_id, head.seq, expected_seq)
        rows: list[object] = []
        recorded = prepare_events(campaign_id, events_, head, 0, command_id, meta, rows=rows)
        if len(recorded) >= 1 << POSITION_BITS:
            raise InvalidInputError(f"an append of {len(recorded):,} events: one takes {(1 << POSITION_BITS) - 1:,}")
        writes = AppendWrites(driver)
        command_row = (campaign_id, recorded[0].seq, recorded[-1].seq, command_id, recorded[0].meta_json)
        writes.events(command_row, rows, len(recorded))
        conn.info[BATCH] = writes
        try:
            batch = tuple(recorded)
            for projector in projectors:
                projector.project(conn, batch)
            base = writes.send()
        except Exception as exc:
            writes.abandon()
            translated = translate(exc, campaign_id)
            if translated is None:
                raise
            if isinstance(translated, ConcurrencyError):
                translated.campaign_id = campaign_id
            raise translated from exc
        except BaseException:
            writes.abandon()
            raise
        finally:
            conn.info.pop(BATCH, None)
        return AppendResult(with_positions(recorded, base), duplicate=False)
