"""RULES.md §2.9's Glory table, row by row at its edges, where the mutation run (scripts/mutation.py) found the
Reputation of "failed by 7+" untested: made by 7–9 +1 Reputation for 1d−2 months (min 1), made by 4–6 nothing,
failed by 4–6 −1 for 1d−2 months (min 1), failed by 7+ −2 for 1d months; and R2-26's undead, whom an ES Morale
effect does not touch; and §2.2's special weapons, each worth its own TS."""

from __future__ import annotations

import pytest

from campaign.executor import TableEntry
from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from campaign.rulesets.mass_combat.economy import monthly_pay, recruitment_cost, stripped_value, wounded_returning
from campaign.rulesets.mass_combat.pcs import _glory, battle_skill, survival_column
from campaign.rulesets.mass_combat.plugin import PLUGIN as MASS_COMBAT
from campaign.rulesets.mass_combat.position import position
from campaign.rulesets.mass_combat.profile import NonHuman, UnitProfile
from campaign.rulesets.mass_combat.quality import average_experience, base_morale, commander_skill, extraordinary_force
from campaign.rulesets.mass_combat.setup import Commander, PcInBattle, Side
from campaign.rulesets.mass_combat.strength import troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from campaign.rulesets.tables import check_override
from campaign.tables import base_values
from events.dice import TableDice
from events.errors import InvalidInputError
from events.families.career import ReputationChanged
from tests.acceptance.mass_combat_table import War, applied, battle, d3, faces, side

T = Tables.of(base_values("mass_combat"))
RED = ["Red foot", "Red guard"]
BLUE = ["Blue foot", "Blue guard"]
PC = PcInBattle(name="Ayla", side="Crimson", weapon=12, risk=0)


def reputation(target: int, faces: tuple[int, ...]) -> list[tuple[int, int]]:
    decision = _glory(T, PC, "b", TableDice(faces, "glory", 0), target)
    return [(f.change, f.months) for f in decision.facts if isinstance(f, ReputationChanged)]


@pytest.mark.parametrize(
    ("target", "faces", "expected"),
    [
        # target 8, rolled 15 (no critical: 15 − 8 = 7 < 10): failed by 7 → −2 for 1d = 3 months; then high
        # command's reaction roll (R3-15), 3d 9
        (8, (5, 5, 5, 3, 3, 3, 3), [(-2, 3)]),
        # target 9, rolled 15: failed by 6 → −1 for 1d−2 months: a 3 gives 1
        (9, (5, 5, 5, 3, 3, 3, 3), [(-1, 1)]),
        # target 11, rolled 15: failed by 4 → −1; a 2 gives 0 months, raised to the minimum 1
        (11, (5, 5, 5, 2, 3, 3, 3), [(-1, 1)]),
        # target 12, rolled 15: failed by 3 → fought adequately, nothing
        (12, (5, 5, 5), []),
        # target 14, rolled 7 (not a critical: a 7, target below 15): made by 7 → +1 for 1d−2 = 3 months
        (14, (2, 2, 3, 5, 3, 3, 3), [(1, 3)]),
        # target 13, rolled 7: made by 6 → a promotion roll, no Reputation
        (13, (2, 2, 3, 3, 3, 3), []),
    ],
)
def test_glory_reputation_at_each_edge(target: int, faces: tuple[int, ...], expected: list[tuple[int, int]]) -> None:
    assert reputation(target, faces) == expected


def test_r2_26_an_es_morale_effect_does_not_touch_the_undead() -> None:
    # R2-26: "Morale modifiers (pay, catastrophes, ES Morale effects) do not touch it". One point of Morale on a
    # unit of TS 60 is +2 (R2-23: 100 ÷ 60 = 1.67, to the nearest) on the living, nothing on the dead.
    w = War()
    w.muster("Dead men", "Crimson", men=20, ts_per_man=3, troop_type="zombies")
    w.muster("Red foot", "Crimson", men=20, ts_per_man=3)
    w.muster("Blue foot", "Azure", men=20, ts_per_man=3)
    spells = [{"kind": "morale", "points": 1, "target": t} for t in ("Dead men", "Red foot")]
    setup = battle(
        "Barrow", side("Crimson", ["Dead men", "Red foot"], es=2, spells=spells), side("Azure", ["Blue foot"])
    )
    result = w.fight(setup, [*d3(3, 3), *d3(10, 10), *d3(10)])
    force = applied(result, "extraordinary_force")[0]["explanation"]
    assert "Morale on Dead men: not subject to Morale, no effect" in force
    assert "Morale +2 on Red foot (TS 60)" in force
    assert "Morale +2 on Dead men" not in force


SPECIAL_TS = {
    "light_chariot": 15,
    "medium_chariot": 25,
    "heavy_chariot": 35,
    "elephant": 100,
    "small_ballista": 15,
    "large_ballista": 25,
    "small_siege_engine": 25,
    "light_artillery": 25,
    "large_siege_engine": 50,
    "heavy_artillery": 50,
    "light_tank": 25,
    "medium_tank": 40,
    "heavy_tank": 60,
    "fighter": 50,
    "bomber": 100,
    "helicopter": 50,
    "modern_artillery": 100,
}
"""§2.2's special weapons table, row by row."""


@pytest.mark.parametrize(("item", "ts"), sorted(SPECIAL_TS.items()))
def test_each_special_weapon_adds_its_ts(item: str, ts: int) -> None:
    # §2.2: one light infantryman (light armour +3) with two of the weapon: 3 × 1 + 2 × its TS; a chariot with its
    # extra archer of its weight, with a bow (R3-24): light 3 + 2, medium 4 + 2, heavy 5 + 2.
    archer = {"light_chariot": 5, "medium_chariot": 6, "heavy_chariot": 7}.get(item, 0)
    profile = UnitProfile(men=1, armour="light", special={item: 2})
    assert troop_strength(T, profile).total == 3 + 2 * (ts + archer)


