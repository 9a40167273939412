"""PostgreSQL connections as a server uses them: one checkout per request, no ping, no empty transactions.

Measured on the group server (``bench/server_load.py``): a request ran 27 statements, 12 of them connection
overhead: four checkouts, each with a pre-ping, a ``BEGIN`` for its first read and a ``ROLLBACK`` when it went
back to the pool, and that ``ROLLBACK`` also dropped psycopg's prepared statements. So here:

* The driver connection is in autocommit: a read is one statement, with no ``BEGIN`` before it and no
  ``ROLLBACK`` after it, and the statements psycopg prepared stay prepared. A transaction still begins where one
  is asked for: at once on a write connection (:func:`events.sql_write.write_connection`), and otherwise just
  before the first statement that is not a plain read, so an ``engine.begin()`` block that writes is as atomic as
  it was. (At READ COMMITTED, the default, a plain ``SELECT`` before a transaction's first write sees what it
  would have seen inside it: each statement takes its own snapshot and a plain ``SELECT`` takes no row lock.)
* No pre-ping: a connection that the server dropped fails its next statement, which invalidates the pool (every
  connection older than the failure is replaced at its next checkout); the request that met it is refused, the
  next one gets a fresh connection.
* :func:`connection_scope`: while it is open (a server request), every ``engine.connect()`` of its context gets
  the same pooled connection, checked out once and given back when the scope closes.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection, QueuePool

CONFIGURED: weakref.WeakSet[Engine] = weakref.WeakSet()
"""The engines set up here (made by :func:`events.db.make_engine`): only on them does an append gather its
writes into one statement (:mod:`events.pg_append`)."""

_READS = ("SELECT", "SHOW")
_SIDE_EFFECTS = ("FOR UPDATE", "FOR SHARE", "FOR NO KEY", "FOR KEY SHARE", "PG_ADVISORY", "PG_NOTIFY", "NEXTVAL")
_plain: dict[str, bool] = {}


def plain_read(statement: str) -> bool:
    """A statement that may run outside the transaction it belongs to: a ``SELECT`` (or ``SHOW``) that takes no
    lock and has no effect. Judged once per statement text (SQLAlchemy and the store reuse their strings)."""
    found = _plain.get(statement)
    if found is None:
        upper = statement.lstrip().upper()
        found = upper.startswith(_READS) and not any(word in upper for word in _SIDE_EFFECTS)
        if len(_plain) < 10_000:  # a bound for statements with values written into them
            _plain[statement] = found
    return found


BATCH = "campaign_ledger.append_writes"
"""Where an append's writes wait (:class:`events.pg_append.AppendWrites`), in its connection's ``info``, while its
inline projectors run: they go out together, in one statement of their own, so none begins a transaction."""


def gathering(connection: Any) -> Any:
    """The writes an append is gathering on ``connection`` (an ``AppendWrites``), or None."""
    try:
        found = connection.info.get(BATCH)
    except NotImplementedError:  # the dialect's first look at a new connection: no pooled entry yet
        return None
    return found if found is not None and found.gathering else None


def begin_on_driver(driver: Any) -> None:
    """Open the driver connection's transaction now, unless it is in one."""
    if driver.info.transaction_status == 0:  # psycopg.pq.TransactionStatus.IDLE
        driver.execute("BEGIN")


def configure_postgresql(engine: Engine) -> None:
    CONFIGURED.add(engine)

    @event.listens_for(engine, "connect")
    def _autocommit(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        dbapi_connection.autocommit = True

    @event.listens_for(engine, "checkin")
    def _still_autocommit(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        # A connection given an isolation level of its own gets the engine's back as it returns to the pool,
        # which SQLAlchemy says by turning autocommit off: on again, for the next checkout.
        if dbapi_connection is not None and dbapi_connection.info.transaction_status == 0:
            dbapi_connection.autocommit = True

    asked = engine.dialect._on_connect_isolation_level

    def level(conn: Any) -> Any:
        return conn.get_execution_options().get("isolation_level", asked)

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        chosen = level(conn)
        if chosen == "AUTOCOMMIT":  # asked for: no transaction at all
            return
        if conn.get_execution_options().get("campaign_write") or chosen not in (None, "READ COMMITTED"):
            begin_on_driver(conn.connection.driver_connection)

    @event.listens_for(engine, "before_cursor_execute")
    def _before(conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: bool) -> None:
        if not plain_read(statement) and conn.in_transaction() and not gathering(conn) and level(conn) != "AUTOCOMMIT":
            begin_on_driver(conn.connection.driver_connection)


class ScopedQueuePool(QueuePool):
    """A queue pool that, inside an open :func:`connection_scope`, lends the scope's one connection again."""

    def connect(self) -> PoolProxiedConnection:
        scope = _scope.get()
        if scope is None or scope.closed:
            return super().connect()
        held = scope.held.get(self)
        if held is None or not held.is_valid:
            # The first checkout of the scope, or its connection was invalidated (the server went away): a fresh
            # one, held by the scope itself (the invalidated one was already given back by its invalidation).
            held = scope.held[self] = super().connect()
        return held._checkout_existing()  # type: ignore[no-any-return]


class _Scope:
    def __init__(self) -> None:
        self.held: dict[QueuePool, PoolProxiedConnection] = {}
        self.closed = False

    def give_back(self) -> None:
        while self.held:
            _, held = self.held.popitem()
            if held.is_valid:
                held.close()

    def release(self) -> None:
        self.closed = True
        self.give_back()


_scope: ContextVar[_Scope | None] = ContextVar("campaign_ledger_connection_scope", default=None)


@contextmanager
def connection_scope() -> Iterator[None]:
    """Every connection checked out in this context (and the threads it hands work to, which copy it) until the
    block ends is one pooled connection: one checkout, one connection, for a request. Nothing in the scope may
    use two connections at once (a request does not)."""
    scope = _Scope()
    token = _scope.set(scope)
    try:
        yield
    finally:
        _scope.reset(token)
        scope.release()


def release_scope() -> None:
    """Give the current scope's connection back now: what follows (a stream that stays open for minutes) checks
    connections out one at a time, as outside a scope."""
    scope = _scope.get()
    if scope is not None:
        scope.release()


def give_back_scope_connection() -> None:
    """Give the current scope's connection back before a wait (the next checkout of the scope takes another one,
    and holds it to the end): a request queued behind others holds no connection they need."""
    scope = _scope.get()
    if scope is not None:
        scope.give_back()
