"""RULES.md second edition, seed 002 (GURPS Mass Combat): the errata that are pure rules, one test each.

Expected values are RULES.md's own examples (R2-n "Example:"), worked by hand, each threshold on both sides.
"""

from __future__ import annotations

import pytest

from campaign.rulesets.mass_combat.aftermath import is_clear_victory
from campaign.rulesets.mass_combat.economy import arrears_applied, monthly_pay
from campaign.rulesets.mass_combat.extraordinary import effect_size, recon_bonus
from campaign.rulesets.mass_combat.pcs import glory_strategy, survival_column
from campaign.rulesets.mass_combat.position import position
from campaign.rulesets.mass_combat.profile import NonHuman, UnitProfile
from campaign.rulesets.mass_combat.quality import (
    army_force,
    exempt_from_morale,
    extraordinary_force_pm,
    settle_experience,
)
from campaign.rulesets.mass_combat.setup import Commander, Side, UnitInBattle
from campaign.rulesets.mass_combat.strength import per_man_ts
from campaign.rulesets.mass_combat.tables import Tables
from campaign.rulesets.tables import Sourced, Value
from campaign.tables import base_values
from events.errors import InvalidInputError
from events.recorded import seq, text, whole

BASE = base_values("mass_combat")
T = Tables.of(BASE)


def with_value(path: str, value: Value) -> Tables:
    values = dict(BASE)
    values[path] = Sourced(value, "HOUSE RULE (test)")
    return Tables.of(values)


@pytest.mark.parametrize(
    ("result", "clear"),
    [
        ("no_clear_winner", False),  # Table A 0–3
        ("minor_victory", False),  # A 4–7
        ("victory_morale_2", True),  # A 8–12: the lowest clear W is 8
        ("victory_morale_4", True),
        ("overwhelming", True),
        ("thrown_back", False),  # B 0–3
        ("attacker_holds_half", False),  # B 4–7
        ("attacker_holds_half_2", True),  # B 8–12
        ("technical_win", False),  # C 1–3
        ("both_hold", False),  # C 4–7
        ("defender_holds_half", True),  # C 8–12
        ("position_taken_captured", True),
    ],
)
def test_r2_11_a_minor_or_technical_victory_is_not_a_clear_victory(result: str, clear: bool) -> None:
    assert whole(T.values["economy.clear_victory_from"].value) == 8
    assert is_clear_victory(T, result) is clear
    # A house rule may move the edge: from 4, a minor victory is clear.
    assert is_clear_victory(with_value("economy.clear_victory_from", 4), "minor_victory") is True


@pytest.mark.parametrize(
    ("quality", "lower_bound"),
    [("inexperienced", 0), ("green", 1), ("average", 3), ("seasoned", 6), ("veteran", 10), ("elite", 15)],
)
def test_r2_12_a_unit_mustered_with_a_quality_only_gets_its_lower_bound(quality: str, lower_bound: int) -> None:
    assert settle_experience(T, {"men": 10, "quality": quality})["experience"] == lower_bound
    # With an experience and no quality: the band it falls in, on both sides of each lower bound.
    assert settle_experience(T, {"men": 10, "experience": lower_bound})["quality"] == quality
    if lower_bound > 0:
        assert settle_experience(T, {"men": 10, "experience": lower_bound - 1})["quality"] != quality
    # Both given: they must agree.
    assert settle_experience(T, {"quality": quality, "experience": lower_bound})["quality"] == quality


def test_r2_12_a_quality_and_an_experience_that_disagree_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="experience 5 is average, not veteran"):
        settle_experience(T, {"men": 40, "quality": "veteran", "experience": 5})
    with pytest.raises(InvalidInputError, match="not seasoned"):
        settle_experience(T, {"men": 40, "quality": "seasoned", "experience": 10})


@pytest.mark.parametrize(
    ("row", "unit", "army"),
    [
        (0, 2, 3),  # critical success
        (1, 1, 2),  # made by 7–9
        (2, 1, 2),  # made by 4–6
        (3, 0, 0),  # made by 0–3
        (4, 0, 0),  # failed by 1–3
        (5, -1, 0),  # failed by 4–6
        (6, -3, -2),  # failed by 7+ or critical failure
    ],
)
def test_r2_13_glory_modifier_e_for_a_unit_leader_and_the_army_commander(row: int, unit: int, army: int) -> None:
    assert glory_strategy(T, row, "unit") == unit
    assert glory_strategy(T, row, "army") == army
    assert glory_strategy(T, row, "nothing") == 0


