"""Engines: the SQLite file by default, PostgreSQL by URL; and the schema check at start-up.

SQLite runs in WAL mode with a busy timeout, and a write transaction begins ``IMMEDIATE`` so that two
writers queue at ``BEGIN`` instead of failing at ``COMMIT``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from events.errors import ConfigurationError
from events.extras import need

SQLITE_BUSY_TIMEOUT_MS = 30_000


def database_url(db: str) -> str:
    """A SQLAlchemy URL from ``--db``: a URL is kept (``postgresql://`` means psycopg 3); a path is SQLite."""
    if "://" not in db:
        return f"sqlite:///{Path(db).expanduser()}"
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    return db


def make_engine(db: str, **kwargs: Any) -> Engine:
    url = database_url(db)
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise ConfigurationError(f"not a database path or URL: {db!r}") from exc
    if parsed.get_backend_name() == "postgresql":
        need("postgres", "a PostgreSQL database")
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            parent = Path(database).parent
            if not parent.is_dir():
                raise ConfigurationError(f"folder {parent} does not exist (for database {database})")
            if Path(database).is_dir():
                raise ConfigurationError(
                    f"{database} is a folder, not a database file: name a file, e.g. {Path(database) / 'campaign.db'}"
                )
        engine = create_engine(url, **kwargs)
        _configure_sqlite(engine)
        return engine
    if parsed.get_backend_name() == "postgresql":
        return create_engine(url, pool_pre_ping=True, **kwargs)
    raise ConfigurationError(f"unsupported database {parsed.get_backend_name()!r}: use a SQLite path or PostgreSQL")


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's begin event, not the driver, decide when a transaction starts.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # On the driver's connection: a BEGIN through conn.exec_driver_sql cost half of a one-event append.
        driver = conn.connection.driver_connection
        if driver.in_transaction:  # the store's append began it on the driver (events.sql): nothing to begin
            return
        immediate = conn.get_execution_options().get("campaign_write", False)
        driver.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
