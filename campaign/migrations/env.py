"""Alembic environment: one metadata for the log and the projections; batch mode on SQLite."""

from __future__ import annotations

import os

from sqlalchemy import Connection

import campaign.access.tables  # noqa: F401  (declares the access tables on the shared metadata)
import projections.tables  # noqa: F401  (declares the projection tables on the shared metadata)
from alembic import context
from events.db import make_engine
from events.schema import metadata

config = context.config
target_metadata = metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    db = context.get_x_argument(as_dictionary=True).get("db") or os.environ.get("CAMPAIGN_DB", "campaign.db")
    engine = make_engine(db)
    with engine.connect() as conn:
        _run(conn)
        conn.commit()
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported: run them against a database")
run_migrations_online()
