"""The second-edition errata of seeds 000, 001 and 004 played once through the CLI (RULES.md R2-1 … R2-9,
R2-32 … R2-36), with the values worked by hand in the acceptance tests' comments."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.test_cli import Cli


def applied(result: dict[str, Any], rule: str) -> list[dict[str, Any]]:
    return [e["payload"] for e in result["events"] if e["type"] == "rules.applied" and e["payload"]["rule"] == rule]


def test_five_grades_errata_through_the_cli(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "fs.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    muster = ("fs", "muster")
    cli(*muster, "Barf-jat Master", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "1",
        "--psi-rank", "master")  # fmt: skip
    cli(*muster, "Keno Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "8")
    cli(*muster, "Androids", "--side", "Otlok", "--quality", "elite", "--lv", "1", "--size", "6", "--kind", "android")
    cli(*muster, "Gunner", "--side", "Otlok", "--quality", "regular", "--lv", "2", "--size", "1", "--crew-weapon")
    start = ("fs", "battle-start", "Hill", "--side", "Keno=medium", "--side", "Otlok=low")
    before = cli.events()
    mixed = cli(*start, "--unit", "Barf-jat Master=fresh", "--unit", "Keno Squad=tired", "--unit", "Androids=fresh",
                code=2)  # fmt: skip
    assert "one fatigue" in mixed.output and cli.events() == before  # R2-3
    cli(*start, "--unit", "Barf-jat Master=fresh", "--unit", "Keno Squad=fresh,start:shaken",
        "--unit", "Androids=fresh", "--unit", "Gunner=fresh")  # fmt: skip
    assert "shaken" in cli("fs", "battle-status").stdout.lower()  # the scenario's start grade
    # R2-1: psi-strike on Elite androids (LV 1): target 4 on a d6; a 5 passes.
    strike = cli.json("fs", "psi", "Barf-jat Master", "Androids", "--effect", "psi_strike", "--distance", "5",
                      "--dice", "4,5")  # fmt: skip
    test = applied(strike, "morale_test")[0]
    assert test["inputs"]["die"] == 6 and test["inputs"]["target"] == 4 and test["outcome"]["result"] == "pass"
    # R2-4 (c): Kill on the one-man unit with a crew-served weapon; then (a): a third psi action is refused.
    cli("fs", "psi", "Barf-jat Master", "Gunner", "--effect", "kill", "--distance", "5", "--dice", "8,7")
    third = cli("fs", "psi", "Barf-jat Master", "Androids", "--effect", "confusion", "--distance", "5", code=2)
    assert "2 psi actions" in third.output
    # R2-4 (d): fire from the air: the psion defends on the d4.
    air = cli.json("fs", "defence", "Barf-jat Master", "--from-air", "--dice", "3")
    assert applied(air, "defence")[0]["inputs"]["die"] == 4
    # R2-36: tables show the tag and the erratum; a withdrawn key is refused.
    assert "R2-1" in cli("fs", "tables", "psi.rules.android").stdout
    cli("fs", "house-rule", "psi.rules.android_resists_if_at_least_psion", "false", code=2)


def test_disorder_errata_through_the_cli(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "dis.db"))
    cli("new", "Peninsula", "--ruleset", "disorder")
    for name, side, models, points in (("Lost", "British", 10, 120), ("Grenadiers", "British", 9, 90),
                                       ("Rifles", "British", 6, 90), ("Voltigeurs", "French", 10, 90)):  # fmt: skip
        cli("dis", "muster", name, "--side", side, "--models", str(models), "--troops", "line", "--points", str(points))
    cli("dis", "officer", "British", "Sharpe")
    cli("dis", "officer", "French", "Dubreton")
    cli(
        "dis",
        "battle-start",
        "Sabugal",
        *(x for n in ("Lost", "Grenadiers", "Rifles", "Voltigeurs") for x in ("--unit", n)),
    )
    cli("dis", "remove", "Lost", "--reason", "destroyed in melee")  # 120 of 300
    cli("dis", "check", "Rifles", "--cause", "force_half", code=2)  # R2-7: not yet half
    # 3 of 9 Grenadiers: 150 of 300, exactly half: one check, −3 models, −1 for force at half: 10 − 4 = 6 passes.
    hit = cli.json("dis", "hit", "Grenadiers", "--lost", "3", "--dice", "5,5")
    check = applied(hit, "morale_check")[0]
    assert check["inputs"]["causes"] == ["casualties", "force_half"] and check["outcome"]["total"] == 6
    cli("dis", "check", "Rifles", "--cause", "force_half", "--dice", "6,6")
    cli("dis", "check", "Rifles", "--cause", "force_half", code=2)  # once per game
    # R2-6: a failed rally retreats.
    cli("dis", "marker", "Rifles", "--reason", "lost a melee")
    rally = cli.json("dis", "rally", "Rifles", "--dice", "1,1")
    assert applied(rally, "rally")[0]["outcome"]["retreats"] is True


def test_grimdark_errata_through_the_cli(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Sector 7", "--ruleset", "grimdark")
    cli("gf", "muster", "Squad", "--side", "Saurians", "--models", "7", "--quality", "4", "--points", "100")
    cli("gf", "muster", "Captain", "--side", "Saurians", "--models", "1", "--quality", "4", "--points", "60",
        "--tough", "3", "--hero")  # fmt: skip
    cli("gf", "muster", "Robots", "--side", "Robots", "--models", "10", "--quality", "4", "--points", "150")
    cli("gf", "battle-start", "Ruins", "--unit", "Squad", "--unit", "Captain", "--unit", "Robots",
        "--join", "Captain=Squad")  # fmt: skip
    # R2-32: 9 wounds kill the 7 soldiers and put 2 on the hero, who fights on alone (1 of 8): a test, 5 holds.
    volley = cli.json("gf", "shoot", "Squad", "--wounds", "9", "--dice", "5")
    assert applied(volley, "morale_test")[0]["outcome"]["result"] == "passed"
    assert not [e for e in volley["events"] if e["type"] == "battle.unit_removed"]
    last = cli.json("gf", "shoot", "Squad", "--wounds", "1")
    assert len([e for e in last["events"] if e["type"] == "battle.unit_removed"]) == 2
    shown = cli.json("gf", "tables", "morale.fearless_needs")
    assert shown["morale.fearless_needs_every_model"]["erratum"] == "R2-33"
