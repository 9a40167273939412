"""The doubts of a new player, through the real CLI: `mc es` is a reckoning that spends nothing and shows the
fraction R2-23 keeps; `fs house-rule` refuses a negative threat level in words, appending nothing."""

from __future__ import annotations

from pathlib import Path

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
