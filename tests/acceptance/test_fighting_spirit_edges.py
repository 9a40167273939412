"""RULES.md §0 and §5 thresholds that the full mutation run (scripts/mutation.py, 201 mutants) found untested, each on
both sides of its edge: the rally's 6" without a communication test, a distance of 0", a rally at the starting grade;
the reaction test's "roll > target"; who may test to leave cover or enter close combat; No step back at По; Kill on a
one-man unit; the psi effects' numbers; and §5's fatigue (3+ battles within 7 days, 7+ days of rest).
Expected values are worked by hand from RULES.md; the comments show the arithmetic."""

from __future__ import annotations

from dataclasses import replace

import pytest

from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.commands import Deployment
from campaign.rulesets.fighting_spirit.plugin import PLUGIN as FIGHTING_SPIRIT
from campaign.rulesets.fighting_spirit.state import CampaignState, UnitRecord
from campaign.rulesets.fighting_spirit.state import fold as fs_fold
from campaign.rulesets.fighting_spirit.tables import Tables
from campaign.tables import base_values
from events.errors import InvalidInputError
from tests.acceptance.conftest import FsTable, applied, dice

T = Tables.of(base_values("fighting_spirit"))
PSION = "Barf-jat Master"


@pytest.fixture
def line(table: FsTable) -> FsTable:
    # Keno at Medium motivation, all fresh (start Confident). The squad (Regular d8, LV 2) reports to its HQ (LV 2);
    # both have radios. The psion is a Master (d8).
    table.muster("HQ", quality="regular", leadership=2, size=4, radio=True)
    table.muster("Squad", quality="regular", leadership=2, size=8, radio=True, reports_to="HQ")
    table.muster(PSION, quality="regular", leadership=2, size=1, psi_rank="master")
    table.muster("Loner", side="Otlok", quality="regular", leadership=2, size=1)
    table.muster("Pair", side="Otlok", quality="regular", leadership=2, size=2)
    table.battle(
        {"Keno": "medium", "Otlok": "low"},
        *(Deployment(unit=n, fatigue="fresh") for n in ("HQ", "Squad", PSION, "Loner", "Pair")),
    )
    return table


def drop(front: FsTable, *faces: int) -> None:
    """One man killed per face: casualties at Medium, threat 1, target LV 2 + 1 = 3 on the d8; a 3 costs one grade
    (3 > 3 fails, 2·3 > 3), a 1 costs two (2·1 ≤ 3)."""
    for face in faces:
        front.ledger.execute(front.info, fsb.Attack.build(unit_name="Squad", killed=1, wounded=0), table=dice(face))


def unit_id(state: CampaignState, name: str) -> str:
    unit = state.unit_by_name(name)
    assert unit is not None, name
    return unit.unit_id


def rally(front: FsTable, distance: int, *faces: int) -> dict[str, object]:
    result = front.ledger.execute(
        front.info,
        fsb.Rally.build(unit_name="Squad", officer_name="HQ", distance=distance, in_sight=True),
        table=dice(*faces),
    )
    return applied(result)[0]


# -- §0.6 rally -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("distance", [0, 6])
def test_a_rally_within_6_inches_and_in_sight_needs_no_communication_test(line: FsTable, distance: int) -> None:
    # "skip it if the officer is within 6" AND in line of sight": one die, the rally test. Steady after a 3;
    # target LV 2 + LV 2 + no persisting threat = 4; a 5 on the squad's d8 rallies it to Confident.
    drop(line, 3)
    decided = rally(line, distance, 5)
    assert "no communication test" in str(decided["explanation"])
    assert decided["outcome"] == {"result": "rallied", "from": "steady", "to": "confident"}


def test_a_rally_at_7_inches_takes_the_communication_test_first(line: FsTable) -> None:
    # 7" is beyond 6": both have radios, the HQ's d8 (no link bypassed) must beat max(2, 2) = 2: a 3 does; then 5 > 4.
    drop(line, 3)
    decided = rally(line, 7, 3, 5)
    assert "communication: officer quality d8; need > 2" in str(decided["explanation"])
    assert decided["outcome"] == {"result": "rallied", "from": "steady", "to": "confident"}


