"""`treasury`'s owed pay shows what each ruleset keeps of it: a five-grade unit's paydays missed (its "arrears"
column read 0 for a unit that owed pay, since the five-grade rules keep no Morale penalty for it), Mass Combat's
Morale penalty in arrears."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_cli import Cli


def headings(text: str, title: str) -> list[str]:
    below = text.split(title, 1)[1]
    line = next(line for line in below.splitlines() if line.startswith("┃"))
    return [h.strip() for h in line.split("┃")[1:-1]]


def test_a_five_grade_unit_owed_pay_shows_its_paydays_missed_not_an_arrears_of_0(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "fs.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    cli("fs", "funds", "Keno", "500", "--reason", "the regiment's chest")
    cli("fs", "month-end", "--pay", "Keno=0")  # a missed payday
    assert headings(cli("treasury").stdout, "Owed pay") == ["unit", "side", "owed", "paydays missed"]
    [row] = cli.json("treasury")["owed"]
    assert row["paydays_missed"] == 1 and "arrears" not in row and row["owed"] > 0


def test_mc_roster_shows_the_arrears_in_force_as_status_does(tmp_path: Path) -> None:
    """R2-19(c): once arrears are paid, the penalty falls by 1 every 2nd day. `status` showed the penalty in force;
    `mc roster` showed the stored one, which does not fall, so the two views disagreed (3 against 1 here)."""
    cli = Cli(str(tmp_path / "mc.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    cli("mc", "funds", "Megalos", "2000000", "--reason", "the city's war chest")
    cli("mc", "raise", "Militia", "--side", "Megalos", "--men", "120", "--armour", "light", "--troop-type", "LI",
        "--quality", "green")  # fmt: skip
    cli("mc", "month-end", "--pay", "Megalos=0")  # a missed payday
    cli("mc", "rest", "1")
    cli("mc", "pay", "Militia")  # the arrears paid in full
    cli("mc", "rest", "4")
    [shown] = cli.json("status")["units"]
    [listed] = cli.json("mc", "roster")["units"]
    assert listed["arrears"] == shown["arrears"] < listed["pay_penalty"]
    row = next(line for line in cli("mc", "roster").stdout.splitlines() if line.startswith("│ Militia"))
    assert [c.strip() for c in row.split("│")[1:-1]][-2] == str(shown["arrears"])
