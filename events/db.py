"""Engines: the SQLite file by default, PostgreSQL by URL; and the schema check at start-up.

SQLite runs in WAL mode with a busy timeout, and a write transaction begins ``IMMEDIATE`` so that two
writers queue at ``BEGIN`` instead of failing at ``COMMIT``. Commits are durable (``synchronous = FULL``: the WAL
is synced at every commit, so an acknowledged command survives a power loss; NORMAL syncs it only at checkpoints,
and SQLite's documentation says a commit may then roll back after a power loss). :func:`close` checkpoints the WAL
into the database file and closes every connection: a command leaves the ``.db`` file alone holding everything
it acknowledged, so a copy of that file is the campaign.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from events.errors import ConfigurationError, DamagedDatabaseError
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
        raise ConfigurationError.saying("not a database path or URL: {db!r}", db=db) from exc
    if parsed.get_backend_name() == "postgresql":
        need("postgres", "a PostgreSQL database")
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            try:
                parent = Path(database).parent
                if not parent.is_dir():
                    raise ConfigurationError.saying(
                        "folder {folder} does not exist (for database {database})",
                        folder=str(parent),
                        database=database,
                    )
                if Path(database).is_dir():
                    raise ConfigurationError.saying(
                        "{database} is a folder, not a database file: name a file, e.g. {example}",
                        database=database,
                        example=str(Path(database) / "campaign.db"),
                    )
            except OSError as exc:  # a name longer than the file system takes, a folder it may not look into
                raise ConfigurationError.saying(
                    "cannot use {database!r} as a database file: {why}", database=database, why=exc.strerror
                ) from None
        engine = create_engine(url, **kwargs)
        _configure_sqlite(engine)
        return engine
    if parsed.get_backend_name() == "postgresql":
        from events.pg_append import defer_writes
        from events.pg_engine import ScopedQueuePool, configure_postgresql

        engine = create_engine(url, poolclass=ScopedQueuePool, **kwargs)
        configure_postgresql(engine)
        defer_writes(engine)
        return engine
    raise ConfigurationError.saying(
        "unsupported database {backend!r}: use a SQLite path or PostgreSQL", backend=parsed.get_backend_name()
    )


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's begin event, not the driver, decide when a transaction starts.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        if _ours_or_new(cursor):  # WAL is a setting of the file: another application's is left as it is
            cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = FULL")
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


def _ours_or_new(cursor: Any) -> bool:
    """Whether the SQLite file is a Campaign Ledger database (Alembic's table is there) or holds no table yet."""
    names = {n for (n,) in cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return not names or "alembic_version" in names


def close(engine: Engine) -> None:
    """Checkpoint SQLite's write-ahead log into the database file, then close every connection of ``engine``.

    A passive checkpoint copies every committed page it can without waiting for other readers; when this was the
    last connection to the file, SQLite checkpoints the rest and removes the ``-wal`` file as it closes. Either
    way the ``.db`` file holds every commit of this process. A file that cannot be written (opened read-only,
    damaged) is closed as it is."""
    if engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
        try:
            with engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except DBAPIError:
            pass
    engine.dispose()


DAMAGE_WORDS = ("malformed", "file is not a database", "disk i/o error", "database corrupt")
"""What SQLite says of a file it finds damaged (``SQLITE_CORRUPT``, ``SQLITE_NOTADB``, ``SQLITE_IOERR``)."""


def damaged(exc: BaseException, database: str) -> DamagedDatabaseError | None:
    """A driver error that says the database file is damaged, in the project's words (else None)."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    said = str(orig).lower()
    if not any(w in said for w in DAMAGE_WORDS):
        return None
    return DamagedDatabaseError.saying(
        "{database} is damaged: SQLite reads it as {said!r}. Nothing was recorded. `campaign verify` checks the "
        "whole file; restore the campaign from a backup (`campaign backup`) or an export",
        database=database,
        said=str(orig).rstrip("."),
    )
