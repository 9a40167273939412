"""`amend --dry-run` says what a person needs: the input corrected (was → now), the later commands whose rules
decide as before on one line, and the words of a later command only where what the rules decided changes. A new
user's amend of `mc funds` showed an empty "#4 mc funds:" and the first day at Bannok as changed, where only the
order of its Morale modifiers differed in the words ("home soil defence +2 hereditary enemy +1" and back)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e import walkthroughs
from tests.e2e.test_cli import Cli
from tests.e2e.walkthroughs import DAY1_DICE, EXAMPLES


def test_an_amend_that_changes_no_rule_says_its_input_and_no_change(tmp_path: Path) -> None:
    cli = walkthroughs.mass_combat(Cli(str(tmp_path / "mc.db")))
    purse = next(e["seq"] for e in cli.json("log")["events"] if e["payload"].get("side") == "Al-Wazif")
    cli("mc", "battle", str(EXAMPLES / "bannok-day1.toml"), "--dice", DAY1_DICE)
    preview = cli("amend", str(purse), "--set", "amount=500001", "--dry-run").stdout
    lines = preview.splitlines()
    assert lines[:2] == [
        f"would amend mc funds at #{purse}; 4 later commands re-run on their dice",
        "  amount: 500,000 → 500,001",
    ]
    assert len(lines) == 3 and lines[2].startswith("  unchanged: #") and lines[2].endswith(" mc battle")


def test_an_amend_that_changes_a_rule_says_its_input_and_what_the_rule_says_now(tmp_path: Path) -> None:
    cli = walkthroughs.five_grade(Cli(str(tmp_path / "fs.db")))
    attack = cli.json("fs", "attack", "Company HQ", "--killed", "1", "--dice", "2")["events"][0]["seq"]
    preview = cli("amend", str(attack), "--set", "killed=2", "--dry-run").stdout.splitlines()
    assert preview[1:4] == [
        "  killed: 1 → 2",
        f"  #{attack} fs attack:",
        "    was: Company HQ attacked: 1 killed, 0 wounded; 4 men left",
    ]
    assert preview[4] == "    now: Company HQ attacked: 2 killed, 0 wounded; 3 men left"


def test_an_input_is_named_for_amend_as_its_option_is_typed(tmp_path: Path) -> None:
    """`amend SEQ --set leader-hit=true` (the option is `--leader-hit`) was refused: "no input leader-hit (its
    inputs: … enemy_within, … leader_hit …)"; the recorded name still works."""
    cli = walkthroughs.five_grade(Cli(str(tmp_path / "fs.db")))
    attack = cli.json("fs", "attack", "Company HQ", "--killed", "1", "--dice", "9")["events"][0]["seq"]
    preview = cli("amend", str(attack), "--set", "leader-hit=true", "--dry-run").stdout
    assert "  leader hit: no → yes" in preview
    assert "  leader hit: no → yes" in cli("amend", str(attack), "--set", "leader_hit=true", "--dry-run").stdout
    refused = cli("amend", str(attack), "--set", "leader-hitt=true", code=2).stderr
    inputs = "air, artillery, assault, by, enemy-within, killed, leader-hit, suppressing"
    assert f"has no input leader-hitt (its inputs: {inputs}" in refused


def test_a_misspelt_unit_in_a_battle_file_gets_a_did_you_mean(tmp_path: Path) -> None:
    cli = walkthroughs.mass_combat(Cli(str(tmp_path / "mc.db")))
    setup = tmp_path / "typo.toml"
    setup.write_text((EXAMPLES / "bannok-day1.toml").read_text().replace('"LC archers"', '"LC archer"'))
    before = cli.events()
    refused = cli("mc", "battle", str(setup), "--dice", DAY1_DICE, code=2)
    assert "unknown unit 'LC archer'; did you mean 'LC archers' or 'Militia archers'?" in refused.stderr
    assert cli.events() == before


def test_correcting_one_die_of_a_battle_flags_that_die_only(tmp_path: Path) -> None:
    """A new user fixed one misread die of README's 36-die battle: the rolls re-entered as they were were each
    recorded and flagged as a "correction" ("3, 4, 3 → 3, 4, 3"); only the die that changed is one."""
    cli = walkthroughs.mass_combat(Cli(str(tmp_path / "mc.db")))
    battle = cli.json("mc", "battle", str(EXAMPLES / "bannok-day1.toml"), "--dice", DAY1_DICE)["events"][0]["seq"]
    faces = DAY1_DICE.split(",")
    faces[-1] = "3" if faces[-1] != "3" else "4"  # the last die was read wrong
    cli("amend", str(battle), "--dice", ",".join(faces), "--reason", "that was a 3, not a 4", "--yes")
    [report] = cli.json("verify")
    assert report["ok"] is True
    corrected = [f for f in report["flags"] if f["check"] == "table dice corrected"]
    assert len(corrected) == 1 and "corrected to" in corrected[0]["message"]
    said = cli("log").stdout
    assert "entered again as they were" in said and said.count("corrected from") == 1
