"""A disorder-marker skirmish at the table through ``campaign dis``: table dice, --json, refusals, two battles,
the officers' careers, and a log that verifies with every rule re-evaluated."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "dis.db"))
    c("new", "Peninsula", "--ruleset", "disorder")
    c("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    c("dis", "muster", "Fusiliers", "--side", "French", "--models", "12", "--troops", "line", "--points", "80")
    c("dis", "muster", "Voltigeurs", "--side", "French", "--models", "8", "--troops", "light", "--points", "70")
    c("dis", "officer", "British", "Sharpe")
    c("dis", "officer", "French", "Dubreton")
    return c


def test_a_skirmish_and_the_careers_it_leaves(cli: Cli) -> None:
    cli("dis", "battle-start", "Sabugal", "--unit", "95th Rifles", "--unit", "Fusiliers", "--unit", "Voltigeurs")
    hit = cli.json("dis", "hit", "Fusiliers", "--lost", "3", "--dice", "2,1")
    check = next(e for e in hit["events"] if e["type"] == "rules.applied" and e["payload"]["rule"] == "morale_check")
    assert check["payload"]["outcome"] == {"total": 0, "result": "disordered"}
    roster = cli.json("dis", "roster")
    fusiliers = next(u for u in roster["units"] if u["unit"] == "Fusiliers")
    assert fusiliers["in_battle"] == {
        "models": 9,
        "markers": 1,
        "permanent": 0,
        "state": "disordered",
        "must_rally": False,  # next turn
    }
    cli("dis", "turn")
    assert "must rally" in cli("dis", "roster").stdout
    rally = cli.json("dis", "rally", "Fusiliers", "--officer-near", "--dice", "4,3")  # 7 + 0 − 1 + 1 = 7
    assert rally["events"][-1]["payload"]["reason"] == "rallied"
    cli("dis", "retreat", "Voltigeurs", "--needed", "3", "--moved", "0.5")
    cli("dis", "marker", "Voltigeurs", "--reason", "lost a melee")
    cli("dis", "officer-down", "French")
    cli("dis", "check", "Voltigeurs", "--cause", "officer_removed", "--dice", "6,5")
    cli("dis", "battle-end", "--winner", "British", "--objectives", "British=2")
    cli("dis", "battle-start", "Fuentes", "--unit", "95th Rifles", "--unit", "Fusiliers")
    assert next(u for u in cli.json("dis", "roster")["units"] if u["unit"] == "Fusiliers")["in_battle"]["markers"] == 0
    cli("dis", "remove", "Fusiliers", "--reason", "destroyed in melee")
    cli("dis", "battle-end", "--winner", "British")
    sharpe = cli.json("career", "Sharpe")
    assert sharpe["glory"] == 5 + 4 and sharpe["rank"] == "Lieutenant" and len(sharpe["battles"]) == 2
    assert "Glory 9" in cli("career", "Sharpe").stdout
    status = cli.json("status")
    assert {u["name"]: u["battles"] for u in status["units"]} == {"95th Rifles": 2, "Fusiliers": 2, "Voltigeurs": 1}
    assert "Dubreton" in cli("status").stdout
    report = cli.json("verify")[0]  # chain, schemas, dice, and every rule re-evaluated: no drift
    assert report["ok"] and report["failures"] == []


def test_refusals_exit_two_and_append_nothing(cli: Cli) -> None:
    cli("dis", "hit", "Fusiliers", "--lost", "1", code=2)  # no battle yet
    cli("dis", "battle-start", "Sabugal", "--unit", "Fusiliers", code=2)  # one side only
    cli("dis", "muster", "Hussars", "--side", "French", "--models", "6", "--troops", "hussars", "--points", "5", code=2)
    cli("dis", "battle-start", "Sabugal", "--unit", "95th Rifles", "--unit", "Fusiliers")
    before = cli.events()
    cli("dis", "hit", "Fusiliers", "--lost", "1", "--dice", "7,1", code=2)
    cli("dis", "hit", "Fusiliers", "--lost", "-2", code=2)
    cli("dis", "hit", "Grenadiers", "--lost", "1", code=2)
    cli("dis", "check", "Fusiliers", "--cause", "weather", code=2)
    cli("dis", "retreat", "Fusiliers", "--needed", "three", code=2)
    cli("dis", "battle-end", "--objectives", "British=two", code=2)
    cli("dis", "house-rule", "check.pass_at", "many", code=2)
    assert cli.events() == before
    assert "INF" in cli("dis", "tables", "rally").stdout


def test_a_loss_larger_than_the_models_left_is_refused_in_words_and_nothing_is_appended(cli: Cli) -> None:
    """Like `fs attack`, a unit cannot lose more models than it has left (RULES.md §1.3–1.4 count the
    models lost to the action, and say nothing of capping a loss). Fusiliers: 12 models, 1 lost → 11 left."""
    cli("dis", "battle-start", "Sabugal", "--unit", "95th Rifles", "--unit", "Fusiliers")
    cli("dis", "hit", "Fusiliers", "--lost", "1", "--dice", "6,6")
    head = cli.json("log")["head_hash"]
    refused = cli("dis", "hit", "Fusiliers", "--lost", "12", "--dice", "6,6", code=2)
    assert "Fusiliers has 11 models left; it cannot lose 12" in refused.stderr
    assert "Traceback" not in refused.output and cli.json("log")["head_hash"] == head
    assert cli("dis", "hit", "Fusiliers", "--lost", "20", code=2).stderr.count("it cannot lose 20") == 1
    cli("dis", "hit", "Fusiliers", "--lost", "11")  # all that is left: the unit is destroyed, no check
    assert "Fusiliers lost 11 models (shooting): 0 left" in cli("log").stdout


OLD_CAPPED_HIT = (
    Path(__file__).resolve().parents[1] / "fixtures" / "logs_2026_12_01_dishit" / "disorder-capped-hit.jsonl"
)


def test_a_log_that_capped_a_hit_under_0_2_verifies_with_a_note_not_drift(tmp_path: Path) -> None:
    """``tests/fixtures/logs_2026_12_01_dishit/disorder-capped-hit.jsonl`` was exported by the code of 2026-12-01
    (rules 0.2): `dis hit Voltigeurs --lost 20` on its 12 models, capped to 12 unsaid. Today's rules (0.2.1) refuse
    that input; the log is honest, so verify passes and says why it differs (it failed, exit 3, as drift)."""
    cli = Cli(str(tmp_path / "old.db"))
    cli("import", str(OLD_CAPPED_HIT))
    [report] = cli.json("verify")
    assert report["ok"] is True, report
    assert [(c["command"], c["recorded_under"]) for c in report["rules_changed_since"]] == [("dis.hit", "0.2")]
    said = " ".join(cli("verify").stdout.split())
    assert "note: #14 dis hit was recorded under ruleset version 0.2" in said
