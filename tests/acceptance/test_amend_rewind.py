"""Amending a past command and rewinding (DESIGN.md "Rewinding and auditing"), on every backend."""

from __future__ import annotations

import pytest

from campaign.executor import Ledger, TableEntry
from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.commands import Deployment
from campaign.rulesets.fighting_spirit.plugin import PLUGIN as FIGHTING_SPIRIT
from campaign.timeline import Timeline
from events.errors import InvalidInputError
from events.recorded import whole
from events.registry import registry
from events.timeline import retracted
from events.verify import verify_events
from projections.state.campaigns import CampaignInfo
from tests.conftest import Backend, make_ledger


def dice(*faces: int) -> TableEntry:
    return TableEntry(faces)


def grade(ledger: Ledger, unit: str) -> tuple[str, int]:
    state, _ = ledger.in_force(ledger.resolve(None), FIGHTING_SPIRIT)
    battle = state.battles[state.active_battle or ""]
    found = state.unit_by_name(unit)
    assert found is not None
    u = battle.units[found.unit_id]
    return u.grade, u.men


def patrol(backend: Backend) -> tuple[Ledger, dict[str, int]]:
    """E3's patrol, then a second test that depends on the first: the leader is hit."""
    ledger = make_ledger(backend)
    ledger.create_campaign("Patrol", "fighting-spirit")

    def info() -> CampaignInfo:
        return ledger.resolve(None)

    ledger.execute(
        info(),
        fs.Muster.build(name="Keno 3rd Squad", side="Keno", profile={"quality": "regular", "leadership": 2, "size": 7}),
    )
    ledger.execute(
        info(),
        fs.StartBattle.build(
            name="Hill 203",
            motivation={"Keno": "low"},
            deployments=[Deployment(unit="Keno 3rd Squad", fatigue="fresh")],
        ),
    )
    first = ledger.execute(info(), fsb.Attack.build(unit_name="Keno 3rd Squad", killed=2, wounded=2), table=dice(5))
    second = ledger.execute(
        info(), fsb.Attack.build(unit_name="Keno 3rd Squad", killed=0, wounded=0, leader_hit=True), table=dice(6)
    )
    return ledger, {"first": first.events[0].seq, "second": second.events[0].seq}


def test_amending_an_early_test_changes_the_later_outcomes_as_worked_out_by_hand(backend: Backend) -> None:
    ledger, seqs = patrol(backend)
    # As played: 2 killed, 2 wounded of 7: base 4 (lost more than left) + 2 unverified = 6, LV 2 → 8; d8 5 → −1.
    # Then the leader is hit: 4 + 2 unverified = 6 → 8; d8 6 → −1 more: Shaken, 3 men.
    assert grade(ledger, "Keno 3rd Squad") == ("shaken", 3)
    before = list(ledger.store.read(ledger.resolve(None).campaign_id))

    # "It was 1 killed and no wounded!" By hand: casualties 2 (Low), no unverified → 4; d8 5 > 4 → holds.
    # The leader hit: 4, no unverified → 6; d8 6 ≤ 6 → −1: Steady, with 6 men.
    report = Timeline(ledger).amend(ledger.resolve(None), seqs["first"], {"killed": 1, "wounded": 0})
    assert grade(ledger, "Keno 3rd Squad") == ("steady", 6)
    assert report.rerun == 1 and report.dropped == []
    first, second = report.changes
    assert first.before[-1]["outcome"]["result"] == "fail" and first.after[-1]["outcome"]["result"] == "pass"
    assert second.before[-1]["outcome"]["to"] == "shaken" and second.after[-1]["outcome"]["to"] == "steady"
    assert "= 6; d8 rolled 6" in second.after[-1]["explanation"]

    after = list(ledger.store.read(ledger.resolve(None).campaign_id))
    gone = retracted(after)
    # The retracted events remain in the log, every one of them.
    assert [e for e in after if e.seq <= before[-1].seq] == [e._replace(position=e.position) for e in before]
    assert {e.seq for e in before if e.seq >= seqs["first"] and e.type != "dice.rolled"} <= gone
    # The amended commands used the very same dice (no new roll), and the log still verifies.
    assert not any(e.type == "dice.rolled" for e in after if e.seq > before[-1].seq)
    report_ok = verify_events(after[0].campaign_id, after, registry)
    assert report_ok.ok, report_ok.findings


