"""The database file a person copies, backs up and trusts (DESIGN.md, "Storage and scale"): after any command the
``.db`` file alone holds everything acknowledged; ``backup`` makes a consistent copy while another writes and
checks it; a damaged file is named so by ``verify`` and refused in words by every other command, nothing
appended; ``new`` never writes into another application's SQLite file; a path the system refuses is said in
words; Ctrl-C ends any command with one line and exit status 130, an import in progress rolled back whole."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy import Engine

from campaign.bootstrap import bootstrap
from campaign.rulesets.common import RollDice
from tests.conftest import empty_tables
from tests.e2e.test_cli import Cli

CAMPAIGN = str(Path(sys.executable).with_name("campaign"))


def rows(db: Path) -> list[tuple[object, ...]]:
    # closed here, not when collected: a reader the test left open would keep the next command from being the
    # file's last connection, and SQLite leaves the `-wal` behind for the last one to remove
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT campaign_id, seq, hash FROM events ORDER BY position").fetchall()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def copy_alone(db: Path, to: Path) -> Path:
    """The ``.db`` file copied without its ``-wal`` and ``-shm`` (what a person's `cp` takes)."""
    if to.exists():
        to.unlink()
    shutil.copyfile(db, to)
    return to


@pytest.fixture
def played(tmp_path: Path) -> Cli:
    cli = Cli(str(tmp_path / "evening.db"))
    cli("new", "Otlok", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    cli("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    cli("fs", "battle-start", "Hill", "--side", "Keno=low", "--side", "Steel=medium", "--unit", "Keno 3rd Squad")
    return cli


def test_the_db_file_alone_holds_every_event_after_each_kind_of_command(played: Cli, tmp_path: Path) -> None:
    """Each command closes its database with the WAL checkpointed into the file: before, the CLI left recent
    commits in ``-wal``, and `cp small.db copy.db` gave "holds no campaign yet"."""
    db, copy = Path(played.db), tmp_path / "copy.db"
    export = tmp_path / "otlok.jsonl"

    def first_attack() -> str:
        log = played.json("log", "-c", "Otlok")["events"]
        return str(next(e["seq"] for e in log if e["payload"].get("command") == "fs.attack"))

    kinds: list[Callable[[], tuple[str, ...]]] = [
        lambda: ("entropy", "commit", "the group's own", "-c", "Otlok"),
        lambda: ("roll", "d6", "--purpose", "weather"),
        lambda: ("fs", "attack", "Keno 3rd Squad", "--killed", "1", "--dice", "3"),
        lambda: ("fs", "attack", "Keno 3rd Squad", "--wounded", "1", "--dice", "7"),
        lambda: ("amend", first_attack(), "--set", "killed=2", "--yes"),
        lambda: ("undo",),
        lambda: ("rewind", "--to", str(int(first_attack()) - 1), "--reason", "a mistake"),
        lambda: ("reroll", "--reason", "the die fell off the table"),
        lambda: ("reveal",),
        lambda: ("fs", "house-rule", "threats.casualties.low", "3"),
        lambda: ("branch", "What if", "--at", "8"),
        lambda: ("export", "-c", "Otlok", "--with-secrets", "-o", str(export)),
        lambda: ("rebuild",),
    ]
    for kind in kinds:
        command = kind()
        played(*command, *(("-c", "Otlok") if command[0] not in ("export", "rebuild", "entropy") else ()))
        assert not Path(f"{db}-wal").exists(), command
        assert rows(copy_alone(db, copy)) == rows(db), f"the copy lacks events after {command}"
    imported = Cli(str(tmp_path / "imported.db"))
    imported("import", str(export))
    assert rows(copy_alone(Path(imported.db), copy)) == rows(Path(imported.db)) != []


def test_backup_copies_while_another_writes_and_checks_the_copy(played: Cli, tmp_path: Path) -> None:
    db, target = Path(played.db), tmp_path / "evening.backup.db"
    writer = bootstrap(str(db), create=False, actor="other")
    done = threading.Event()
    appended: list[int] = []

    def write() -> None:
        ledger = writer.ledger
        while not done.is_set() and len(appended) < 200:
            info = ledger.resolve("Otlok")
            appended.append(ledger.execute(info, RollDice.build(notation="d6", purpose="meanwhile")).head.seq)

    thread = threading.Thread(target=write)
    thread.start()
    try:
        while len(appended) < 3:
            time.sleep(0.01)
        said = played.json("backup", str(target))
    finally:
        done.set()
        thread.join()
        writer.close()
    assert said["checked"] is True and said["kind"] == "database"
    [otlok] = [c for c in said["campaigns"] if c["name"] == "Otlok"]
    assert otlok["events"] >= 10, "every command acknowledged before the backup began is in it"
    assert Cli(str(target)).json("verify")[0]["ok"] is True
    assert [r for r in rows(db) if r[1] <= otlok["events"]] == rows(target), "one consistent state of the log"
    refused = played("backup", str(target), code=2)
    assert "already exists" in refused.stderr and digest(target) == digest(target)
    assert not list(tmp_path.glob(".*.partial*")), "nothing half-written is left beside it"


def damage(db: Path, offset: int, data: bytes) -> Path:
    with db.open("r+b") as handle:
        handle.seek(offset)
        handle.write(data)
    return db


@pytest.fixture
def damaged(played: Cli) -> Path:
    for i in range(30):
        played("roll", "d6", "--purpose", f"filler {i}")
    return Path(played.db)


COMMANDS = (
    ("roll", "d6", "--purpose", "more"),
    ("log", "--last", "3"),
    ("fs", "funds", "Keno", "1", "--reason", "pay"),
    ("status",),
)


@pytest.mark.parametrize("where", ["4 KiB of random bytes in the middle", "a zeroed page near the end"])
def test_verify_names_a_damaged_file(played: Cli, damaged: Path, where: str) -> None:
    """With 4 KiB of random bytes or a zeroed page inside the file, `verify` said "ok … chain intact", and other
    commands ended in a sqlite3.DatabaseError traceback. Now `verify` names the damage (exit 3); a command that
    reads a damaged page is refused in words, nothing appended (one that reads none of them cannot know)."""
    pages = damaged.stat().st_size // 4096
    page = pages // 2 if where.startswith("4 KiB") else pages - 3
    damage(damaged, page * 4096, os.urandom(4096) if where.startswith("4 KiB") else b"\0" * 4096)
    verdict = played("verify", code=3).stderr
    assert "is damaged" in verdict and "SQLite" in verdict and "restore the campaign from a backup" in verdict
    for command in COMMANDS:
        before = digest(damaged)
        said = played(*command, code=None)
        assert "Traceback" not in said.output and said.exit_code in (0, 2), (command, said.output)
        if said.exit_code == 2:
            assert "is damaged" in said.stderr and "Nothing was recorded" in said.stderr, command
            assert digest(damaged) == before, f"{command} appended to the damaged file"


def test_every_command_refuses_a_file_whose_tables_sqlite_calls_malformed(played: Cli, damaged: Path) -> None:
    """The table of tables itself damaged (page 1, past the file header): whatever a command means to do, it is
    refused in words, exit 2, and the file is left as it is."""
    damage(damaged, 100 + 8, os.urandom(512))
    before = digest(damaged)
    for command in COMMANDS:
        refused = played(*command, code=2).stderr
        assert "is damaged" in refused and "malformed" in refused, (command, refused)
    assert "is damaged" in played("verify", code=3).stderr
    assert digest(damaged) == before


def test_new_never_writes_into_another_applications_sqlite_file(tmp_path: Path) -> None:
    other = tmp_path / "notes.db"
    with closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.commit()
    before = digest(other)
    refused = Cli(str(other))("new", "X", "--ruleset", "grimdark", code=2).stderr
    assert "another application's SQLite database" in refused and "notes" in refused
    assert digest(other) == before


def test_every_path_the_system_refuses_is_said_in_words(played: Cli, tmp_path: Path) -> None:
    long = "x" * 300
    for cli, command in (
        (Cli(str(tmp_path / f"{long}.db")), ("list",)),
        (Cli(str(tmp_path / f"{long}.db")), ("new", "X", "--ruleset", "grimdark")),
        (Cli(str(tmp_path / f"{long}.db")), ("demo",)),
        (played, ("export", "-o", str(tmp_path / long))),
        (played, ("backup", str(tmp_path / long))),
        (played, ("chart", "morale", "--output", str(tmp_path / f"{long}.svg"))),
        (played, ("checkpoint", "-o", str(tmp_path / "c.json"), "--sign", str(tmp_path / long))),
    ):
        said = cli(*command, code=2)
        assert said.exception is None or isinstance(said.exception, SystemExit), (command, said.exception)
        assert "error:" in said.stderr and "Traceback" not in said.output, command


def _interrupted(process: subprocess.Popen[bytes]) -> tuple[int, list[str]]:
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    return process.returncode, err.decode().splitlines()


def test_ctrl_c_while_importing_leaves_nothing_half_written(played: Cli, tmp_path: Path) -> None:
    export = tmp_path / "otlok.jsonl"
    played("export", "-o", str(export))
    lines = export.read_bytes().splitlines(keepends=True)
    into = tmp_path / "restored.db"
    process = subprocess.Popen(
        [CAMPAIGN, "--db", str(into), "import", "/dev/stdin"],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    assert process.stdin is not None
    process.stdin.write(b"".join(lines[:-1]))  # every event but the last: the import waits for it
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while not _migrated(into) and time.monotonic() < deadline:  # its database is made: the import is under way
        time.sleep(0.05)
    time.sleep(0.3)
    code, said = _interrupted(process)
    assert code == 130 and len(said) == 1 and "interrupted" in said[0], said
    assert Cli(str(into))("list", "--json").stdout.strip() == "[]", "the import was rolled back whole"


def _migrated(db: Path) -> bool:
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
            return bool(conn.execute("SELECT count(*) FROM alembic_version").fetchone()[0])
    except sqlite3.Error:
        return False


def test_ctrl_c_during_start_up_is_one_line_and_exit_130(played: Cli) -> None:
    process = subprocess.Popen(
        [CAMPAIGN, "--db", played.db, "verify"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL
    )
    time.sleep(0.4 if os.environ.get("CI") else 0.3)  # its interpreter is up; its own imports are under way
    code, said = _interrupted(process)
    if code == 0:
        pytest.skip("the machine ran the whole command before the signal came")
    assert code == 130 and said and "interrupted" in said[-1] and len(said) == 1, said


def test_a_postgresql_backup_is_an_export_that_import_restores(pg_engine: Engine, pg_url: str, tmp_path: Path) -> None:
    empty_tables(pg_engine)
    server = Cli(pg_url)
    server("new", "Shared", "--ruleset", "grimdark")
    server("gf", "muster", "Robots", "--side", "Robots", "--models", "5", "--quality", "4", "--points", "50")
    server("roll", "d6", "--purpose", "weather")
    target = tmp_path / "shared.backup.jsonl"
    said = server.json("backup", str(target))
    assert said["kind"] == "export" and said["checked"] is True
    assert said["campaigns"][0]["events"] == server.json("list")[0]["events"]
    restored = Cli(str(tmp_path / "restored.db"))
    restored("import", str(target))
    [report] = restored.json("verify")
    assert report["ok"] is True and report["head_hash"] == said["campaigns"][0]["head_hash"]
    assert restored.json("status")["units"][0]["name"] == "Robots"


def test_every_connection_syncs_each_commit_to_disk(played: Cli) -> None:
    """An acknowledged command survives a power loss: SQLite's WAL is synced at every commit (FULL, 2), not only
    at checkpoints (NORMAL, 1, which SQLite's documentation says may roll a commit back after a power loss)."""
    from events.db import make_engine

    engine = make_engine(played.db)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2
    finally:
        engine.dispose()