@pytest.mark.parametrize(
    ("ranged", "ts"),
    [("sling", 1), ("javelins", 1), ("bow", 2), ("longbow", 3), ("composite_bow", 3), ("crossbow", 3), ("pistol", 3)],
)
def test_each_ranged_weapon_adds_its_ts(ranged: str, ts: int) -> None:
    # §2.2 ranged weapons: one light infantryman (+3) with the weapon.
    assert troop_strength(T, UnitProfile(men=1, armour="light", ranged=ranged)).total == 3 + ts


@pytest.mark.parametrize(("ht", "back"), [(14, 15), (13, 10), (8, 10), (7, 5), (None, 10)])
def test_wounded_return_faster_from_ht_14_and_slower_at_ht_7(ht: int | None, back: int) -> None:
    # §2.12: (2 + TL)% of the original unit per day of rest; HT ≥ 14 counts as Fast Healing (×1.5), HT ≤ 7 as
    # Slow (×½). TL 3, 100 men, 2 days of rest: 5% × 2 = 10 men; fast 15; slow 5.
    profile = UnitProfile(men=100, tl=3)
    assert wounded_returning(T, profile, original_men=100, wounded=50, days=2, activity="rest", ht=ht) == back


# --- Single table values and edges the mutation run found untested -----------------------------------------------


def _strong(w: War, name: str, side_name: str, ts: int) -> None:
    """A unit of ``ts`` TS: one man worth all of it."""
    w.muster(name, side_name, men=1, ts_per_man=ts)


def test_catastrophe_10_gives_the_enemy_10_percent_more_ts() -> None:
    # §2.8 10: "enemy reinforcement/luck: enemy TS +10%". Crimson rolls 10: Azure's 1000 + 1000 → 1100 + 1100;
    # 2200 : 2000 = 1.10 → +1 for Azure (R2-21).
    w = War()
    for name in RED:
        _strong(w, name, "Crimson", 1000)
    for name in BLUE:
        _strong(w, name, "Azure", 1000)
    result = w.fight(battle("Luck", side("Crimson", RED), side("Azure", BLUE)), d3(10, 3, 10, 10))
    contest = applied(result, "strategy_contest")[0]
    assert contest["inputs"]["ts"] == {"Crimson": 2000, "Azure": 2200}
    assert contest["inputs"]["modifiers"]["Azure"] == {"TS 2200:2000 = 1.10": 1}


@pytest.mark.parametrize(
    ("crimson_ts", "tl", "bonus"),
    [(3000, 6, 10), (2000, 6, 9), (1999, 6, 8), (3000, 5, 8)],
)
def test_beyond_10_to_1_each_further_10_adds_1_for_a_side_3_tl_ahead(crimson_ts: int, tl: int, bonus: int) -> None:
    # §2.10: "10 (normal cap) +8; each further 10:1 (only for a side ahead by more than 2 TL) +1"; anchor: 30:1 for
    # TL6 vs TL3 → +10. Against Azure's 100: 30:1 → +10, 20:1 → +9, 19.99:1 → +8; TL5 (2 ahead) at 30:1 → +8.
    w = War()
    _strong(w, "Red foot", "Crimson", crimson_ts)
    _strong(w, "Blue foot", "Azure", 100)
    setup = battle("Rout", side("Crimson", ["Red foot"], tl=tl), side("Azure", ["Blue foot"]))
    mods = applied(w.fight(setup, d3(3, 3, 10, 10)), "strategy_contest")[0]["inputs"]["modifiers"]["Crimson"]
    assert sum(v for k, v in mods.items() if k.startswith("TS ")) == bonus
    assert mods[f"TL {tl} vs 3"] == tl - 3 + 2


def test_temporary_reputation_lasts_its_months_of_30_days() -> None:
    # §2.9 Glory made by 7–9: +1 Reputation for 1d−2 months; the 1d rolls 4: 2 months = 60 days (a 30-day month,
    # ``economy.month_days``). Battle 10, Risk −2: Glory 12, rolled 5: made by 7.
    w = War()
    for name, side_name in (("Red foot", "Crimson"), ("Blue foot", "Azure")):
        w.muster(name, side_name)
    pc = {"name": "Caliburn", "side": "Crimson", "iq": 12, "weapon": 14, "risk": -2}
    dice = [*d3(3, 3), *d3(6), *d3(5), 4, *d3(10)]
    w.fight(battle("Glen", side("Crimson", ["Red foot"]), side("Azure", ["Blue foot"]), pcs=[pc]), dice)

    def reputation() -> int:
        state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
        return int(state.reputation("Caliburn"))

    assert reputation() == 1
    w.ledger.execute(w.info, mcal.Days.build(days=59, activity="rest"))
    assert reputation() == 1
    w.ledger.execute(w.info, mcal.Days.build(days=1, activity="rest"))
    assert reputation() == 0


@pytest.mark.parametrize(
    ("roll", "experience", "skill"),
    [(3, "elite", 18), (4, "elite", 18), (5, "veteran", 16), (7, "veteran", 16), (8, "seasoned", 14),
     (9, "seasoned", 14), (10, "average", 12), (12, "average", 12), (13, "green", 10), (15, "green", 10),
     (16, "inexperienced", 8), (18, "inexperienced", 8)],
)  # fmt: skip
def test_npc_commander_experience_and_skill_at_every_band_edge(roll: int, experience: str, skill: int) -> None:
    # §2.5: 3–4 Elite 18, 5–7 Veteran 16, 8–9 Seasoned 14, 10–12 Average 12, 13–15 Green 10, 16–18 Inexperienced 8.
    assert commander_skill(T, roll) == (experience, skill)


