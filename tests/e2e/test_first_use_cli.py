"""A newcomer's first commands: a command that only reads never creates a database, and a wrong --db gets a
clear message and a non-zero exit, never a traceback."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from campaign.cli.main import app

READ_ONLY = [
    ["status"],
    ["list"],
    ["log"],
    ["verify"],
    ["verify", "--all"],
    ["battles"],
    ["treasury"],
    ["audit", "--roll", "1"],
    ["export"],
    ["fs", "tables"],
    ["mc", "tables"],
]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        f"{args}: {result.exception!r}"
    )
    return result.exit_code, result.output


@pytest.mark.parametrize("command", READ_ONLY, ids=" ".join)
def test_a_read_only_command_on_a_missing_file_creates_nothing_and_says_how_to_start(
    tmp_path: Path, command: list[str]
) -> None:
    db = tmp_path / "campaign.db"
    code, output = run("--db", str(db), *command)
    assert code == 2, output
    assert f"no database at {db}" in output and "campaign new" in output
    assert list(tmp_path.iterdir()) == []


def test_a_read_only_command_on_an_empty_file_leaves_it_empty(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    db.touch()
    code, output = run("--db", str(db), "status")
    assert code == 2 and "holds no campaign yet" in output and "campaign new" in output
    assert db.stat().st_size == 0


def test_new_still_creates_the_database_and_status_then_reads_it(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    assert run("--db", db, "new", "Peninsula", "--ruleset", "disorder")[0] == 0
    code, output = run("--db", db, "status")
    assert code == 0 and "Peninsula" in output


@pytest.mark.parametrize("command", [["status"], ["list"], ["new", "X", "--ruleset", "disorder"]], ids=" ".join)
@pytest.mark.parametrize(
    "content",
    [b"shopping list: eggs, flour\n", b"SQLite format 3\x00" + bytes(range(256)) * 8],
    ids=["text", "damaged"],
)
def test_a_file_that_is_not_a_campaign_database_gets_a_clear_message(
    tmp_path: Path, command: list[str], content: bytes
) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    code, output = run("--db", str(path), *command)
    assert code == 2, output
    assert f"{path} is not a Campaign Ledger database" in output and "Traceback" not in output
    assert path.read_bytes() == content  # untouched


def test_a_foreign_sqlite_database_is_not_changed_by_a_read_only_command(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    code, output = run("--db", str(path), "list")
    assert code == 2 and "holds no campaign yet" in output
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    assert tables == ["recipes"]


@pytest.mark.parametrize("url", ["mysql://gm@localhost/campaign", "mongodb://localhost/x"])
def test_an_unsupported_database_url_is_refused_clearly(url: str) -> None:
    code, output = run("--db", url, "status")
    assert code == 2 and "unsupported database" in output and "SQLite" in output


def test_the_demos_chart_hint_works_as_printed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo ends with a chart command to try: typed as printed, in the same folder, it must work (it named no
    database, so it looked in campaign.db and found no demo campaign)."""
    import re
    import shlex

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CAMPAIGN_DB", raising=False)
    code, said = run("--db", "my demo.db", "demo")
    assert code == 0, said
    hint = re.search(r"`(campaign [^`]+)`", said.replace("\n", " "))
    assert hint is not None, said
    code, drawn = run(*shlex.split(hint.group(1))[1:])
    assert code == 0, drawn
    assert (tmp_path / "strength.png").stat().st_size > 0