@pytest.mark.parametrize(
    ("roll", "target", "column"),
    [
        (3, -1, "unhurt"),  # R2-22's example: target −1, rolled 3: critical success (first edition: column B)
        (4, -1, "unhurt"),
        (5, -1, "C"),  # failed by 6: not a critical success
        (4, 16, "unhurt"),
        (5, 10, "unhurt"),  # made by 5: unhurt by the table
        (6, 10, "one_hit"),  # made by 4
    ],
)
def test_r2_22_a_survival_roll_of_3_or_4_always_succeeds(roll: int, target: int, column: str) -> None:
    assert survival_column(T, roll, target) == column


def _defender(**kw: object) -> Side:
    data: dict[str, object] = {
        "name": "Bannok",
        "role": "defender",
        "commander": Commander(strategy=12),
        "units": (UnitInBattle(unit="Watch"),),
    }
    data.update(kw)
    return Side.model_validate(data)


def test_r2_16_only_a_starred_position_chooses_tables_b_and_c() -> None:
    slope = position(T, _defender(position=("steep_slope",)), enemy_artillery_or_sappers=False)
    assert (slope.strategy, slope.starred, slope.casualty_rows) == ({"position steep slope": 2}, False, 0)
    walls = position(T, _defender(position=("palisade",)), enemy_artillery_or_sappers=False)
    assert (walls.strategy, walls.starred, walls.casualty_rows) == ({"position palisade": 3}, True, 3)
    # A starred row brought to 0 by enemy artillery or sappers still counts.
    ford = position(T, _defender(defensive={"*ford": 2}), enemy_artillery_or_sappers=True)
    assert (ford.strategy, ford.starred) == ({"position ford": 0}, True)
    # Castle on a hill = +10 (§2.10's example).
    hill = position(T, _defender(position=("castle", "steep_slope")), enemy_artillery_or_sappers=False)
    assert sum(hill.strategy.values()) == 10
    with pytest.raises(InvalidInputError, match="no defensive position 'moat'"):
        position(T, _defender(position=("moat",)), enemy_artillery_or_sappers=False)


@pytest.mark.parametrize(
    ("held", "artillery", "total"),
    [
        (("walled_town",), False, 6),  # home soil in a walled town: +6, not +8
        (("walled_town",), True, 4),  # with enemy artillery: 6 − 2 = 4
        (("palisade",), True, 2),  # behind a palisade against sappers: 3 − 2 = 1 < 2 → +2
        (("palisade",), False, 3),  # 3 > 2 → +3
        (("steep_slope",), False, 4),  # home soil still adds to slopes: 2 + 2
        (("defile",), False, 4),  # and to a defile: 2 + 2
    ],
)
def test_r2_17_home_soil_does_not_add_to_a_fortification(held: tuple[str, ...], artillery: bool, total: int) -> None:
    side = _defender(position=held, home_soil=True)
    assert sum(position(T, side, enemy_artillery_or_sappers=artillery).strategy.values()) == total


def test_r2_19_the_veteran_floor_applies_to_the_final_morale() -> None:
    # (b) A Veteran unit (15) whose leader gives +2 (Leadership 18) has M = 17: arrears of −7 apply as −3 → 14.
    veteran = UnitProfile(men=10, quality="veteran", experience=10, leader_leadership=18)
    assert arrears_applied(T, veteran, 7, 0) == 3
    assert arrears_applied(T, veteran, 2, 0) == 2  # below the floor's room: all of it
    assert arrears_applied(T, veteran, 7, -3) == 0  # other penalties already bring it to 14
    average = UnitProfile(men=10, quality="average", experience=3, leader_leadership=18)
    assert arrears_applied(T, average, 7, 0) == 7  # only Veterans and Elite have the floor


def test_r2_20_monthly_pay_is_10_percent_of_the_cost_times_the_quality_factor() -> None:
    unit = UnitProfile(men=10, troop_type="MI", quality="veteran", experience=10)
    assert monthly_pay(T, unit) == 10 * 5000 * 10 // 100  # every factor 100% until the lost column is found
    assert monthly_pay(with_value("economy.pay_quality_pct.veteran", 150), unit) == 7500
    assert T.source("economy.pay_quality_pct.elite").startswith("PLACEHOLDER")