@pytest.mark.parametrize(
    ("target", "roll", "strategy", "permanent"),
    [(10, 4, 2, True), (9, 5, 1, False), (15, 5, 2, True), (14, 5, 1, False), (16, 6, 2, True), (15, 6, 1, False)],
)
def test_glory_critical_success_on_a_4_a_5_from_15_and_a_6_from_16(
    target: int, roll: int, strategy: int, permanent: bool
) -> None:
    # GURPS (R2-22: "a 3 or 4 is a critical success whatever the target"; "at targets 15–16 the 5 or 6 that GURPS
    # also makes critical"): a 4 is always critical, a 5 at 15+, a 6 at 16+. A critical gives a unit leader +2
    # Strategy and +1 permanent Reputation; made by 4–9 gives +1 and no permanent Reputation. Target 10 rolled 4:
    # critical; target 9 rolled 5: made by 4. Faces: the roll, the 1d of months (3), the promotion roll.
    leader = PcInBattle(name="Ayla", side="Crimson", unit="Red foot", leads="unit", weapon=12, risk=0)
    three = {4: (1, 1, 2), 5: (1, 1, 3), 6: (1, 2, 3)}[roll]
    decision = _glory(T, leader, "b", TableDice((*three, 3, 3, 3, 3), "glory", 0), target)
    assert decision.outcome["strategy_mod"] == strategy
    assert any(getattr(f, "months", None) == 0 for f in decision.facts) is permanent


@pytest.mark.parametrize(("roll", "made", "morale"), [(13, True, 1), (14, False, -1)])
def test_treason_morale_roll_is_made_at_equality(roll: int, made: bool, morale: int) -> None:
    # §2.11: "treason forces a roll: fail −1, success +1"; a Morale roll is made when 3d ≤ Morale (Average 13).
    w = War()
    w.muster("Swords", "Crimson")
    result = w.ledger.execute(w.info, mcal.Treason.build(unit_name="Swords"), table=TableEntry(tuple(faces(roll))))
    assert applied(result, "treason")[0]["outcome"]["made"] is made
    assert w.morale("Swords") == morale


@pytest.mark.parametrize(("result", "strategy", "morale"), [(8, -1, 13), (9, -1, 13), (11, -2, 13), (12, -2, 12)])
def test_catastrophes_8_to_12_strategy_and_friction(result: int, strategy: int, morale: int) -> None:
    # §2.8: 8–9 −1 Strategy; 11 −2 Strategy; 12 friction: −2 Strategy and −1 Morale for every unit. Crimson rolls
    # 10 for the contest, Azure 12 rolls 3 → 9: Azure wins with W 8 or 9 and Crimson's units roll Morale (its
    # Morale before the result's −2: 13, or 12 after friction).
    w = War()
    for name in RED:
        w.muster(name, "Crimson")
    for name in BLUE:
        w.muster(name, "Azure")
    result_ = w.fight(battle("Mill", side("Crimson", RED), side("Azure", BLUE)), d3(result, 3, 10, 3))
    assert applied(result_, "strategy_contest")[0]["inputs"]["modifiers"]["Crimson"] == {
        f"catastrophe {result}": strategy
    }
    assert [d["inputs"]["morale"] for d in applied(result_, "unit_morale")] == [morale, morale]


POSITIONS = {
    "downhill": -3, "out_of_cover": -1, "gentle_slope": 1, "steep_slope": 2, "steep_difficult": 3, "defile": 2,
    "palisade": 3, "manor": 4, "unwalled_town": 4, "fort": 4, "walled_town": 6, "castle": 8,
}  # fmt: skip
"""§2.10's defensive positions, row by row (defile at its low end, +2)."""


@pytest.mark.parametrize(("row", "value"), sorted(POSITIONS.items()))
def test_each_defensive_position_gives_its_strategy(row: str, value: int) -> None:
    defender = Side(name="Azure", role="defender", commander=Commander(strategy=12), units=(), position=(row,))
    assert sum(position(T, defender, enemy_artillery_or_sappers=False).strategy.values()) == value


@pytest.mark.parametrize(
    ("reflexes", "danger", "battle"), [(False, False, 10), (False, True, 11), (True, False, 12), (True, True, 13)]
)
def test_battle_skill_combat_reflexes_2_danger_sense_1(reflexes: bool, danger: bool, battle: int) -> None:
    # §2.9: floor((Tactics (IQ 12 − 6) + weapon 14) / 2) = 10, + 2 Combat Reflexes, + 1 Danger Sense.
    pc = PcInBattle(name="Ayla", side="Crimson", iq=12, weapon=14, risk=0, combat_reflexes=reflexes,
                    danger_sense=danger)  # fmt: skip
    assert battle_skill(T, pc) == battle


def test_fast_healing_returns_one_and_a_half_times_as_many() -> None:
    # §2.12: (2 + TL)% a day of rest, ×1.5 for Fast Healing: 1000 men at TL3, 2 days: 100, fast 150.
    profile = UnitProfile(men=1000, tl=3, healing="fast")
    assert wounded_returning(T, profile, original_men=1000, wounded=1000, days=2, activity="rest") == 150


@pytest.mark.parametrize(("ranged", "cost"), [("none", 1500), ("sling", 2000), ("bow", 2500), ("longbow", 3000),
                                             ("composite_bow", 3000), ("crossbow", 3000)])  # fmt: skip
def test_yrth_light_infantry_with_each_missile_add_on(ranged: str, cost: int) -> None:
    # R2-30's Yrth prices: LI $1500, missile add-ons sling $500, bow $1000, longbow / composite / crossbow $1500.
    assert recruitment_cost(T, UnitProfile(men=1, troop_type="LI", ranged=ranged)) == cost


