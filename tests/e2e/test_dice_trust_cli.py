"""Dice nobody steers unseen: chosen seeds and rolls no rule consumed are flagged; the seed held
here is checked; a checkpoint anchors the head outside the database."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.e2e.test_cli import SEED, Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(str(tmp_path / "c.db"))


def test_a_chosen_seed_is_recorded_as_chosen_and_flagged_a_drawn_one_is_not(cli: Cli) -> None:
    chosen = cli.json("new", "Chosen", "--ruleset", "disorder", "--seed", SEED)
    drawn = cli.json("new", "Drawn", "--ruleset", "disorder")
    assert chosen["events"][0]["payload"]["seed_chosen"] is True
    assert "seed_chosen" not in drawn["events"][0]["payload"]  # a drawn seed's creation keeps its old bytes
    flags = {r["campaign"]: [f["check"] for f in r["flags"]] for r in cli.json("verify", "--all")}
    assert flags == {"Chosen": ["chosen seed"], "Drawn": []}
    assert "typed in by the campaign's creator" in cli("verify", "-c", "Chosen").stdout


def test_a_roll_no_rule_consumed_is_flagged_one_a_rule_consumed_is_not(cli: Cli) -> None:
    cli("new", "Hill", "--ruleset", "fighting-spirit")
    cli("roll", "d20", "-p", "weather")
    cli("roll", "d6", "-p", "table", "--dice", "4")  # table dice take a roll index too: they can burn one
    report = cli.json("verify")[0]
    assert [(f["check"], f["seq"]) for f in report["flags"]] == [("throwaway roll", 3), ("throwaway roll", 5)]
    assert report["ok"]  # a flag, not a failure
    human = cli("verify").stdout
    assert "flagged #3 (dice · rolled): throwaway roll: roll 0 was consumed by no rule" in human  # its seq once
    assert "whoever holds the file can compute the coming rolls" in human


def test_up_to_five_throwaway_rolls_are_listed_more_are_summed_up_in_words(cli: Cli) -> None:
    """A long campaign has thousands of rolls no rule consumed: past five, verify says how many, the first five
    and how to see them all, instead of a line each."""
    cli("new", "Hill", "--ruleset", "fighting-spirit")
    for n in range(5):
        cli("roll", "d20", "-p", f"weather {n}")
    five = cli("verify").stdout
    assert five.count("was consumed by no rule") == 5 and "throwaway rolls," not in five  # 5: one a line
    cli("roll", "d20", "-p", "weather 5")
    six = cli("verify").stdout
    assert "was consumed by no rule" not in six  # 6: in words
    assert "6 throwaway rolls" in six and "the rolls at seq 3, 5, 7, 9, 11 and 1 more" in " ".join(six.split())
    assert "--all-flags" in six
    every = cli("verify", "--all-flags").stdout
    assert (
        every.count("was consumed by no rule") == 6
        and "flagged #13 (dice · rolled): throwaway roll: roll 5 was" in every
    )
    assert [f["seq"] for f in cli.json("verify")[0]["flags"]] == [3, 5, 7, 9, 11, 13]


def test_a_checkpoint_is_one_canonical_line_that_verify_reads_back(cli: Cli, tmp_path: Path) -> None:
    cli("new", "Hill", "--ruleset", "fighting-spirit")
    cli("roll", "d20", "-p", "weather")
    path = tmp_path / "cp.json"
    cli("checkpoint", "-o", str(path))
    lines = path.read_bytes().splitlines()
    item = orjson.loads(lines[0])
    assert len(lines) == 1 and item["seq"] == 3 and item["format"] == "campaign-ledger/checkpoint"
    assert item["head_hash"] == cli.json("log")["head_hash"]
    assert cli("checkpoint").stdout.strip().startswith('{"campaign_id":')  # to standard output, to sign
    assert cli.json("verify", "--checkpoint", str(path))[0]["ok"]
    assert cli.json("verify", "--expect-head", item["head_hash"])[0]["ok"]
    cli("roll", "d20", "-p", "later")
    assert cli.json("verify", "--checkpoint", str(path))[0]["ok"]  # the log grew: it still holds the checkpoint
    grown = cli.json("verify", "--expect-head", item["head_hash"], code=3)[0]
    assert "the log has grown past it" in grown["first_failure"]["message"]
    (tmp_path / "junk.json").write_text("hello")
    assert "not JSON" in cli("verify", "--checkpoint", str(tmp_path / "junk.json"), code=2).stderr
    assert "cannot read" in cli("verify", "--checkpoint", str(tmp_path / "none.json"), code=2).stderr
    assert "cannot write" in cli("checkpoint", "-o", str(tmp_path / "no" / "dir.json"), code=2).stderr


def test_audit_flags_a_throwaway_roll_and_a_chosen_seed(cli: Cli) -> None:
    cli("new", "Hill", "--ruleset", "fighting-spirit", "--seed", SEED)
    cli("roll", "d20", "-p", "weather")
    audit = cli.json("audit", "--roll", "0")
    assert "consumed by no rule" in audit["checks"]["dice"][0]["check"] and audit["seed_chosen"] is True
    assert "chosen by its creator" in cli("audit", "--roll", "0").stdout
