"""One vocabulary and one set of views across rulesets: what README promises `status` and `battles`
show, worked by hand from RULES.md, through the real CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(str(tmp_path / "views.db"))


def cells(text: str, name: str) -> list[str]:
    """The cells of a table's row that starts with ``name``."""
    line = next(line for line in text.splitlines() if line.startswith(f"│ {name} "))
    return [c.strip() for c in line.strip("│").split("│")]


def test_mass_combat_status_shows_each_unit_s_morale_and_arrears(cli: Cli) -> None:
    """README: status shows "TS and Morale, arrears". Half the month's pay (R2-19 (c), arrears in days): the payday
    ends unpaid (−1), two days of rest add −2 each: 1 + 2 × (3 − 1) = 5. Green irregulars: base Morale 11 (§2.3)
    − 5 = 6. Veterans: 15 − 5, but non-payment takes them no lower than 14 (R2-19 (b)): 14. Pay owed: monthly pay
    10% of the raise cost (§2.11, R2-20), half of it paid: $36000 − $18000 and $27000 − $13500."""
    cli("new", "Border War", "--ruleset", "mass-combat")
    cli("mc", "funds", "Megalos", "2000000", "--reason", "the city's war chest")
    cli("mc", "raise", "Militia archers", "--side", "Megalos", "--men", "120", "--armour", "light", "--ranged",
        "crossbow", "--irregular", "--troop-type", "LI", "--quality", "green")  # fmt: skip
    cli("mc", "muster", "Veterans", "--side", "Megalos", "--men", "30", "--armour", "heavy", "--troop-type", "HI",
        "--quality", "veteran")  # fmt: skip
    paid = cli.json("status")["units"]
    assert [(u["name"], u["morale"], u["arrears"], u["pay_owed"]) for u in paid] == [
        ("Militia archers", 11, 0, 0),
        ("Veterans", 15, 0, 0),
    ]
    assert cells(cli("status").stdout, "Militia archers")[-3:] == ["11", "0", "0"]  # zeros shown: kept, not empty
    header = next(line for line in cli("status").stdout.splitlines() if "name" in line and "side" in line)
    assert [c.strip() for c in header.strip("┃").split("┃")][-4:] == ["TS", "Morale", "arrears", "pay owed"]
    cli("mc", "month-end", "--pay", "Megalos=50", "--dice", "3,3,3,3,3,3")
    cli("mc", "rest", "2", "--dice", ",".join(["3"] * 12))
    owed = {u["name"]: (u["morale"], u["arrears"], u["pay_owed"]) for u in cli.json("status")["units"]}
    assert owed == {"Militia archers": (6, 5, 18000), "Veterans": (14, 5, 13500)}
    shown = cli("status").stdout
    # money for people has its thousands separated (`--json` keeps the number)
    assert cells(shown, "Militia archers")[-3:] == ["6", "5", "18,000"]
    assert cells(shown, "Veterans")[-3:] == ["14", "5", "13,500"]


