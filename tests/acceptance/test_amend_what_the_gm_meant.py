"""Amend does what the game master meant (DESIGN.md, "Rewinding and auditing"): a later command that no longer
applies is skipped alone, its dice back on the table, and nothing it decided stays in effect; every later command
that still applies is kept; a corrected command that needs fewer dice is accepted, one that needs more takes them
as any command does; the preview says each later command's fate, and the amendment is exactly that.

Worked by hand from RULES.md §0.4–0.5 (an attack's morale test: LV + threat ≥ the quality die passes; the threat
rows of §0.5) and the fighting-spirit tables (threat at Keno's low motivation: first suppression 3, casualties 2,
each unverified casualty +1; a regular rolls a d8)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.executor import Ledger, TableEntry
from campaign.replay import command_groups
from campaign.rulesets.fighting_spirit.battle_commands import Attack
from campaign.rulesets.fighting_spirit.commands import Funds, Muster, StartBattle
from campaign.timeline import Timeline
from events.recorded import obj
from events.registry import registry
from events.timeline import effective
from events.verify import verify_events
from tests.conftest import Backend, make_ledger

SQUAD = "Keno 3rd Squad"


def run(ledger: Ledger, command: Any, *faces: int) -> int:
    """Run a command (on those table dice); the seq it starts at."""
    table = TableEntry(faces) if faces else None
    return ledger.execute(ledger.resolve(None), command, table=table).events[0].seq


def patrol() -> Ledger:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Patrol", "fighting-spirit")
    profile = {"quality": "regular", "leadership": 2, "size": 7}
    run(ledger, Muster.build(name=SQUAD, side="Keno", profile=profile))
    run(ledger, Muster.build(name="Company HQ", side="Steel", profile={**profile, "quality": "veteran", "size": 5}))
    deployed = ({"unit": SQUAD, "fatigue": "fresh"}, {"unit": "Company HQ", "fatigue": "fresh"})
    run(ledger, StartBattle.build(name="Hill 203", motivation={"Keno": "low", "Steel": "medium"}, deployments=deployed))
    return ledger


def attack(unit: str = SQUAD, **kw: Any) -> Attack:
    return Attack.build(unit_name=unit, **{"killed": 0, "wounded": 0, **kw})


def in_effect(ledger: Ledger) -> list[tuple[str, dict[str, Any]]]:
    events = effective(ledger.store.read(ledger.resolve(None).campaign_id))
    return [
        (str(g.issued.payload["command"]), dict(obj(g.issued.payload["args"])))
        for g in command_groups(events)
        if g.issued
    ]


def unit(ledger: Ledger, name: str = SQUAD) -> Any:
    state = ledger.states.get(ledger.resolve(None))
    found = state.unit_by_name(name)
    return state.battles[state.active_battle].units[found.unit_id]


def verified(ledger: Ledger) -> None:
    info = ledger.resolve(None)
    report = verify_events(info.campaign_id, list(ledger.store.read(info.campaign_id)), registry)
    assert report.ok, report.findings
    assert Timeline(ledger).reevaluate(info) == []


def test_a_later_command_that_rolls_fewer_dice_is_in_effect_once() -> None:
    """The first attack kills one (casualties 2, LV 2: target 4; d8 6 > 4, no change); the second only suppresses
    (its first suppression, 2: target 4; d8 2 ≤ 4 and 2×2 ≤ 4, −2 grades). Amended so that the first attack also
    suppressed, the second is no first suppression and calls for no test: it is changed (its d8 back on the table)
    and in effect once. Before, it was said to be dropped "with the commands after it (enter them again)" while its
    re-run stayed in the log and in effect, so entering it again, as told, applied it twice."""
    ledger = patrol()
    first = run(ledger, attack(killed=1), 6)
    second = run(ledger, attack(suppressing=True), 2)
    run(ledger, Funds.build(side="Keno", amount=100, reason="the chest"))
    report = Timeline(ledger).amend(ledger.resolve(None), first, {"suppressing": True})
    assert report.dropped == []
    assert (report.fates[0].seq, report.fates[0].kind, report.fates[0].back_on_table) == (second, "changed", 1)
    commands = in_effect(ledger)
    assert commands.count(("fs.attack", attack(suppressing=True).inputs())) == 1, "in effect once, not twice"
    assert commands.count(("fs.funds", {"side": "Keno", "amount": 100, "reason": "the chest"})) == 1
    assert ledger.resolve(None).on_table_index == (1,), "the second attack's d8 is back on the table"
    assert unit(ledger).ever_suppressed and unit(ledger).men == 6 and unit(ledger).grade == "confident"
    verified(ledger)


def test_a_skipped_command_alone_the_rest_of_the_evening_kept() -> None:
    """Correcting one casualty in the first attack kept every later command that still applies: the squad's
    attacks after it that now find it wiped out are skipped, and the attacks on Company HQ after them are kept."""
    ledger = patrol()
    first = run(ledger, attack(killed=2, wounded=2), 6)
    later = [
        run(ledger, attack(killed=1), 3),
        run(ledger, attack("Company HQ", killed=1), 2),
        run(ledger, attack(killed=1), 7),
        run(ledger, attack("Company HQ", wounded=1), 9),
    ]
    report = Timeline(ledger).amend(ledger.resolve(None), first, {"killed": 5})
    kinds = {f.seq: f.kind for f in report.fates}
    assert kinds == {later[0]: "no longer applies", later[1]: "unchanged", later[2]: "no longer applies",
                     later[3]: "unchanged"}  # fmt: skip
    assert unit(ledger, "Company HQ").men == 3 and unit(ledger).men == 0
    assert ledger.resolve(None).on_table_index == (1, 3), "both skipped attacks' d8s on the table, as rolled"
    verified(ledger)


def test_a_corrected_command_that_needs_fewer_dice_is_accepted() -> None:
    """The first attack only suppresses (first suppression: its test, d8 2 ≤ 5, passes); the second kills one and
    suppresses (casualties: its test). Amended to kill none, the second calls for no test: it was refused before
    ("it now rolls fewer dice"); now it is accepted and its d8 is back on the table."""
    ledger = patrol()
    run(ledger, attack(suppressing=True), 2)
    second = run(ledger, attack(killed=1, suppressing=True), 4)
    report = Timeline(ledger).amend(ledger.resolve(None), second, {"killed": 0})
    assert report.amended is not None and report.amended.back_on_table == 1
    assert [o["rule"] for o in report.amended.after] == ["attack"]
    assert ledger.resolve(None).on_table_index == (1,)
    assert unit(ledger).men == 7
    verified(ledger)


def test_a_command_that_needs_more_dice_takes_them_as_any_command_does() -> None:
    """The first attack suppresses (its first suppression, target 4; d8 2 → −2 grades); the second suppresses again
    (nothing to test, no die). Amended so that the first only killed one (casualties, target 4, its own d8 2), the
    second is the first suppression: a test, and a die it never rolled. The preview says so and appends nothing
    (the campaign's die is not rolled in a preview); with the table's die given (--dice 8), the amendment is what
    the preview said: target 4, d8 8 > 4, no change, and the die is recorded as the table's."""
    from events.dice.rerun import TypedFaces

    ledger = patrol()
    first = run(ledger, attack(suppressing=True), 2)
    run(ledger, attack(suppressing=True))
    timeline = Timeline(ledger)
    head = ledger.resolve(None).last_seq
    unknown, batch = timeline.preview(ledger.resolve(None), first, {"suppressing": False, "killed": 1})
    assert batch is None and not unknown.exact and ledger.resolve(None).last_seq == head
    assert [(f.kind, [d.notation for d in f.new_dice]) for f in unknown.fates] == [("new dice", ["d8"])]
    preview, batch = timeline.preview(
        ledger.resolve(None), first, {"suppressing": False, "killed": 1}, new_dice=TypedFaces([8], "gm")
    )
    assert preview.exact and batch is not None and ledger.resolve(None).last_seq == head
    done = timeline.apply(ledger.resolve(None), preview, batch)
    assert done.kept() == preview.kept() and done.fates[0].after[-1]["outcome"]["result"] == "pass"
    rolled = [e.payload for e in done.result.events if e.type == "dice.rolled"]  # type: ignore[union-attr]
    assert [(d["faces"], d["source"]) for d in rolled] == [([8], "table")]
    verified(ledger)


@pytest.mark.parametrize("faces", [[], [1, 2]])
def test_new_dice_given_must_be_the_ones_the_amendment_rolls(faces: list[int]) -> None:
    from events.dice.rerun import TypedFaces

    ledger = patrol()
    first = run(ledger, attack(suppressing=True), 2)
    run(ledger, attack(suppressing=True))
    before = ledger.resolve(None).last_seq
    with pytest.raises(Exception, match=r"more new dice than --dice gave|not used"):
        Timeline(ledger).amend(
            ledger.resolve(None), first, {"suppressing": False, "killed": 1}, new_dice=TypedFaces(faces, "gm")
        )
    assert ledger.resolve(None).last_seq == before


def test_audit_of_an_amended_roll_shows_the_ruling_in_force_first() -> None:
    """The squad's d8 (roll #0) first ruled RULES.md's E3 (2 killed, 2 wounded of 7: 4 + 2 + LV 2 = 8; 6 → −1
    grade). Amended to 1 killed and none wounded (casualties 2 + LV 2 = 4; 6 > 4, no change), the audit of roll #0
    gives the re-run's ruling in force first and marks the first one superseded by it (it gave the retracted ruling
    as its answer, unmarked)."""
    from campaign.read.views import audit

    ledger = patrol()
    first = run(ledger, attack(killed=2, wounded=2), 6)
    Timeline(ledger).amend(ledger.resolve(None), first, {"killed": 1, "wounded": 0})
    found = audit(ledger, ledger.resolve(None), roll=0)
    assert found["retracted"] is False, "a die rolled stays rolled"
    [in_force] = [r for r in found["in_force"] if "morale test" in r["explanation"]]
    assert in_force["seq"] > first and "threat 2" in in_force["explanation"]
    superseded = [r for r in found["superseded"] if "morale test" in r["explanation"]]
    assert (
        superseded
        and superseded[0]["seq"] < in_force["seq"]
        and superseded[0]["superseded_by"] == [r["seq"] for r in found["in_force"] if r["seq"] > superseded[0]["seq"]]
    )