@pytest.mark.parametrize(("pct", "bonus"), [(149, 0), (150, 1), (199, 1), (200, 2)])
def test_bonus_pay_from_150_and_200_percent_when_arrears_count_paydays(pct: int, bonus: int) -> None:
    # §2.11 "Pay +50% → +1 Morale next month; +100% → +2", under the first edition's reading of arrears too.
    w = War()
    w.ledger.execute(w.info, mc.HouseRule.build(path="economy.arrears_counted_in", value="paydays"))
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=100_000, reason="the chest"))
    w.muster("Swords", "Crimson", cost_per_man=100)
    w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": pct}))
    assert w.morale("Swords") == bonus


def test_slow_healing_returns_half_as_many() -> None:
    # §2.12: (2 + TL)% a day of rest, ×½ for Slow Healing: 1000 men at TL3, 2 days: 100, slow 50.
    profile = UnitProfile(men=1000, tl=3, healing="slow")
    assert wounded_returning(T, profile, original_men=1000, wounded=1000, days=2, activity="rest") == 50


@pytest.mark.parametrize(("army_roll", "change"), [(13, 1), (14, -1)])
def test_catastrophe_13_an_atrocity_angers_or_shakes_the_army(army_roll: int, change: int) -> None:
    # §2.8 13: "enemy atrocity: failed morale roll → −1 Morale all; passed → +1 (anger)"; each unit rolls its own
    # (R3-16). Morale 13: 13 passes, 14 fails. W 0 (both roll 10): every unit rolls Morale, Crimson's at 13 + change.
    w = War()
    for name in RED:
        w.muster(name, "Crimson")
    for name in BLUE:
        w.muster(name, "Azure")
    result = w.fight(battle("Pyre", side("Crimson", RED), side("Azure", BLUE)), d3(13, army_roll, army_roll, 3, 10, 10))
    morale = {d["explanation"].split(":")[0]: d["inputs"]["morale"] for d in applied(result, "unit_morale")}
    assert morale["Red foot"] == morale["Red guard"] == 13 + change and morale["Blue foot"] == 13


# --- The second mutation run's survivors --------------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "fate"), [(13, "holds"), (14, "retreats"), (17, "retreats"), (18, "routs")])
def test_no_clear_winner_success_holds_failing_by_1_to_4_retreats_by_5_routs(roll: int, fate: str) -> None:
    # §2.11 Table A 0–3: "Every unit on both sides rolls Morale: success holds; fail by 1–4 retreats in good order;
    # fail by 5+ routs" (§2.14: "failed by 4 → retreat in good order. Without the +1 → fail by 5 → rout"); a Morale
    # roll is made when 3d ≤ Morale. Both roll 10 on 12: W 0; each Average unit (Morale 13) rolls 13 (made by 0),
    # 14 (failed by 1), 17 (failed by 4) or 18 (failed by 5).
    w = War()
    w.muster("Red foot", "Crimson")
    w.muster("Blue foot", "Azure")
    setup = battle("Ford", side("Crimson", ["Red foot"]), side("Azure", ["Blue foot"]))
    result = w.fight(setup, d3(3, 3, 10, 10, roll, roll))
    assert applied(result, "result")[0]["outcome"]["result"] == "no_clear_winner"
    assert [(d["outcome"]["margin"], d["outcome"]["fate"]) for d in applied(result, "unit_morale")] == [
        (13 - roll, fate),
        (13 - roll, fate),
    ]


def _cornered(name: str, crimson_strategy: int) -> dict[str, object]:
    return battle(
        name,
        side("Crimson", ["Red foot"], strategy=crimson_strategy, role="attacker"),
        {
            "name": "Azure",
            "commander": {"strategy": 12},
            "units": [{"unit": "Blue foot", "nowhere_to_go": True}],
            "role": "defender",
            "position": ["palisade"],
        },
    )


@pytest.mark.parametrize(
    ("crimson_strategy", "azure_roll", "first", "key"),
    [(12, 14, 14, "defender_holds_half"), (18, 13, 10, "position_taken")],
)
@pytest.mark.parametrize(("again", "fate"), [(15, "holds"), (16, "surrenders")])
def test_a_unit_with_nowhere_to_retreat_rolls_morale_plus_2(
    crimson_strategy: int, azure_roll: int, first: int, key: str, again: int, fate: str
) -> None:
    # §2.11 Table C: "* A unit told to retreat with nowhere to go rolls Morale +2: success = it holds, failure = it
    # surrenders". Azure behind a palisade (*+3): 15. C 8–12 (Crimson 12 rolls 3 → 9; Azure rolls 14 → 1: W 8): its
    # one unit fails (14 > 13), fewer than half pass, the army retreats; C 13–16 (Crimson 18 rolls 3 → 15; Azure
    # rolls 13 → 2: W 13): its unit passes (10) and is told to retreat. Cornered, it rolls at 13 + 2 = 15: a 15
    # holds, a 16 surrenders.
    w = War()
    w.muster("Red foot", "Crimson")
    w.muster("Blue foot", "Azure")
    result = w.fight(_cornered("Corner", crimson_strategy), d3(3, 3, 3, azure_roll, first, again))
    assert applied(result, "result")[0]["outcome"]["result"] == key
    assert applied(result, "unit_morale")[-1]["outcome"]["fate"] == fate


@pytest.mark.parametrize(("mount", "ts"), [("light_horse", 1), ("medium_horse", 2), ("heavy_horse", 3)])
def test_an_unarmoured_rider_counts_only_his_horse(mount: str, ts: int) -> None:
    # §2.2: armour light / medium / heavy +3 / +4 / +5, horse light / medium / heavy +1 / +2 / +3; a man without
    # armour adds nothing for it: an unarmoured man on a heavy horse is worth 3 (the floor of 1 is below it).
    assert troop_strength(T, UnitProfile(men=1, armour="none", mount=mount)).total == ts


