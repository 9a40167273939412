"""A command refused for its input makes no database (a new user's refused `import` of a file that was no export
left an empty `imp2.db` behind, and so did `new --ruleset nosuch`): what `new` and `import` are given is checked
before the database is opened. An export imported twice is named by its campaign's name, not its id."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("X", "--ruleset", "nosuch"), "unknown ruleset 'nosuch'"),
        (("bad/name", "--ruleset", "grimdark"), "campaign name 'bad/name' is not usable"),
        (("X", "--ruleset", "grimdark", "--seed", "abcd"), "a dice seed must be at least 16 bytes"),
    ],
)
def test_a_refused_new_makes_no_database(tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    db = tmp_path / "n.db"
    result = Cli(str(db))("new", *args, code=2)
    assert said in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"hello\n", "line 1 is not JSON"),
        (b"", "line 1 is not a Campaign Ledger export"),
        (b'{"format": "something else"}\n', "line 1 is not a Campaign Ledger export"),
    ],
)
def test_a_refused_import_of_what_is_no_export_makes_no_database(tmp_path: Path, content: bytes, said: str) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(content)
    result = Cli(str(tmp_path / "imported.db"))("import", str(source), code=2)
    assert said in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]


def test_an_export_imported_twice_is_named_by_its_campaign(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "a.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    cli("export", "-o", str(tmp_path / "war.jsonl"))
    other = Cli(str(tmp_path / "b.db"))
    other("import", str(tmp_path / "war.jsonl"))
    again = other("import", str(tmp_path / "war.jsonl"), code=2)
    assert "campaign 'Otlok Front' is already in this database" in again.output


def test_a_folder_named_as_the_database_is_refused_in_words(tmp_path: Path) -> None:
    for args in (("list",), ("new", "X", "--ruleset", "grimdark")):
        refused = Cli(str(tmp_path))(*args, code=2)
        assert f"{tmp_path} is a folder, not a database file: name a file, e.g. {tmp_path / 'campaign.db'}" in (
            refused.stderr
        )
    assert list(tmp_path.iterdir()) == []


def test_a_database_in_a_folder_that_does_not_exist_is_refused_in_words(tmp_path: Path) -> None:
    refused = Cli(str(tmp_path / "nowhere" / "c.db"))("new", "X", "--ruleset", "grimdark", code=2)
    assert f"folder {tmp_path / 'nowhere'} does not exist" in refused.stderr
