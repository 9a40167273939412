"""RULES.md second edition, seed 002: the errata a battle shows, fought through the public service.

Unless a test says otherwise the armies are units of 100 men (Average, Morale 13) whose TS is given as 0 per man,
so that no TS-comparison or special-unit bonus arises however they shrink; commanders have Strategy 12 and there
is no Morale ↔ TS rule, so a side's margin is 12 − its roll and W is the difference of the rolls.
"""

from __future__ import annotations

import pytest

from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from events.recorded import text
from tests.acceptance.mass_combat_table import BLUE, RED, War, applied, battle, d3, side, two_armies


@pytest.fixture
def war() -> War:
    return two_armies()


def test_r2_10_an_army_commanders_death_lasts_until_a_clear_victory_on_the_units_present(war: War) -> None:
    # Battle 1: Crimson's army commander (an NPC) is killed (18): −5 on every Crimson unit, base Strategy 12 → 6.
    # Crimson rolls 3 (margin 3), Azure 5 (margin 7): W 4, a minor victory for Azure; Crimson's units roll Morale
    # at 13 − 5 = 8.
    first = war.fight(battle("Battle 1", side("Crimson", RED), side("Azure", BLUE)), d3(18, 3, 3, 5))
    assert applied(first, "catastrophe")[0]["outcome"]["result"] == 18
    assert [d["inputs"]["morale"] for d in applied(first, "unit_morale")] == [8, 8]
    assert war.morale("Red foot") == -5 and war.morale("Red guard") == -5
    # A unit that joins Crimson after battle 1 never had it.
    war.muster("Red reserve", "Crimson")
    assert war.morale("Red reserve") == 0
    # Battle 2: Crimson wins with W 7 (rolls 4 and 11): minor, not clear: the −5 stays.
    second = war.fight(battle("Battle 2", side("Crimson", [*RED, "Red reserve"]), side("Azure", BLUE)), d3(3, 3, 4, 11))
    assert applied(second, "result")[0]["outcome"]["result"] == "minor_victory"
    assert applied(second, "result")[0]["inputs"]["w"] == 7
    assert applied(second, "result")[0]["outcome"]["clear_victory"] == "no"
    assert war.morale("Red foot") == -5 and war.morale("Red reserve") == 0
    # Battle 3: Crimson wins with W 8 (rolls 4 and 12): the −5 applies in battle 3 and is gone after it.
    third = war.fight(battle("Battle 3", side("Crimson", [*RED, "Red reserve"]), side("Azure", BLUE)), d3(3, 3, 4, 12))
    assert applied(third, "result")[0]["inputs"]["w"] == 8
    assert applied(third, "result")[0]["outcome"]["clear_victory"] == "yes"
    assert war.morale("Red foot") == 0 and war.morale("Red guard") == 0 and war.morale("Red reserve") == 0


def test_r2_10_a_clear_victory_clears_the_penalty_on_units_that_did_not_fight_in_it(war: War) -> None:
    # R2-10: "every lasting catastrophe penalty on that side's units is removed, whether or not the unit fought in
    # it". Battle 1: Crimson's commander killed (18): −5 on Red foot and Red guard. Battle 3, fought by Red foot
    # alone, won with W 8 (rolls 4 and 12): a clear victory, and Red guard, who sat it out, loses its −5 too.
    first = war.fight(battle("Battle 1", side("Crimson", RED), side("Azure", BLUE)), d3(18, 3, 3, 5))
    # the roll's line names the −5 apart from the base it comes off (it said "Morale 8 = 8")
    assert applied(first, "unit_morale")[0]["explanation"].startswith("Red foot: Morale 8 (base 13 −5) = 8, rolled")
    assert war.morale("Red foot") == -5 and war.morale("Red guard") == -5
    third = war.fight(battle("Battle 3", side("Crimson", ["Red foot"]), side("Azure", BLUE)), d3(3, 3, 4, 12))
    assert applied(third, "result")[0]["outcome"]["clear_victory"] == "yes"
    assert war.morale("Red foot") == 0 and war.morale("Red guard") == 0


def test_r2_10_a_win_that_is_not_clear_leaves_the_penalty_on_those_who_sat_it_out_too(war: War) -> None:
    war.fight(battle("Battle 1", side("Crimson", RED), side("Azure", BLUE)), d3(18, 3, 3, 5))
    second = war.fight(battle("Battle 2", side("Crimson", ["Red foot"]), side("Azure", BLUE)), d3(3, 3, 4, 11))
    assert applied(second, "result")[0]["outcome"]["clear_victory"] == "no"  # W 7: minor
    assert war.morale("Red foot") == -5 and war.morale("Red guard") == -5