@pytest.mark.parametrize(
    ("rolls", "quality"),
    [((3, 8), "seasoned"), ((5, 10), "average"), ((13,), "green"), ((8,), "seasoned"), ((16,), "inexperienced")],
)
def test_only_veterans_and_elite_are_rerolled_for_a_new_unit(rolls: tuple[int, ...], quality: str) -> None:
    # §2.3: "* = reroll when raising a new unit": Elite (3–4) and Veteran (5–7) are starred, Seasoned (8–9),
    # Average (10–12), Green (13–15) and Inexperienced (16–18) are not: their first roll stands.
    w = War()
    result = w.ledger.execute(
        w.info,
        mc.Raise.build(name="Levy", side="Crimson", profile={"men": 10}, pay=False, random_quality=True),
        table=TableEntry(tuple(d3(*rolls))),
    )
    rolled = applied(result, "troop_quality")[0]
    assert rolled["outcome"] == {"quality": quality}
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    unit = state.unit_by_name("Levy")
    assert unit is not None and unit.profile.quality == quality


@pytest.mark.parametrize(("pct", "refused"), [(0, True), (1, False)])
def test_paying_one_unit_means_paying_it_something(pct: int, refused: bool) -> None:
    # The pay command pays a unit now (back pay, a bonus); a missed payday is month-end with 0, so a payment of 0%
    # is refused with the product's words and nothing is appended; 1% is a payment.
    w = War()
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=10_000, reason="the chest"))
    w.muster("Swords", "Crimson", cost_per_man=100)
    before = len(list(w.ledger.store.read(w.info.campaign_id)))
    if refused:
        with pytest.raises(InvalidInputError, match="paying a unit means paying it something"):
            w.ledger.execute(w.info, mcal.Pay.build(unit_name="Swords", pay_pct=pct))
        assert len(list(w.ledger.store.read(w.info.campaign_id))) == before
    else:
        w.ledger.execute(w.info, mcal.Pay.build(unit_name="Swords", pay_pct=pct))
        assert len(list(w.ledger.store.read(w.info.campaign_id))) > before


@pytest.mark.parametrize(
    ("quality", "morale", "ts"),
    [("elite", 16, 200), ("veteran", 15, 150), ("seasoned", 14, 120), ("average", 13, 100), ("green", 11, 80),
     ("inexperienced", 9, 50)],
)  # fmt: skip
def test_each_quality_has_its_base_morale_and_ts_multiplier(quality: str, morale: int, ts: int) -> None:
    # §2.3: base Morale 16 / 15 / 14 / 13 / 11 / 9 and TS ×2 / ×1.5 / ×1.2 / ×1 / ×0.8 / ×0.5. 10 men of TS 10: 100.
    assert base_morale(T, quality) == morale
    assert troop_strength(T, UnitProfile(men=10, ts_per_man=10, quality=quality)).total == ts


@pytest.mark.parametrize(("no_stirrups", "ts"), [(False, 4), (True, 3)])
def test_no_stirrups_take_1_from_the_horse(no_stirrups: bool, ts: int) -> None:
    # §2.2: light armour +3, light horse +1, "No stirrups −1": 4, or 3 without stirrups.
    profile = UnitProfile(men=1, armour="light", mount="light_horse", no_stirrups=no_stirrups)
    assert troop_strength(T, profile).total == ts


def test_each_level_of_super_strength_counts_10_on_the_st_mod() -> None:
    # §2.2: "±½ × (ST mod + HT mod + extra HP), with each level of Super-Strength counting +10 to the ST mod": ST
    # mod +1 and one level: ½ × 11 = 5 (rounded down), on light armour 3: 8.
    profile = UnitProfile(men=1, armour="light", non_human=NonHuman(st_mod=1, super_strength=1))
    assert troop_strength(T, profile).total == 8


@pytest.mark.parametrize(("roll", "strategy"), [(7, {}), (8, {"catastrophe 8": -1})])
def test_catastrophe_3_to_7_is_none_and_8_is_a_surprise(roll: int, strategy: dict[str, int]) -> None:
    # §2.8: "3–7 none; 8–9 enemy surprise: −1 Strategy". Crimson's commander has Luck, which rerolls only a
    # catastrophe (R2-14: "a commander with Luck may reroll"): a 7 is kept without a second roll; an 8 is rerolled
    # and the reroll (10, worse) loses to it.
    w = War()
    w.muster("Red foot", "Crimson")
    w.muster("Blue foot", "Azure")
    crimson = {"name": "Crimson", "commander": {"strategy": 12, "luck": True}, "units": [{"unit": "Red foot"}]}
    dice = d3(roll, 10, 3, 10, 10) if roll > 7 else d3(roll, 3, 10, 10)
    result = w.fight(battle("Dawn", crimson, side("Azure", ["Blue foot"])), dice)
    catastrophe = applied(result, "catastrophe")[0]
    assert len(catastrophe["dice"]) == (2 if roll > 7 else 1)
    assert applied(result, "strategy_contest")[0]["inputs"]["modifiers"]["Crimson"] == strategy


@pytest.mark.parametrize(("risk", "allowed"), [(6, True), (7, False), (-6, True), (-7, False)])
def test_risk_is_chosen_from_minus_6_to_plus_6(risk: int, allowed: bool) -> None:
    # §2.9: "Risk = chosen in -6..+6".
    w = War()
    w.muster("Red foot", "Crimson")
    w.muster("Blue foot", "Azure")
    pc = {"name": "Ayla", "side": "Crimson", "weapon": 12, "risk": risk}
    setup = battle("Dare", side("Crimson", ["Red foot"]), side("Azure", ["Blue foot"]), pcs=[pc])
    if allowed:
        w.fight(setup, d3(3, 3))
    else:
        with pytest.raises(InvalidInputError, match="outside −6…\\+6"):
            w.fight(setup, d3(3, 3))


@pytest.mark.parametrize(("points", "es"), [(500, 20), (510, 21), (10_500, 1020)])
def test_each_10_points_beyond_500_add_1_es(points: int, es: int) -> None:
    # §2.13: 500 points → 20 ES, "each +10 → +1": 510 → 21; 10 000 more → 1000 more.
    assert extraordinary_force(T, points) == es


