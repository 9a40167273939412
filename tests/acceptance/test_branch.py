"""What-if branches: sharing history up to SEQ, then diverging, the original untouched."""

from __future__ import annotations

import pytest

from campaign.commands import fold_for
from campaign.executor import TableEntry
from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.commands import Deployment
from campaign.timeline import branch
from events.envelope import RecordedEvent
from events.errors import InvalidInputError
from events.recorded import whole
from events.registry import registry
from events.verify import verify_events
from projections.fold import Summary
from projections.state.campaigns import CampaignInfo
from tests.conftest import Backend, make_ledger


def test_a_branch_diverges_and_the_original_is_untouched(backend: Backend) -> None:
    ledger = make_ledger(backend)
    ledger.create_campaign("Ardennes", "fighting-spirit")

    def info(name: str = "Ardennes") -> CampaignInfo:
        return ledger.resolve(name)

    ledger.execute(
        info(), fs.Muster.build(name="Alpha", side="Keno", profile={"quality": "regular", "leadership": 2, "size": 8})
    )
    ledger.execute(
        info(),
        fs.StartBattle.build(
            name="Bastogne", motivation={"Keno": "medium"}, deployments=[Deployment(unit="Alpha", fatigue="fresh")]
        ),
    )
    ledger.execute(
        info(), fsb.Attack.build(unit_name="Alpha", killed=1, wounded=1)
    )  # seeded dice: shared by both timelines
    at = info().last_seq
    with pytest.raises(InvalidInputError, match="middle of a command"):
        branch(ledger, info(), "What if", at - 1)
    branch(ledger, info(), "What if", at)
    fold = fold_for("fighting-spirit")
    assert fold is not None

    def summary(name: str) -> Summary:
        return fold.summary(ledger.states.get(info(name)))

    original_before = summary("Ardennes")
    assert summary("What if").units == original_before.units  # the shared history folds the same

    # The timelines diverge: the branch fights on, the original rests.
    ledger.execute(info("What if"), fsb.Attack.build(unit_name="Alpha", killed=2, wounded=0), table=TableEntry((8,)))
    ledger.execute(info("What if"), fs.EndBattle.build(result="a costly stand", winner=None))
    assert summary("Ardennes") == original_before, "commands in the branch never touch the original"
    ledger.execute(info(), fs.EndBattle.build(result="withdrawn", winner=None))
    ledger.execute(info(), fs.PassDays.build(days=7, activity="rest"))
    assert {u["name"]: u["men"] for u in summary("What if").units} == {"Alpha": 5}
    assert {u["name"]: u["men"] for u in summary("Ardennes").units} == {"Alpha": 7}

    # Both verify; the branch's new dice come from its own fresh seed, not the parent's future.
    reports = {}
    for name in ("Ardennes", "What if"):
        ledger.reveal(info(name))
        events = list(ledger.store.read(info(name).campaign_id))
        reports[name] = verify_events(events[0].campaign_id, events, registry)
        assert reports[name].ok, (name, reports[name].findings)
    assert reports["Ardennes"].rolls_rederived >= 1
    # The shared roll was made with the parent's first seed: the branch counts it until that seed is public.
    assert reports["What if"].rolls_pending >= 1 and reports["What if"].table_rolls == 1
    branch_roll = ledger.roll(info("What if"), "d100", "a what-if die")
    parent_roll = ledger.roll(info(), "d100", "the real die")
    b = next(e.payload for e in branch_roll.events if e.type == "dice.rolled")
    p = next(e.payload for e in parent_roll.events if e.type == "dice.rolled")
    # Each timeline numbers its own rolls on; the branch rolls with a seed of its own.
    assert whole(b["seed_epoch"]) > 0 and whole(p["seed_epoch"]) > 0
    branch_events = list(ledger.store.read(info("What if").campaign_id))
    parent_events = list(ledger.store.read(info().campaign_id))

    def seeds(evs: list[RecordedEvent]) -> set[object]:
        return {e.payload["commitment"] for e in evs if e.type == "dice.seed_committed"}

    assert seeds(branch_events) - seeds(parent_events), "the branch committed to a seed the parent never had"
