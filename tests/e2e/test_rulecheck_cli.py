"""The doubts of a new player, through the real CLI: `mc es` is a reckoning that spends nothing and shows the
fraction R2-23 keeps; `fs house-rule` refuses a negative threat level in words, appending nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


def test_mc_es_shows_the_fraction_an_army_rounds_down_and_spends_nothing(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "mc.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    before = cli.events()
    # 320 points: the 300 row, ES 5; low mana ×¼ → 1.25; an army spends whole points: 1 (§2.13, R2-23).
    low = " ".join(cli("mc", "es", "320", "--mana", "low").stdout.split())
    assert "320 points at low mana → ES 1 (1.25, of which an army spends whole points: R2-23)" in low
    assert "A reckoning only: nothing is spent" in low
    # 300 points at normal mana: ES 5 exactly, no fraction to speak of.
    assert "→ ES 5. A reckoning only" in " ".join(cli("mc", "es", "300").stdout.split())
    assert cli.events() == before


def test_fs_house_rule_refuses_a_negative_threat_and_appends_nothing(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "fs.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    before = cli.events()
    refused = cli("fs", "house-rule", "threats.unverified_casualty.low", "-5", code=2)
    assert "threat level: NTR (no test) or 0 and up, not -5" in " ".join(refused.output.split())
    assert cli.events() == before
    cli("fs", "house-rule", "threats.unverified_casualty.low", "0")
    assert cli.events() > before


DIVISORS = [
    ("fighting-spirit", "fs", "psi.rules.band_inches"),
    ("grimdark", "gf", "level_up.every_xp"),
    ("grimdark", "gf", "hero_level_up.every_xp"),
    ("grimdark", "gf", "underdog.per_points"),
    ("mass-combat", "mc", "morale.leadership_step"),
    ("mass-combat", "mc", "ts.rules.irregular_divisor"),
    ("mass-combat", "mc", "catastrophe.rules.es_per_point"),
    ("mass-combat", "mc", "pc.second_roll_per_margin"),
    ("mass-combat", "mc", "casualties.offset_divisor"),
    ("mass-combat", "mc", "casualties.dead_divisor"),
    ("mass-combat", "mc", "extraordinary.recon_per_points"),
    ("mass-combat", "mc", "extraordinary_modifiers.power_stone_capacity"),
    ("mass-combat", "mc", "economy.paid_restores_every"),
    ("mass-combat", "mc", "economy.strip_fraction_divisor"),
    ("mass-combat", "mc", "economy.year_days"),
]


@pytest.mark.parametrize(("ruleset", "prefix", "path"), DIVISORS)
def test_a_value_the_rules_divide_by_is_at_least_1(tmp_path: Path, ruleset: str, prefix: str, path: str) -> None:
    # "+1 per 3 levels", "every 5 XP", "÷ 3": a step of 0 was accepted and every rule reading it then failed
    # (`gf roster` and `gf battle-end` ended in a ZeroDivisionError after `gf house-rule level_up.every_xp 0`).
    cli = Cli(str(tmp_path / "c.db"))
    cli("new", "Table", "--ruleset", ruleset)
    before = cli.events()
    refused = " ".join(cli(prefix, "house-rule", path, "0", code=2).output.split())
    assert f"{path} is a step the rules divide by" in refused and "at least 1, not 0" in refused
    assert "Traceback" not in refused and cli.events() == before
    cli(prefix, "house-rule", path, "1")  # the edge: one per one
    assert cli.events() > before


def test_gf_with_the_zero_steps_refused_the_roster_and_the_battle_end_still_work(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Sector", "--ruleset", "grimdark")
    cli("gf", "muster", "A", "--side", "S", "--models", "5", "--quality", "4", "--points", "100")
    cli("gf", "muster", "B", "--side", "R", "--models", "5", "--quality", "4", "--points", "100")
    cli("gf", "house-rule", "level_up.every_xp", "0", code=2)
    cli("gf", "house-rule", "underdog.per_points", "0", code=2)
    cli("gf", "roster")
    cli("gf", "battle-start", "X", "--unit", "A", "--unit", "B")
    cli("gf", "battle-end", "--winner", "S")