@pytest.mark.parametrize("quality", ["inexperienced", "green", "average", "seasoned", "veteran", "elite"])
def test_monthly_pay_is_10_percent_of_the_cost_at_every_quality(quality: str) -> None:
    # R2-20: monthly pay = 10 % of the recruitment cost × the quality's pay factor, "every factor is 100 % until the
    # lost column is found": a heavy cavalryman ($14000, R2-30) costs $1400 a month whatever his quality.
    assert monthly_pay(T, UnitProfile(men=1, troop_type="HC", quality=quality)) == 1400


def test_no_day_of_rest_brings_no_wounded_back() -> None:
    # §2.12: (2 + TL)% of the original unit per day of rest: 0 days → 0 men.
    assert wounded_returning(T, UnitProfile(men=100, tl=3), original_men=100, wounded=50, days=0, activity="rest") == 0


@pytest.mark.parametrize(("days", "refused"), [(0, True), (1, False)])
def test_time_passes_by_at_least_one_day(days: int, refused: bool) -> None:
    # RULES.md §5 calendar: "time passes only by events (… days of march, days of rest …)": 0 days is no event.
    w = War()
    w.muster("Swords", "Crimson")
    before = len(list(w.ledger.store.read(w.info.campaign_id)))
    if refused:
        with pytest.raises(InvalidInputError, match="positive number of days"):
            w.ledger.execute(w.info, mcal.Days.build(days=days, activity="rest"))
        assert len(list(w.ledger.store.read(w.info.campaign_id))) == before
    else:
        w.ledger.execute(w.info, mcal.Days.build(days=days, activity="rest"))
        assert len(list(w.ledger.store.read(w.info.campaign_id))) > before


@pytest.mark.parametrize(("wounds", "ok"), [(1, True), (0, False)])
def test_a_damage_column_gives_at_least_one_wound(wounds: int, ok: bool) -> None:
    # §2.9's damage table: a column is one wound or "2×/3×" separate wounds: one is the least a house rule may set.
    if ok:
        check_override(T, "damage.wounds.a", wounds)
    else:
        with pytest.raises(
            InvalidInputError, match=r"damage\.wounds\.a is the wounds a damage column gives: at least one wound, not 0"
        ):
            check_override(T, "damage.wounds.a", wounds)


@pytest.mark.parametrize(
    ("result", "strategy", "foot", "guard"), [(15, {}, 12, 10), (16, {"catastrophe 16": -2}, 10, 10)]
)
def test_catastrophe_15_wounds_a_major_units_leader_and_16_the_army_commander(
    result: int, strategy: dict[str, int], foot: int, guard: int
) -> None:
    # §2.8: 15 "leader of a major unit wounded: −1 Morale all, −2 that unit"; 16 "army commander wounded: −2
    # Strategy, −3 Morale all". Crimson's two units are of equal TS; the GM names Red guard as the unit picked.
    # Crimson 12 (10 at 16) rolls 10, Azure 12 rolls 3 → 9: Azure wins (W 7 or 9) and Crimson's units roll Morale:
    # 13 − 1 and 13 − 1 − 2 at 15; 13 − 3 at 16 (the result's own −2 is not in this figure).
    w = War()
    for name in RED:
        w.muster(name, "Crimson")
    for name in BLUE:
        w.muster(name, "Azure")
    crimson = side("Crimson", RED, catastrophe_unit="Red guard")
    fought = w.fight(battle("Hill", crimson, side("Azure", BLUE)), d3(result, 3, 10, 3))
    assert applied(fought, "strategy_contest")[0]["inputs"]["modifiers"]["Crimson"] == strategy
    morale = {d["explanation"].split(":")[0]: d["inputs"]["morale"] for d in applied(fought, "unit_morale")}
    assert (morale["Red foot"], morale["Red guard"]) == (foot, guard)


def test_catastrophe_7_is_recorded_as_none() -> None:
    # §2.8: "3–7 none": the record says so.
    w = War()
    w.muster("Red foot", "Crimson")
    w.muster("Blue foot", "Azure")
    fought = w.fight(battle("Calm", side("Crimson", ["Red foot"]), side("Azure", ["Blue foot"])), d3(7, 3, 10, 10))
    assert applied(fought, "catastrophe")[0]["outcome"]["effects"] == ["no catastrophe"]


@pytest.mark.parametrize(("target", "column"), [(15, "D"), (16, "A")])
def test_a_17_is_a_critical_failure_only_at_targets_up_to_15(target: int, column: str) -> None:
    # §2.9 "failed by 7+, or critical failure → column D"; GURPS: a 17 is a critical failure at a target of 15 or
    # less. At 16 a 17 is failed by 1: column A.
    assert survival_column(T, 17, target) == column


def _specials(tl: int, crimson: dict[str, object], azure: dict[str, object] | None = None) -> dict[str, int]:
    w = War()
    w.muster("Red foot", "Crimson", ts_per_man=1, **crimson)
    w.muster("Blue foot", "Azure", ts_per_man=1, **(azure or {}))
    setup = battle("Plain", side("Crimson", ["Red foot"], tl=tl), side("Azure", ["Blue foot"], tl=tl))
    modifiers: dict[str, int] = applied(w.fight(setup, d3(3, 3, 10, 10)), "strategy_contest")[0]["inputs"]["modifiers"][
        "Crimson"
    ]
    return modifiers


