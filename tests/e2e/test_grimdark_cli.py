"""A Grimdark Future match through ``campaign gf``: table dice, --json, refusals, and the campaign it leaves."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "gf.db"))
    c("new", "Sector 7", "--ruleset", "grimdark")
    c("gf", "muster", "Saurian Warriors", "--side", "Saurians", "--models", "10", "--quality", "4", "--points", "140")
    c(
        "gf",
        "muster",
        "Saurian Hero",
        "--side",
        "Saurians",
        "--models",
        "1",
        "--quality",
        "3",
        "--tough",
        "3",
        "--hero",
        "--points",
        "60",
    )
    c("gf", "muster", "Robot Squad", "--side", "Robots", "--models", "10", "--quality", "4", "--points", "150")
    return c


def test_a_match_and_the_campaign_it_leaves(cli: Cli) -> None:
    cli(
        "gf",
        "battle-start",
        "Ruins",
        "--unit",
        "Saurian Warriors",
        "--unit",
        "Saurian Hero",
        "--unit",
        "Robot Squad",
        "--join",
        "Saurian Hero=Saurian Warriors",
    )
    shot = cli.json("gf", "shoot", "Saurian Warriors", "--wounds", "6", "--by", "Robot Squad", "--dice", "2")
    test = next(e for e in shot["events"] if e["type"] == "rules.applied" and e["payload"]["rule"] == "morale_test")
    assert test["payload"]["outcome"] == {"passed": False, "result": "shaken"}  # 4 of 11, Quality 3+ (the hero's)
    cli("gf", "melee", "Saurian Warriors", "Robot Squad", "--a-wounds", "1", "--b-wounds", "2")  # Shaken: Routs
    army = cli.json("gf", "army")
    assert {u["unit"]: u["in_battle"]["removed"] for u in army["units"]} == {
        "Robot Squad": None,
        "Saurian Hero": "routed",
        "Saurian Warriors": "routed",
    }
    cli("gf", "round")
    cli("gf", "battle-end", "--winner", "Robots", "--dice", "6,3")  # casualty rolls as deployed: warriors, hero
    army = cli.json("gf", "army")
    xp = {u["unit"]: u["xp"] for u in army["units"]}
    assert xp == {"Robot Squad": 1 + 3, "Saurian Hero": 0, "Saurian Warriors": 1}  # a hero and its unit: +3
    assert army["armies"]["Robots"] == {"value": 150, "underdog_points": 1, "victory_points": 2, "campaign_points": 150}
    assert cli.json("status")["battles"][0]["winner"] == "Robots"
    report = cli.json("verify")[0]
    assert report["ok"] and report["failures"] == []


def test_refusals_exit_two_and_append_nothing(cli: Cli) -> None:
    cli("gf", "shoot", "Robot Squad", "--wounds", "1", code=2)  # no battle yet
    cli(
        "gf",
        "muster",
        "Giant",
        "--side",
        "Robots",
        "--models",
        "2",
        "--quality",
        "3",
        "--hero",
        "--points",
        "1",
        code=2,
    )
    cli("gf", "battle-start", "Ruins", "--unit", "Saurian Warriors", "--unit", "Robot Squad")
    before = cli.events()
    cli("gf", "shoot", "Saurian Warriors", "--wounds", "5", "--dice", "7", code=2)
    cli("gf", "shoot", "Saurian Warriors", "--wounds", "-1", code=2)
    cli("gf", "melee", "Saurian Warriors", "Saurian Warriors", "--a-wounds", "1", "--b-wounds", "0", code=2)
    cli("gf", "recover", "Robot Squad", code=2)
    cli("gf", "battle-end", "--winner", "Orks", code=2)
    cli("gf", "house-rule", "test.dice", "d7", code=2)
    cli("gf", "battle-start", "X", "--unit", "Robot Squad", "--join", "nonsense", code=2)
    assert cli.events() == before
    assert "PLACEHOLDER" in cli("gf", "tables", "traits.unit").stdout
