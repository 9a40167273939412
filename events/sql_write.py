"""The SQL store's write path around its statements: the write connection, SQLite's ``BEGIN IMMEDIATE`` on the
driver, PostgreSQL's advisory append lock, the fixed statements of an append, and driver errors in the project's
own words."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError

from events.errors import CampaignError, ConcurrencyError, InvalidInputError
from events.schema import events

APPEND_LOCK_KEY = 0x0CA4_9A16
"""PostgreSQL advisory lock of the transactions that keep every writer out (:func:`lock_for_append`)."""

INSERT_COLUMNS = (
    events.c.position,
    events.c.campaign_id,
    events.c.seq,
    events.c.command_seq,
    events.c.type,
    events.c.schema_version,
    events.c.payload,
    events.c.hash,
)


def translate(exc: Exception, campaign_id: str) -> CampaignError | None:
    """Driver errors (raised through SQLAlchemy or straight from the DBAPI cursor) as the project's own."""
    if isinstance(exc, CampaignError):
        return None
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    # psycopg is looked up, not imported: if no PostgreSQL database was opened, the error cannot be one of its.
    psycopg = sys.modules.get("psycopg")
    if isinstance(orig, OverflowError) or (psycopg and isinstance(orig, psycopg.errors.NumericValueOutOfRange)):
        # A projection's integer column (a treasury's balance) would pass 64 bits: the append is rolled back.
        return InvalidInputError.saying(
            "campaign {campaign}: a number past 64 bits: nothing was appended", campaign=campaign_id
        )
    if isinstance(orig, sqlite3.IntegrityError) or (
        psycopg is not None and isinstance(orig, psycopg.errors.UniqueViolation)
    ):
        # Only reachable if a writer bypassed the append lock; the unique (campaign_id, seq) still holds.
        return ConcurrencyError.saying(
            "campaign {campaign} changed while appending: re-read and retry", campaign=campaign_id
        )
    if isinstance(orig, sqlite3.OperationalError) and ("locked" in str(orig) or "busy" in str(orig)):
        return ConcurrencyError.saying("the database stayed locked by another writer: retry")
    return None


APPEND_SQL = {
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
}


MULTI_ROW_INSERT = 64
"""The most event rows one ``INSERT`` statement writes (see ``SqlEventStore._insert_events``)."""


def insert_events_sql(rows: int, qmark: bool) -> str:
    """``INSERT INTO events (…) VALUES (…), (…), …`` of ``rows`` rows, bound positionally (``?`` or ``%s``).

    Still derived from the table definition; run on the driver's cursor: SQLAlchemy's per-row parameter
    processing cost more than the insert itself on the batch path."""
    mark = "?" if qmark else "%s"
    row = f"({', '.join(mark for _ in INSERT_COLUMNS)})"
    return f"INSERT INTO events ({', '.join(c.name for c in INSERT_COLUMNS)}) VALUES {', '.join([row] * rows)}"  # noqa: S608


def write_connection(engine: Engine) -> Connection:
    """A connection whose transactions take the write lock at once (see :mod:`events.db`)."""
    return engine.connect().execution_options(campaign_write=True)


@contextmanager
def sqlite_transaction(conn: Connection) -> Iterator[None]:
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


def checkpoint(conn: Connection) -> None:
    """Copy what the WAL holds into the SQLite file, as far as no reader's snapshot still needs it (PASSIVE: it
    waits for nobody; a reader's pages are copied by the next one, or when the last connection closes). The write
    is committed already: a checkpoint that fails leaves it in the WAL, durable, and says nothing."""
    driver = conn.connection.driver_connection
    assert driver is not None
    with suppress(sqlite3.Error):
        driver.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def close_all(connections: list[Connection], *, hard: bool = False) -> None:
    """Close the kept connections. ``hard`` when the engine was disposed: its pool is already closed, and a
    connection closed the ordinary way would go back into it and stay open on the file until collected."""
    while connections:
        conn = connections.pop()
        if hard:
            conn.invalidate()
        conn.close()


def lock_for_append(conn: Connection) -> None:
    """Keep every writer out until the transaction ends (a rebuild, a migration). SQLite: its ``BEGIN IMMEDIATE``.
    PostgreSQL: appends take no lock of their own (each locks its campaign by the key it inserts), but each
    inserts into ``events``, which a ``SHARE`` lock refuses until it is released; and such a writer, waiting for
    the table, takes its snapshot only once it has it, so it sees what this transaction wrote. The advisory lock
    orders two of these transactions (two starters migrating, before ``events`` exists)."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({APPEND_LOCK_KEY})")
        if conn.exec_driver_sql("SELECT to_regclass('events')").scalar() is not None:
            conn.exec_driver_sql("LOCK TABLE events IN SHARE MODE")
