"""Tab completion offers the campaign's own names where a command takes one: each input's type says what it
names (``campaign/rulesets/inputs.py``: a unit, a side, a campaign), so the completion comes with the type, not
with a list of options. Run as bash runs it (``_CAMPAIGN_COMPLETE=complete_bash`` and the words typed so far)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from tests.e2e.test_cli import SEED, Cli


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("complete") / "c.db")
    cli = Cli(path)
    cli("new", "Sector 7", "--ruleset", "grimdark", "--seed", SEED)
    for name, side in (("Saurian Warriors", "Saurians"), ("Saurian Hero", "Saurians"), ("Robot Squad", "Robots")):
        cli("gf", "muster", name, "--side", side, "--size", "5", "--quality", "4", "--points", "100")
    return path


def completed(db: str, *words: str) -> list[str]:
    """What bash is offered for the last of ``words`` (the word being typed), after ``campaign --db DB``."""
    line = shlex.join(["campaign", "--db", db, *words])
    env = {"_CAMPAIGN_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(len(words) + 2)}
    result = CliRunner().invoke(app, [], env=env, prog_name="campaign")
    assert result.exit_code == 0, result.output
    return [line for line in result.output.splitlines() if line]


def test_a_unit_argument_is_completed_with_the_campaigns_units(db: str) -> None:
    assert completed(db, "gf", "shoot", "Saur") == ["Saurian Hero", "Saurian Warriors"]
    assert completed(db, "gf", "melee", "Robot Squad", "S") == ["Saurian Hero", "Saurian Warriors"]  # its B too
    assert completed(db, "gf", "shoot", "Robot Squad", "--by", "") == [
        "Robot Squad",
        "Saurian Hero",
        "Saurian Warriors",
    ]


def test_a_side_option_is_completed_with_the_campaigns_sides(db: str) -> None:
    assert completed(db, "gf", "battle-end", "--winner", "R") == ["Robots"]
    assert completed(db, "gf", "muster", "Raptors", "--side", "") == ["Robots", "Saurians"]


def test_a_new_name_is_not_completed_and_neither_is_a_missing_database(db: str, tmp_path: Path) -> None:
    assert completed(db, "gf", "muster", "Sau") == []  # a new unit's name is the person's to invent
    assert completed(str(tmp_path / "none.db"), "gf", "shoot", "S") == []
    assert not (tmp_path / "none.db").exists()  # completing never makes a database


def test_the_campaign_option_is_completed_with_the_databases_campaigns(db: str) -> None:
    assert completed(db, "status", "--campaign", "Sec") == ["Sector 7"]
