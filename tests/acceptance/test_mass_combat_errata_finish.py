"""RULES.md second edition, seed 002: the parts of R2-14, R2-15, R2-16 and R2-36 the first errata work left open,
each fought through the public service (expected values worked by hand from RULES.md's words).

The armies are those of ``test_mass_combat_errata_battles``: units of 100 men (Average, Morale 13) of TS 0 per man,
commanders of Strategy 12, no Morale ↔ TS rule; a side's margin is 12 − its roll.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from campaign.rulesets.mass_combat.commands import parse_setup
from campaign.rulesets.mass_combat.economy import magic_healing_reaches
from campaign.rulesets.mass_combat.pcs import _glory, survival_column
from campaign.rulesets.mass_combat.plugin import PLUGIN as MASS_COMBAT
from campaign.rulesets.mass_combat.profile import UnitProfile
from campaign.rulesets.mass_combat.quality import extraordinary_force, extraordinary_force_pm
from campaign.rulesets.mass_combat.setup import PcInBattle
from campaign.rulesets.mass_combat.strength import troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from campaign.rulesets.tables import Value
from campaign.tables import base_values
from events.dice import TableDice
from events.errors import InvalidInputError
from events.families.career import ReputationChanged
from events.store import AppendResult
from tests.acceptance.mass_combat_table import BLUE, RED, War, applied, battle, d3, side, two_armies

T = Tables.of(base_values("mass_combat"))


def with_value(path: str, value: Value) -> Tables:
    values = dict(T.values)
    values[path] = replace(values[path], value=value)
    return Tables.of(values)


@pytest.fixture
def war() -> War:
    return two_armies()


# --- R2-14: a PC leader who died -----------------------------------------------------------------------------------

# Survival 10 (IQ 12 → Tactics 6, weapon 14: Battle 10, Risk 0) rolled 16: failed by 6, column C at TL3,
# 2 × (2d+2 − DR 0); each 2d rolled 2 + 2: 6 + 6 = 12 damage. Glory 10 rolled 10: made by 0, no modifier.
FALLS = [*d3(3, 3), *d3(16), 2, 2, 2, 2, *d3(10)]


def _fight(war: War, pc: dict[str, object], name: str = "Crag") -> AppendResult:
    return war.fight(battle(name, side("Crimson", RED), side("Azure", BLUE), pcs=[pc]), FALLS)


def _leader(leads: str, **marks: int) -> dict[str, object]:
    pc: dict[str, object] = {"name": "Caliburn", "side": "Crimson", "iq": 12, "weapon": 14, "risk": 0, "leads": leads}
    if leads == "unit":
        pc["unit"] = "Red foot"
    return {**pc, **marks}


def test_r2_14_a_unit_leader_who_died_leaves_the_loss_of_a_commander_until_a_clear_victory(war: War) -> None:
    """R2-14: "If he died, it lasts as the loss of a commander (R2-10); if he is unconscious, it ends with the
    battle." R2-10 says what of a lost commander lasts: the Morale effects of 17 and 18 ("17 → −3 on the unit whose
    leader died"; "18 → −5 on every unit"), never their Strategy effects. The two agree once read together: R2-10's
    list names the catastrophe results, R2-14 (the later and more specific erratum) adds a PC leader killed by his
    own Survival damage to the commanders whose loss lasts, as the seed's "the loss of commanders … lasts until the
    army wins a clear victory" covers any commander. So this battle feels only the Strategy effect (R2-14: "Only
    the Strategy roll is affected", his "final Strategy roll"), and from its end the Morale loss of the matching
    catastrophe lasts until a clear victory, exactly as R2-10's does."""
    result = _fight(war, _leader("unit", dead_at=12))
    mods = applied(result, "strategy_contest")[0]["inputs"]["modifiers"]["Crimson"]
    assert mods == {"Caliburn knocked out": -2}  # catastrophe 17's Strategy, this battle only
    # Crimson 10 rolled 6 → 4, Azure 12 rolled 6 → 6: W 2, every unit rolls at its own Morale: no −3 in this battle.
    assert {d["inputs"]["morale"] for d in applied(result, "unit_morale")} == {13}
    assert applied(result, "leader_lost")[0]["outcome"]["persist"]
    assert war.morale("Red foot") == -3 and war.morale("Red guard") == 0
    # Crimson 12 rolls 4 → 8, Azure rolls 12 → 0: W 8, a clear victory: the loss is avenged.
    war.fight(battle("Ford", side("Crimson", RED), side("Azure", BLUE)), d3(3, 3, 4, 12))
    assert war.morale("Red foot") == 0


