"""A name is shown as it was typed in every view, never read as console markup: a new user's unit
"[bold]Guard[/]" of the side "[blink]Robots" showed in `status` as "Guard" of "Robots", and the Grimdark roster's
army line said "Robots:"; an officer's `career` line was read as markup too. The Grimdark roster names the turn as
`gf turn` does (it said "round")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli

UNIT, SIDE = "[bold]Guard[/]", "[blink]Robots"


@pytest.fixture
def gf(tmp_path: Path) -> Cli:
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Sector 7", "--ruleset", "grimdark")
    cli("gf", "muster", UNIT, "--side", SIDE, "--models", "5", "--quality", "4", "--points", "100")
    cli("gf", "muster", "Saurian Warriors", "--side", "Saurians", "--models", "10", "--quality", "4", "--points", "140")
    return cli


def test_status_shows_a_bracketed_unit_and_side_as_typed(gf: Cli) -> None:
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in gf("status").stdout.splitlines()]
    assert [UNIT, SIDE, "4+", "5", "100"] in [row[:5] for row in rows]


def test_the_grimdark_roster_shows_them_as_typed_and_names_the_turn(gf: Cli) -> None:
    assert f"\n{SIDE}: army 100 pts, 0 underdog points, 0 VP, 0 campaign points" in gf("gf", "roster").stdout
    gf("gf", "battle-start", "Ruins", "--unit", UNIT, "--unit", "Saurian Warriors")
    assert "Sector 7 — Ruins, turn 1" in gf("gf", "roster").stdout
    gf("gf", "turn")
    roster = gf("gf", "roster").stdout
    assert "Sector 7 — Ruins, turn 2" in roster and "round" not in roster


def test_an_officer_s_career_line_shows_his_name_as_typed(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "dis.db"))
    cli("new", "Peninsula", "--ruleset", "disorder")
    cli("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    cli("dis", "officer", "British", "[i]Lt Sharpe[/]")
    assert cli("career", "[i]Lt Sharpe[/]").stdout.startswith("[i]Lt Sharpe[/] (British): 0 battles, Glory 0 (none")


def test_status_heads_its_officers_column_officer_not_pc(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "dis.db"))
    cli("new", "Peninsula", "--ruleset", "disorder")
    cli("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    cli("dis", "officer", "British", "Lt Sharpe")
    officers = cli("status").stdout.split("Officers", 1)[1]
    headings = next(line for line in officers.splitlines() if line.startswith("┃"))
    assert [h.strip() for h in headings.split("┃")[1:-1]] == ["officer", "side", "glory", "rank"]