def test_r2_10_a_major_unit_leader_killed_lasts_on_that_unit_only(war: War) -> None:
    # 17 on Red foot: −2 Strategy (10, rolls 3 → 7), −3 on Red foot; Azure rolls 11 → 1: W 6 for Crimson.
    result = war.fight(
        battle("Ford", side("Crimson", RED, catastrophe_unit="Red foot"), side("Azure", BLUE)), d3(17, 3, 3, 11)
    )
    assert applied(result, "catastrophe")[0]["outcome"]["result"] == 17
    assert war.morale("Red foot") == -3 and war.morale("Red guard") == 0


@pytest.mark.parametrize("result", [15, 16])
def test_r2_10_a_wounded_leader_ends_with_the_battle(war: War, result: int) -> None:
    # 15: −1 all, −2 on the unit; 16: −2 Strategy, −3 all. Crimson rolls 3, Azure 10: whatever the winner, after
    # the battle Crimson's units carry nothing.
    war.fight(
        battle("Mill", side("Crimson", RED, catastrophe_unit="Red foot"), side("Azure", BLUE)), d3(result, 3, 3, 10)
    )
    assert war.morale("Red foot") == 0 and war.morale("Red guard") == 0


def test_r2_10_titus_15_in_the_battle_16_after_it(war: War) -> None:
    # A Veteran unit, base Morale 15, +1 for good looting; catastrophe 15 on another unit: −1 all → 15 in the battle.
    war.muster("Titus's veterans", "Crimson", men=20, quality="veteran")
    war.ledger.execute(war.info, mc.Morale.build(name="good looting", value=1, unit="Titus's veterans"))
    units = ["Red foot", "Titus's veterans"]
    # Crimson 12 rolls 10 → 2; Azure 12 rolls 6 → 6: W 4, Crimson's units roll Morale.
    result = war.fight(
        battle("Hill", side("Crimson", units, catastrophe_unit="Red foot"), side("Azure", BLUE)), d3(15, 3, 10, 6)
    )
    titus = next(d for d in applied(result, "unit_morale") if d["explanation"].startswith("Titus"))
    assert titus["inputs"]["morale"] == 15
    assert 15 + war.morale("Titus's veterans") == 16


def test_r2_14_a_catastrophe_17_on_a_pc_leaves_him_unconscious_and_nothing_lasts(war: War) -> None:
    pc = {"name": "Caliburn", "side": "Crimson", "unit": "Red foot", "leads": "unit", "weapon": 14, "risk": 0}
    result = war.fight(
        battle("Bridge", side("Crimson", RED, catastrophe_unit="Red foot"), side("Azure", BLUE), pcs=[pc]),
        d3(17, 3, 3, 11),
    )
    assert applied(result, "catastrophe")[0]["outcome"]["knocked_out_pc"] == "Caliburn"
    assert not applied(result, "survival") and not applied(result, "glory")  # no rolls for him this battle
    assert war.morale("Red foot") == 0  # he was not killed: the −3 ended with the battle


@pytest.mark.parametrize(
    ("leads", "glory_roll", "modifier"),
    [("unit", 5, 1), ("army", 5, 2), ("nothing", 5, None), ("unit", 15, -1), ("army", 15, None)],
)
def test_r2_13_the_pcs_roll_before_the_contest_and_glory_reaches_it(
    war: War, leads: str, glory_roll: int, modifier: int | None
) -> None:
    # Battle skill (IQ 12 → Tactics 6, weapon 14) = 10; Risk 0: Survival 10, Glory 10. Survival 5: made by 5, unhurt.
    # Glory 5: made by 5 (+1 unit, +2 army); 15: failed by 5 (−1 unit, 0 army), with 1d months of Reputation.
    pc = {"name": "Caliburn", "side": "Crimson", "iq": 12, "weapon": 14, "risk": 0, "leads": leads}
    if leads == "unit":
        pc["unit"] = "Red foot"
    after_glory = d3(10) if glory_roll == 5 else [3]  # the promotion roll, or the 1d of months
    dice = [*d3(3, 3), *d3(5), *d3(glory_roll), *after_glory]
    result = war.fight(battle("Vale", side("Crimson", RED), side("Azure", BLUE), pcs=[pc]), dice)
    contest = applied(result, "strategy_contest")[0]
    assert contest["inputs"]["modifiers"]["Crimson"].get("Glory of Caliburn") == modifier
    survival = applied(result, "survival")[0]
    assert survival["inputs"]["target"] == 10 and survival["outcome"]["column"] == "unhurt"
    # The dice went in R2-13's order: catastrophes, then the PC, then the contest.
    order = [text(e.payload["purpose"]) for e in result.events if e.type == "dice.rolled"]
    assert order[2].startswith("Survival roll") and order[3].startswith("Glory roll")


