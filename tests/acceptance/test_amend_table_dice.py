"""A table die read wrong, corrected on the record ("that was a 4, not a 3"): ``amend SEQ --dice FACES --reason``,
on every backend. The expected outcomes are worked by hand from RULES.md §0.2, §0.4, §0.5 (R2-5 kept 2·roll ≤ T)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.executor import Ledger, TableEntry
from campaign.read.views import audit
from campaign.replay import RuleOutcome, Sandbox, command_groups
from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.commands import Deployment
from campaign.rulesets.fighting_spirit.plugin import PLUGIN as FIGHTING_SPIRIT
from campaign.timeline import Timeline
from events.errors import InvalidInputError
from events.recorded import JsonValue, whole
from events.recorded import seq as array
from events.registry import registry
from events.timeline import effective, retracted
from events.verify import verify_events
from projections.state.campaigns import CampaignInfo
from tests.conftest import Backend, make_ledger


def hill(backend: Backend) -> tuple[Ledger, dict[str, int]]:
    """Company HQ (Veteran: a d10, LV 2, 5 men) at Medium motivation, fresh (Confident). Two attacks, one man
    killed by each, the table's d10 entered by hand: 3, then 2."""
    ledger = make_ledger(backend)
    ledger.create_campaign("Hill 204", "fighting-spirit")

    def info() -> CampaignInfo:
        return ledger.resolve(None)

    ledger.execute(
        info(),
        fs.Muster.build(name="Company HQ", side="Steel", profile={"quality": "veteran", "leadership": 2, "size": 5}),
    )
    ledger.execute(
        info(),
        fs.StartBattle.build(
            name="Hill 204",
            motivation={"Steel": "medium"},
            deployments=[Deployment(unit="Company HQ", fatigue="fresh")],
        ),
    )
    first = ledger.execute(
        info(), fsb.Attack.build(unit_name="Company HQ", killed=1, wounded=0), table=TableEntry((3,))
    )
    second = ledger.execute(
        info(), fsb.Attack.build(unit_name="Company HQ", killed=1, wounded=0), table=TableEntry((2,))
    )
    roll = next(whole(e.payload["roll_index"]) for e in first.events if e.type == "dice.rolled")
    return ledger, {"first": first.events[0].seq, "second": second.events[0].seq, "roll": roll}


def grade(ledger: Ledger) -> tuple[str, int]:
    state, _ = ledger.in_force(ledger.resolve(None), FIGHTING_SPIRIT)
    battle = state.battles[state.active_battle or ""]
    unit = state.unit_by_name("Company HQ")
    assert unit is not None
    return battle.units[unit.unit_id].grade, battle.units[unit.unit_id].men


def morale(outcomes: list[RuleOutcome]) -> dict[str, JsonValue]:
    return next(o["outcome"] for o in outcomes if "morale test" in o["explanation"])


def log(ledger: Ledger) -> list[Any]:
    return list(ledger.store.read(ledger.resolve(None).campaign_id))


