"""Amend and undo people can trust (issue 10): an amendment that would drop later commands shows them first and
needs --yes; --dry-run appends nothing; `undo` takes back the last command, rewind or amendment, and itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "undo.db"))
    c("new", "Sector 9", "--ruleset", "grimdark")
    c("gf", "muster", "Saurians A", "--side", "Saurians", "--models", "10", "--quality", "4", "--points", "140")
    c("gf", "muster", "Robot Squad", "--side", "Robots", "--models", "10", "--quality", "4", "--points", "150")
    c("gf", "battle-start", "Ruins", "--unit", "Saurians A", "--unit", "Robot Squad")
    c("gf", "shoot", "Robot Squad", "--wounds", "2", "--by", "Saurians A")
    return c


def _units(cli: Cli) -> list[str]:
    return sorted(u["name"] for u in cli.json("status")["units"])


def test_an_amend_that_would_drop_later_commands_shows_them_and_needs_yes(cli: Cli) -> None:
    events = cli.json("log")["events"]
    seq = next(
        e["seq"]
        for e in events
        if e["type"] == "timeline.command_issued" and e["payload"]["args"].get("name") == "Robot Squad"
    )
    before = cli.events()
    preview = cli.json("amend", str(seq), "--set", "name=Robot Team", "--dry-run")
    assert preview["dry_run"] is True and cli.events() == before
    dropped = [d["command"] for d in preview["dropped"]]
    assert dropped == ["gf.battle_start", "gf.shoot"], "the battle names the Robot Squad, which no longer exists"
    refused = cli("amend", str(seq), "--set", "name=Robot Team", code=2)
    assert "would drop 2 later commands" in refused.output and "#" in refused.output
    assert cli.events() == before, "an amendment refused appends nothing"
    done = cli.json("amend", str(seq), "--set", "name=Robot Team", "--yes")
    assert done["dry_run"] is False and [d["command"] for d in done["dropped"]] == dropped
    assert _units(cli) == ["Robot Team", "Saurians A"]
    cli("undo")
    assert _units(cli) == ["Robot Squad", "Saurians A"], "undo takes the whole amendment back"
    assert cli.json("status")["battles"][0]["name"] == "Ruins", "and what it dropped is in effect again"
    cli("undo")
    assert _units(cli) == ["Robot Team", "Saurians A"], "an undo is itself undone the same way"


def test_undo_takes_back_the_last_command_only(cli: Cli) -> None:
    cli("gf", "round")
    out = cli("undo").stdout
    assert "gf.round" in out
    log = cli.json("log")["events"]
    assert not any(e["type"] == "battle.turn_began" for e in log)
    assert any(e["payload"].get("command") == "gf.shoot" for e in log), "the shot before it stands"
    assert cli.json("verify")[0]["ok"] is True


def test_undo_with_nothing_to_take_back_and_a_rewind_that_changes_nothing_are_refused(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "empty.db"))
    cli("new", "Empty", "--ruleset", "grimdark")
    before = cli.events()
    assert "nothing to undo" in cli("undo", code=2).output
    cli("gf", "muster", "A", "--side", "X", "--models", "5", "--quality", "4", "--points", "50")
    cli("undo")
    head = cli.events()
    assert "nothing after seq" in cli("rewind", "--to", "1", code=2).output
    assert cli.events() == head and head == before + 3


def test_undo_after_only_an_entropy_share_says_shares_are_never_taken_back(tmp_path: Path) -> None:
    """An entropy share (like a reveal) is never retracted: with only such events since the campaign was made,
    undo says so, not that the campaign has only just been created."""
    cli = Cli(str(tmp_path / "dice.db"))
    cli("new", "Dice", "--ruleset", "grimdark")
    cli("entropy", "commit", "a share of mine")
    before = cli.events()
    said = cli("undo", code=2).output
    assert "never taken back" in said and "only just been created" not in said
    assert cli.events() == before


def test_a_units_record_leaves_out_what_a_rewind_retracted(cli: Cli) -> None:
    """Issue 10: `campaign unit` listed retracted events as if they still stood (`log --unit` did not)."""
    shot = next(e for e in cli.json("log")["events"] if e["type"] == "rules.applied")
    cli("rewind", "--to", str(shot["seq"] - 2))
    record = cli.json("unit", "Robot Squad")
    seqs = {item["seq"] for item in record["history"]}
    assert shot["seq"] not in seqs and all(s < shot["seq"] for s in seqs), record["history"]
    assert all(isinstance(item["what"], str) for item in record["history"]), "each line in words"
    log_unit = {e["seq"] for e in cli.json("log", "--unit", "Robot Squad")["events"]}
    assert seqs <= log_unit
