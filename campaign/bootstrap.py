"""Wires the store, projections and services for one database. Called by entry points, never at import."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, text
from sqlalchemy.exc import DatabaseError, OperationalError, ProgrammingError

from campaign.i18n import N_
from events.db import close, damaged, make_engine
from events.errors import ConfigurationError, NotFoundError, Words

# The ledger and what it is wired from are imported when it is first used: a read served from the read models
# (``status``) opens the database and uses none of it (start-up time).
if TYPE_CHECKING:
    from alembic.config import Config

    from campaign.access.memberships import MembershipsProjector
    from campaign.executor import Ledger
    from campaign.live import NotifyOnAppend
    from projections.campaign_state import CampaignStateProjector
    from projections.campaigns import CampaignsProjector
    from projections.event_refs import EventRefsProjector

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
"""Alembic's scripts, inside the package so that an installed wheel has them (alembic.ini points here too)."""
SCHEMA_HEAD = "0014"
"""The newest migration; a test checks it equals Alembic's head."""


def alembic_config() -> Config:
    from alembic.config import Config  # Alembic is loaded only when a database needs migrating

    if not (MIGRATIONS / "env.py").is_file():
        raise ConfigurationError.saying(
            "migrations not found at {folder}: reinstall Campaign Ledger", folder=str(MIGRATIONS)
        )
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    return config


def current_revision(engine: Engine) -> str | None:
    """The schema's Alembic revision, read straight from ``alembic_version`` (importing Alembic to ask costs a
    quarter of a second on every command); None for a database never migrated."""
    with engine.connect() as conn:
        try:
            rows = conn.execute(text("SELECT version_num FROM alembic_version")).all()
        except ProgrammingError:  # PostgreSQL's undefined table: a new database
            return None
        except OperationalError as exc:
            # SQLite says a missing table so; PostgreSQL's OperationalError is a connection lost, which is not a
            # schema's absence (a server whose database stopped was told to migrate it)
            if "no such table" in str(exc.orig):
                return None
            raise
    return str(rows[0][0]) if len(rows) == 1 else None


def ensure_schema(engine: Engine, *, create: bool = True, on_upgrade: Callable[[str, str], None] | None = None) -> None:
    """Bring the database to the newest migration (under the append lock, so two starters don't race).
    ``create=False`` (every command but those that start a campaign) refuses a database with no schema yet
    instead of creating one. ``on_upgrade(database, revision)`` is told before a database made by an older
    version is brought up to date (a migration may refold a long campaign: seconds, once)."""
    revision = None
    try:
        revision = current_revision(engine)
        if revision == SCHEMA_HEAD:
            return
        if revision is None and not create:
            raise NotFoundError.saying(
                "{database} holds no campaign yet: {how}", database=where(engine), how=HOW_TO_START
            )
        if revision is None:
            _refuse_foreign_tables(engine)
        from alembic.runtime.migration import MigrationContext

        from alembic import command
        from events.sql_write import lock_for_append, write_connection

        with write_connection(engine) as conn, conn.begin():
            lock_for_append(conn)
            revision = MigrationContext.configure(conn).get_current_revision()
            if revision == SCHEMA_HEAD:
                return
            config = alembic_config()
            if revision is not None and revision not in _known_revisions(config):
                raise ConfigurationError.saying(NEWER)
            if revision is not None and on_upgrade is not None:
                on_upgrade(where(engine), revision)
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
    except OperationalError as exc:
        if "readonly" in str(exc.orig).replace(" ", "").lower() and revision is not None:
            # Every command brings the tables up to date first, and this database cannot be written.
            raise ConfigurationError.saying(
                "{database} cannot be written, and this version of Campaign Ledger reads it only once its tables "
                "are brought up to date (revision {revision}, this version needs {head}; nothing is lost): run any "
                "command once where the file can be written, or read it with the version that wrote it",
                database=where(engine),
                revision=revision,
                head=SCHEMA_HEAD,
            ) from exc
        raise ConfigurationError.saying("cannot open the database: {why}", why=str(exc.orig)) from exc
    except DatabaseError as exc:  # e.g. a text file, or a damaged SQLite file, named as --db
        if "malformed" in str(exc.orig).lower() and (found := damaged(exc, where(engine))) is not None:
            raise found from exc
        raise ConfigurationError.saying(
            "{database} is not a Campaign Ledger database, or it is damaged ({why}): name the right file with --db",
            database=where(engine),
            why=str(exc.orig),
        ) from exc
    if current_revision(engine) != SCHEMA_HEAD:
        raise ConfigurationError.saying(NEWER)


NEWER = N_("the database schema is newer than this program: upgrade Campaign Ledger")


