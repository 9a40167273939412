"""Fixed statements of the inline writers, run on the driver's cursor inside SQLAlchemy's transaction.

Building and cache-keying a Core expression costs more than the small statement itself, and the writers run
a few of them on every append (the store's append path does the same, see :mod:`events.sql`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from events.envelope import RecordedEvent
from events.pg_engine import begin_on_driver, gathering, plain_read

if TYPE_CHECKING:  # loaded only by an append that gathers its writes (see deferrable)
    from events.pg_append import AppendWrites

_BY_DIALECT: dict[tuple[str, str], str] = {}
_campaign_id = itemgetter(1)
"""A RecordedEvent's campaign_id, read by position (a NamedTuple's attributes are properties)."""


def gathered(connection: Connection) -> AppendWrites | None:
    """The PostgreSQL append's writes being gathered on ``connection`` (an ``events.pg_append.AppendWrites``), or
    None."""
    writes: AppendWrites | None = gathering(connection)  # what the append put in the connection's info
    return writes


def deferrable(statement: str) -> bool:
    # Imported here, not at the top: a read such as `campaign status` loads this module to read the summaries,
    # and events.pg_append would bring the store's write path and the schema's tables with it. Only inside an
    # append that gathers its writes (which has loaded it) is this asked.
    from events.pg_append import deferrable as deferred

    return deferred(statement)


def execute(connection: Connection, sql: str, params: tuple[object, ...]) -> list[Any]:
    """Run ``sql`` (``?`` placeholders) on ``connection``'s driver cursor; the rows it returns, if any. Inside a
    PostgreSQL append a write is kept for the append's one statement (:mod:`events.pg_append`), and returns none."""
    statement = _statement(connection, sql)
    writes = gathered(connection)
    if writes is not None and not plain_read(statement):
        if deferrable(statement):
            writes.add(statement, params)
            return []
        writes.spill()
    elif connection.dialect.name == "postgresql" and connection.in_transaction() and not plain_read(statement):
        begin_on_driver(connection.connection.driver_connection)  # the driver is in autocommit (events.pg_engine)
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(statement, params)
        return list(cursor.fetchall()) if _returns_rows(cursor) else []
    finally:
        cursor.close()


def _returns_rows(cursor: Any) -> bool:
    """Whether the statement just run returned rows (none, perhaps) to fetch. psycopg says it by ``rownumber``
    (None for none): its ``description`` builds an object per column on each look, which for the server's read
    of who asks (22 columns, every request) cost more than the rest of the read's Python work."""
    number = getattr(cursor, "rownumber", cursor)  # sqlite3's cursor has none: its description is a plain tuple
    return cursor.description is not None if number is cursor else number is not None


def execute_many(connection: Connection, sql: str, rows: Sequence[tuple[object, ...]]) -> None:
    """Run ``sql`` (``?`` placeholders) once per row on ``connection``'s driver cursor."""
    statement = _statement(connection, sql)
    writes = gathered(connection)
    if writes is not None:
        if deferrable(statement) and writes.add_many(statement, rows, named=False):
            return
        writes.spill()
    elif connection.dialect.name == "postgresql" and connection.in_transaction():
        begin_on_driver(connection.connection.driver_connection)
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.executemany(statement, rows)
    finally:
        cursor.close()


def execute_with_writes(connection: Connection, sql: str, params: tuple[object, ...]) -> None:
    """Run ``sql`` (a ``SELECT`` run for its effect, such as a notification) with the append's writes: in its one
    statement on PostgreSQL (:mod:`events.pg_append`), else now, in its transaction."""
    writes = gathered(connection)
    if writes is not None:
        writes.add(_statement(connection, sql), params, returns=True)
        return
    execute(connection, sql, params)


def by_campaign(events: Iterable[RecordedEvent]) -> dict[str, list[RecordedEvent]]:
    """An appended batch split per campaign, each part in the order appended: what an inline writer folds."""
    chosen = events if isinstance(events, list | tuple) else list(events)
    if not chosen:
        return {}
    campaign_ids = set(map(_campaign_id, chosen))
    if len(campaign_ids) == 1:  # an append's batch, or a rebuild's page of one campaign
        return {campaign_ids.pop(): list(chosen)}
    batches: dict[str, list[RecordedEvent]] = {}
    for event in chosen:
        batches.setdefault(event.campaign_id, []).append(event)
    return batches


def _statement(connection: Connection, sql: str) -> str:
    """``sql`` (``?`` placeholders) in the placeholders of ``connection``'s driver, made once per dialect."""
    key = (connection.dialect.name, sql)
    statement = _BY_DIALECT.get(key)
    if statement is None:
        statement = _BY_DIALECT[key] = sql if connection.dialect.paramstyle == "qmark" else sql.replace("?", "%s")
    return statement
