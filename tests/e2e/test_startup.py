"""Start-up loads only what the command run uses (issue 13): `campaign --help` no database library, a command
no Alembic (the schema is current), no Rich progress bar, no PostgreSQL driver, no other ruleset's CLI; and
the command list main.py shows without importing is the one the modules define."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.main import get_group
from typer.testing import CliRunner

from campaign.cli.main import COMMANDS, app

PROBE = """
import atexit, sys
atexit.register(lambda: print("\\n".join(sorted(sys.modules)), file=sys.stderr))
from campaign.cli.main import main
sys.argv = ["campaign", *sys.argv[1:]]
main()
"""
RULESET_CLIS = {
    "fs": "campaign.cli.fighting_spirit",
    "mc": "campaign.cli.mass_combat",
    "dis": "campaign.cli.disorder",
    "gf": "campaign.cli.grimdark",
}


def loaded(*args: str) -> set[str]:
    run = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True)
    return set(run.stderr.split())


def loads_any(modules: set[str], *prefixes: str) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in prefixes or m.startswith(prefixes))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("startup") / "c.db")
    for args in (
        ["new", "Otlok Front", "--ruleset", "fighting-spirit"],
        ["fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7"],
    ):
        result = CliRunner().invoke(app, ["--db", path, *args])
        assert result.exit_code == 0, result.output
    return path


def test_help_imports_no_database_library_and_no_command_module() -> None:
    modules = loaded("--help")
    assert loads_any(modules, "sqlalchemy", "pydantic", "alembic", "psycopg", "events", "projections") == []
    assert loads_any(modules, "campaign.") == ["campaign.cli", "campaign.cli.argv", "campaign.cli.main"]


@pytest.mark.parametrize(
    ("args", "own_cli"),
    [(["status"], None), (["fs", "rest", "1"], "fs"), (["log"], None)],
    ids=["status", "fs rest", "log"],
)
def test_a_command_loads_neither_alembic_nor_progress_bars_nor_postgresql_nor_other_rulesets(
    db: str, args: list[str], own_cli: str | None
) -> None:
    modules = loaded("--db", db, *args)
    assert "sqlalchemy" in modules  # it did open the database
    assert loads_any(modules, "alembic", "psycopg", "rich.progress") == []
    others = {m for name, m in RULESET_CLIS.items() if name != own_cli}
    assert not modules & others
    assert not loads_any(
        modules, "campaign.rulesets.mass_combat", "campaign.rulesets.disorder", "campaign.rulesets.grimdark"
    )


def test_a_database_behind_the_schema_is_still_migrated(tmp_path: Path) -> None:
    """Alembic is loaded when it is needed: a database one migration behind is brought up to date."""
    from alembic import command
    from campaign.bootstrap import SCHEMA_HEAD, alembic_config, current_revision
    from events.db import make_engine

    db = str(tmp_path / "old.db")
    engine = make_engine(db)
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0003")  # a database made by an older version
    assert current_revision(engine) == "0003" != SCHEMA_HEAD
    modules = loaded("--db", db, "list")
    assert "alembic" in modules
    assert current_revision(engine) == SCHEMA_HEAD


def _first_paragraph(text: str | None) -> str:
    return " ".join((text or "").split("\n\n")[0].split())


def test_the_command_list_is_the_one_the_modules_define() -> None:
    by_registrar: dict[tuple[str, str], set[str]] = {}
    for name, (module, attribute, _) in COMMANDS.items():
        by_registrar.setdefault((module, attribute), set()).add(name)
    for (module_name, attribute), names in by_registrar.items():
        found = getattr(importlib.import_module(module_name), attribute)
        if isinstance(found, typer.Typer):
            helps = {names.pop(): get_group(found).help}
            assert not names, f"{module_name}.{attribute} is one group"
        else:
            holder = typer.Typer()
            found(holder)
            commands = get_group(holder).commands
            assert set(commands) == names, f"{module_name}.{attribute} registers {sorted(commands)}, listed {names}"
            helps = {n: c.help for n, c in commands.items()}
        for name, text in helps.items():
            assert _first_paragraph(text).startswith(COMMANDS[name][2]), f"{name}: {COMMANDS[name][2]!r} vs {text!r}"