@pytest.mark.parametrize(
    ("tl", "expected"),
    [(5, {"missile: the enemy has none": 3}), (6, {"armour: the enemy has none": 3})],
)
def test_special_categories_are_missile_troops_below_tl_6_and_armour_from_tl_6(
    tl: int, expected: dict[str, int]
) -> None:
    # §2.10: "Categories at TL ≤ 5: artillery (sieges only), cavalry (except sieges), missile troops. Categories at
    # TL 6+: artillery, armour, air"; none on the other side = 5:1 → +3. Crimson's bowmen with a light tank: at TL5
    # the bows count, the tank does not; at TL6 the tank counts, the bows do not.
    mods = _specials(tl, {"ranged": "bow", "special": {"light_tank": 1}})
    assert {k: v for k, v in mods.items() if k.startswith(("missile", "armour", "air", "cavalry"))} == expected


def test_neutralizing_troops_count_only_for_the_side_with_fewer_real_specials() -> None:
    # §2.10: "'Neutralizing' troops … count for the side with fewer real specials". Both sides have 100 men of
    # cavalry (TS 100 each); Crimson's are also marked as pikes against cavalry: with equal real cavalry neither
    # side has fewer, the pikes do not count, and no side has a cavalry bonus.
    mods = _specials(
        3,
        {"mount": "light_horse", "categories": ["neutralizes:cavalry"]},
        {"mount": "light_horse"},
    )
    assert not any(k.startswith("cavalry") for k in mods)


def test_a_lucky_commander_who_wins_the_contest_does_not_reroll() -> None:
    # §2.11 (and R2-14): Luck rerolls a lost contest. Crimson's lucky commander rolls 3 (margin 9) against Azure's 10
    # (margin 2): he won, so the contest has two rolls, not three.
    w = War()
    w.muster("Red foot", "Crimson")
    w.muster("Blue foot", "Azure")
    crimson = {"name": "Crimson", "commander": {"strategy": 12, "luck": True}, "units": [{"unit": "Red foot"}]}
    fought = w.fight(battle("Luck", crimson, side("Azure", ["Blue foot"])), d3(3, 3, 3, 10))
    assert len(applied(fought, "strategy_contest")[0]["dice"]) == 2


def test_circumstances_add_to_strategy_and_home_soil_adds_2() -> None:
    # §2.10 circumstances: forced march −3, home soil +2 (no fortification here, so R2-17 does not apply).
    mods = _specials(3, {})
    assert mods == {}
    w = War()
    w.muster("Red foot", "Crimson")
    w.muster("Blue foot", "Azure")
    crimson = side("Crimson", ["Red foot"], circumstances={"forced_march": -3, "home_soil": 2})
    fought = w.fight(battle("March", crimson, side("Azure", ["Blue foot"])), d3(3, 3, 10, 10))
    assert applied(fought, "strategy_contest")[0]["inputs"]["modifiers"]["Crimson"] == {
        "forced march": -3,
        "home soil": 2,
    }


def test_paid_paydays_without_arrears_give_no_bonus() -> None:
    # §2.11: "Each 2nd paid day restores +1 (only cancels the penalties)", read by paydays (the first edition's
    # reading of arrears): two paid paydays with no arrears leave Morale at 0, never +1.
    w = War()
    w.ledger.execute(w.info, mc.HouseRule.build(path="economy.arrears_counted_in", value="paydays"))
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=100_000, reason="the chest"))
    w.muster("Swords", "Crimson", cost_per_man=100)
    w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 100}))
    w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 100}))
    assert w.morale("Swords") == 0


@pytest.mark.parametrize(("pct", "morale", "rolls"), [(0, -2, 0), (100, -1, 0)])
def test_unpaid_conscripts_take_2_and_no_arrears_when_paydays_count(pct: int, morale: int, rolls: int) -> None:
    # R2-19 (a): "−1 while its pay is current and −2 once its monthly pay was not made"; "Unpaid conscripts take no
    # arrears penalty" (so no Morale roll for missed pay), under the paydays reading too.
    w = War()
    w.ledger.execute(w.info, mc.HouseRule.build(path="economy.arrears_counted_in", value="paydays"))
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=100_000, reason="the chest"))
    w.muster("Levy", "Crimson", cost_per_man=100, conscript=True)
    result = w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": pct}))
    assert w.morale("Levy") == morale
    assert sum(len(d["dice"]) for d in applied(result, "payday")) == rolls


@pytest.mark.parametrize(("men", "second"), [(1, True), (2, False)])
def test_a_pc_whose_unit_is_wiped_out_rolls_survival_again(men: int, second: bool) -> None:
    # R2-22: a second Survival roll by "every PC on any side … whose unit routed or was wiped out (casualties equal to
    # all its men)". W 0 (no clear winner, no losing side); row 0: 4d (8) + 10 = 18%, rounded up: 1 of 1 man (wiped
    # out) or 1 of 2 (not).
    w = War()
    w.muster("Red foot", "Crimson", men=men)
    w.muster("Blue foot", "Azure")
    pc = {"name": "Ayla", "side": "Crimson", "unit": "Red foot", "weapon": 12, "risk": 0}
    setup = battle("Ruin", side("Crimson", ["Red foot"]), side("Azure", ["Blue foot"]), pcs=[pc])
    fought = w.fight(setup, d3(3, 3, 10, 10))
    texts = [d["explanation"] for d in applied(fought, "survival")]
    assert any("second Survival roll (his unit routed or was wiped out)" in t for t in texts) is second


@pytest.mark.parametrize(("points", "bonus"), [(1, 0), (2, 1), (3, 1), (4, 2)])
@pytest.mark.parametrize("named", [True, False])
def test_es_on_the_catastrophe_adds_1_to_the_enemys_roll_per_2_points(points: int, bonus: int, named: bool) -> None:
    # §2.13: "Catastrophe: 2 points → +1 to the enemy's roll"; against one enemy the spell need not name it.
    w = War()
    w.muster("Red foot", "Crimson")
    w.muster("Blue foot", "Azure")
    spell: dict[str, object] = {"kind": "catastrophe", "points": points, **({"target": "Azure"} if named else {})}
    crimson = side("Crimson", ["Red foot"], es=points, spells=[spell])
    fought = w.fight(battle("Hex", crimson, side("Azure", ["Blue foot"])), d3(3, 3, 10, 10))
    azure = applied(fought, "catastrophe")[1]
    # the inputs also record what the sentence says (its roll, luck, effects): the bonus is the part under test
    assert {k: azure["inputs"][k] for k in ("side", "enemy_es_bonus")} == {"side": "Azure", "enemy_es_bonus": bonus}
    assert azure["outcome"]["result"] == 3 + bonus


