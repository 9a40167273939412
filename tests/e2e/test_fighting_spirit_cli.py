"""A five-grade battle at the table through ``campaign fs``: table dice, explanations, --json, refusals."""

from __future__ import annotations

import itertools
import uuid
from pathlib import Path

import orjson
import pytest

from tests.e2e.test_cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "fs.db"))
    c("new", "Otlok Front", "--ruleset", "fighting-spirit")
    c("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5", "--radio")
    c(
        "fs",
        "muster",
        "Platoon HQ",
        "--side",
        "Steel",
        "--quality",
        "veteran",
        "--lv",
        "2",
        "--size",
        "4",
        "--radio",
        "--reports-to",
        "Company HQ",
    )
    c(
        "fs",
        "muster",
        "Steel Veterans",
        "--side",
        "Steel",
        "--quality",
        "veteran",
        "--lv",
        "2",
        "--size",
        "10",
        "--radio",
        "--reports-to",
        "Platoon HQ",
    )
    c(
        "fs",
        "muster",
        "Keno 3rd Squad",
        "--side",
        "Keno",
        "--quality",
        "regular",
        "--lv",
        "2",
        "--size",
        "7",
        "--keno-guard",
    )
    c(
        "fs",
        "battle-start",
        "Hill 203",
        "--side",
        "Keno=low",
        "--side",
        "Steel=medium",
        "--unit",
        "Keno 3rd Squad=fresh",
        "--unit",
        "Company HQ=tired",
        "--unit",
        "Platoon HQ=tired",
        "--unit",
        "Steel Veterans=tired,cover",
    )
    return c