def test_a_unit_at_its_starting_grade_has_nothing_to_rally(line: FsTable) -> None:
    # "morale can never rise above its starting grade": Confident is where it started.
    with pytest.raises(InvalidInputError, match="starting grade"):
        rally(line, 0, 5)


# -- §0.7 reaction tests ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "result"), [(4, "fail"), (5, "pass")])
def test_a_reaction_passes_only_above_the_target(line: FsTable, face: int, result: str) -> None:
    # "pass if roll > LV + threat": going prone in the open is threat 2, LV 2: target 4; 4 fails, 5 passes.
    decided = applied(
        line.ledger.execute(line.info, fsb.React.build(unit_name="Squad", action="go_prone_open"), table=dice(face))
    )[0]
    assert decided["outcome"]["result"] == result


def test_only_a_shaken_unit_in_cover_tests_to_leave_it(line: FsTable) -> None:
    # §0.3: По (Shaken) may leave cover only after a passed reaction test, threat 2: LV 2 + 2 = 4, a 5 passes.
    line.ledger.execute(line.info, fs.Position.build(unit_name="Squad", prone=None, in_cover=True))
    with pytest.raises(InvalidInputError, match="only a Shaken unit"):
        line.ledger.execute(
            line.info, fsb.React.build(unit_name="Squad", action="leave_cover_shaken"), table=dice(5)
        )  # still Confident
    drop(line, 1)  # −2: Confident → Shaken
    decided = applied(
        line.ledger.execute(line.info, fsb.React.build(unit_name="Squad", action="leave_cover_shaken"), table=dice(5))
    )[0]
    assert (decided["inputs"]["threat"], decided["outcome"]["result"]) == (2, "pass")


def test_a_broken_unit_may_not_enter_close_combat_a_shaken_one_may(line: FsTable) -> None:
    # §0.7: enter close combat at threat Ув 0, Ст 1, По 3; §0.3: a Broken unit may only withdraw or shoot back.
    drop(line, 1)  # Shaken: may try, at threat 3 (LV 2 + 3 = 5; a 6 passes)
    decided = applied(
        line.ledger.execute(line.info, fsb.React.build(unit_name="Squad", action="close_combat"), table=dice(6))
    )[0]
    assert (decided["inputs"]["threat"], decided["outcome"]["result"]) == (3, "pass")
    drop(line, 3)  # −1: Shaken → Broken
    with pytest.raises(InvalidInputError, match="may not enter close combat"):
        line.ledger.execute(line.info, fsb.React.build(unit_name="Squad", action="close_combat"), table=dice(6))
    # Nor may it go prone (R3-3: it may only move to its edge or to cover, withdraw, or fire back).
    with pytest.raises(InvalidInputError, match="Squad is broken: it may move"):
        line.ledger.execute(line.info, fsb.React.build(unit_name="Squad", action="go_prone_open"), table=dice(8))


# -- §0.9 No step back --------------------------------------------------------------------------------------------


def test_no_step_back_is_open_to_a_shaken_unit_and_names_12_inches(line: FsTable) -> None:
    # Condition 4: "grade is По or better": Shaken may try (d6, ≥ 6 stands). Condition 2 names 12".
    line.ledger.execute(line.info, fs.Position.build(unit_name="Squad", prone=None, in_cover=True))
    drop(line, 1)  # Shaken
    with pytest.raises(InvalidInputError, match='1 friendly unit is within 12"'):
        line.ledger.execute(
            line.info,
            fsb.LastStand.build(unit_name="Squad", friends_within_12=1, enemy_squads_in_sight=3),
            table=dice(6),
        )
    stand = line.ledger.execute(
        line.info, fsb.LastStand.build(unit_name="Squad", friends_within_12=0, enemy_squads_in_sight=3), table=dice(6)
    )
    assert applied(stand)[0]["outcome"]["result"] == "stands"


