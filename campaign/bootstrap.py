"""Wires the store, projections and services for one database. Called by entry points, never at import."""

from __future__ import annotations

import getpass
import os
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError, ProgrammingError

from campaign.commands import fold_for
from campaign.executor import Ledger
from events.db import make_engine
from events.errors import ConfigurationError
from events.sql import SqlEventStore, lock_for_append, write_connection
from events.vault import SqlSeedVault
from projections.campaign_state import CampaignStateProjector, SqlCampaignStates
from projections.campaigns import CampaignsProjector, SqlCampaignDirectory

if TYPE_CHECKING:
    from alembic.config import Config

PROJECT_ROOT = Path(__file__).resolve().parents[1]
ALEMBIC_INI = PROJECT_ROOT / "alembic.ini"
SCHEMA_HEAD = "0004"
"""The newest migration; a test checks it equals Alembic's head."""


def alembic_config() -> Config:
    from alembic.config import Config  # Alembic is loaded only when a database needs migrating

    if not ALEMBIC_INI.is_file():
        raise ConfigurationError(f"migrations not found at {ALEMBIC_INI}: install the project with `pip install -e .`")
    return Config(str(ALEMBIC_INI))


def current_revision(engine: Engine) -> str | None:
    """The schema's Alembic revision, read straight from ``alembic_version`` (importing Alembic to ask costs a
    quarter of a second on every command); None for a database never migrated."""
    with engine.connect() as conn:
        try:
            rows = conn.execute(text("SELECT version_num FROM alembic_version")).all()
        except (OperationalError, ProgrammingError):  # no such table: a new database
            return None
    return str(rows[0][0]) if len(rows) == 1 else None


def ensure_schema(engine: Engine) -> None:
    """Bring the database to the newest migration (under the append lock, so two starters don't race)."""
    try:
        if current_revision(engine) == SCHEMA_HEAD:
            return
        from alembic.runtime.migration import MigrationContext

        from alembic import command

        with write_connection(engine) as conn, conn.begin():
            lock_for_append(conn)
            revision = MigrationContext.configure(conn).get_current_revision()
            if revision == SCHEMA_HEAD:
                return
            config = alembic_config()
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
    except OperationalError as exc:
        raise ConfigurationError(f"cannot open the database: {exc.orig}") from exc
    if current_revision(engine) != SCHEMA_HEAD:
        raise ConfigurationError("the database schema is newer than this program: upgrade Campaign Ledger")


def default_actor() -> str:
    return os.environ.get("CAMPAIGN_ACTOR") or getpass.getuser()


def wall_clock() -> str:
    """Informational time for event metadata; never read by rules or projections."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class App:
    engine: Engine
    ledger: Ledger

    def close(self) -> None:
        self.engine.dispose()


def projectors() -> list[CampaignsProjector | CampaignStateProjector]:
    """The read models kept inline in every append (and refolded by ``rebuild``)."""
    return [CampaignsProjector(), CampaignStateProjector(fold_for)]


def bootstrap(db: str, *, actor: str | None = None, new_id: Callable[[], str] | None = None) -> App:
    """Open ``db`` (migrating it) and wire the ledger. ``new_id`` fixes entity ids for reproducible runs:
    seeded dice are derived from the campaign id as well as the seed."""
    engine = make_engine(db)
    ensure_schema(engine)
    vault = SqlSeedVault(engine)
    store = SqlEventStore(engine, projectors=[*projectors(), vault])
    ledger = Ledger(
        store=store,
        directory=SqlCampaignDirectory(engine),
        vault=vault,
        states=SqlCampaignStates(engine, store, fold_for),
        actor=actor or default_actor(),
        clock=wall_clock,
        new_id=new_id or (lambda: uuid.uuid4().hex),
        new_seed=lambda: secrets.token_bytes(32),
    )
    return App(engine, ledger)
