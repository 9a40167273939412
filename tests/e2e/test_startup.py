"""Start-up loads only what the command run uses: `campaign --help` no database library, a command
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

from campaign.cli.main import app, every_command

RUN = """
import sys
from campaign.cli.main import main
sys.argv = ["campaign", *sys.argv[1:]]
main()
"""
PROBE = (
    """
import atexit, sys
atexit.register(lambda: print("\\n".join(sorted(sys.modules)), file=sys.stderr))
"""
    + RUN
)
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
    # the rulesets' list (their plug-ins' declarations: their command groups' help lines), not a ruleset's
    # rules, and the reader's language, chosen before any help is made (no catalog for an English reader)
    assert loads_any(modules, "campaign.") == [
        "campaign.cli",
        "campaign.cli.argv",
        "campaign.cli.main",
        "campaign.i18n",
        "campaign.i18n.choice",
        "campaign.plugins",
        "campaign.rulesets",
        "campaign.rulesets.disorder",
        "campaign.rulesets.fighting_spirit",
        "campaign.rulesets.grimdark",
        "campaign.rulesets.mass_combat",
    ]


HEAVY = (
    *("alembic", "psycopg", "fastapi", "starlette", "uvicorn", "matplotlib", "numpy", "campaign.server"),
    # structlog only when a line is logged at the level asked for; Rich's tracebacks and Pygments come with it
    *("structlog", "rich.traceback", "rich.syntax", "pygments", "rich.progress"),
    "click",  # Typer carries its own copy of Click; a second one is imported for nothing
)
"""What a command that reads or appends to a SQLite campaign has no use for (start-up time)."""


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
    assert loads_any(modules, *HEAVY) == []
    others = {m for name, m in RULESET_CLIS.items() if name != own_cli}
    assert not modules & others
    # the other rulesets' plug-ins (declarations: every command lists the groups), none of their modules
    assert not loads_any(
        modules, "campaign.rulesets.mass_combat.", "campaign.rulesets.disorder.", "campaign.rulesets.grimdark."
    )


def test_a_rule_command_prints_through_click_and_loads_no_rich(db: str) -> None:
    """What a rule command prints (its events in words, the head) is a few plain lines: Rich's console, markup,
    text and style modules are a table's and a progress bar's, not an append's."""
    assert loads_any(loaded("--db", db, "fs", "rest", "1"), "rich") == []
    assert loads_any(loaded("--db", db, "status"), "rich") != []  # the roster table is Rich's


def test_reading_a_campaign_loads_its_fold_and_not_its_command_models(db: str) -> None:
    modules = loaded("--db", db, "status", "--at", "1")  # an earlier state is folded by the ruleset
    assert "campaign.rulesets.fighting_spirit.fold" in modules
    assert not loads_any(
        modules,
        "campaign.rulesets.fighting_spirit.plugin",
        "campaign.rulesets.fighting_spirit.commands",
        "campaign.rulesets.fighting_spirit.battle_commands",
    )
    assert "campaign.rulesets.fighting_spirit.commands" in loaded("--db", db, "fs", "rest", "1")


READ_ONLY_UNUSED = (
    # what only an audit, a verify or an amendment runs (campaign/read/views.py imports them where they are used)
    *("campaign.replay", "campaign.timeline", "events.verify"),
    # the commands' shared models and the rules' decisions: a read builds no command
    *("campaign.rulesets.common", "campaign.rulesets.decision", "campaign.rulesets.battles"),
    # the five-grade rules and the event types only they and other commands append
    *("campaign.rulesets.fighting_spirit.rules", "campaign.rulesets.fighting_spirit.pressure"),
    *("events.families.battle", "events.families.morale", "events.families.career", "events.families.economy"),
    *("events.families.calendar", "events.families.campaign", "events.families.timeline", "events.families.roster"),
    *("events.families.rules", "events.dice.ask", "sqlalchemy.orm"),
)
"""What ``status`` has no use for: a regression here costs every read its start-up."""


STATUS_UNUSED = (
    # the campaign at its head is read from the read models the inline projector keeps: no ruleset (its
    # state, fold or tables), no state decoded, no event type, no executor
    *("campaign.rulesets", "campaign.commands", "campaign.tables", "campaign.executor", "events.registry"),
    *("events.families", "events.dice", "events.sql", "events.vault", "projections.campaign_state"),
    # nor the schema's Table objects: the directory and the read models are read by fixed statements
    *("events.schema", "projections.tables", "projections.campaigns"),
)
"""What ``status`` (at the campaign's head) has no use for either (start-up time)."""