# -- §0.10 psionics -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("effect", "need"),
    [
        ("remove_suppression", 2),
        ("inspire", 4),
        ("no_step_back", 6),
        ("psi_detection", 1),
        ("avert_eyes", 1),
        ("psi_strike", 4),
        ("panic", 4),
        ("confusion", 4),
        ("psi_blast", 7),
        ("kill", 8),
    ],
)
def test_each_psi_effects_number(effect: str, need: int) -> None:
    # §0.10's table: "Need ≥".
    assert T.psi_threshold(effect) == need


@pytest.mark.parametrize(("face", "result"), [(3, "fail"), (4, "success")])
def test_confusion_succeeds_on_4_or_more(line: FsTable, face: int, result: str) -> None:
    # "Success = roll ≥ number": Confusion needs 4 on the Master's d8, at 0" (the first band, unshifted).
    decided = applied(
        line.ledger.execute(
            line.info,
            fsb.Psi.build(psion_name=PSION, target_name="Loner", effect="confusion", distance=0, in_sight=True),
            table=dice(face),
        )
    )
    assert decided[0]["outcome"]["result"] == result


def test_kill_is_refused_on_a_one_man_unit_and_allowed_on_two(line: FsTable) -> None:
    # "not usable on 1-man units" (R2-4 c: unless it has a crew-served weapon). The two-man unit: a 1 fails (need 8).
    with pytest.raises(InvalidInputError, match="one-man unit"):
        line.ledger.execute(
            line.info,
            fsb.Psi.build(psion_name=PSION, target_name="Loner", effect="kill", distance=5, in_sight=True),
            table=dice(8),
        )
    decided = applied(
        line.ledger.execute(
            line.info,
            fsb.Psi.build(psion_name=PSION, target_name="Pair", effect="kill", distance=5, in_sight=True),
            table=dice(1),
        )
    )
    assert decided[0]["outcome"]["result"] == "fail"


# -- §5 fatigue ---------------------------------------------------------------------------------------------------


def fatigue_of(table: FsTable, day: int, record: UnitRecord) -> str:
    table.muster("Alpha", quality="regular", leadership=2, size=8)
    state, tables = table.ledger.in_force(table.info, FIGHTING_SPIRIT)
    uid = unit_id(state, "Alpha")
    return str(replace(state, day=day, records={uid: record}).fatigue(uid, tables))


@pytest.mark.parametrize(
    ("battle_days", "fatigue"),
    [
        ((1, 4, 7), "exhausted"),  # three battles on days 1–7 of a 7-day span, today day 7
        ((0, 4, 7), "fresh"),  # day 0 is 8 days back: two battles within 7 days
        ((4, 7), "fresh"),  # two battles: not 3+
    ],
)
def test_exhausted_after_3_battles_within_7_days(table: FsTable, battle_days: tuple[int, ...], fatigue: str) -> None:
    # §5: "EXHAUSTED after 3+ battles within 7 days".
    assert fatigue_of(table, 7, UnitRecord(men=8, battle_days=battle_days)) == fatigue


@pytest.mark.parametrize(("rest", "fatigue"), [(6, "tired"), (7, "fresh")])
def test_fresh_after_7_days_of_rest(table: FsTable, rest: int, fatigue: str) -> None:
    # §5: 14 days at the front → TIRED; "7+ days of rest out of the line → FRESH".
    assert fatigue_of(table, 30, UnitRecord(men=8, front_days=14, rest_days=rest)) == fatigue


@pytest.mark.parametrize(("rest", "fatigue"), [(6, "tired"), (7, "fresh")])
def test_a_full_rest_clears_the_days_at_the_front(table: FsTable, rest: int, fatigue: str) -> None:
    # TIRED "after 14+ days at the front since the last rest": 14 days, then a rest, then a day back at the front.
    # A rest of 7 days is a rest (the count starts again: 1 day → fresh); 6 days is not (15 days → tired).
    table.muster("Alpha", quality="regular", leadership=2, size=8)
    table.ledger.execute(table.info, fs.PassDays.build(days=14, activity="front"))
    table.ledger.execute(table.info, fs.PassDays.build(days=rest, activity="rest"))
    table.ledger.execute(table.info, fs.PassDays.build(days=1, activity="front"))
    state, tables = table.ledger.in_force(table.info, FIGHTING_SPIRIT)
    assert state.fatigue(unit_id(state, "Alpha"), tables) == fatigue


