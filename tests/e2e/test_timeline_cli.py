"""Disputes and mistakes at the table: audit, verify with the rules re-evaluated, rewind, amend, log --all."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "t.db"))
    c("new", "Patrol", "--ruleset", "fighting-spirit")
    c("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    c("fs", "battle-start", "Hill 203", "--side", "Keno=low", "--unit", "Keno 3rd Squad=fresh")
    return c


def seq_of(result: dict[str, list[dict[str, object]]], kind: str) -> int:
    seq = next(e["seq"] for e in result["events"] if e["type"] == kind)
    assert isinstance(seq, int), seq
    return seq


def test_audit_a_roll_shows_who_what_why_and_three_checks(cli: Cli) -> None:
    attack = cli.json("fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2")
    roll = next(e["payload"]["roll_index"] for e in attack["events"] if e["type"] == "dice.rolled")
    audit = cli.json("audit", "--roll", str(roll))
    assert audit["actor"] == "tester" and audit["command"] == "fs.attack"
    assert audit["inputs"]["killed"] == 2 and audit["clauses"] == ["RULES.md §0.4", "RULES.md §0.5"]
    assert "= 8" in " ".join(audit["explanations"])
    assert audit["checks"]["chain"] == "intact up to here"
    assert "not revealed yet" in audit["checks"]["dice"][0]["check"]
    assert audit["checks"]["rule"] == "re-evaluated on its recorded inputs and dice: same outcome"
    cli("reveal")
    assert "matches" in cli.json("audit", "--roll", str(roll))["checks"]["dice"][0]["check"]
    assert "roll #" in cli("audit", str(seq_of(attack, "dice.rolled"))).stdout


def test_verify_reports_drift_when_the_engine_changes(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    cli("fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "5")
    assert cli.json("verify")[0]["ok"]
    import campaign.rulesets.fighting_spirit.rules as rules

    monkeypatch.setattr(rules, "morale_outcome", lambda roll, target: 0)  # "a new engine" that never fails
    report = cli.json("verify", code=3)[0]
    assert report["first_failure"]["check"] == "drift"
    said = cli("verify", code=3).output
    assert "the rules say:" in said and "the log records:" in said and "{'" not in said  # words, not dicts
    assert cli.json("verify", "--no-rules")[0]["ok"]  # the chain and the dice are untouched: history is not rewritten


def test_rewind_retake_amend_and_log_all(cli: Cli) -> None:
    first = cli.json("fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "5")
    second = cli.json("fs", "attack", "Keno 3rd Squad", "--leader-hit", "--dice", "6")
    status = cli.json("fs", "battle-status")["units"][0]
    assert (status["grade"], status["men"]) == ("shaken", 3)
    amended = cli.json("amend", str(seq_of(first, "rules.applied")), "--set", "killed=1", "--set", "wounded=0", "--yes")
    assert amended["rerun"] == 1 and len(amended["changed"]) == 2
    status = cli.json("fs", "battle-status")["units"][0]
    assert (status["grade"], status["men"]) == ("steady", 6)
    shown = cli.json("log")["events"]
    everything = cli.json("log", "--all")["events"]
    assert len(everything) > len(shown) and all(not e["retracted"] for e in shown)
    assert {e["seq"] for e in everything if e["retracted"]} >= {seq_of(second, "rules.applied")}
    assert "(retracted)" in cli("log", "--all").stdout
    unit_log = cli.json("log", "--unit", "Keno 3rd Squad")["events"]
    assert unit_log and all(e["payload"].get("unit_id") for e in unit_log)
    # Rewind the last test and take it again: new dice, never the rewound ones.
    head = cli.json("log")["events"][-1]["seq"]
    cli("rewind", "--to", str(head - 1), code=2)  # in the middle of a command
    cli("rewind", "--to", str(seq_of(first, "rules.applied") - 2), code=2)  # a retracted seq
    last_command = max(e["seq"] for e in cli.json("log")["events"] if e["type"] == "timeline.command_issued")
    cli.json("rewind", "--to", str(last_command - 1), "--reason", "the leader ducked")
    retaken = cli.json("fs", "attack", "Keno 3rd Squad", "--leader-hit")
    old = next(e["payload"]["roll_index"] for e in second["events"] if e["type"] == "dice.rolled")
    new = next(e["payload"]["roll_index"] for e in retaken["events"] if e["type"] == "dice.rolled")
    assert new > old
    audit = cli.json("audit", "--roll", str(old))
    assert any(u["retracted"] for u in audit["dice_used_by"])  # the audit shows the rewound use of the old die
    assert cli.json("verify")[0]["ok"]


def test_branch_on_the_command_line_leaves_the_original_alone(cli: Cli) -> None:
    cli("fs", "attack", "Keno 3rd Squad", "--killed", "1", "--wounded", "1", "--dice", "7")
    head = cli.json("log")["events"][-1]["seq"]
    before = cli.json("fs", "battle-status")
    made = cli.json("branch", "What if", "--at", str(head))
    # --json: the branch's own events and the count it shares, not every copied event (bounded memory)
    assert [e["type"] for e in made["events"]] == ["timeline.branched", "dice.seed_committed"]
    assert made["shared"] == head and made["head"]["seq"] == head + 2 == made["events"][-1]["seq"]
    cli("fs", "attack", "Keno 3rd Squad", "--killed", "3", "--dice", "1", "-c", "What if")
    assert cli.json("fs", "battle-status", "-c", "Patrol") == before
    assert cli.json("fs", "battle-status", "-c", "What if")["units"][0]["men"] == 2
    assert all(r["ok"] for r in cli.json("verify", "--all"))
    cli("branch", "Again", "--at", str(head - 1), code=2)  # the middle of a command
    cli("branch", "What if", "--at", str(head), code=2)  # the name is taken
    whole = cli.json("branch", "Whole", "-c", "Patrol")  # no --at: all of it, up to the head
    assert whole["shared"] == cli.json("log", "-c", "Patrol")["events"][-1]["seq"]