@pytest.mark.parametrize(("roll", "made_by", "reputation"), [(3 + 2, 7, 1), (6, 6, 0)])
def test_glory_made_by_7_gives_reputation_and_6_does_not(war: War, roll: int, made_by: int, reputation: int) -> None:
    # Battle 10 (IQ 12, weapon 14), Risk −2: Glory 12. Rolled 5 → made by 7: +1 Reputation for 1d−2 months (min 1)
    # and a promotion roll; rolled 6 → made by 6: a promotion roll only. (3 is a critical success, so 5 is used.)
    pc = {"name": "Caliburn", "side": "Crimson", "iq": 12, "weapon": 14, "risk": -2}
    months = [4] if made_by == 7 else []
    dice = [*d3(3, 3), *d3(3 + 3), *d3(roll), *months, *d3(10)]
    result = war.fight(battle("Glen", side("Crimson", RED), side("Azure", BLUE), pcs=[pc]), dice)
    glory = applied(result, "glory")[0]
    assert glory["inputs"]["target"] == 12 and glory["outcome"]["margin"] == made_by
    changes = [e.payload for e in result.events if e.type == "career.reputation_changed"]
    assert [(c["change"], c["months"]) for c in changes] == ([(1, 2)] if reputation else [])
    assert glory["outcome"]["promotion"] is True


def test_r2_14_luck_rerolls_a_survival_roll_that_hurts(war: War) -> None:
    # Survival 10; rolled 14 (failed by 4: column B), Luck: 9 (made by 1: one hit) is kept.
    pc = {"name": "Caliburn", "side": "Crimson", "iq": 12, "weapon": 14, "risk": 0, "luck": True}
    dice = [*d3(3, 3), *d3(14), *d3(9), *d3(10)]
    result = war.fight(battle("Moor", side("Crimson", RED), side("Azure", BLUE), pcs=[pc]), dice)
    survival = applied(result, "survival")[0]
    assert survival["outcome"] == {"margin": 1, "column": "one_hit"}
    wounded = [e.payload["damage"] for e in result.events if e.type == "career.pc_wounded"]
    assert wounded == [1]


@pytest.mark.parametrize(("leads", "strategy_effect"), [("unit", {"Caliburn knocked out": -2}), ("army", {})])
def test_r2_14_a_knocked_out_leader_gives_his_side_the_catastrophe_strategy(
    war: War, leads: str, strategy_effect: dict[str, int]
) -> None:
    # Survival 10 rolled 16: failed by 6, column C at TL3: 2 × (2d+2) with DR 0 = 2 × 6 = 12 ≥ unconscious at 10.
    pc = {"name": "Caliburn", "side": "Crimson", "iq": 12, "weapon": 14, "risk": 0, "leads": leads,
          "unconscious_at": 10}  # fmt: skip
    if leads == "unit":
        pc["unit"] = "Red foot"
    dice = [*d3(3, 3), *d3(16), 2, 2, 2, 2, *d3(10)]
    result = war.fight(battle("Crag", side("Crimson", RED), side("Azure", BLUE), pcs=[pc]), dice)
    contest = applied(result, "strategy_contest")[0]
    mods = contest["inputs"]["modifiers"]["Crimson"]
    assert {k: v for k, v in mods.items() if "Caliburn" in k} == strategy_effect
    if leads == "army":  # 18: base Strategy halved, rounded up: 12 → 6
        assert "Strategy 6 " in contest["explanation"]
    assert applied(result, "glory"), "his Glory roll still counts for Reputation"


@pytest.mark.parametrize(("azure_men", "skill"), [(65, "Tactics"), (70, "Strategy")])
def test_r2_15_tactics_when_the_whole_battle_has_fewer_than_200_men(azure_men: int, skill: str) -> None:
    w = War()
    w.muster("Band", "Crimson", men=130)
    w.muster("Patrol", "Azure", men=azure_men)
    commander = {"strategy": 14, "tactics": 10}
    setup = battle(
        "Skirmish",
        {"name": "Crimson", "commander": commander, "units": [{"unit": "Band"}]},
        {"name": "Azure", "commander": commander, "units": [{"unit": "Patrol"}]},
    )
    result = w.fight(setup, d3(3, 3, 10, 10))
    contest = applied(result, "strategy_contest")[0]
    margin = 0 if skill == "Tactics" else 4  # 10 − 10, or 14 − 10
    assert contest["outcome"]["margins"] == {"Crimson": margin, "Azure": margin}
    assert f"Crimson: {skill}" in contest["explanation"]