PYDANTIC_MODELS = """
import atexit, sys
def models():
    if "pydantic.main" not in sys.modules:
        return []
    found, todo = [], [sys.modules["pydantic.main"].BaseModel]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.append(f"{sub.__module__}.{sub.__qualname__}")
            todo.append(sub)
    return found
atexit.register(lambda: print("\\n".join(["pydantic"] + sorted(m for m in sys.modules if m.startswith("pydantic"))
                                         + ["models"] + models()), file=sys.stderr))
"""


def pydantic_loaded(program: str, *args: str) -> tuple[set[str], list[str]]:
    """The pydantic modules a program loads, and the model classes defined when it ends."""
    run = subprocess.run(
        [sys.executable, "-c", PYDANTIC_MODELS + program, *args], capture_output=True, text=True, check=True
    )
    lines = run.stderr.split()
    return set(lines[1 : lines.index("models")]), lines[lines.index("models") + 1 :]


def test_status_loads_no_replay_no_verify_no_command_models_and_no_event_type_it_does_not_read(db: str) -> None:
    modules = loaded("--db", db, "status")
    assert "sqlalchemy" in modules  # it did open the database
    assert loads_any(modules, *READ_ONLY_UNUSED) == []
    assert loads_any(modules, *STATUS_UNUSED) == sorted(MARKERS)


MARKERS = (
    *("campaign.rulesets", "campaign.rulesets.kinds"),
    *("campaign.rulesets.disorder", "campaign.rulesets.fighting_spirit", "campaign.rulesets.grimdark"),
    "campaign.rulesets.mass_combat",
)
"""What a read loads of ``campaign.rulesets``: the rulesets' list (each one's plug-in: a declaration, read from
its entry point) and the markers of what an input names (the command line's ``--campaign`` is a campaign's
name), two enums and a small class; no ruleset's rules, no model."""


def test_status_builds_no_model_and_loads_no_more_of_pydantic_than_typer_does(db: str) -> None:
    """Typer (0.29) coerces every option through a pydantic TypeAdapter, so pydantic.main comes with any command
    that takes one; ``status`` adds nothing to it: no model class (the event registry's, a ruleset's state),
    no pydantic module Typer itself did not load."""
    typer_alone = """
import sys, typer
app = typer.Typer()
@app.command()
def status(at: int | None = typer.Option(None, "--at"), as_json: bool = typer.Option(False, "--json")) -> None:
    pass
app()
"""
    baseline, _ = pydantic_loaded(typer_alone, "--at", "3")
    modules, models = pydantic_loaded(RUN, "--db", db, "status")
    assert models == []
    assert modules - baseline == set()
    with_fold, models_folded = pydantic_loaded(RUN, "--db", db, "status", "--at", "1")
    assert models_folded and with_fold - baseline  # the ruleset's state: what the test would see if it came back


def test_a_rule_command_loads_the_event_types_it_appends_and_not_the_others(db: str) -> None:
    modules = loaded("--db", db, "fs", "rest", "1")
    assert {"events.families.calendar", "events.families.timeline"} <= modules  # days passed, the command
    assert loads_any(modules, "campaign.replay", "campaign.timeline", "events.verify", "events.families.career") == []
    assert "events.dice.ask" not in modules  # --dice ask and --dice count only


def test_asked_to_log_a_command_loads_structlog_and_logs_the_append(db: str) -> None:
    run = subprocess.run(
        [sys.executable, "-c", PROBE, "--db", db, "-v", "fs", "rest", "1"], check=False, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert "command.appended" in run.stderr and "structlog" in run.stderr.split()


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
    for name, (module, attribute, _) in every_command().items():
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
            assert _first_paragraph(text).startswith(every_command()[name][2]), (
                f"{name}: {every_command()[name][2]!r} vs {text!r}"
            )


def test_a_ruleset_group_builds_the_command_run_and_lists_them_all() -> None:
    """A rule command builds its own command, not its ruleset's thirty; help and suggestions see them all."""
    from campaign.cli.argv import Pending, lazy_group
    from campaign.cli.fighting_spirit import app as fs

    group = lazy_group(fs)
    assert isinstance(group.commands, Pending) and group.commands.built == {}
    rest = group.get_command(None, "rest")
    assert rest.name == "rest" and list(group.commands.built) == ["rest"]
    assert group.get_command(None, "no-such-command") is None
    assert group.list_commands(None) == list(get_group(fs).commands)  # every one, in the same order (help)
