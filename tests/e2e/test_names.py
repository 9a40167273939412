"""Names: trimmed, matched whatever their letter case, an unknown one answered with the close ones
("did you mean"), battles named or numbered, and no two units or battles of one name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "names.db"))
    c("new", "Otlok Front", "--ruleset", "fighting-spirit")
    c("fs", "muster", "Alpha Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "8")
    c("fs", "muster", "  Bravo Squad ", "--side", "Steel", "--quality", "regular", "--lv", "2", "--size", "8")
    return c


def test_unit_names_are_trimmed_matched_in_any_case_and_never_repeated(cli: Cli) -> None:
    assert [u["name"] for u in cli.json("status")["units"]] == ["Alpha Squad", "Bravo Squad"]
    refused = cli(
        "fs", "muster", "ALPHA SQUAD ", "--side", "Keno", "--quality", "green", "--lv", "2", "--size", "3", code=2
    )
    assert "'Alpha Squad' is already on the roster" in refused.output
    assert "differing only in case counts as the same" in refused.output
    # the very same name: refused without saying the names differ (a new user read "differ by more than case")
    same = cli(
        "fs", "muster", "Alpha Squad", "--side", "Keno", "--quality", "green", "--lv", "2", "--size", "3", code=2
    )
    assert "'Alpha Squad' is already on the roster" in same.output and "differ by more" not in same.output
    assert cli.json("unit", " alpha squad")["unit"]["name"] == "Alpha Squad"
    recruited = cli.json("fs", "recruit", "bravo squad", "--men", "2")
    assert [e["type"] for e in recruited["events"]][-1] == "economy.troops_recruited"
    assert "did you mean 'Alpha Squad'" in cli("unit", "Alpah Squad", code=2).output
    assert "did you mean 'Bravo Squad'" in cli("fs", "recruit", "Bravo Sqad", "--men", "1", code=2).output
    far = cli("fs", "recruit", "Zulu", "--men", "1", code=2).output  # nothing close: the roster is listed
    assert "did you mean" not in far and "units: Alpha Squad, Bravo Squad" in far


def test_campaign_names_match_in_any_case_with_a_hint(cli: Cli) -> None:
    assert cli.json("status", "-c", "  otlok front ")["campaign"] == "Otlok Front"
    assert "did you mean 'Otlok Front'?" in cli("status", "-c", "Otlok Frnt", code=2).output


def test_a_battle_name_is_its_own(cli: Cli) -> None:
    start = ("fs", "battle-start", "Ridge", "--side", "Keno=low", "--side", "Steel=low", "--unit", "Alpha Squad=fresh")
    cli(*start)
    cli("fs", "battle-end", "--result", "a draw")
    before = cli.events()
    again = cli("fs", "battle-start", " ridge", *start[3:], code=2).output
    assert "a battle named 'Ridge' was fought already" in again and cli.events() == before
    cli("fs", "battle-start", "Ridge 2", *start[3:])
    assert [b["name"] for b in cli.json("battles")] == ["Ridge", "Ridge 2"]
    assert len(cli.json("log", "--battle", "RIDGE")["events"]) > 0


def test_mass_combat_battles_by_name_or_number(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "demo.db"))
    cli("demo")
    c = ("-c", "demo mass-combat")
    battles = cli.json("battles", *c)
    assert [b["name"] for b in battles] == ["Battle for Bannok 1", "Battle for Bannok 2"]
    winner = battles[0]["winner"]
    assert winner is not None, battles
    looted = cli.json("mc", "loot", " battle for bannok 1", "--side", winner, *c)  # trimmed, any case
    assert {e["payload"].get("battle_id") for e in looted["events"]} >= {battles[0]["battle_id"]}
    by_number = cli("mc", "loot", "1", "--side", winner, *c, code=2).output  # the same field, by its number
    assert "Battle for Bannok 1" in by_number and "stripped already" in by_number
    unknown = cli("mc", "loot", "Battle for Banok 2", "--side", "Al-Wazif", *c, code=2).output
    assert "did you mean 'Battle for Bannok 2'" in unknown