def _assault(position: list[str], name: str = "Assault") -> dict[str, object]:
    return battle(
        name,
        side("Crimson", RED, role="attacker"),
        side("Azure", BLUE, role="defender", position=position),
    )


def test_r2_16_a_defender_in_the_open_uses_table_a(war: War) -> None:
    # A steep slope (+2, not starred): Azure 14 rolls 10 → 4; Crimson 12 rolls 10 → 2: W 2, Table A, no clear winner.
    result = war.fight(_assault(["steep_slope"]), d3(3, 3, 10, 10))
    verdict = applied(result, "result")[0]
    assert verdict["inputs"].items() >= {"table": "A", "w": 2}.items()
    assert verdict["outcome"]["result"] == "no_clear_winner"
    assert len(applied(result, "unit_morale")) == 4  # every unit of both sides rolls
    casualties = applied(result, "casualties")[1]
    assert casualties["inputs"]["row"] == 2 and "fortification" not in casualties["explanation"]


def test_r2_16_a_starred_position_uses_tables_b_and_c(war: War) -> None:
    # Behind a palisade (*+3): Azure 15 rolls 10 → 5; Crimson rolls 10 → 2: W 3, Table B "thrown back".
    result = war.fight(_assault(["palisade"]), d3(3, 3, 10, 10))
    assert applied(result, "result")[0]["inputs"].items() >= {"table": "B", "w": 3}.items()
    assert applied(result, "result")[0]["outcome"]["result"] == "thrown_back"
    assert "fortification +3" in applied(result, "casualties")[1]["explanation"]
    # Crimson wins instead (rolls 3 → 9; Azure 10 → 5): W 4, Table C.
    again = war.fight(_assault(["palisade"], name="Second assault"), d3(3, 3, 3, 10))
    assert applied(again, "result")[0]["inputs"].items() >= {"table": "C", "w": 4}.items()


def test_r2_18_table_b_0_to_3_leaves_the_attacker_at_minus_2_the_next_day(war: War) -> None:
    war.fight(_assault(["palisade"]), d3(3, 3, 10, 10))  # W 3 for the defender: thrown back
    assert war.morale("Red foot") == -2 and war.morale("Red guard") == -2 and war.morale("Blue foot") == 0
    war.ledger.execute(war.info, mcal.Days.build(days=1, activity="rest"))
    assert war.morale("Red foot") == -2  # the next day
    war.ledger.execute(war.info, mcal.Days.build(days=1, activity="rest"))
    assert war.morale("Red foot") == 0  # lapsed at the end of it


@pytest.mark.parametrize(
    ("azure_roll", "w", "penalised"), [(9, 3, False), (10, 4, True), (13, 7, True), (14, 8, False)]
)
def test_r2_18_table_c_4_to_7_leaves_the_defender_at_minus_2(
    war: War, azure_roll: int, w: int, penalised: bool
) -> None:
    # Crimson 12 rolls 3 → 9; Azure 15 (palisade) rolls a → 15 − a: W = a − 6. C 1–3: no penalty; C 4–7: −2.
    result = war.fight(_assault(["palisade"]), d3(3, 3, 3, azure_roll))
    assert applied(result, "result")[0]["inputs"].items() >= {"table": "C", "w": w}.items()
    assert war.morale("Blue foot") == (-2 if penalised else 0)
    assert war.morale("Red foot") == 0


@pytest.mark.parametrize(("roll", "fate"), [(17, "retreats"), (18, "routs")])
def test_table_a_no_clear_winner_fail_by_4_retreats_and_by_5_routs(war: War, roll: int, fate: str) -> None:
    # W 0 (both roll 10): every unit rolls Morale 13; Red foot fails by 4 (17) or 5 (18).
    result = war.fight(battle("Draw", side("Crimson", RED), side("Azure", BLUE)), d3(3, 3, 10, 10, roll))
    red = next(d for d in applied(result, "unit_morale") if d["explanation"].startswith("Red foot"))
    assert red["outcome"] == {"margin": 13 - roll, "fate": fate}