def test_e3_at_the_table_prints_its_explanation_and_json_prints_the_events(cli: Cli) -> None:
    human = cli("fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "6").stdout
    human = " ".join(human.split())  # a long explanation wraps
    assert "LV 2 + threat 6" in human and "= 8" in human and "confident → steady" in human
    assert human.count("confident → steady") == 1  # said once: by the explanation, not again by the grade change
    as_json = cli.json("fs", "attack", "Keno 3rd Squad", "--leader-hit", "--dice", "3")
    types = [e["type"] for e in as_json["events"]]
    assert types == [
        "timeline.command_issued",
        "dice.rolled",
        "rules.applied",
        "battle.attack_resolved",
        "rules.applied",
        "morale.grade_changed",
    ]
    status = cli.json("fs", "battle-status")
    squad = next(u for u in status["units"] if u["unit"] == "Keno 3rd Squad")
    assert (squad["grade"], squad["men"], squad["unverified"], squad["dead"]) == ("broken", 3, 2, 2)


def test_e4_rally_through_the_chain_of_command(cli: Cli) -> None:
    cli("fs", "attack", "Steel Veterans", "--wounded", "2", "--dice", "1")
    cli("fs", "wounded", "Steel Veterans", "--abandoned")
    cli("fs", "attack", "Steel Veterans", "--wounded", "1", "--dice", "9")
    failed = cli.json("fs", "rally", "Steel Veterans", "--officer", "Company HQ", "--distance", "20", "--dice", "2")
    assert failed["events"][-2]["payload"]["outcome"]["result"] == "comms_failed"
    rallied = cli("fs", "rally", "Steel Veterans", "--officer", "Company HQ", "--distance", "20", "--dice", "5,8")
    assert "= 6" in rallied.stdout and "broken → shaken" in rallied.stdout
    refused = cli("fs", "rally", "Steel Veterans", "--officer", "Keno 3rd Squad", "--distance", "2", code=2)
    assert "direct chain of command" in refused.stderr


def test_house_rules_and_tables_with_provenance(cli: Cli) -> None:
    tables = cli.json("fs", "tables", "threats.leader_lost")
    assert tables["threats.leader_lost.medium"] == {"value": 3, "tag": "SEED", "erratum": "", "source": "SEED ex.1"}
    cli("fs", "house-rule", "threats.leader_lost.medium", "4", "--note", "officers matter more here")
    after = cli.json("fs", "tables", "threats.leader_lost.medium")
    assert after["threats.leader_lost.medium"]["value"] == 4
    assert after["threats.leader_lost.medium"]["source"].startswith("HOUSE RULE")
    before = cli.events()
    cli("fs", "house-rule", "threats.leader_lost.medium", "a lot", code=2)
    cli("fs", "morale", "Steel Veterans", "--threat", "werewolves", "--dice", "3", code=2)
    cli("fs", "attack", "Steel Veterans", "--killed", "-1", code=2)
    assert cli.events() == before
    assert orjson.loads(cli("verify", "--json").stdout)[0]["ok"]


def test_transfer_between_battles_and_its_refusals(cli: Cli) -> None:
    before = cli.events()
    in_battle = cli("fs", "transfer", "Steel Veterans", "Company HQ", "--men", "3", code=2).output
    assert "in the battle being fought" in in_battle and cli.events() == before
    cli("fs", "battle-end", "--result", "both sides withdraw")
    moved = cli.json("fs", "transfer", "Steel Veterans", "Company HQ", "--men", "3")
    event = moved["events"][-1]
    assert event["type"] == "roster.men_transferred" and event["payload"]["men"] == 3
    units = {u["name"]: u for u in cli.json("status")["units"]}
    assert (units["Steel Veterans"]["men"], units["Company HQ"]["men"]) == (7, 8)
    before = cli.events()
    refused = cli("fs", "transfer", "Steel Veterans", "Keno 3rd Squad", "--men", "1", code=2)
    assert "fights for Steel" in refused.output
    assert "has 7 men" in cli("fs", "transfer", "Steel Veterans", "Company HQ", "--men", "8", code=2).output
    assert "at least one man" in cli("fs", "transfer", "Steel Veterans", "Company HQ", "--men", "-2", code=2).output
    assert cli.events() == before
    assert "3 men transferred from Steel Veterans to Company HQ" in cli("log").output


def test_a_disbanded_unit_is_paid_no_more_and_fights_no_more(cli: Cli) -> None:
    assert "end the battle first" in cli("fs", "disband", "Platoon HQ", code=2).output
    cli("fs", "battle-end", "--result", "Steel withdraws")
    cli("fs", "disband", "Steel Veterans", "--reason", "sent home")
    units = {u["name"]: u for u in cli.json("status")["units"]}
    assert units["Steel Veterans"]["disbanded"] == "sent home" and units["Company HQ"]["disbanded"] is None
    before = cli.events()
    assert "was disbanded (sent home)" in cli("fs", "recruit", "Steel Veterans", "--men", "2", code=2).output
    battle = ("battle-start", "Ridge", "--side", "Keno=low", "--side", "Steel=low", "--unit", "Steel Veterans=fresh")
    assert "was disbanded" in cli("fs", *battle, code=2).output
    assert cli.events() == before
    cli("fs", "funds", "Steel", "100000", "--reason", "pay chest")
    paid = cli.json("fs", "month-end", "--pay", "Steel=100")
    settled = {e["payload"]["unit_id"] for e in paid["events"] if e["type"] == "economy.pay_settled"}
    assert units["Steel Veterans"]["unit_id"] not in settled and units["Company HQ"]["unit_id"] in settled
    assert "Steel Veterans disbanded: sent home" in cli("log").output
    inline = cli.json("status")
    cli("rebuild")
    assert cli.json("status") == inline


def test_battle_status_shows_the_battle_begun_last_whatever_the_ids_sort_as(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``battle-status`` between battles shows the last one begun (its help: "the battle being fought (or the last
    one)"), after an amendment, an undo and a rewind too. Each new id sorts before the one made before it, as a
    random id may: the state read back from its stored JSON keeps the battles in the order of their ids."""
    ids = itertools.count(2**120, -1)
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=next(ids)))
    cli = Cli(str(tmp_path / "two.db"))
    cli("new", "T", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "A", "--side", "X", "--quality", "regular", "--lv", "2", "--size", "7")
    cli("fs", "muster", "B", "--side", "Y", "--quality", "regular", "--lv", "2", "--size", "7")
    fight = ("--side", "X=low", "--side", "Y=low", "--unit", "A=fresh", "--unit", "B=fresh")

    def title() -> str:
        return str(cli("fs", "battle-status").stdout.splitlines()[0].strip())

    cli("fs", "battle-start", "First", *fight)
    cli("fs", "battle-end", "--winner", "X", "--result", "won")
    second = cli.json("fs", "battle-start", "Second", *fight)["events"][0]["seq"]
    cli("fs", "battle-end", "--winner", "Y", "--result", "lost")
    assert title() == "Second — turn 1 (ended)"
    assert cli.json("fs", "battle-status")["battle"] == "Second"
    kept = cli.events()
    cli("fs", "battle-start", "Third", *fight)
    assert title() == "Third — turn 1"
    cli("fs", "battle-end", "--winner", "X", "--result", "won")
    assert title() == "Third — turn 1 (ended)"
    cli("rewind", "--to", str(kept))
    assert title() == "Second — turn 1 (ended)"
    cli("amend", str(second), "--set", "name=Second Ridge", "--yes")
    assert title() == "Second Ridge — turn 1 (ended)"
    cli("undo")
    assert title() == "Second — turn 1 (ended)"