@pytest.mark.parametrize(("side", "fatigue"), [("Keno", "tired"), ("Otlok", "fresh")])
def test_days_for_one_side_leave_the_other_sides_records(table: FsTable, side: str, fatigue: str) -> None:
    # §5: days at the front count for the units that spent them: 14 days for one side make only its units TIRED.
    table.muster("Alpha", quality="regular", leadership=2, size=8)
    table.muster("Bravo", side="Otlok", quality="regular", leadership=2, size=8)
    table.ledger.execute(table.info, fs.PassDays.build(days=14, activity="front", side=side))
    state, tables = table.ledger.in_force(table.info, FIGHTING_SPIRIT)
    assert state.fatigue(unit_id(state, "Alpha"), tables) == fatigue


def test_a_house_rule_on_rest_applies_to_the_very_next_days(table: FsTable) -> None:
    # A house rule makes 3 days of rest a full rest: 14 days at the front, the rule, 3 days of rest (a full rest now:
    # the front days start again), 1 day at the front → fresh (1 day, not 15).
    table.muster("Alpha", quality="regular", leadership=2, size=8)
    table.ledger.execute(table.info, fs.PassDays.build(days=14, activity="front"))
    table.ledger.execute(table.info, fs.HouseRule.build(path="campaign.fresh_after_rest_days", value=3))
    table.ledger.execute(table.info, fs.PassDays.build(days=3, activity="rest"))
    table.ledger.execute(table.info, fs.PassDays.build(days=1, activity="front"))
    state, tables = table.ledger.in_force(table.info, FIGHTING_SPIRIT)
    assert state.fatigue(unit_id(state, "Alpha"), tables) == "fresh"
    # The ruleset's own fold of the whole log (tables rebuilt at each house rule) agrees.
    again = fs_fold(table.ledger.store.read(table.info.campaign_id), base_values("fighting_spirit"))
    assert again.fatigue(unit_id(again, "Alpha"), tables) == "fresh"


def test_the_monthly_pay_is_10_a_man(table: FsTable) -> None:
    # §5 [PLACEHOLDER]: pay on, 10 a man a month: 8 men are due 80; paid in full, the treasury of 100 keeps 20.
    table.muster("Alpha", quality="regular", leadership=2, size=8)
    table.ledger.execute(table.info, fs.Funds.build(side="Keno", amount=100, reason="the war chest"))
    result = table.ledger.execute(table.info, fs.MonthEnd.build(pay_pct={"Keno": 100}))
    settled = [e.payload for e in result.events if e.type.endswith("pay_settled")]
    assert [(p["due"], p["paid"]) for p in settled] == [(80, 80)]
    state, _ = table.ledger.in_force(table.info, FIGHTING_SPIRIT)
    assert state.treasury["Keno"] == 20


def test_an_attack_may_take_every_man_left(line: FsTable) -> None:
    # Casualties are at most the men left: 8 of 8 is allowed (the squad is gone), 9 is refused.
    with pytest.raises(InvalidInputError, match="8 men left"):
        line.ledger.execute(line.info, fsb.Attack.build(unit_name="Squad", killed=5, wounded=4), table=dice(8))
    line.ledger.execute(line.info, fsb.Attack.build(unit_name="Squad", killed=4, wounded=4), table=dice(8))
    assert line.unit_state("Squad").men == 0


