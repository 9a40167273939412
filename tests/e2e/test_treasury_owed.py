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