def test_a_misread_d10_corrected_from_3_to_4_passes_the_test_and_the_later_test_is_re_run(backend: Backend) -> None:
    ledger, seqs = hill(backend)
    # By hand, as entered. 1 killed of 5 (4 left, so not "more lost than left"): casualties from fire at Medium,
    # threat 1; no unverified wounded (+0). Target = LV 2 + 1 = 3. d10 3: not > 3, and 2·3 = 6 > 3 → −1 grade:
    # Confident → Steady. Then 1 killed of 4: target 3 again; d10 2: 2·2 = 4 > 3 → −1: Steady → Shaken.
    assert grade(ledger) == ("shaken", 3)
    before = log(ledger)

    # The table agrees the first d10 showed 4: 4 > 3 → no change (Confident); the second test, re-run on its own
    # d10 (2), now drops Confident → Steady. Read from the amended command on or read whole: the same events.
    said = "the die was on its edge: the table says 4"
    timeline, info = Timeline(ledger), ledger.resolve(None)
    _, windowed = timeline.amendment(info, seqs["first"], {}, table=[4], reason=said)
    _, whole = timeline.amendment(info, seqs["first"], {}, table=[4], reason=said, whole_log=True)
    assert [(e.type, e.payload) for e in windowed] == [(e.type, e.payload) for e in whole]
    assert [e.type for e in windowed][:2] == ["timeline.rewound", "dice.corrected"]
    report = Timeline(ledger).amend(
        ledger.resolve(None), seqs["first"], {}, dice=[4], reason="the die was on its edge: the table says 4"
    )
    assert grade(ledger) == ("steady", 3)
    assert report.rerun == 1 and report.dropped == []
    first, second = report.changes
    assert morale(first.before)["result"] == "fail" and morale(first.after)["result"] == "pass"
    assert "d10 rolled 4" in first.after[-1]["explanation"]
    assert (morale(second.before)["from"], morale(second.before)["to"]) == ("steady", "shaken")
    assert (morale(second.after)["from"], morale(second.after)["to"]) == ("confident", "steady")
    [fixed] = report.corrected
    assert (fixed.roll_index, fixed.faces_before, fixed.faces) == (seqs["roll"], (3,), (4,))

    after = log(ledger)
    # Nothing deleted: the log as it was is a prefix of the log now, the 3 still in it and never retracted.
    assert after[: len(before)] == before
    old = next(e for e in after if e.type == "dice.rolled" and e.payload["roll_index"] == seqs["roll"])
    assert old.payload["faces"] == [3] and old.seq not in retracted(after)
    # The correction: integers and strings, who made it and why; the 4 is new table dice under a new roll index.
    [corrected] = [e for e in after if e.type == "dice.corrected"]
    new = next(e for e in after if e.type == "dice.rolled" and e.seq > len(before))
    assert corrected.payload == {
        "roll_index": seqs["roll"],
        "notation": "d10",
        "faces_before": [3],
        "faces": [4],
        "replaced_by": new.payload["roll_index"],
        "amends": seqs["first"],
        "by": "gm",
        "reason": "the die was on its edge: the table says 4",
    }
    assert new.payload["source"] == "table" and new.payload["faces"] == [4]
    assert new.payload["roll_index"] > max(e.payload["roll_index"] for e in before if e.type == "dice.rolled")
    # The 3 was misread, not rolled and retracted: it is not left on the table for the next d10.
    assert ledger.resolve(None).on_table == ()
    # Verify passes (a flag, not a failure), and a replay of the log gives the same state.
    report_ok = verify_events(after[0].campaign_id, after, registry)
    assert report_ok.ok, report_ok.findings
    [flag] = [f for f in report_ok.flags if f.check == "table dice corrected"]
    assert flag.seq == corrected.seq and "entered as 3, corrected to 4" in flag.message and "by gm" in flag.message
    assert Timeline(ledger).reevaluate(ledger.resolve(None)) == []
    replayed = Sandbox(ledger, after)
    assert replayed.ledger.states.get(replayed.info(after[0].campaign_id)) == ledger.states.get(ledger.resolve(None))


def test_audit_of_the_corrected_roll_says_from_what_to_what_by_whom_and_why(backend: Backend) -> None:
    ledger, seqs = hill(backend)
    Timeline(ledger).amend(ledger.resolve(None), seqs["first"], {}, dice=[4], reason="the table says 4")
    found = audit(ledger, ledger.resolve(None), roll=seqs["roll"])
    [check] = found["checks"]["dice"]
    assert "corrected from 3 to 4" in check["check"] and "by gm" in check["check"]
    assert "the table says 4" in check["check"]
    assert check["changed"]["faces_before"] == [3] and check["changed"]["faces"] == [4]
    new_roll = check["changed"]["replaced_by"]
    [again] = audit(ledger, ledger.resolve(None), roll=new_roll)["checks"]["dice"]
    assert "corrected from 3 to 4" in again["check"]


def test_a_correction_and_an_input_change_together(backend: Backend) -> None:
    ledger, seqs = hill(backend)
    # By hand: 2 killed of 5 (3 left): not more lost than left; threat 1, target 3. d10 4 > 3 → holds:
    # Confident, 3 men. The second test (1 killed, 2 left): 3 lost this battle > 2 left (R3-5 counts the whole
    # battle), so the row "more men lost than remain" at Medium: threat 3, target 5; its own d10 2, 2·2 = 4 ≤ 5
    # → −2 grades: Shaken, 2 men.
    Timeline(ledger).amend(ledger.resolve(None), seqs["first"], {"killed": 2}, dice=[4], reason="both misread")
    assert grade(ledger) == ("shaken", 2)