@pytest.mark.parametrize(("second_roll", "holds"), [(13, True), (14, False)])
def test_table_b_4_to_7_the_attacker_holds_if_half_its_units_pass(war: War, second_roll: int, holds: bool) -> None:
    # Palisade: Azure 15 rolls 5 → 10; Crimson 12 rolls 6 → 6: W 4, Table B. Red foot rolls 18 (fails); Red guard
    # 13 (passes: 1 of 2, half: the army holds) or 14 (fails: 0 of 2, the army retreats in good order).
    result = war.fight(_assault(["palisade"]), d3(3, 3, 6, 5, 18, second_roll))
    assert applied(result, "result")[0]["outcome"]["result"] == "attacker_holds_half"
    assert applied(result, "army_morale")[0]["outcome"] == {"holds": holds}


@pytest.mark.parametrize(("reaches_later", "reserve"), [(False, 0), (True, -5)])
def test_r2_10_the_side_wide_part_reaches_later_units_only_by_house_rule(
    war: War, reaches_later: bool, reserve: int
) -> None:
    if reaches_later:
        war.ledger.execute(
            war.info, mc.HouseRule.build(path="catastrophe.rules.lasting_reaches_later_units", value=True)
        )
    war.fight(battle("Battle 1", side("Crimson", RED), side("Azure", BLUE)), d3(18, 3, 3, 5))
    war.muster("Red reserve", "Crimson")
    assert war.morale("Red foot") == -5 and war.morale("Red reserve") == reserve


def test_r2_10_two_days_of_one_battle_each_losing_a_leader_add_up(war: War) -> None:
    # Several lasting penalties on one unit add up and clear together: 17 on Red foot on day 1 and on day 2.
    setup = battle("Long fight", side("Crimson", RED, catastrophe_unit="Red foot"), side("Azure", BLUE))
    first = war.fight(setup, d3(17, 3, 3, 11), final_day=False)
    battle_id = next(e.payload["battle_id"] for e in first.events if e.type == "battle.started")
    war.fight({**setup, "day": 2}, d3(17, 3, 3, 11), battle_id=battle_id)
    assert war.morale("Red foot") == -6


def test_r2_16_a_tie_behind_walls_is_the_defenders_table_b(war: War) -> None:
    # Palisade: Azure 15 rolls 13 → 2; Crimson 12 rolls 10 → 2: equal margins, W 0: Table B, thrown back.
    result = war.fight(_assault(["palisade"]), d3(3, 3, 10, 13))
    assert applied(result, "result")[0]["inputs"].items() >= {"table": "B", "w": 0}.items()
    assert applied(result, "result")[0]["outcome"]["result"] == "thrown_back"


def test_r2_14_a_catastrophe_18_on_a_pc_army_commander_ends_with_the_battle(war: War) -> None:
    pc = {"name": "Caliburn", "side": "Crimson", "leads": "army", "weapon": 14, "risk": 0}
    result = war.fight(battle("Keep", side("Crimson", RED), side("Azure", BLUE), pcs=[pc]), d3(18, 3, 3, 11))
    assert applied(result, "catastrophe")[0]["outcome"]["knocked_out_pc"] == "Caliburn"
    assert not applied(result, "survival")
    assert war.morale("Red foot") == 0 and war.morale("Red guard") == 0  # −5 only in this battle


@pytest.mark.parametrize(("unconscious_at", "out"), [(12, True), (13, False)])
def test_r2_14_knocked_out_when_the_damage_reaches_the_gms_mark(war: War, unconscious_at: int, out: bool) -> None:
    # Survival 10 rolled 16 → column C: 2 × (2d+2) at DR 0, each 2d = 4: 6 + 6 = 12 damage.
    pc = {"name": "Caliburn", "side": "Crimson", "unit": "Red foot", "leads": "unit", "iq": 12, "weapon": 14,
          "risk": 0, "unconscious_at": unconscious_at}  # fmt: skip
    dice = [*d3(3, 3), *d3(16), 2, 2, 2, 2, *d3(10)]
    result = war.fight(battle("Crag", side("Crimson", RED), side("Azure", BLUE), pcs=[pc]), dice)
    mods = applied(result, "strategy_contest")[0]["inputs"]["modifiers"]["Crimson"]
    assert ("Caliburn knocked out" in mods) is out


def test_r2_14_luck_keeps_the_better_of_two_rolls_in_one_column(war: War) -> None:
    # Survival 10: 14 (failed by 4, B), Luck 13 (failed by 3, also B): the better, 13, is kept.
    pc = {"name": "Caliburn", "side": "Crimson", "iq": 12, "weapon": 14, "risk": 0, "luck": True}
    dice = [*d3(3, 3), *d3(14), *d3(13)]
    result = war.fight(battle("Fen", side("Crimson", RED), side("Azure", BLUE), pcs=[pc]), dice)
    assert applied(result, "survival")[0]["outcome"] == {"margin": -3, "column": "B"}