def test_the_first_suppression_counts_after_unsuppressing_fire(line: FsTable) -> None:
    # §0.5: "first time the unit is suppressed by fire" (Medium 1). A first attack kills a man but does not
    # suppress; the next suppresses with no casualties: that is its first suppression, threat 1, target 3: a 3 fails
    # (−1 grade, 2·3 > 3), so the squad, Confident, is now Steady.
    line.ledger.execute(line.info, fsb.Attack.build(unit_name="Squad", killed=1, wounded=0), table=dice(8))
    result = applied(
        line.ledger.execute(
            line.info, fsb.Attack.build(unit_name="Squad", killed=0, wounded=0, suppressing=True), table=dice(3)
        )
    )
    [test] = [d for d in result if d["rule"] == "morale_test"]
    assert test["inputs"]["target"] == 3
    assert line.grade("Squad") == "steady"


@pytest.mark.parametrize(("face", "result", "grade"), [(5, "rallied", "confident"), (4, "failed", "steady")])
def test_inspire_rallies_above_the_target(line: FsTable, face: int, result: str, grade: str) -> None:
    # §0.10 Inspire (≥ 4): "a rally test as if the psion were its direct commander nearby". Steady after a 3;
    # target LV 2 (psion) + LV 2 + no persisting threat = 4 on the squad's d8: 5 rallies, 4 does not.
    drop(line, 3)
    decided = applied(
        line.ledger.execute(
            line.info,
            fsb.Psi.build(psion_name=PSION, target_name="Squad", effect="inspire", distance=0, in_sight=True),
            table=dice(4, face),
        )
    )
    assert decided[-1]["outcome"] == {"result": result, "from": "steady", "to": grade}
    assert line.grade("Squad") == grade


def test_inspire_at_the_starting_grade_changes_nothing(line: FsTable) -> None:
    decided = applied(
        line.ledger.execute(
            line.info,
            fsb.Psi.build(psion_name=PSION, target_name="Squad", effect="inspire", distance=0, in_sight=True),
            table=dice(4),
        )
    )
    assert decided[-1]["outcome"] == {"result": "no_effect"}


@pytest.mark.parametrize(("face", "result"), [(5, "failed"), (6, "rallied")])
def test_a_rally_under_artillery_adds_its_threat(line: FsTable, face: int, result: str) -> None:
    # §0.6 [INF, from E4]: the rally's threat is the persisting "+" rows, artillery if still under fire (Medium +1).
    # Steady after a 3; target 2 + 2 + 1 = 5: 5 fails, 6 rallies.
    drop(line, 3)
    decided = applied(
        line.ledger.execute(
            line.info,
            fsb.Rally.build(unit_name="Squad", officer_name="HQ", distance=0, in_sight=True, under_artillery=True),
            table=dice(face),
        )
    )[0]
    assert (decided["inputs"]["target"], decided["outcome"]["result"]) == (5, result)


def test_removing_no_suppression_is_not_a_suppression(line: FsTable) -> None:
    # §0.10 Remove suppression (≥ 2) on a squad never suppressed; then fire suppresses it, no casualties: that is
    # still its first suppression (Medium 1): target 3, a 3 costs one grade.
    line.ledger.execute(
        line.info,
        fsb.Psi.build(psion_name=PSION, target_name="Squad", effect="remove_suppression", distance=0, in_sight=True),
        table=dice(2),
    )
    result = applied(
        line.ledger.execute(
            line.info, fsb.Attack.build(unit_name="Squad", killed=0, wounded=0, suppressing=True), table=dice(3)
        )
    )
    [test] = [d for d in result if d["rule"] == "morale_test"]
    assert test["inputs"]["target"] == 3
    assert line.grade("Squad") == "steady"