def _refuse_foreign_tables(engine: Engine) -> None:
    """A SQLite file that holds tables and no Campaign Ledger schema is another application's: refused in words,
    never written into (``new`` wrote its seventeen tables beside them without a word)."""
    if engine.dialect.name != "sqlite":
        return
    with engine.connect() as conn:
        names = [
            str(n)
            for (n,) in conn.execute(
                text("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            )
        ]
    # An empty alembic_version alone is what a downgrade of our own schema leaves: not another application's.
    names = [n for n in names if n != "alembic_version"]
    if names:
        listed = ", ".join(names[:5])
        shown = Words("{listed} and {more} more", listed=listed, more=len(names) - 5) if len(names) > 5 else listed
        raise ConfigurationError.saying(
            "{database} is another application's SQLite database (it holds the tables {shown}, and no Campaign "
            "Ledger schema): nothing was written to it. Name a new file with --db",
            database=where(engine),
            shown=shown,
        )


def _known_revisions(config: Config) -> set[str]:
    """The revisions this version's migrations know (a database made by a newer version holds another)."""
    from alembic.script import ScriptDirectory

    return {script.revision for script in ScriptDirectory.from_config(config).walk_revisions()}


HOW_TO_START = Words("start a campaign with `campaign new NAME --ruleset RULESET` (or name another with --db)")


def where(engine: Engine) -> str:
    """The database as a person named it: its file, or its URL without the password."""
    url = engine.url
    if url.get_backend_name() == "sqlite":
        return str(url.database or ":memory:")
    return url.render_as_string(hide_password=True)


def check_exists(engine: Engine) -> None:
    """Refuse a SQLite file that does not exist or is empty, rather than create it (for commands that only
    read)."""
    url = engine.url
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        path = Path(str(url.database))
        if not path.exists():
            raise NotFoundError.saying("no database at {database}: {how}", database=url.database, how=HOW_TO_START)
        if path.is_file() and path.stat().st_size == 0:  # opening it would make it a SQLite file
            raise NotFoundError.saying(
                "{database} holds no campaign yet: {how}", database=url.database, how=HOW_TO_START
            )


def default_actor() -> str:
    import getpass  # a command that appends needs it; a read does not (start-up time)

    return os.environ.get("CAMPAIGN_ACTOR") or getpass.getuser()


def wall_clock() -> str:
    """Informational time for event metadata; never read by rules or projections."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class App:
    """An opened database, and its ledger, wired on first use."""

    def __init__(self, engine: Engine, wire: Callable[[], Ledger]) -> None:
        self.engine = engine
        self._wire = wire
        self._ledger: Ledger | None = None

    @property
    def ledger(self) -> Ledger:
        if self._ledger is None:
            self._ledger = self._wire()
        return self._ledger

    def close(self) -> None:
        """Checkpoint and close the database (see :func:`events.db.close`): the file alone holds every commit."""
        close(self.engine)


def projectors() -> list[
    CampaignsProjector | CampaignStateProjector | EventRefsProjector | MembershipsProjector | NotifyOnAppend
]:
    """The read models kept inline in every append (and refolded by ``rebuild``), and the append notice."""
    from campaign.access.memberships import MembershipsProjector
    from campaign.commands import fold_for
    from campaign.live import NotifyOnAppend
    from projections.campaign_state import CampaignStateProjector
    from projections.campaigns import CampaignsProjector
    from projections.event_refs import EventRefsProjector

    return [
        CampaignsProjector(),
        CampaignStateProjector(fold_for),
        EventRefsProjector(),
        MembershipsProjector(),
        NotifyOnAppend(),
    ]


def bootstrap(
    db: str,
    *,
    actor: str | None = None,
    new_id: Callable[[], str] | None = None,
    create: bool = True,
    on_upgrade: Callable[[str, str], None] | None = None,
) -> App:
    """Open ``db`` (migrating it: ``on_upgrade`` is told first, see :func:`ensure_schema`); its ledger is wired
    when first used. ``new_id`` fixes entity ids for reproducible runs: seeded dice are derived from the
    campaign id as well as the seed. ``create=False`` refuses a database that does not exist yet, or holds no
    schema, instead of creating it."""
    engine = make_engine(db)
    if not create:
        check_exists(engine)
    ensure_schema(engine, create=create, on_upgrade=on_upgrade)
    return App(engine, lambda: wire(engine, actor=actor, new_id=new_id))


def wire(engine: Engine, *, actor: str | None = None, new_id: Callable[[], str] | None = None) -> Ledger:
    """The ledger of an opened database: its store with the inline projectors, directory, vault and states."""
    import secrets
    import uuid

    from campaign.commands import fold_for
    from campaign.executor import Ledger
    from events.sql import SqlEventStore
    from events.vault import SqlSeedVault
    from projections.campaign_directory import SqlCampaignDirectory
    from projections.campaign_state import CampaignStateProjector, SqlCampaignStates
    from projections.campaigns import CampaignsProjector

    vault = SqlSeedVault(engine)
    writers = projectors()
    store = SqlEventStore(engine, projectors=[*writers, vault])
    # The state writer hands the state it wrote last to the next command (loaded once per command, not read again).
    writer = next(w for w in writers if isinstance(w, CampaignStateProjector))
    listed = next(w for w in writers if isinstance(w, CampaignsProjector))
    return Ledger(
        store=store,
        directory=SqlCampaignDirectory(engine, listed),
        vault=vault,
        states=SqlCampaignStates(engine, store, fold_for, writer),
        actor=actor or default_actor(),
        clock=wall_clock,
        new_id=new_id or (lambda: uuid.uuid4().hex),
        new_seed=lambda: secrets.token_bytes(32),
    )
