"""One decide path: a command is decided by ``Ledger.decide`` alone, whether it is entered (``execute``), counted
before it is rolled (a dry run), decided again (``audit``, ``verify``'s re-evaluation) or re-run by an amendment;
no module builds a rule's situation of its own (the re-evaluation used to copy the executor's dice-taken loop and
its "recorded ids, then fresh ones")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import campaign
from campaign.executor import Ledger, TableEntry
from campaign.read.views import audit
from campaign.rulesets.fighting_spirit.battle_commands import Attack
from campaign.rulesets.fighting_spirit.commands import Muster, StartBattle
from campaign.timeline import Timeline
from events.dice.ask import CountingDice
from tests.conftest import Backend, make_ledger


def attack(**kw: Any) -> Attack:
    return Attack.build(unit_name="Keno 3rd Squad", **{"killed": 0, "wounded": 0, **kw})


@pytest.fixture
def decided(monkeypatch: pytest.MonkeyPatch) -> tuple[Ledger, list[str], dict[str, int]]:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Patrol", "fighting-spirit")
    profile = {"quality": "regular", "leadership": 2, "size": 7}

    def run(command: Any, *faces: int) -> int:
        table = TableEntry(faces) if faces else None
        return ledger.execute(ledger.resolve(None), command, table=table).events[0].seq

    run(Muster.build(name="Keno 3rd Squad", side="Keno", profile=profile))
    deployed = ({"unit": "Keno 3rd Squad", "fatigue": "fresh"},)
    run(StartBattle.build(name="Hill", motivation={"Keno": "low"}, deployments=deployed))
    seqs = {"first": run(attack(killed=1), 6), "second": run(attack(suppressing=True), 2)}
    names: list[str] = []
    real = Ledger.decide

    def counted(self: Ledger, info: Any, command: Any, dice: Any, **kw: Any) -> Any:
        names.append(command.name)
        return real(self, info, command, dice, **kw)

    monkeypatch.setattr(Ledger, "decide", counted)
    return ledger, names, seqs


def test_audit_decides_the_roll_again_through_the_executors_decide(decided: tuple[Ledger, list[str], Any]) -> None:
    ledger, names, _ = decided
    audit(ledger, ledger.resolve(None), roll=0)
    assert names == ["fs.attack"]


def test_verifys_re_evaluation_decides_each_command_through_it(decided: tuple[Ledger, list[str], Any]) -> None:
    ledger, names, _ = decided
    assert Timeline(ledger).reevaluate(ledger.resolve(None)) == []
    assert names == ["fs.muster", "fs.battle_start", "fs.attack", "fs.attack"]


def test_an_amendment_and_its_preview_decide_through_it(decided: tuple[Ledger, list[str], Any]) -> None:
    ledger, names, seqs = decided
    Timeline(ledger).amend(ledger.resolve(None), seqs["first"], {"killed": 2}, dry_run=True)
    assert names == ["fs.attack", "fs.attack"], "the amended command, then the later one"
    names.clear()
    Timeline(ledger).amend(ledger.resolve(None), seqs["first"], {"killed": 2})
    assert names == ["fs.attack", "fs.attack"]


def test_a_dry_run_counts_dice_through_it(decided: tuple[Ledger, list[str], Any]) -> None:
    ledger, names, _ = decided
    info = ledger.resolve(None)
    ledger.dry_run(info, attack(killed=1), CountingDice("low", info.next_roll_index, ledger.on_table(info)))
    assert names == ["fs.attack"]


def test_no_module_but_the_executor_puts_a_command_in_a_situation_to_decide() -> None:
    root = Path(campaign.__file__).parent.parent
    builders = sorted(
        str(path.relative_to(root))
        for package in ("campaign", "events", "projections")
        for path in (root / package).rglob("*.py")
        if "Situation(" in path.read_text(encoding="utf-8")
    )
    assert builders == ["campaign/executor.py", "campaign/rulesets/command.py"]
