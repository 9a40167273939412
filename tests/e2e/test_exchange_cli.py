"""Export and import: lossless, byte-identical round trips; a bad file refused whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


@pytest.fixture
def source(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "source.db"))
    c("demo")
    return c


@pytest.mark.parametrize("secrets", [False, True])
def test_export_import_export_gives_the_same_bytes_and_the_import_verifies(
    source: Cli, tmp_path: Path, secrets: bool
) -> None:
    first = tmp_path / "first.jsonl"
    flags = ["--with-secrets"] if secrets else []
    source("export", "-c", "Demo mass-combat", "-o", str(first), *flags)
    target = Cli(str(tmp_path / "target.db"))
    imported = target.json("import", str(first))
    assert imported["events"] == len(first.read_bytes().splitlines()) - 1 - (
        sum(1 for line in first.read_bytes().splitlines() if b'"secret"' in line)
    )
    second = tmp_path / "second.jsonl"
    target("export", "-c", "Demo mass-combat", "-o", str(second), *flags)
    assert first.read_bytes() == second.read_bytes()
    report = target.json("verify", "-c", "Demo mass-combat")[0]
    assert report["ok"] and report["rolls_rederived"] > 0  # every rule re-evaluated, every revealed die re-derived
    assert target.json("status", "-c", "Demo mass-combat") == source.json("status", "-c", "Demo mass-combat")
    secret_lines = [line for line in first.read_bytes().splitlines() if line.startswith(b'{"secret"')]
    assert bool(secret_lines) == secrets  # the secret seeds go out only when asked for


def first_dice(lines: list[bytes]) -> bytes:
    return next(x for x in lines if b'"faces":[' in x)


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (
            lambda ls: [x.replace(b'"faces":[', b'"faces":[1,', 1) if x is first_dice(ls) else x for x in ls],
            "hash chain is broken",
        ),
        (lambda ls: ls[:5] + ls[6:], "expected seq"),
        (lambda ls: [*ls[:5], ls[6], ls[5], *ls[7:]], "expected seq"),
        (lambda ls: ls[:-3], "fewer events"),
        (lambda ls: [b'{"format":"something-else"}', *ls[1:]], "not a Campaign Ledger export"),
        (lambda ls: [*ls[:3], b"{not json", *ls[3:]], "not JSON"),
        (lambda ls: [*ls, b'{"secret":{"epoch":0,"seed":"00"}}'], "does not match the campaign's commitment"),
    ],
)
def test_a_damaged_file_is_refused_whole(source: Cli, tmp_path: Path, damage: object, message: str) -> None:
    good = tmp_path / "good.jsonl"
    source("export", "-c", "Demo fighting-spirit", "-o", str(good))
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(damage(lines_of(good))) + b"\n")  # type: ignore[operator]
    target = Cli(str(tmp_path / "target.db"))
    target("list", code=2)  # no database there yet, and listing creates none
    result = target("import", str(bad), code=2)
    assert message in result.stderr
    # nothing imported; a file refused at its header made no database at all (test_refusals_make_no_database)
    assert target.json("list") == [] if (tmp_path / "target.db").exists() else message.startswith("not a Campaign")


def test_importing_twice_is_refused(source: Cli, tmp_path: Path) -> None:
    path = tmp_path / "once.jsonl"
    source("export", "-c", "Demo grimdark", "-o", str(path))
    assert "already in this database" in source("import", str(path), code=2).stderr


def test_an_import_without_secrets_runs_commands_that_roll_nothing_and_refuses_those_that_roll(
    source: Cli, tmp_path: Path
) -> None:
    """Without its secret seed, a campaign can be played on by commands that roll no dice (funds, a muster) and
    refuses, in words and appending nothing, a command that would derive a die."""
    path = tmp_path / "public.jsonl"
    source("export", "-c", "Demo fighting-spirit", "-o", str(path))
    target = Cli(str(tmp_path / "target.db"))
    target("import", str(path))
    before = target.events()
    target("fs", "funds", "Keno", "25", "--reason", "loot", "-c", "Demo fighting-spirit")
    assert target.events() > before
    head = target.events()
    refused = target("roll", "d6", "-p", "a die", "-c", "Demo fighting-spirit", code=2)
    assert "secret seed of dice epoch" in refused.stderr and "Traceback" not in refused.output
    campaign_id = target.json("list")[0]["campaign_id"]
    assert campaign_id not in refused.output  # words, not the internal id
    assert target.events() == head