def test_refusals_append_nothing(backend: Backend) -> None:
    ledger, seqs = hill(backend)
    seeded = ledger.execute(
        ledger.resolve(None), fsb.Attack.build(unit_name="Company HQ", killed=0, wounded=1)
    )  # the campaign's own dice
    timeline, info = Timeline(ledger), ledger.resolve(None)
    length = len(log(ledger))
    muster = next(g for g in command_groups(effective(log(ledger))) if g.issued is not None and g.first_seq > 1)
    cases = [
        (seqs["first"], [4], "", "needs a reason"),
        (seqs["first"], [4], "   ", "needs a reason"),
        (seeded.events[0].seq, [4], "misread", "seeded dice: a seeded roll cannot be changed"),
        (muster.first_seq, [4], "misread", "rolled no dice"),
        (seqs["first"], [11], "misread", "11 is not a face of a d10"),
        (seqs["first"], [0], "misread", "0 is not a face of a d10"),
        (seqs["first"], [4, 2], "misread", "not used"),
        (seqs["first"], [3], "misread", "nothing to correct"),
    ]
    for seq, faces, reason, words in cases:
        with pytest.raises(InvalidInputError, match=words):
            timeline.amend(info, seq, {}, dice=faces, reason=reason)
        with pytest.raises(InvalidInputError, match=words):
            timeline.amend(info, seq, {}, dice=faces, reason=reason, dry_run=True)
    assert len(log(ledger)) == length
    # The faces at both edges of the d10 are taken.
    for face in (1, 10):
        timeline.amend(info, seqs["first"], {}, dice=[face], reason="edge", dry_run=True)


def test_undo_of_a_correction_brings_back_the_command_as_entered_and_leaves_the_4_on_the_table(
    backend: Backend,
) -> None:
    ledger, seqs = hill(backend)
    Timeline(ledger).amend(ledger.resolve(None), seqs["first"], {}, dice=[4], reason="the table says 4")
    Timeline(ledger).undo(ledger.resolve(None))
    assert grade(ledger) == ("shaken", 3)
    events = log(ledger)
    [corrected] = [e for e in events if e.type == "dice.corrected"]
    assert corrected.seq in retracted(events)
    # The 4 rolled by the amendment is a die of a command taken back: it stays on the table, the 3 does not.
    new = corrected.payload["replaced_by"]
    assert ledger.resolve(None).on_table_index == (new,)
    assert verify_events(events[0].campaign_id, events, registry).ok


def test_a_later_amendment_keeps_the_correction(backend: Backend) -> None:
    ledger, seqs = hill(backend)
    Timeline(ledger).amend(ledger.resolve(None), seqs["second"], {}, dice=[5], reason="the table says 5")
    # By hand: the first test as entered (d10 3 → Steady); the second, corrected to 5 > 3 → holds: Steady.
    assert grade(ledger) == ("steady", 3)
    # Then the first attack's input is amended: 1 killed stays, 1 wounded added (Medium: +0 a wounded man).
    # 2 lost of 5, 3 left: threat 1, target 3; d10 3 → −1: Steady. The second (1 killed, 2 left): 3 lost this
    # battle > 2 left (R3-5), threat 3, target 5; its corrected 5 is not above 5 but 2·5 > 5 → −1: Shaken, 2 men.
    Timeline(ledger).amend(ledger.resolve(None), seqs["first"], {"wounded": 1})
    events = log(ledger)
    live = [e for e in effective(events) if e.type == "dice.corrected"]
    assert [e.payload["faces"] for e in live] == [[5]], "the correction is still in effect, said once"
    assert ledger.resolve(None).on_table == ()
    assert grade(ledger) == ("shaken", 2)
    assert verify_events(events[0].campaign_id, events, registry).ok
    assert Timeline(ledger).reevaluate(ledger.resolve(None)) == []


def test_verify_fails_a_correction_of_a_seeded_roll_written_past_the_program() -> None:
    """Only a table entry can be corrected: a ``dice.corrected`` naming a seeded roll (appended by hand, with a
    good chain) is a failure of `verify`, named, not a flag."""
    from events.families.dice import DiceCorrected

    ledger, _ = hill(Backend("memory"))
    seeded = ledger.execute(ledger.resolve(None), fsb.Attack.build(unit_name="Company HQ", killed=0, wounded=1))
    roll = next(e.payload for e in seeded.events if e.type == "dice.rolled")
    assert roll["source"] == "seeded"
    forged = DiceCorrected(
        roll_index=whole(roll["roll_index"]),
        notation="d10",
        faces_before=tuple(map(whole, array(roll["faces"]))),
        faces=(10,),
        amends=seeded.events[0].seq,
        by="gm",
        reason="I liked a 10 better",
    )
    ledger.record(ledger.resolve(None), [forged], "amend")
    events = log(ledger)
    report = verify_events(events[0].campaign_id, events, registry)
    assert not report.ok and report.first is not None
    assert report.first.seq == events[-1].seq and "only a table entry can be corrected" in report.first.message
