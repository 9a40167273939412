"""A side typed in another letter case is the side the campaign already has (names are matched
whatever their letter case): a new user's `gf muster B --side saurians` after a unit of "Saurians" made a second side
"saurians", with its own army and underdog points; funds typed so went to a treasury of their own."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_cli import Cli


def test_a_unit_mustered_for_a_side_in_another_case_joins_that_side(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Sector 7", "--ruleset", "grimdark")
    cli("gf", "muster", "Warriors", "--side", "Saurians", "--models", "10", "--quality", "4", "--points", "140")
    cli("gf", "muster", "Raptors", "--side", " saurians ", "--models", "5", "--quality", "4", "--points", "100")
    cli("gf", "muster", "Robots", "--side", "Robots", "--models", "5", "--quality", "4", "--points", "150")
    units = cli.json("status")["units"]
    assert {u["name"]: u["side"] for u in units} == {"Warriors": "Saurians", "Raptors": "Saurians", "Robots": "Robots"}
    roster = cli("gf", "roster").stdout
    assert "Saurians: army 240 pts" in roster and "saurians" not in roster


def test_funds_and_a_raise_for_a_side_in_another_case_go_to_that_side(tmp_path: Path) -> None:
    mc = Cli(str(tmp_path / "mc.db"))
    mc("new", "Border War", "--ruleset", "mass-combat")
    mc("mc", "funds", "Megalos", "2000000", "--reason", "the city's war chest")
    mc("mc", "funds", "MEGALOS", "1000", "--reason", "a gift")
    mc("mc", "raise", "Militia", "--side", "megalos", "--men", "10", "--armour", "light", "--troop-type", "LI",
       "--quality", "green")  # fmt: skip
    status = mc.json("status")
    assert list(status["treasury"]) == ["Megalos"]
    assert [u["side"] for u in status["units"]] == ["Megalos"]
    fs = Cli(str(tmp_path / "fs.db"))
    fs("new", "Otlok Front", "--ruleset", "fighting-spirit")
    fs("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    fs("fs", "funds", "keno", "500", "--reason", "the regiment's chest")
    assert fs.json("status")["treasury"] == {"Keno": 500}


def test_a_battle_s_sides_and_winner_are_found_whatever_their_case_and_a_misspelt_one_is_refused(
    tmp_path: Path,
) -> None:
    fs = Cli(str(tmp_path / "fs.db"))
    fs("new", "Otlok Front", "--ruleset", "fighting-spirit")
    fs("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    fs("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    fs("fs", "battle-start", "Hill 203", "--side", "keno=low", "--side", "STEEL=medium",
       "--unit", "Keno 3rd Squad", "--unit", "Company HQ")  # fmt: skip
    before = fs.events()
    refused = fs("fs", "battle-end", "--result", "held", "--winner", "Stel", code=2)
    assert "'Stel' is not a side of this battle (Keno, Steel); did you mean 'Steel'?" in refused.stderr
    assert fs.events() == before
    fs("fs", "battle-end", "--result", "the patrol withdrew", "--winner", "steel")
    [battle] = fs.json("battles")
    assert battle["winner"] == "Steel"
    misspelt = fs("fs", "funds", "Kenoo", "100", "--reason", "a typo", code=2)
    assert "'Kenoo' is not a side of this campaign (Keno, Steel); did you mean 'Keno'?" in misspelt.stderr
    assert "Kenoo" not in fs.json("status")["treasury"]

    gf = Cli(str(tmp_path / "gf.db"))
    gf("new", "Sector 7", "--ruleset", "grimdark")
    gf("gf", "muster", "Warriors", "--side", "Saurians", "--models", "10", "--quality", "4", "--points", "140")
    gf("gf", "muster", "Robots", "--side", "Robots", "--models", "5", "--quality", "4", "--points", "150")
    gf("gf", "battle-start", "Ruins", "--unit", "Warriors", "--unit", "Robots")
    gf("gf", "battle-end", "--winner", "saurians")
    assert gf.json("battles")[0]["winner"] == "Saurians"

    dis = Cli(str(tmp_path / "dis.db"))
    dis("new", "Peninsula", "--ruleset", "disorder")
    dis("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    dis("dis", "muster", "Voltigeurs", "--side", "French", "--models", "12", "--troops", "light", "--points", "90")
    dis("dis", "officer", "British", "Lt Sharpe")
    dis("dis", "officer", "French", "Capitaine Dubois")
    dis("dis", "battle-start", "Sabugal", "--unit", "95th Rifles", "--unit", "Voltigeurs")
    dis("dis", "battle-end", "--winner", "british")
    assert dis.json("battles")[0]["winner"] == "British"