@pytest.mark.parametrize(("dead_at", "red_foot"), [(12, -3), (13, 0)])
def test_r2_14_died_when_the_damage_reaches_the_gms_mark(war: War, dead_at: int, red_foot: int) -> None:
    # 12 damage: dead at 12 (the loss lasts), not dead at 13 (unconscious at 10: it ends with the battle).
    pc = _leader("unit", dead_at=dead_at, unconscious_at=10)
    _fight(war, pc)
    assert war.morale("Red foot") == red_foot and war.morale("Red guard") == 0


def test_r2_14_an_unconscious_leader_leaves_nothing_after_the_battle(war: War) -> None:
    _fight(war, _leader("unit", unconscious_at=12))
    assert war.morale("Red foot") == 0


def test_r2_14_an_army_leader_who_died_costs_every_unit_present_5_after_the_battle(war: War) -> None:
    result = _fight(war, _leader("army", dead_at=12), "Keep")
    assert "Strategy 6 " in applied(result, "strategy_contest")[0]["explanation"]  # 18: 12 halved, this battle
    assert {d["inputs"]["morale"] for d in applied(result, "unit_morale")} == {13}  # not 8: nothing in this battle
    assert war.morale("Red foot") == -5 and war.morale("Red guard") == -5
    war.muster("Red reserve", "Crimson")  # R2-10: units joining later never had it
    assert war.morale("Red reserve") == 0


def test_r2_14_a_pc_who_leads_nothing_is_no_commander(war: War) -> None:
    _fight(war, _leader("nothing", dead_at=12))
    assert war.morale("Red foot") == 0 and war.morale("Red guard") == 0


# --- R2-15: the crews of crewed objects count --------------------------------------------------------------------


@pytest.mark.parametrize(("crew", "skill"), [(7, "Tactics"), (8, "Strategy")])
def test_r2_15_the_crews_of_crewed_objects_count_towards_200(crew: int, skill: str) -> None:
    """R2-15: "count the men of every unit of every side at the contest (…; the crews of crewed objects count)".
    130 + 62 + two large siege engines with their crew: 7 → 199, Tactics; 8 → 200, Strategy."""
    w = War()
    w.muster("Band", "Crimson", men=130)
    w.muster("Patrol", "Azure", men=62)
    w.muster("Engines", "Azure", men=0, special={"large_siege_engine": 2}, crew=crew)
    commander = {"strategy": 14, "tactics": 10}
    setup = battle(
        "Skirmish",
        {"name": "Crimson", "commander": commander, "units": [{"unit": "Band"}]},
        {"name": "Azure", "commander": commander, "units": [{"unit": "Patrol"}, {"unit": "Engines"}]},
    )
    contest = applied(w.fight(setup, d3(3, 3, 10, 10)), "strategy_contest")[0]
    assert f"Crimson: {skill}" in contest["explanation"] and f"Azure: {skill}" in contest["explanation"]


def test_r2_36_a_crew_is_in_its_objects_ts_and_fights_alone_at_2_each() -> None:
    """§2.2: "A crewed 'object' includes its crew; a crew acting alone = TS 2 each" (``ts.rules.crew_alone``)."""
    engines = UnitProfile(men=0, special={"large_siege_engine": 2}, crew=8)
    assert troop_strength(T, engines).total == 100  # 2 × 50: the crew adds nothing of its own
    assert troop_strength(T, engines.model_copy(update={"special": {}})).total == 16  # 8 × 2
    gunners = UnitProfile(men=0, crew=8, quality="green")
    assert troop_strength(T, gunners).total == 12  # 8 × 2 × 0.8 = 12.8, rounded down


# --- R2-16: a siege battle is a storm: Tables B and C -------------------------------------------------------------


def _storm(position: list[str], *, siege: bool) -> dict[str, object]:
    return battle(
        "Walls",
        side("Crimson", RED, role="attacker"),
        side("Azure", BLUE, role="defender", position=position),
        siege=siege,
    )


