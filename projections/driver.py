"""Fixed statements of the inline writers, run on the driver's cursor inside SQLAlchemy's transaction.

Building and cache-keying a Core expression costs more than the small statement itself, and the writers run
a few of them on every append (the store's append path does the same, see :mod:`events.sql`).
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter
from typing import Any

from sqlalchemy import Connection

from events.envelope import RecordedEvent

_BY_DIALECT: dict[tuple[str, str], str] = {}
_campaign_id = itemgetter(1)
"""A RecordedEvent's campaign_id, read by position (a NamedTuple's attributes are properties)."""


def execute(connection: Connection, sql: str, params: tuple[Any, ...]) -> list[Any]:
    """Run ``sql`` (``?`` placeholders) on ``connection``'s driver cursor; the rows it returns, if any."""
    statement = _statement(connection, sql)
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(statement, params)
        return list(cursor.fetchall()) if cursor.description is not None else []
    finally:
        cursor.close()


def execute_many(connection: Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """Run ``sql`` (``?`` placeholders) once per row on ``connection``'s driver cursor."""
    statement = _statement(connection, sql)
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.executemany(statement, rows)
    finally:
        cursor.close()


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