def test_rewinding_and_retaking_a_test_rolls_new_dice(backend: Backend) -> None:
    ledger, seqs = patrol(backend)
    info = ledger.resolve(None)
    old = next(e for e in ledger.store.read(info.campaign_id) if e.type == "dice.rolled" and e.seq > seqs["second"])
    with pytest.raises(InvalidInputError, match="middle of a command"):
        Timeline(ledger).rewind(info, seqs["second"])
    Timeline(ledger).rewind(info, seqs["second"] - 1, "the leader was not hit after all")
    assert grade(ledger, "Keno 3rd Squad") == ("steady", 3)
    retaken = ledger.execute(
        ledger.resolve(None), fsb.Attack.build(unit_name="Keno 3rd Squad", killed=0, wounded=0, leader_hit=True)
    )
    new = next(e for e in retaken.events if e.type == "dice.rolled")
    assert whole(new.payload["roll_index"]) > whole(old.payload["roll_index"]), (
        "a rewound roll index is never used again"
    )
    events = list(ledger.store.read(info.campaign_id))
    assert old in events and old.seq not in retracted(events)  # the old die is still in the log
    assert verify_events(info.campaign_id, events, registry).ok


def test_amend_refuses_unknown_inputs_and_commands_without_a_record() -> None:
    ledger, seqs = patrol(Backend("memory"))
    before = len(list(ledger.store.read(ledger.resolve(None).campaign_id)))
    with pytest.raises(InvalidInputError, match="has no input bananas"):
        Timeline(ledger).amend(ledger.resolve(None), seqs["first"], {"bananas": 1})
    with pytest.raises(InvalidInputError, match="does not apply"):
        Timeline(ledger).amend(ledger.resolve(None), seqs["first"], {"killed": 99})
    with pytest.raises(InvalidInputError, match="not recorded with its inputs"):
        Timeline(ledger).amend(ledger.resolve(None), 1, {"name": "x"})
    assert len(list(ledger.store.read(ledger.resolve(None).campaign_id))) == before


def test_amend_passes_over_the_dice_a_rewind_left_behind(backend: Backend) -> None:
    """A rewound test's dice stay in the log with nothing to re-run: an amendment earlier goes past them."""
    ledger, seqs = patrol(backend)

    def info() -> CampaignInfo:
        return ledger.resolve(None)

    Timeline(ledger).rewind(info(), seqs["second"] - 1, "the leader was not hit")
    # The rewound test's d8 stays on the table (DESIGN.md, "Dice"): a new one only by a recorded reroll.
    ledger.reroll(info(), "the retaken attack is a different attack")
    ledger.execute(info(), fsb.Attack.build(unit_name="Keno 3rd Squad", killed=0, wounded=1), table=dice(8))
    # The retaken test rolls an 8 on the d8: it holds whatever the amended first test leaves the squad at.
    report = Timeline(ledger).amend(info(), seqs["first"], {"killed": 1, "wounded": 0})
    assert report.dropped == [], report.fates
    assert report.rerun == 1  # the retaken attack; the rewound one's dice are not a command
    events = list(ledger.store.read(info().campaign_id))
    assert verify_events(info().campaign_id, events, registry).ok


def test_a_rewind_never_retracts_a_revealed_or_committed_seed(backend: Backend) -> None:
    ledger, seqs = patrol(backend)
    ledger.reveal(ledger.resolve(None))
    ledger.execute(ledger.resolve(None), fsb.Attack.build(unit_name="Keno 3rd Squad", killed=0, wounded=1))
    Timeline(ledger).rewind(ledger.resolve(None), seqs["second"] - 1, "back to before the reveal")
    events = list(ledger.store.read(ledger.resolve(None).campaign_id))
    gone = retracted(events)
    seeds = [e.seq for e in events if e.type in ("dice.seed_revealed", "dice.seed_committed")]
    assert len(seeds) >= 2 and not gone & set(seeds)
    assert ledger.resolve(None).revealed_epochs == (0,)
    assert verify_events(ledger.resolve(None).campaign_id, events, registry).ok
