"""The third-edition errata of seeds 002 and 004 (RULES.md R3-14 … R3-27) through the command line: the options
they added, what `campaign rules` shows, and logs of the second edition's program still verifying.

``tests/fixtures/logs_r3_mc_gf`` holds two campaigns exported by main at 01fca74 (mass-combat 0.2.2, grimdark 0.2),
before these errata changed how those rulesets decide; ``build.py`` beside them is what was typed. Each plays the
clauses that changed. Today's rules decide those commands differently: verify says so in a note per command and
passes (exit 0), since the log is honest.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_cli import Cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs_r3_mc_gf"


def applied(result: dict[str, Any], rule: str) -> list[dict[str, Any]]:
    return [e["payload"] for e in result["events"] if e["type"] == "rules.applied" and e["payload"]["rule"] == rule]


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(str(tmp_path / "r3.db"))


@pytest.mark.parametrize(
    ("ruleset", "recorded_under", "changed"),
    [
        # the trainings (R3-21: the months add up, Green at experience 1) and the three battles (R3-14 … R3-20)
        ("mass-combat", "0.2.2", {"mc.train": 3, "mc.battle": 3}),
        # a Shaken shooter refused (R3-25), activations recorded, a recovery after its activation refused (R3-26)
        ("grimdark", "0.2", {"gf.shoot": 5, "gf.recover": 2}),
    ],
)
def test_a_log_of_the_second_editions_program_verifies_with_a_note_per_changed_command(
    cli: Cli, ruleset: str, recorded_under: str, changed: dict[str, int]
) -> None:
    cli("import", str(FIXTURES / f"{ruleset}.jsonl"))
    [report] = cli.json("verify")
    assert report["ok"] is True, report
    noted = report["rules_changed_since"]
    assert {c["recorded_under"] for c in noted} == {recorded_under}
    assert {name: sum(1 for c in noted if c["command"] == name) for name in changed} == changed
    said = " ".join(cli("verify").stdout.split())
    assert f"same outcomes but for {len(noted)} commands recorded under an older version of the rules" in said
    assert "today's rules (RULES.md, third edition) decide it differently" in said


def test_campaign_rules_shows_the_third_editions_errata(cli: Cli) -> None:
    # R3-27: "which §4.2 campaign values are published rules, not seed 004, said in `campaign rules`".
    section = cli("rules", "§4.2").stdout
    assert "R3-27: §4.2 None of the campaign values is from seed 004" in section
    assert "not from seed 004" in section.splitlines()[0]
    erratum = cli("rules", "R3-27").stdout
    assert erratum.startswith("R3-27 — §4.2 None of the campaign values is from seed 004")
    listed = cli("rules").stdout
    assert "R3-14 — §2.9 The Glory roll's critical success and failure, at any target" in listed
    assert "R3-14: §2.9" in cli("rules", "§2.9").stdout


def test_mass_combat_musters_chariots_and_force_through_the_cli(cli: Cli) -> None:
    cli("new", "Border War", "--ruleset", "mass-combat")
    # R3-23: an experience and no quality: its band (the program refused: "experience 6 is seasoned, not average")
    hands = cli.json("mc", "muster", "Hands", "--side", "Megalos", "--size", "10", "--experience", "6")
    mustered = next(e["payload"] for e in hands["events"] if e["type"] == "roster.unit_mustered")
    assert (mustered["profile"]["quality"], mustered["profile"]["experience"]) == ("seasoned", 6)
    # neither: 3d on the quality table, from the table's dice: 9 → Seasoned, experience 6
    rolled = cli.json("mc", "muster", "Levy", "--side", "Megalos", "--size", "10", "--dice", "3,3,3")
    assert applied(rolled, "troop_quality")[0]["outcome"] == {"quality": "seasoned"}
    # R3-24: three light chariots with their archers: 3 × (15 + 3 + 2) = 60
    cli("mc", "muster", "Chariots", "--side", "Megalos", "--size", "0", "--quality", "average",
        "--set", 'special={"light_chariot": 3}')  # fmt: skip
    assert cli.json("mc", "ts", "Chariots")["ts"] == 60
    # R2-23: two 100-point mages give 1 ES; one gives ½, which buys nothing
    assert cli.json("mc", "es", "100", "100")["es"] == 1
    assert cli.json("mc", "es", "100")["es"] == 0
    said = " ".join(cli("mc", "es", "100", "100").stdout.split())
    assert "2 users at normal mana: ES 0.5 + 0.5 = 1, of which the army spends 1 whole point" in said
    assert "at most one --bonus" in cli("mc", "es", "100", "--bonus", "1", "--bonus", "2", code=2).output


def test_grimdark_activations_and_a_shaken_unit_through_the_cli(cli: Cli) -> None:
    cli("new", "Sector 7", "--ruleset", "grimdark")
    for name, side, models in (("Ten", "Alpha", "10"), ("Robots", "Beta", "10")):
        cli("gf", "muster", name, "--side", side, "--models", models, "--quality", "4", "--points", "100")
    cli("gf", "battle-start", "Ruins", "--unit", "Ten", "--unit", "Robots")
    cli("gf", "activate", "Robots")  # R3-26: an activation with nothing else to record
    cli("gf", "shoot", "Ten", "--wounds", "5", "--by", "Robots", "--dice", "2")  # Ten Shaken, before its activation
    before = cli.events()
    shot = cli("gf", "shoot", "Robots", "--wounds", "1", "--by", "Ten", code=2)  # R3-25
    assert "Ten is Shaken: it may not be shooting" in shot.output and cli.events() == before
    charge = cli("gf", "melee", "Ten", "Robots", "--a-wounds", "1", "--b-wounds", "0", "--charger", "Ten", code=2)
    assert "may not be charging" in charge.output
    cli("gf", "recover", "Ten")  # its round-1 activation, spent idle
    again = cli("gf", "activate", "Ten", code=2)
    assert "Ten has already activated in round 1" in again.output
    cli("gf", "turn")
    melee = cli.json("gf", "melee", "Ten", "Robots", "--a-wounds", "1", "--b-wounds", "0", "--charger", "Ten",
                     "--dice", "6")  # fmt: skip
    assert [d["outcome"]["idle"] for d in applied(melee, "activation")] == [False]


def test_a_roster_file_row_with_neither_quality_nor_experience_is_refused_in_words(cli: Cli, tmp_path: Path) -> None:
    # R3-23 rolls the quality of a unit given neither; the rows of a file are run together and roll no dice.
    cli("new", "Border War", "--ruleset", "mass-combat")
    rows = tmp_path / "roster.csv"
    rows.write_text("name,side,men\nHands,Megalos,10\n", encoding="utf-8")
    before = cli.events()
    refused = cli("mc", "muster", "--from", str(rows), code=2)
    assert "row 2: mc muster would roll dice here, and commands run together roll none" in " ".join(
        refused.output.split()
    )
    assert cli.events() == before
    rows.write_text("name,side,men,experience\nHands,Megalos,10,6\n", encoding="utf-8")
    cli("mc", "muster", "--from", str(rows))
    assert cli.json("mc", "roster")["units"][0]["quality"] == "seasoned"