def test_a_five_grade_battle_ended_with_a_winner_shows_its_day_and_winner(cli: Cli) -> None:
    """`battles` of a five-grade campaign: a battle begun on day 3 (after 3 days of rest) and ended with
    --winner Steel shows day 3 and Steel; one ended without a winner shows none; one being fought, its day."""
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    cli("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    units = ["--unit", "Keno 3rd Squad=fresh", "--unit", "Company HQ=fresh"]
    cli("fs", "rest", "3")
    cli("fs", "battle-start", "Hill 203", "--side", "Keno=low", "--side", "Steel=medium", *units)
    cli("fs", "battle-end", "--result", "the patrol withdrew", "--winner", "Steel")
    cli("fs", "march", "2")
    cli("fs", "battle-start", "Hill 204", "--side", "Keno=low", "--side", "Steel=medium", *units)
    cli("fs", "battle-end", "--result", "nobody held it")
    cli("fs", "battle-start", "Hill 205", "--side", "Keno=low", "--side", "Steel=medium", *units)
    battles = cli.json("battles")
    assert [(b["name"], b["day"], b["winner"]) for b in battles] == [
        ("Hill 203", 3, "Steel"),
        ("Hill 204", 5, None),
        ("Hill 205", 5, None),
    ]
    table = cli("battles").stdout
    assert cells(table, "1") == ["1", "Hill 203", "3", "1", "the patrol withdrew", "Steel"]
    assert cells(table, "2") == ["2", "Hill 204", "5", "1", "nobody held it", ""]
    assert cells(table, "3") == ["3", "Hill 205", "5", "1", "being fought", ""]


def test_months_are_counted_from_one_where_people_read_them(cli: Cli) -> None:
    """The first month is month 1, as a game master counts it: the log says "month 1 of the campaign ends", the
    roster then shows month 2 in progress, and a month-end refused for want of money names month 2's upkeep.
    The treasury's change reads as the same month ("upkeep and pay at the end of month 1"; it said "month 0 upkeep
    and pay" beside "month 1 of the campaign ends"), while its recorded reason keeps the words it was recorded with:
    recorded text is never edited (`--json` shows it)."""
    cli("new", "Border War", "--ruleset", "mass-combat")
    cli("mc", "funds", "Megalos", "40000", "--reason", "the city's war chest")
    cli("mc", "muster", "Militia archers", "--side", "Megalos", "--men", "120", "--armour", "light", "--ranged",
        "crossbow", "--irregular", "--troop-type", "LI", "--quality", "green")  # fmt: skip
    assert "Border War — day 0, month 1" in cli("mc", "roster").stdout
    ended = cli("mc", "month-end", "--pay", "Megalos=0").stdout
    assert "month 1 of the campaign ends" in ended and "(upkeep and pay at the end of month 1)" in ended
    assert "month 0" not in ended
    recorded = [e for e in cli.json("log")["events"] if e["type"] == "economy.funds_changed"]
    assert recorded[-1]["payload"]["reason"] == "month 0 upkeep and pay"
    assert "Border War — day 0, month 2" in cli("mc", "roster").stdout
    assert cli.json("mc", "roster")["month"] == 1  # --json: the state's own count, from 0, as before
    refused = cli("mc", "month-end", "--pay", "Megalos=100", code=2).stderr
    assert "it cannot cover month 2's upkeep and pay" in refused


def test_a_month_end_re_run_by_an_amendment_reads_as_the_one_it_re_ran(cli: Cli) -> None:
    """An amendment of the muster re-runs the month's end: its treasury change is the same month's pay, and reads
    so ("pay at the end of month 1", the month counted from 1 as the calendar counts it), not as its recorded
    reason ("pay, month 0"), which only the first one read so."""
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    muster = cli.json("fs", "muster", "A", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "8")
    cli("fs", "funds", "Keno", "500", "--reason", "the war chest")
    cli("fs", "month-end", "--pay", "Keno=100")
    profile = '{"quality": "regular", "leadership": 2, "size": 9, "kind": "infantry"}'
    cli("amend", str(muster["events"][0]["seq"]), "--set", f"profile={profile}", "--yes")
    paid = [line for line in cli("log").stdout.splitlines() if "Keno: −" in line]
    assert len(paid) == 1 and "(pay at the end of month 1)" in paid[0], paid
    assert "month 0" not in cli("log").stdout
    recorded = [e for e in cli.json("log")["events"] if e["type"] == "economy.funds_changed"]
    assert recorded[-1]["payload"]["reason"] == "pay, month 0"  # the recorded words stay as recorded
    assert recorded[-1]["meta"]["command"] == "amend"


@pytest.mark.parametrize(
    ("lang", "first", "again"),
    [
        ("ru", "(вид пехота, лидерство 2, качество Регулярные, численность 8)",
         "(вид пехота, лидерство 2, качество Регулярные, численность 9)"),
        ("pl", "(rodzaj piechota, przywództwo 2, jakość Regularni, liczebność 8)",
         "(rodzaj piechota, przywództwo 2, jakość Regularni, liczebność 9)"),
    ],
)  # fmt: skip
def test_an_amendments_re_run_reads_in_the_seeds_words_as_the_first_run(
    cli: Cli, lang: str, first: str, again: str
) -> None:
    """An amendment records the events of the commands it re-runs under its own name: they read in the campaign's
    ruleset's words as the first run did (the seed's "Регулярные", not "regular"; they read "вид infantry,
    качество regular")."""
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    muster = cli.json("fs", "muster", "A", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "8")
    profile = '{"quality": "regular", "leadership": 2, "size": 9, "kind": "infantry"}'
    cli("amend", str(muster["events"][0]["seq"]), "--set", f"profile={profile}", "--yes")
    log = " ".join(cli("--lang", lang, "log", "--all").stdout.replace("│", " ").split())
    assert first in log and again in log, log


def test_an_amendments_re_run_is_audited_and_reported_in_the_seeds_words(cli: Cli, tmp_path: Path) -> None:
    """The audit of an event an amendment re-ran, and the campaign's report, say it in the ruleset's words too."""
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    muster = cli.json("fs", "muster", "A", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "8")
    profile = '{"quality": "regular", "leadership": 2, "size": 9, "kind": "infantry"}'
    cli("amend", str(muster["events"][0]["seq"]), "--set", f"profile={profile}", "--yes")
    events = cli.json("log", "--all")["events"]
    [again] = [e["seq"] for e in events if e["type"] == "roster.unit_mustered" and e["payload"]["profile"]["size"] == 9]
    audited = " ".join(cli("--lang", "ru", "audit", str(again)).stdout.replace("│", " ").split())
    assert "качество Регулярные, численность 9" in audited and "regular" not in audited, audited
    report = tmp_path / "report.md"
    cli("--lang", "ru", "report", "-o", str(report))
    told = " ".join(report.read_text("utf-8").split())
    # the amendment, in the report's disputes: the one field of the profile it changed, in words, not the dicts
    assert "численность 8 → 9" in told and "{" not in told.partition("## Графики")[0], told
    # the roster at the end, in the seed's words as the command line's roster says them
    assert "| A | Keno | Регулярные | 9 |" in told and "regular" not in told, told


def test_the_battles_view_says_which_of_its_columns_a_ruleset_does_not_keep(cli: Cli) -> None:
    """The same columns under every ruleset; one a ruleset does not keep is said so, not left empty unsaid:
    a disorder skirmish has turns but no campaign calendar (RULES.md §1 counts no days), a five-grade battle
    both."""
    cli("new", "Peninsula", "--ruleset", "disorder")
    cli("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    cli("dis", "muster", "Voltigeurs", "--side", "French", "--models", "12", "--troops", "light", "--points", "90")
    cli("dis", "officer", "British", "Lt Sharpe")
    cli("dis", "officer", "French", "Capitaine Dubois")
    assert "keeps no" not in cli("battles").stdout  # no battle yet: nothing to say
    cli("dis", "battle-start", "Sabugal", "--unit", "95th Rifles", "--unit", "Voltigeurs")
    shown = cli("battles", "-c", "Peninsula").stdout
    assert "disorder keeps no campaign days: those cells stay empty." in shown and "no turns" not in shown
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7", "-c",
        "Otlok Front")  # fmt: skip
    cli("fs", "battle-start", "Hill 203", "--side", "Keno=low", "--unit", "Keno 3rd Squad=fresh", "-c", "Otlok Front")
    assert "keeps no" not in cli("battles", "-c", "Otlok Front").stdout
