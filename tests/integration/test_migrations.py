"""Alembic owns the schema: upgrade head on an empty database matches the models; downgrade removes it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect

import projections.tables  # noqa: F401
from campaign.bootstrap import SCHEMA_HEAD, alembic_config, ensure_schema
from events.db import make_engine
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
