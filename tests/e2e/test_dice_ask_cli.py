"""``--dice count`` tells which dice a command needs before anyone rolls them, appending nothing; ``--dice ask``
is refused off a terminal (the terminal itself is tested in test_terminal_session.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "fs.db"))
    c("new", "Otlok Front", "--ruleset", "fighting-spirit")
    c("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5", "--radio")
    c("fs", "muster", "Steel Veterans", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "10",
      "--radio", "--reports-to", "Company HQ")  # fmt: skip
    c("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    c("fs", "battle-start", "Hill 203", "--side", "Keno=low", "--side", "Steel=medium", "--unit",
      "Keno 3rd Squad=fresh", "--unit", "Company HQ=tired", "--unit", "Steel Veterans=tired,cover")  # fmt: skip
    return c


def test_count_names_each_die_and_records_nothing(cli: Cli) -> None:
    before = cli.events()
    shown = cli("fs", "attack", "Keno 3rd Squad", "--killed", "2", "--dice", "count").stdout
    assert "fs attack needs 1 die: 1 d8 (nothing was recorded)" in shown
    assert "1. d8 for morale test of Keno 3rd Squad" in shown and "up to" not in shown
    assert cli.json("fs", "attack", "Keno 3rd Squad", "--killed", "1", "--dice", "count")["dice"] == [
        {"notation": "d8", "count": 1, "sides": 8, "purpose": "morale test of Keno 3rd Squad"}
    ]
    assert cli.events() == before


def test_count_says_when_the_rolls_decide_how_many_dice(cli: Cli) -> None:
    cli("fs", "attack", "Steel Veterans", "--wounded", "2", "--dice", "1")
    cli("fs", "attack", "Steel Veterans", "--wounded", "1", "--dice", "9")
    before = cli.events()
    # Out of command distance: a communication test first; only if it gets through, the rally test.
    counted = cli.json(
        "fs", "rally", "Steel Veterans", "--officer", "Company HQ", "--distance", "20", "--dice", "count"
    )
    assert [d["purpose"] for d in counted["dice"]] == ["communication test, Company HQ → Steel Veterans"]
    assert [d["purpose"] for d in counted["if_highest"]] == [
        "communication test, Company HQ → Steel Veterans",
        "rally test of Steel Veterans",
    ]
    shown = cli("fs", "rally", "Steel Veterans", "--officer", "Company HQ", "--distance", "20", "--dice", "count")
    assert "how many dice fs rally needs depends on the rolls" in shown.stdout
    assert f"with every die at its lowest: 1 die: 1 d{counted['dice'][0]['sides']}" in shown.stdout
    assert "with every die at its highest: 2 dice" in shown.stdout
    assert cli.events() == before


def test_count_and_ask_are_refused_where_they_mean_nothing(cli: Cli) -> None:
    before = cli.events()
    refused = cli("fs", "attack", "Keno 3rd Squad", "--killed", "1", "--dice", "ask", code=2)
    assert "--dice ask asks for each die on a terminal, and this input is not one" in refused.stderr
    assert "--dice count is for the rules' commands" in cli("roll", "d6", "-p", "x", "--dice", "count", code=2).stderr
    # A command its rules refuse is refused by the dry run too, before any die is rolled.
    # (A miss by fire is fire, recorded: RULES.md R3-4; an assault that does nothing calls for nothing.)
    assert "calls for nothing" in cli("fs", "attack", "Keno 3rd Squad", "--assault", "--dice", "count", code=2).stderr
    assert cli.events() == before


def test_a_mass_combat_battle_says_how_many_dice_before_it_is_fought(tmp_path: Path) -> None:
    """A Mass Combat battle needs dozens of table dice and nothing said so before it failed."""
    from tests.e2e.test_mass_combat_cli import EXAMPLE

    cli = Cli(str(tmp_path / "mc.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    cli("mc", "muster", "Caliburn's gang", "--side", "Megalos", "--men", "15", "--armour", "light", "--irregular",
        "--quality", "inexperienced", "--experience", "0", "--troop-type", "II")  # fmt: skip
    cli("mc", "muster", "Militia archers", "--side", "Megalos", "--men", "120", "--armour", "light", "--ranged",
        "crossbow", "--irregular", "--set", "fine_weapons=true", "--troop-type", "LI")  # fmt: skip
    cli("mc", "muster", "LC archers", "--side", "Al-Wazif", "--men", "40", "--armour", "light", "--mount",
        "light_horse", "--ranged", "bow", "--troop-type", "LC")  # fmt: skip
    before = cli.events()
    counted = cli.json("mc", "battle", str(EXAMPLE), "--dice", "count")
    lowest = sum(d["count"] for d in counted["dice"])
    assert lowest > 30 and {d["sides"] for d in counted["dice"]} == {6}
    assert cli.events() == before
    # Exactly that many dice, each at its lowest face, fight the battle; one fewer is refused.
    short = cli("mc", "battle", str(EXAMPLE), "--dice", ",".join(["1"] * (lowest - 1)), code=2)
    assert "not enough table dice" in short.stderr
    cli("mc", "battle", str(EXAMPLE), "--dice", ",".join(["1"] * lowest))


def test_count_says_which_face_a_die_still_on_the_table_shows(cli: Cli) -> None:
    """An attack undone leaves its morale test's d8 on the table (its 3): counted again, the die is named with
    that face, to enter again, before any is typed."""
    cli("fs", "attack", "Keno 3rd Squad", "--killed", "2", "--dice", "3")
    cli("undo")
    shown = " ".join(cli("fs", "attack", "Keno 3rd Squad", "--killed", "2", "--dice", "count").stdout.split())
    assert "1. d8 for morale test of Keno 3rd Squad (still on the table: 3; enter them again)" in shown, shown
