"""Alembic owns the schema: upgrade head on an empty database matches the models; downgrade removes it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, inspect

import projections.tables  # noqa: F401
from alembic import command
from campaign.bootstrap import SCHEMA_HEAD, alembic_config, current_revision, ensure_schema
from events.db import make_engine
from events.errors import ConfigurationError
from events.schema import metadata


def test_the_programs_schema_head_is_alembics_head() -> None:
    assert ScriptDirectory.from_config(alembic_config()).get_current_head() == SCHEMA_HEAD


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_engine(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[Engine]:
    if request.param == "sqlite":
        engine = make_engine(str(request.getfixturevalue("tmp_path") / "m.db"))
        yield engine
        engine.dispose()
        return
    admin = make_engine(request.getfixturevalue("pg_url"), isolation_level="AUTOCOMMIT")
    name = f"campaign_mig_{uuid.uuid4().hex[:10]}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = admin.url.set(database=name)
    engine = make_engine(url.render_as_string(hide_password=False))
    yield engine
    engine.dispose()
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')
    admin.dispose()


def run(engine: Engine, direction: str, target: str) -> None:
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        getattr(command, direction)(config, target)


def test_upgrade_head_matches_the_models_and_downgrade_removes_everything(empty_engine: Engine) -> None:
    run(empty_engine, "upgrade", "head")
    with empty_engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)
    assert diff == [], f"models and migrations differ: {diff}"
    assert set(inspect(empty_engine).get_table_names()) >= {t.name for t in metadata.sorted_tables}
    run(empty_engine, "downgrade", "base")
    assert set(inspect(empty_engine).get_table_names()) <= {"alembic_version"}
    ensure_schema(empty_engine)  # what the program does at start-up
    assert {t.name for t in metadata.sorted_tables} <= set(inspect(empty_engine).get_table_names())


def test_a_database_behind_the_schema_that_cannot_be_written_is_refused_in_words_and_left_as_it_was(
    tmp_path: Path,
) -> None:
    """Every command brings a database made by an older version up to date first (a read command too: it
    creates nothing else). One that cannot be written (a read-only file, a copy on read-only media) is refused
    with what to do, not a driver's message, and is left as it was."""
    path = tmp_path / "old.db"
    older = make_engine(str(path))
    run(older, "upgrade", "0008")  # what the version before wrote
    older.dispose()
    read_only = create_engine(f"sqlite:///file:{path}?mode=ro&uri=true")
    said = rf"cannot be written.*revision 0008, this version needs {SCHEMA_HEAD}"
    with pytest.raises(ConfigurationError, match=said) as e:
        ensure_schema(read_only, create=False)
    assert "nothing is lost" in str(e.value) and "run any command once where the file can be written" in str(e.value)
    read_only.dispose()
    assert current_revision(make_engine(str(path))) == "0008"


def test_the_directory_reads_the_campaigns_table_s_columns_in_its_order() -> None:
    """The directory names them without building the table (a read's start-up time)."""
    from projections.campaign_directory import COLUMNS
    from projections.tables import campaigns

    assert tuple(c.name for c in campaigns.columns) == COLUMNS


def test_a_database_made_by_a_newer_version_is_refused_in_words_and_left_as_it_was(tmp_path: Path) -> None:
    """A newer version's revision (one this version's migrations do not know): Alembic's traceback before."""
    engine = make_engine(str(tmp_path / "newer.db"))
    ensure_schema(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0099'")
    with pytest.raises(ConfigurationError, match="newer than this program: upgrade Campaign Ledger"):
        ensure_schema(engine, create=False)
    assert current_revision(engine) == "0099"