@pytest.mark.parametrize(("siege", "table", "key"), [(True, "B", "thrown_back"), (False, "A", "no_clear_winner")])
def test_r2_16_a_siege_storm_uses_tables_b_and_c_without_a_starred_row(
    war: War, siege: bool, table: str, key: str
) -> None:
    """R2-16: "a siege battle is fought only when the attacker storms. The besieged then hold a starred position,
    so the storm uses B and C". A steep slope (+2, not starred): Azure 14 rolls 10 → 4, Crimson 12 rolls 10 → 2:
    W 2 — in a siege Table B (thrown back), in the open Table A (no clear winner). The slope is not starred, so it
    adds nothing to the casualty row either way."""
    result = war.fight(_storm(["steep_slope"], siege=siege), d3(3, 3, 10, 10))
    verdict = applied(result, "result")[0]
    assert verdict["inputs"].items() >= {"table": table, "w": 2}.items() and verdict["outcome"]["result"] == key
    assert "fortification" not in applied(result, "casualties")[1]["explanation"]


def test_r2_16_the_attacker_who_wins_a_storm_uses_table_c(war: War) -> None:
    # Crimson rolls 3 → 9, Azure 14 rolls 10 → 4: W 5 for the attacker: Table C 4–7, both hold.
    result = war.fight(_storm(["steep_slope"], siege=True), d3(3, 3, 3, 10))
    assert applied(result, "result")[0]["inputs"].items() >= {"table": "C", "w": 5}.items()
    assert applied(result, "result")[0]["outcome"]["result"] == "both_hold"


def test_r2_16_a_siege_battle_needs_an_attacker_and_the_besieged() -> None:
    with pytest.raises(InvalidInputError, match="a siege battle is a storm"):
        parse_setup(battle("Walls", side("Crimson", RED), side("Azure", BLUE), siege=True))


# --- R2-36: the keys the Mass Combat rules now read ---------------------------------------------------------------


@pytest.mark.parametrize(("capacity", "es"), [(19, 3), (20, 4)])
def test_r2_36_a_power_stone_adds_1_es_per_10_of_its_capacity(capacity: int, es: int) -> None:
    # §2.13: "power stone +1 per 10 capacity": 200 points give 2, a stone of 20 two more, of 19 one.
    assert extraordinary_force(T, 200, stone_capacity=capacity) == es


@pytest.mark.parametrize(("mana", "pm"), [("low", 500), ("normal", 2000), ("very_high", 4000)])
def test_the_mana_level_scales_es(mana: str, pm: int) -> None:
    # §2.13: "mana low ×¼, normal ×1, very high ×2": 200 points give 2 ES (2000 per-mille).
    assert extraordinary_force_pm(T, 200, mana=mana) == pm


def test_an_unknown_mana_level_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="low, normal or very_high"):
        extraordinary_force(T, 200, mana="none")


@pytest.mark.parametrize(("healers", "wounded", "reaches"), [(2, 20, True), (2, 21, False), (None, 500, True)])
def test_r2_36_magical_healing_needs_one_healer_per_10_wounded(
    healers: int | None, wounded: int, reaches: bool
) -> None:
    assert magic_healing_reaches(T, healers, wounded) is reaches


def test_r2_36_too_few_healers_roll_no_magic(war: War) -> None:
    # A draw (both roll 10) leaves every unit with wounded; one healer is too few for them: no 1d% is rolled.
    war.fight(battle("Draw", side("Crimson", RED), side("Azure", BLUE)), d3(3, 3, 10, 10))
    state, _ = war.ledger.in_force(war.info, MASS_COMBAT)
    wounded = sum(u.wounded for u in state.roster.values())
    assert wounded > 10
    few = war.ledger.execute(
        war.info, mcal.Days.build(days=1, activity="rest", side=None, magic_healing=True, healers=1)
    )
    assert not [e for e in few.events if e.type == "dice.rolled"]
    enough = war.ledger.execute(
        war.info, mcal.Days.build(days=1, activity="rest", side=None, magic_healing=True, healers=wounded)
    )
    assert [e.payload["purpose"] for e in enough.events if e.type == "dice.rolled"] == ["magical healing rate (%)"]


def test_r2_36_six_months_make_untrained_men_inexperienced_and_a_year_green() -> None:
    """§2.3: "6 months turns Untrained into Inexperienced, 1 year makes them Green" (``training.*_months``)."""
    w = War()
    w.muster("Levy", "Crimson", quality="inexperienced", untrained=True)
    w.ledger.execute(w.info, mc.Train.build(unit_name="Levy", months=6))
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    levy = state.unit_by_name("Levy")
    assert levy is not None and not levy.profile.untrained and levy.profile.quality == "inexperienced"
    w.ledger.execute(w.info, mc.Train.build(unit_name="Levy", months=6))  # 6 + 6: the year (R3-21: the months add up)
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    levy = state.unit_by_name("Levy")
    assert levy is not None and levy.profile.quality == "green"


