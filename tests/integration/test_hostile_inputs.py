"""Generated hostile input: over the command line and the import format, never a traceback, never a
partial append, and the same acceptance on SQLite and PostgreSQL.

Each example is one command line built from a template of a real command with hostile values in its slots
(control characters, invalid UTF-8, markup, over-long names, numbers past 64 bits, broken JSON …), or one
export file damaged at random. With ``CAMPAIGN_TEST_PG_URL`` set, every example runs on both databases (the
same campaign, imported into each) and must be accepted or refused alike.

Examples per test: ``HOSTILE_EXAMPLES`` (60 per test, 120 in all, in CI; ``CAMPAIGN_HOSTILE_EXAMPLES=2000``
for a long run).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from campaign.bootstrap import bootstrap
from campaign.cli.main import app
from campaign.cli.session import state
from tests.conftest import PG_ENV, empty_tables
from tests.e2e.test_cli import SEED, Cli

HOSTILE_EXAMPLES = int(os.environ.get("CAMPAIGN_HOSTILE_EXAMPLES", "60"))
OK_CODES = {0, 2, 4}  # done; refused; a conflict (never here: one writer)

HOSTILE_TEXT = [
    "",
    " ",
    "[/]",
    "[bold]x[/bold]",
    "x\x00y",
    "bad\udcffutf8",
    "\u202eevil",
    "a\nb",
    "x" * 101,
    "x" * 1001,
    "٣",
    "²",
    "9" * 30,
    "-1",
    "1e9",
    "{",
    "[1,",
    "null",
    "Riders",
    "Megalos",
    "Al-Wazif",
    "amount=",
    "amount=5",
    "reason=x",
    "men=[1]",
    "d6+" + "9" * 40,
    "4,2",
    "7",
    "/dev/null/x",
]
HOSTILE_INTS = [0, 1, 3, -1, 10**9, 10**9 + 1, -(10**9) - 1, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30]

texts = st.one_of(st.sampled_from(HOSTILE_TEXT), st.text(max_size=12))
names = st.one_of(st.sampled_from(["Riders", "Foot", "Megalos", "Al-Wazif", "War"]), texts)
numbers = st.one_of(st.sampled_from(HOSTILE_INTS), st.integers(-5, 400)).map(str)
number_slots = st.one_of(numbers, texts)

TEMPLATES: list[tuple[str | st.SearchStrategy[str], ...]] = [
    ("new", names, "--ruleset", st.sampled_from(["mass-combat", "disorder", "nope", "[/]"])),
    ("roll", texts, "-p", texts),
    ("roll", st.sampled_from(["d6", "2d6", "d20"]), "-p", "x", "--dice", texts),
    ("roll", "d6", "-p", "x", "--command-id", texts),
    ("log", "--upto", number_slots),
    ("log", "--after", number_slots, "--limit", number_slots),
    ("log", "--unit", texts, "--type", texts),
    ("status", "--at", number_slots),
    ("status", "-c", names),
    ("unit", names),
    ("battles", "--at", number_slots),
    ("treasury", "--at", number_slots),
    ("mc", "muster", names, "--side", names, "--men", number_slots),
    ("mc", "funds", names, number_slots, "--reason", texts),
    ("mc", "rest", number_slots),
    ("mc", "transfer", names, names, "--men", number_slots),
    ("mc", "house-rule", texts, texts),
    ("mc", "disband", names, "--reason", texts),
    (
        "mc",
        "roster",
    ),
    ("mc", "ts", names),
    ("rewind", "--to", number_slots, "--reason", texts),
    ("amend", number_slots, "--set", texts),
    ("audit", number_slots),
    ("audit", "--roll", number_slots),
    ("branch", names, "--at", number_slots),
    ("verify", "--no-rules", "--expect-head", texts),
    ("dis", "retreat", names, "--needed", texts),
    ("entropy", "commit", texts),
    ("entropy", "show", "--epoch", number_slots),
    ("list",),
]


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    template = draw(st.sampled_from(TEMPLATES))
    return [draw(part) if isinstance(part, st.SearchStrategy) else part for part in template]


COUNTS = (
    "SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM campaign_secrets), (SELECT count(*) FROM dice_shares)"
)


def counts(db: str) -> tuple[int, int, int]:
    """Events, stored seeds and shares of entropy in the database: what a refused command must leave as it was."""
    if "://" not in db:
        with sqlite3.connect(db) as conn:
            row = conn.execute(COUNTS).fetchone()
        return int(row[0]), int(row[1]), int(row[2])
    from events.db import make_engine

    engine = make_engine(db)
    try:
        with engine.connect() as conn:
            found = conn.execute(text(COUNTS)).one()
        return int(found[0]), int(found[1]), int(found[2])
    finally:
        engine.dispose()


def run(db: str, args: list[str]) -> tuple[int, str]:
    """Exit code and output of one command; a traceback (any exception but an exit) fails the test at once."""
    result = Cli(db).runner.invoke(app, ["--db", db, "--actor", "tester", *args])
    if state.app is not None:  # the command's engine, closed as the process's end would
        state.app.close()
        state.app = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args!r} raised {result.exception!r}\n{result.output}") from result.exception
    assert result.exit_code in OK_CODES, (args, result.exit_code, result.output)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def export_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    cli = Cli(str(root / "seed.db"))
    cli("new", "War", "--ruleset", "mass-combat", "--seed", SEED)
    cli("mc", "muster", "Riders", "--side", "Megalos", "--men", "30")
    cli("mc", "muster", "Foot", "--side", "Al-Wazif", "--men", "50")
    cli("mc", "funds", "Megalos", "1000", "--reason", "a purse")
    cli("roll", "d6", "-p", "weather")
    cli("reveal")  # epoch 1 takes shares of entropy: the hostile `entropy commit` may be accepted
    assert cli.runner.invoke(app, ["--db", cli.db, "--actor", "gina", "entropy", "commit", "gina's"]).exit_code == 0
    path = root / "war.jsonl"
    cli("export", "--with-secrets", "-o", str(path))
    bootstrap(str(root / "empty.db"), create=True).close()  # a migrated empty database, copied for each import
    with sqlite3.connect(root / "empty.db") as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture
def databases(export_file: Path, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[list[str]]:
    """The same campaign in a SQLite file and, when a server is given, in PostgreSQL."""
    dbs = [str(tmp_path / "hostile.db")]
    if os.environ.get(PG_ENV):
        engine = request.getfixturevalue("pg_engine")
        empty_tables(engine)
        dbs.append(os.environ[PG_ENV])
    for db in dbs:
        run(db, ["import", str(export_file)])
    yield dbs
    if len(dbs) > 1:
        empty_tables(request.getfixturevalue("pg_engine"))


@settings(
    max_examples=HOSTILE_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)
@given(args=command_lines())
def test_hostile_command_lines_are_refused_cleanly_alike_on_every_database(
    databases: list[str], args: list[str]
) -> None:
    outcomes = []
    for db in databases:
        before = counts(db)
        code, _ = run(db, args)
        if code != 0:
            assert counts(db) == before, f"{args!r} failed with exit {code} but appended to {db}"
        outcomes.append(code)
    assert len(set(outcomes)) == 1, f"{args!r}: exit codes {outcomes} differ between {databases}"


def test_the_campaign_still_verifies_after_the_hostile_commands(databases: list[str]) -> None:
    for db in databases:
        assert run(db, ["verify"])[0] == 0


def _damage(lines: list[bytes], data: st.DataObject) -> list[bytes]:
    kind = data.draw(st.sampled_from(["value", "drop", "junk", "truncate", "swap", "type"]))
    index = data.draw(st.integers(0, len(lines) - 1))
    lines = list(lines)
    if kind == "drop":
        del lines[index]
    elif kind == "junk":
        lines.insert(index, data.draw(st.binary(max_size=40)))
    elif kind == "truncate":
        lines[index] = lines[index][: data.draw(st.integers(0, max(0, len(lines[index]) - 1)))]
    elif kind == "swap" and index + 1 < len(lines):
        lines[index], lines[index + 1] = lines[index + 1], lines[index]
    else:
        item: Any = orjson.loads(lines[index])
        target = item.get("payload", item) if kind == "value" else item
        if isinstance(target, dict) and target:
            key = data.draw(st.sampled_from(sorted(target)))
            target[key] = data.draw(
                st.one_of(
                    st.sampled_from([None, [], {}, "", "[/]", "x\x00", 2**63, -(2**64), True, 7, "d7", [7]]),
                    st.text(max_size=8),
                    st.integers(),
                )
            )
        lines[index] = json.dumps(item).encode()  # the standard library writes integers of any size
    return lines


@settings(
    max_examples=HOSTILE_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
@given(data=st.data())
def test_damaged_import_files_are_refused_whole_or_imported_alike(
    export_file: Path, tmp_path: Path, data: st.DataObject
) -> None:
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"\n".join(_damage(export_file.read_bytes().splitlines(), data)) + b"\n")
    db = tmp_path / "target.db"
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    shutil.copy(export_file.parent / "empty.db", db)
    code, _ = run(str(db), ["import", str(damaged)])
    if code != 0:
        assert counts(str(db)) == (0, 0, 0), "a refused import left something behind"
    else:
        assert run(str(db), ["verify"])[0] == 0