@pytest.mark.parametrize(("strong", "weak", "bonus"), [(550, 500, 1), (549, 500, 0), (3942, 3500, 1), (1000, 500, 3)])
def test_r2_21_ts_comparison_gives_plus_1_from_1_1_to_1(strong: int, weak: int, bonus: int) -> None:
    assert T.step_bonus(T.ts_ratio.steps, strong * 1000 // weak) == bonus


@pytest.mark.parametrize(
    ("points", "ts", "size"),
    [(1, 48, 2), (1, 96, 1), (2, 288, 1), (1, 160, 1), (1, 250, 0), (3, 200, 2), (1, 60, 2), (1, 200, 1), (1, 201, 0)],
)
def test_r2_23_es_effects_per_ts_100_round_to_the_nearest(points: int, ts: int, size: int) -> None:
    assert effect_size(T, points, ts) == size
    assert effect_size(with_value("extraordinary.rounding", "down"), 1, 60) == 1  # the first edition's


def test_r2_23_es_keeps_its_half_and_an_army_sums_its_users() -> None:
    assert extraordinary_force_pm(T, 99) == 0
    assert extraordinary_force_pm(T, 100) == 500
    assert army_force([extraordinary_force_pm(T, 100)]) == 0  # one 100-point mage alone buys nothing
    assert army_force([extraordinary_force_pm(T, 100), extraordinary_force_pm(T, 100)]) == 1
    assert extraordinary_force_pm(T, 150) == 1000


@pytest.mark.parametrize(("points", "bonus"), [(2, 0), (3, 1), (4, 1), (5, 1), (6, 2), (7, 2), (12, 2)])
def test_r2_24_npc_recon_by_es_is_capped_at_2(points: int, bonus: int) -> None:
    assert recon_bonus(T, points) == bonus
    assert recon_bonus(with_value("extraordinary.recon_max", 1), 12) == 1  # the other reading


def test_r2_28_the_non_human_floor_comes_after_armour_mount_and_race() -> None:
    hobbit = NonHuman(st_mod=-2)  # ½ × (−2) = −1
    light = UnitProfile(men=1, armour="light", non_human=hobbit)
    heavy_slings = UnitProfile(men=1, armour="heavy", ranged="sling", non_human=hobbit)
    assert per_man_ts(T, light)[0] == 2  # max(1, 3 − 1)
    assert per_man_ts(T, heavy_slings)[0] == 5  # max(1, 5 − 1) + 1
    weakling = UnitProfile(men=1, armour="light", ranged="sling", non_human=NonHuman(st_mod=-8))
    assert per_man_ts(T, weakling)[0] == 2  # max(1, 3 − 4) + 1: the floor reached
    text = with_value("ts.rules.floor_after_armour", False)
    assert per_man_ts(text, light)[0] == 4  # the text's order: max(1, −1) + 3


@pytest.mark.parametrize(
    ("profile", "ts"),
    [
        (UnitProfile(men=1, armour="light", mount="light_horse", irregular=True), 3),  # Yrth IC: 4 − floor(4/3)
        (UnitProfile(men=1, armour="medium", mount="light_horse", irregular=True), 4),  # 5 − 1 (⅔ reading: 3)
        (UnitProfile(men=1, armour="heavy", mount="light_horse", irregular=True), 4),  # 6 − 2
    ],
)
def test_r2_29_irregulars_lose_a_third_rounded_down(profile: UnitProfile, ts: int) -> None:
    assert per_man_ts(T, profile)[0] == ts


def test_r2_30_the_yrth_data_ship_as_seed_example_data() -> None:
    assert whole(T.values["economy.yrth.HC"].value) == 14000 and whole(T.values["economy.yrth.II"].value) == 200
    assert (
        whole(T.values["economy.upkeep_soldier"].value) == 200
        and whole(T.values["economy.upkeep_mounted"].value) == 800
    )
    assert T.source("economy.yrth.HC").startswith("SEED")
    assert "INF" in T.source("economy.upkeep_mounted")  # charging every mounted man is the project's reading


@pytest.mark.parametrize(
    ("path", "tag"),
    [
        ("ts_ratio.steps", "INF"),
        ("extraordinary.points_pm", "SEED"),
        ("economy.missed_first", "SEED (unpaid day"),
        ("economy.missed_later", "SEED (unpaid day"),
        ("economy.paid_restores_every", "SEED (unpaid day"),
        ("economy.upkeep_mounted", "SEED"),
        ("economy.clear_victory_from", "SEED"),
        ("reaction.bands", "PUB"),
    ],
)
def test_r2_31_provenance_tags_in_the_mass_combat_tables(path: str, tag: str) -> None:
    assert T.source(path).startswith(tag)
    assert "rounded down" not in T.source("extraordinary.points_pm")
    if "skills.veteran.combat_reflexes" in T.values:  # until R2-36 removes the typical skills
        assert T.source("skills.veteran.combat_reflexes").startswith("INF")
        assert T.source("skills.elite.combat_reflexes").startswith("INF")


def test_r2_26_exempt_troops_are_named_in_the_tables() -> None:
    assert exempt_from_morale(T, UnitProfile(men=10, troop_type="zombies", cost_per_man=1))
    assert exempt_from_morale(T, UnitProfile(men=10, troop_type="Skeletons", cost_per_man=1))
    assert exempt_from_morale(T, UnitProfile(men=10, no_morale=True))
    assert not exempt_from_morale(T, UnitProfile(men=10, troop_type="MI"))


@pytest.mark.parametrize(
    ("table", "edges"),
    [
        # §2.11 Table A: 0–3 no clear winner, 4–7 minor, 8–12 loser −2, 13–16 loser −4, 17+ the loser routs.
        (
            "results.open_field",
            [(3, "no_clear_winner"), (4, "minor_victory"), (7, "minor_victory"), (8, "victory_morale_2"),
             (12, "victory_morale_2"), (13, "victory_morale_4"), (16, "victory_morale_4"), (17, "overwhelming")],
        ),
        # Table B: 0–3 thrown back, 4–7 holds if half pass, 8–12 the same at −2, 13–16 each unit rolls, 17+ at −2.
        (
            "results.defender_wins",
            [(0, "thrown_back"), (3, "thrown_back"), (4, "attacker_holds_half"), (7, "attacker_holds_half"),
             (8, "attacker_holds_half_2"), (12, "attacker_holds_half_2"), (13, "attacker_breaks"),
             (16, "attacker_breaks"), (17, "attacker_breaks_2")],
        ),
        # Table C: 1–3 technical, 4–7 both hold, 8–12 defender holds if half pass, 13–16 taken, 17+ captured.
        (
            "results.attacker_wins",
            [(1, "technical_win"), (3, "technical_win"), (4, "both_hold"), (7, "both_hold"),
             (8, "defender_holds_half"), (12, "defender_holds_half"), (13, "position_taken"),
             (16, "position_taken"), (17, "position_taken_captured")],
        ),
    ],
)  # fmt: skip
def test_the_2_11_result_tables_on_both_sides_of_every_edge(table: str, edges: list[tuple[int, str]]) -> None:
    bands = [(whole(low), text(label)) for low, label in map(seq, seq(T.values[table].value))]
    assert [(w, T.band(bands, w)) for w, _ in edges] == edges


@pytest.mark.parametrize(
    ("roll", "column"),
    # Target 10. The Survival table: made by 5+ unhurt, 1–4 one hit, exactly two hits, failed by 1–2 A, 3–4 B,
    # 5–6 C, 7+ D; each edge on both sides.
    [(5, "unhurt"), (6, "one_hit"), (9, "one_hit"), (10, "two_hits"), (11, "A"), (12, "A"), (13, "B"), (14, "B"),
     (15, "C"), (16, "C"), (17, "D")],
)  # fmt: skip
def test_the_survival_table_on_both_sides_of_every_edge(roll: int, column: str) -> None:
    assert survival_column(T, roll, 10) == column


def test_r2_16_a_starred_row_given_by_its_table_name_is_starred_without_the_star() -> None:
    held = position(T, _defender(defensive={"palisade": 3}), enemy_artillery_or_sappers=False)
    assert held.starred and held.casualty_rows == 3


def test_r2_23_no_points_no_force() -> None:
    assert extraordinary_force_pm(T, 0) == 0
    with pytest.raises(InvalidInputError, match="cannot be negative"):
        extraordinary_force_pm(T, -1)


@pytest.mark.parametrize(("roll", "column"), [(15, "C"), (16, "D")])
def test_the_survival_table_column_d_from_failed_by_7_without_a_critical(roll: int, column: str) -> None:
    assert survival_column(T, roll, 9) == column  # 16 vs 9: failed by 7, and 16 is no critical failure at 9