def test_with_the_ordinary_limits_kept_psi_panic_spares_only_a_unit_that_passed_its_test(line: FsTable) -> None:
    # R2-2's house rule (overrides false): §0.8 binds psi Panic too. The squad passed its panic test (d8 3 > LV 2):
    # "can never happen again", so psi Panic does nothing; the HQ (Regular, never tested) takes the test.
    line.ledger.execute(line.info, fsb.Panic.build(unit_name="Squad", trigger="terrifying_assault"), table=dice(3))
    line.ledger.execute(line.info, fs.HouseRule.build(path="psi.rules.overrides_ordinary_limits", value=False))
    spared = applied(
        line.ledger.execute(
            line.info,
            fsb.Psi.build(psion_name=PSION, target_name="Squad", effect="panic", distance=0, in_sight=True),
            table=dice(4),
        )
    )
    assert [d["outcome"]["result"] for d in spared] == ["no_effect"]
    tested = applied(
        line.ledger.execute(
            line.info,
            fsb.Psi.build(psion_name=PSION, target_name="HQ", effect="panic", distance=0, in_sight=True),
            table=dice(4, 3),
        )
    )
    assert [d["rule"] for d in tested][-1] == "panic_test" and tested[-1]["outcome"]["result"] == "pass"


@pytest.mark.parametrize(("face", "result"), [(6, "failed"), (7, "rallied")])
def test_a_rally_at_low_counts_each_unverified_casualty(table: FsTable, face: int, result: str) -> None:
    # §0.5 Low: +1 for each unverified casualty. Two wounded: casualties 2 + 2 × 1 = 4, target 2 + 4 = 6; d8 4:
    # −1 grade (4 ≤ 6, 2·4 > 6), Steady. The rally (§0.6, persisting rows only): 2 + 2 + 2 = 6: 6 fails, 7 rallies.
    table.muster("HQ", quality="regular", leadership=2, size=4, radio=True)
    table.muster("Squad", quality="regular", leadership=2, size=8, radio=True, reports_to="HQ")
    table.battle({"Keno": "low"}, *(Deployment(unit=n, fatigue="fresh") for n in ("HQ", "Squad")))
    table.ledger.execute(table.info, fsb.Attack.build(unit_name="Squad", killed=0, wounded=2), table=dice(4))
    assert table.grade("Squad") == "steady"
    decided = rally(table, 0, face)
    inputs, outcome = decided["inputs"], decided["outcome"]
    assert isinstance(inputs, dict) and isinstance(outcome, dict)
    assert (inputs["target"], outcome["result"]) == (6, result)
    assert "threat 2 (unverified_casualty +1×2)" in str(decided["explanation"])


# -- what the players read ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "said"), [(3, "−1 grade: confident → steady"), (4, "passes")])
def test_a_morale_test_says_the_grade_it_moves_to_and_only_then(line: FsTable, face: int, said: str) -> None:
    # Casualties at Medium: target 3; a 3 costs a grade (Confident → Steady), a 4 passes (no grade named).
    decided = applied(
        line.ledger.execute(line.info, fsb.Attack.build(unit_name="Squad", killed=1, wounded=0), table=dice(face))
    )
    [test] = [d for d in decided if d["rule"] == "morale_test"]
    assert str(test["explanation"]).endswith(f"rolled {face} → {said}")


@pytest.mark.parametrize(
    ("distance", "said"),
    [(12, "d8 rolled"), (13, "d6 (−1 step for range) rolled"), (25, "d4 (−2 steps for range) rolled")],
)
def test_a_psi_roll_beyond_the_first_band_says_its_steps(line: FsTable, distance: int, said: str) -> None:
    # §0.10: "each band beyond the first shifts the psi die down one step": d8 at 12" (the first band), d6 at 13",
    # d4 at 25".
    decided = applied(
        line.ledger.execute(
            line.info,
            fsb.Psi.build(psion_name=PSION, target_name="Loner", effect="confusion", distance=distance, in_sight=True),
            table=dice(1),
        )
    )
    assert said in str(decided[0]["explanation"])


@pytest.mark.parametrize(("face", "said"), [(5, "steady → confident"), (4, "no change")])
def test_an_inspired_rally_says_what_changed(line: FsTable, face: int, said: str) -> None:
    drop(line, 3)
    decided = applied(
        line.ledger.execute(
            line.info,
            fsb.Psi.build(psion_name=PSION, target_name="Squad", effect="inspire", distance=0, in_sight=True),
            table=dice(4, face),
        )
    )
    assert str(decided[-1]["explanation"]).endswith(f"rolled {face} → {said}")