def test_untrained_men_are_inexperienced() -> None:
    with pytest.raises(ValueError, match="untrained men are Inexperienced"):
        UnitProfile(men=10, quality="green", untrained=True)


@pytest.mark.parametrize(("counts_as", "rows"), [("made_7", [(1, 2)]), ("critical", [(2, 4), (1, 0)])])
def test_r2_36_glory_made_by_10_without_a_critical(counts_as: str, rows: list[tuple[int, int]]) -> None:
    """C-7: made by 10+ without a critical success reads as the 7–9 row (+1 Reputation for 1d−2 months) by default,
    as a critical (+2 for 1d months and +1 for ever) under the other reading. Target 17, rolled 7 (no critical:
    a 7), made by 10; the 1d of months rolls 4, then the promotion roll."""
    tables = with_value("glory.made_10_counts_as", counts_as)
    pc = PcInBattle(name="Ayla", side="Crimson", weapon=12, risk=0)
    decision = _glory(tables, pc, "b", TableDice((2, 2, 3, 4, 3, 3, 3), "glory", 0), 17)
    assert [(f.change, f.months) for f in decision.facts if isinstance(f, ReputationChanged)] == rows


@pytest.mark.parametrize(("a_from", "roll", "column"), [(1, 11, "A"), (2, 11, "two_hits"), (2, 12, "A")])
def test_r2_36_the_survival_tables_column_a_starts_where_the_tables_say(a_from: int, roll: int, column: str) -> None:
    # Target 10: failed by 1 is column A ("failed by 1–2"); a house rule starting A at 2 widens "made exactly".
    assert survival_column(with_value("survival.column_a_failed_by", a_from), roll, 10) == column


@pytest.mark.parametrize(("defection", "side_after"), [(True, "Azure"), (False, "Crimson")])
def test_r2_36_a_house_rule_can_turn_catastrophe_14s_defection_off(war: War, defection: bool, side_after: str) -> None:
    """§2.8 14: "ally/unit leader defects with his troops: recompute TS, −2 Strategy". Its defection is a value, so
    a house rule setting it false keeps the unit (the −2 Strategy stays); on, the unit goes over to the enemy and
    serves it from then on (R3-17)."""
    if not defection:
        war.ledger.execute(war.info, mc.HouseRule.build(path="catastrophe.effects.14.defection", value=False))
    setup = battle("Treachery", side("Crimson", RED, catastrophe_unit="Red foot"), side("Azure", BLUE))
    result = war.fight(setup, d3(14, 3, 6, 6))
    assert applied(result, "strategy_contest")[0]["inputs"]["modifiers"]["Crimson"] == {"catastrophe 14": -2}
    fought = {d["explanation"].split(":")[0] for d in applied(result, "unit_morale")}
    assert "Red foot" in fought  # for Azure when it defected (it holds or retreats with Azure's units)
    state, _ = war.ledger.in_force(war.info, MASS_COMBAT)
    red_foot = state.unit_by_name("Red foot")
    assert red_foot is not None and red_foot.disbanded is None and red_foot.side == side_after


@pytest.mark.parametrize("leads", ["nothing", "unit"])
@pytest.mark.parametrize(("dead_at", "second_roll"), [(12, False), (13, True)])
def test_a_pc_ruled_dead_makes_no_second_survival_roll(war: War, leads: str, dead_at: int, second_roll: bool) -> None:
    """§2.12: "every PC on the losing side" makes a second Survival roll; §2.9 names the one roll a dead PC still
    makes: "Roll Glory even for a dead PC". A PC the GM rules dead from his first roll's damage (R2-14: "the GM
    rules it from the damage and records it") makes no further Survival roll. Caliburn takes 12 damage (above):
    dead at 12, he rolls no more; dead only at 13, he is alive and his side lost, so he rolls again. Crimson (12, or
    10 with its leader knocked out) rolls 14, Azure 12 rolls 6: W 8 or 10, Crimson loses."""
    setup = battle("Crag", side("Crimson", RED), side("Azure", BLUE), pcs=[_leader(leads, dead_at=dead_at)])
    result = war.fight(setup, [*FALLS, *d3(14, 6)])
    assert applied(result, "result")[0]["outcome"]["winner"] == "Azure"
    survival = [d["explanation"] for d in applied(result, "survival")]
    assert survival[0].startswith("Caliburn Survival roll: 10, rolled 16")
    assert any("second Survival roll (losing side)" in s for s in survival) is second_roll
    assert len(survival) == (2 if second_roll else 1)