@pytest.mark.parametrize(("armour", "row"), [("heavy", 4), ("medium", 2), ("light", 1), ("none", 0)])
def test_armour_moves_a_unit_down_the_casualty_table(armour: str, row: int) -> None:
    # §2.12: "armour: HC/HI +4, MC/MI +2, LC/LI/pikemen +1" rows. W 0: the unit's row is its armour's.
    w = War()
    w.muster("Red foot", "Crimson", armour=armour)
    w.muster("Blue foot", "Azure")
    fought = w.fight(battle("Mud", side("Crimson", ["Red foot"]), side("Azure", ["Blue foot"])), d3(3, 3, 10, 10))
    assert f"Red foot row {row:+d}" in applied(fought, "casualties")[0]["explanation"]


@pytest.mark.parametrize(("mount", "value"), [("none", 600), ("light_horse", 300)])
def test_stripping_the_dead_fetches_a_fifth_of_a_third_halved_for_cavalry(mount: str, value: int) -> None:
    # §2.12 "Stripping the dead: gear worth ⅓ of raise cost, sold for 20%, halved for cavalry": men raised at $3000
    # each: 1000 of gear, sold for 200; halved 100. Three fallen: 600, or 300 for cavalry.
    assert stripped_value(T, UnitProfile(men=1, cost_per_man=3000, mount=mount), 3) == value


def test_beating_an_enemy_counts_until_the_years_end() -> None:
    # §2.11 "beat the same enemy this year +1"; the campaign's year is twelve 30-day months (§5, R2-19): 360 days.
    # Crimson wins on day 0 (12 rolls 3 → 9; Azure 10 → 2: W 7); on day 359 its units still have +1 against Azure,
    # on day 360 a new year has begun.
    w = War()
    w.muster("Red foot", "Crimson")
    w.muster("Blue foot", "Azure")
    w.fight(battle("Ford", side("Crimson", ["Red foot"]), side("Azure", ["Blue foot"])), d3(3, 3, 3, 10))

    def against_azure() -> int:
        state, tables = w.ledger.in_force(w.info, MASS_COMBAT)
        unit = state.unit_by_name("Red foot")
        assert unit is not None
        return state.campaign_morale(unit, tables, {"Azure"})

    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    assert state.day == 0 and against_azure() == 1
    w.ledger.execute(w.info, mcal.Days.build(days=359, activity="rest"))
    assert against_azure() == 1
    w.ledger.execute(w.info, mcal.Days.build(days=1, activity="rest"))
    assert against_azure() == 0


@pytest.mark.parametrize(
    ("roll", "words"), [(12, "made by 0: fought competently"), (13, "failed by 1: fought adequately")]
)
def test_glory_made_exactly_is_fought_competently(roll: int, words: str) -> None:
    # §2.9's Glory table: "made by 0–3 | fought competently"; "failed by 1–3 | fought adequately". Target 12.
    decision = _glory(T, PC, "b", TableDice(tuple(faces(roll)), "glory", 0), 12)
    assert words in decision.explanation


def test_experience_needs_at_least_one_man() -> None:
    # §2.3: new_avg = floor(Σ(men_i × battles_i) / Σ men_i): with no men there is nothing to average, and the
    # refusal says so in words.
    with pytest.raises(InvalidInputError, match="at least one man"):
        average_experience([])


def test_days_of_rest_for_one_side_bring_back_only_its_wounded() -> None:
    # §2.12: "wounded return at (2+TL)% of the original unit per day of rest"; days spent by one side are that
    # side's. W 0, row 0: 4d (8) + 10 = 18% of 100 men: 9 dead, 9 wounded on each side. One day of rest for Crimson
    # at TL3: 5% of 100 = 5 of Red foot's come back; Blue foot's 9 stay wounded.
    w = War()
    w.muster("Red foot", "Crimson")
    w.muster("Blue foot", "Azure")
    w.fight(battle("Mud", side("Crimson", ["Red foot"]), side("Azure", ["Blue foot"])), d3(3, 3, 10, 10))

    def wounded() -> tuple[int, int]:
        state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
        red, blue = state.unit_by_name("Red foot"), state.unit_by_name("Blue foot")
        assert red is not None and blue is not None
        return red.wounded, blue.wounded

    assert wounded() == (9, 9)
    w.ledger.execute(w.info, mcal.Days.build(days=1, activity="rest", side="Crimson"))
    assert wounded() == (4, 9)


def test_only_a_unit_still_owed_pay_counts_unpaid_days() -> None:
    # R2-19 (c): "every day that ends with pay still owed is an unpaid day. After n unpaid days the penalty is
    # 1 + 2 × (n − 1)". Crimson pays in full at the month's end, Azure pays nothing: the payday is Azure's first
    # unpaid day (−1), two more days make it −5; Crimson's unit, owed nothing, stays at 0.
    w = War()
    for side_name in ("Crimson", "Azure"):
        w.ledger.execute(w.info, mcal.Funds.build(side=side_name, amount=100_000, reason="the chest"))
    w.muster("Swords", "Crimson", cost_per_man=100)
    w.muster("Spears", "Azure", cost_per_man=100)
    w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 100, "Azure": 0}))
    w.ledger.execute(w.info, mcal.Days.build(days=2, activity="rest"))
    assert (w.morale("Swords"), w.morale("Spears")) == (0, -5)
