"""Fixtures shared by every test folder: databases, stores, and a ledger wired like the real one."""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import Engine, delete

import campaign.access.tables  # noqa: F401  (registers the accounts tables on the metadata: dropped and emptied too)
import projections.tables  # noqa: F401  (registers projection tables on the metadata)
from campaign.bootstrap import ensure_schema
from campaign.commands import fold_for
from campaign.executor import Ledger
from campaign.logging import configure_logging
from events.db import make_engine
from events.memory import InMemoryEventStore
from events.schema import metadata
from events.sql import SqlEventStore
from events.store import EventStore, InlineProjector
from events.vault import SeedVault, SqlSeedVault
from projections.campaign_directory import SqlCampaignDirectory
from projections.campaign_state import CampaignStateProjector, FoldingCampaignStates, SqlCampaignStates
from projections.campaigns import CampaignDirectory, CampaignsProjector, FoldingCampaignDirectory
from projections.event_refs import EventRefsProjector

PG_ENV = "CAMPAIGN_TEST_PG_URL"
# The suite reads English whatever the machine's locale (a test of another language asks for it by name).
os.environ["CAMPAIGN_LANG"] = "en"
configure_logging(0)  # as the entry point does: warnings and errors only

# Property tests: the suite (and so CI) draws the same examples on every machine, so a run cannot fail on
# a draw no one has seen before; `HYPOTHESIS_PROFILE=explore` draws new ones (1,000 a test where it sets no
# count of its own, ten times its count where it sets one: `examples`) to hunt for bugs, and each find becomes a
# test of its own.
# no deadline: a per-example time limit is a timing assertion, and fails on a loaded machine, not on a defect
settings.register_profile("suite", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", derandomize=False, database=None, max_examples=1000, deadline=None)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "suite")
settings.load_profile(PROFILE)


def examples(suite: int) -> int:
    """How many examples a property test draws: ``suite``, its own count, in the suite (paid for in every run);
    ten times as many new ones when hunting with the explore profile, which a test's own count would cap."""
    return suite if PROFILE == "suite" else suite * 10


@pytest.fixture(scope="session")
def pg_url() -> str:
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CAMPAIGN_REQUIRE_PG"):
            pytest.fail(f"{PG_ENV} is not set but CAMPAIGN_REQUIRE_PG is: PostgreSQL tests must run")
        pytest.skip(f'no PostgreSQL: run `eval "$(scripts/pg-test-server)"` to set {PG_ENV}')
    return url


@pytest.fixture(scope="session")
def pg_engine(pg_url: str) -> Iterator[Engine]:
    engine = make_engine(pg_url)
    with engine.begin() as conn:
        # Every table, whichever module declares it (a test that imports no module of the accounts' tables would
        # leave them standing, and the migrations would then meet them).
        conn.exec_driver_sql("DROP SCHEMA public CASCADE")
        conn.exec_driver_sql("CREATE SCHEMA public")
    ensure_schema(engine)
    yield engine
    engine.dispose()


def empty_tables(engine: Engine) -> None:
    with engine.begin() as conn:
        for table in reversed(metadata.sorted_tables):
            conn.execute(delete(table))


@dataclass
class Backend:
    """One storage backend under test: its name, and (for SQL) its engine and URL."""

    name: str
    engine: Engine | None = None
    url: str | None = None

    def store(self, projectors: list[InlineProjector] | None = None) -> EventStore:
        if self.engine is None:
            return InMemoryEventStore(projectors or [])
        return SqlEventStore(self.engine, projectors or [])

    def directory(self, store: EventStore) -> CampaignDirectory:
        return FoldingCampaignDirectory(store) if self.engine is None else SqlCampaignDirectory(self.engine)

    def vault(self) -> SeedVault:
        return SeedVault() if self.engine is None else SqlSeedVault(self.engine)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return str(tmp_path / "campaign.db")


@pytest.fixture
def sqlite_engine(sqlite_url: str) -> Iterator[Engine]:
    engine = make_engine(sqlite_url)
    ensure_schema(engine)
    yield engine
    engine.dispose()


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "memory":
        yield Backend("memory")
    elif request.param == "sqlite":
        url = str(tmp_path / "contract.db")
        engine = make_engine(url)
        ensure_schema(engine)
        yield Backend("sqlite", engine, url)
        engine.dispose()
    else:
        engine = request.getfixturevalue("pg_engine")
        empty_tables(engine)
        yield Backend("postgres", engine, request.getfixturevalue("pg_url"))
        empty_tables(engine)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql_backend(request: pytest.FixtureRequest) -> Backend:
    return _sql_backend(request)


def _sql_backend(request: pytest.FixtureRequest) -> Backend:
    if request.param == "sqlite":
        url = request.getfixturevalue("sqlite_url")
        return Backend("sqlite", request.getfixturevalue("sqlite_engine"), url)
    engine = request.getfixturevalue("pg_engine")
    empty_tables(engine)
    return Backend("postgres", engine, request.getfixturevalue("pg_url"))


def make_ledger(backend: Backend, actor: str = "gm") -> Ledger:
    vault = backend.vault()
    writer = CampaignStateProjector(fold_for)
    sql: list[InlineProjector] = [CampaignsProjector(), writer, EventRefsProjector(), vault]
    store = backend.store(sql if backend.engine is not None else [vault])
    counter = iter(range(1, 1_000_000))
    seeds = iter(range(1, 1_000_000))
    return Ledger(
        store=store,
        directory=backend.directory(store),
        vault=vault,
        states=(
            SqlCampaignStates(backend.engine, store, fold_for, writer)
            if backend.engine is not None
            else FoldingCampaignStates(store, fold_for)
        ),
        actor=actor,
        clock=lambda: "2026-11-29T20:00:00+00:00",
        new_id=lambda: uuid.UUID(int=next(counter)).hex,
        new_seed=lambda: hashlib.sha256(f"test seed {next(seeds)}".encode()).digest(),
    )


@pytest.fixture
def ledger(backend: Backend) -> Ledger:
    return make_ledger(backend)
