"""The Mass Combat campaign economy and time (RULES.md §2.11–§2.12), through the service."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.executor import Ledger, TableEntry
from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from campaign.rulesets.mass_combat import state as mc_state
from campaign.rulesets.mass_combat.economy import PayState, arrears_applied, payday, recruitment_cost
from campaign.rulesets.mass_combat.plugin import PLUGIN as MASS_COMBAT
from campaign.rulesets.mass_combat.profile import UnitProfile
from campaign.rulesets.mass_combat.tables import Tables
from campaign.tables import base_values
from events.errors import InvalidInputError
from events.recorded import obj, text, whole
from projections.state.campaigns import CampaignInfo
from tests.conftest import Backend, examples, make_ledger

T = Tables.of(base_values("mass_combat"))


@pytest.fixture
def company() -> Ledger:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Free Company", "mass-combat")
    ledger.execute(ledger.resolve(None), mcal.Funds.build(side="Company", amount=500_000, reason="a patron's purse"))
    return ledger


def unit(ledger: Ledger, name: str) -> mc_state.Unit:
    state, _ = ledger.in_force(ledger.resolve(None), MASS_COMBAT)
    found = state.unit_by_name(name)
    assert found is not None
    return found


def test_yrth_prices_and_monthly_pay() -> None:
    assert recruitment_cost(T, UnitProfile(men=1, troop_type="HC")) == 14000
    assert recruitment_cost(T, UnitProfile(men=1, troop_type="LI", ranged="crossbow")) == 3000
    assert recruitment_cost(T, UnitProfile(men=1, troop_type="II", ranged="sling")) == 700
    with pytest.raises(InvalidInputError, match="no price"):
        recruitment_cost(T, UnitProfile(men=1))


def test_raising_a_unit_costs_its_recruitment_and_the_treasury_cannot_go_negative(
    company: Ledger,
) -> None:
    ledger = company
    ledger.execute(
        ledger.resolve(None),
        mc.Raise.build(
            name="Pikes",
            side="Company",
            profile={"quality": "average", "men": 100, "troop_type": "PI", "armour": "light"},
        ),
    )
    state, _ = ledger.in_force(ledger.resolve(None), MASS_COMBAT)
    assert state.treasury["Company"] == 500_000 - 200_000
    before = len(list(ledger.store.read(ledger.resolve(None).campaign_id)))
    with pytest.raises(InvalidInputError, match="cannot cover"):
        ledger.execute(
            ledger.resolve(None),
            mc.Raise.build(
                name="Knights", side="Company", profile={"quality": "average", "men": 30, "troop_type": "HC"}
            ),
        )
    with pytest.raises(InvalidInputError, match="cannot cover"):
        ledger.execute(ledger.resolve(None), mcal.Funds.build(side="Company", amount=-400_000, reason="a bribe"))
    assert len(list(ledger.store.read(ledger.resolve(None).campaign_id))) == before


def test_new_units_reroll_veteran_and_elite_quality(company: Ledger) -> None:
    ledger = company
    result = ledger.execute(
        ledger.resolve(None),
        mc.Raise.build(
            name="Levy",
            side="Company",
            profile={"quality": "average", "men": 50, "troop_type": "II"},
            random_quality=True,
        ),
        table=TableEntry((2, 2, 2, 3, 4, 4)),
    )  # 6 → Veteran: reroll; 11
    quality = next(e.payload for e in result.events if e.type == "rules.applied")
    assert quality["outcome"] == {"quality": "average"} and "rerolled" in text(quality["explanation"])
    assert unit(ledger, "Levy").profile.experience == 3


def test_recruits_are_averaged_in_at_their_lower_bound(company: Ledger) -> None:
    ledger = company
    ledger.execute(
        ledger.resolve(None),
        mc.Raise.build(
            name="Titus' Veterans",
            side="Company",
            profile={"men": 87, "troop_type": "MI", "armour": "medium", "quality": "veteran", "experience": 10},
            pay=False,
        ),
    )
    ledger.execute(ledger.resolve(None), mc.Recruit.build(unit_name="Titus' Veterans", men=11, quality="green"))
    titus = unit(ledger, "Titus' Veterans")
    assert (titus.profile.men, titus.profile.experience, titus.profile.quality) == (98, 8, "seasoned")
    state, _ = ledger.in_force(ledger.resolve(None), MASS_COMBAT)
    assert state.treasury["Company"] == 500_000 - 11 * 5000


def test_missed_paydays_cost_morale_and_paid_ones_win_it_back(company: Ledger) -> None:
    """The first edition's reading, kept as a house rule: arrears counted in paydays (R2-19 counts days)."""
    ledger = company
    ledger.execute(ledger.resolve(None), mc.HouseRule.build(path="economy.arrears_counted_in", value="paydays"))
    ledger.execute(
        ledger.resolve(None),
        mc.Raise.build(
            name="Swords",
            side="Company",
            profile={"men": 10, "troop_type": "MI", "armour": "medium", "quality": "average"},
            pay=False,
        ),
    )

    def info() -> CampaignInfo:
        return ledger.resolve(None)

    penalties = []
    for pct, dice in ((0, (3, 3, 3)), (0, (3, 3, 3)), (100, ()), (100, ()), (100, ()), (100, ())):
        ledger.execute(info(), mcal.MonthEnd.build(pay_pct={"Company": pct}), table=TableEntry(dice) if dice else None)
        penalties.append(unit(ledger, "Swords").pay.penalty)
    assert penalties == [1, 3, 3, 2, 2, 1]  # −1, then −2; every second paid payday gives one back
    state, _ = ledger.in_force(info(), MASS_COMBAT)
    # Pay is 10% of $5000 a man; upkeep $200 a man, every month.
    assert state.treasury["Company"] == 500_000 - 6 * 2000 - 4 * 5000


def test_a_missed_payday_calls_for_a_morale_roll(company: Ledger) -> None:
    ledger = company
    ledger.execute(
        ledger.resolve(None),
        mc.Raise.build(
            name="Swords",
            side="Company",
            profile={"quality": "average", "men": 10, "troop_type": "MI", "armour": "medium"},
            pay=False,
        ),
    )
    result = ledger.execute(
        ledger.resolve(None), mcal.MonthEnd.build(pay_pct={"Company": 0}), table=TableEntry((6, 6, 6))
    )
    roll = next(e.payload for e in result.events if e.type == "rules.applied")
    # Average: Morale 13, −1 for the first missed payday → 12; 3d rolled 18.
    assert obj(roll["outcome"])["morale_roll"] == "failed"
    assert "Morale roll 18 vs 12" in text(roll["explanation"])


def test_bonus_pay_raises_next_months_morale(company: Ledger) -> None:
    ledger = company
    ledger.execute(
        ledger.resolve(None),
        mc.Raise.build(
            name="Swords",
            side="Company",
            profile={"quality": "average", "men": 10, "troop_type": "MI", "armour": "medium"},
            pay=False,
        ),
    )
    ledger.execute(ledger.resolve(None), mcal.MonthEnd.build(pay_pct={"Company": 200}))
    state, tables = ledger.in_force(ledger.resolve(None), MASS_COMBAT)
    assert state.campaign_morale(unit(ledger, "Swords"), tables, set()) == 2
    ledger.execute(ledger.resolve(None), mcal.MonthEnd.build(pay_pct={"Company": 100}))
    state, tables = ledger.in_force(ledger.resolve(None), MASS_COMBAT)
    assert state.campaign_morale(unit(ledger, "Swords"), tables, set()) == 0


def test_paying_a_disbanded_unit_is_refused(company: Ledger) -> None:
    ledger = company
    ledger.execute(
        ledger.resolve(None),
        mc.Raise.build(
            name="Deserters", side="Company", profile={"quality": "average", "men": 5, "troop_type": "II"}, pay=False
        ),
    )
    ledger.execute(ledger.resolve(None), mc.Disband.build(unit_name="Deserters", reason="the contract ended"))
    with pytest.raises(InvalidInputError, match="was disbanded"):
        ledger.execute(ledger.resolve(None), mcal.Pay.build(unit_name="Deserters"))


def test_wounded_return_by_days_of_rest_and_march(company: Ledger) -> None:
    from campaign.rulesets.mass_combat.economy import wounded_returning

    profile = UnitProfile(men=100, tl=3)
    assert wounded_returning(T, profile, original_men=100, wounded=30, days=3, activity="rest") == 15  # 5%/day
    assert wounded_returning(T, profile, original_men=100, wounded=30, days=3, activity="march") == 6  # 2%/day
    assert wounded_returning(T, profile, original_men=100, wounded=30, days=30, activity="rest") == 30
    assert (
        wounded_returning(
            T, profile.model_copy(update={"healing": "fast"}), original_men=100, wounded=30, days=2, activity="rest"
        )
        == 15
    )  # ×1.5
    assert wounded_returning(T, profile, original_men=100, wounded=30, days=2, activity="rest", magic_pct=4) == 18
    with pytest.raises(InvalidInputError, match="backwards"):
        wounded_returning(T, profile, original_men=100, wounded=30, days=-1, activity="rest")


@settings(max_examples=examples(80), suppress_health_check=[HealthCheck.too_slow])
@given(
    pays=st.lists(st.sampled_from([0, 0, 50, 100, 150, 200]), max_size=30),
    quality=st.sampled_from(["veteran", "elite"]),
)
def test_arrears_never_push_a_veteran_or_elite_unit_below_14(pays: list[int], quality: str) -> None:
    profile = UnitProfile(men=10, troop_type="MI", quality=quality)
    pay = PayState()
    for pct in pays:
        pay = payday(T, profile, pay, pct).state
        # R2-19 (b): the floor is on the unit's final Morale, so it is applied where Morale is reckoned.
        assert whole(T.values[f"quality.{quality}.morale"].value) - arrears_applied(T, profile, pay.penalty, 0) >= 14


def test_a_new_commander_drops_quality_and_an_npcs_leadership_is_rolled(company: Ledger) -> None:
    ledger = company
    ledger.execute(
        ledger.resolve(None),
        mc.Raise.build(
            name="Lances",
            side="Company",
            profile={"men": 20, "troop_type": "MC", "mount": "medium_horse", "quality": "veteran", "experience": 11},
            pay=False,
        ),
    )
    result = ledger.execute(
        ledger.resolve(None), mc.Commander.build(unit_name="Lances", npc=True), table=TableEntry((3, 3, 2))
    )  # 8: Seasoned
    rolled = next(e.payload for e in result.events if e.type == "rules.applied")
    assert rolled["outcome"] == {"experience": "seasoned", "leadership": 14}
    lances = unit(ledger, "Lances")
    assert (lances.profile.quality, lances.profile.leader_leadership) == ("seasoned", 14)


def test_training_stops_at_green(company: Ledger) -> None:
    ledger = company
    ledger.execute(
        ledger.resolve(None),
        mc.Raise.build(
            name="Peasants",
            side="Company",
            profile={"men": 50, "troop_type": "II", "quality": "inexperienced", "experience": 0},
            pay=False,
        ),
    )
    # R3-21: mustered Inexperienced (not untrained), they count the 6 months that make untrained men so; 6 more
    # make the year that makes them Green, at Green's lower bound of experience (1).
    ledger.execute(ledger.resolve(None), mc.Train.build(unit_name="Peasants", months=6))
    assert unit(ledger, "Peasants").profile.quality == "green"
    assert unit(ledger, "Peasants").profile.experience == 1
    with pytest.raises(InvalidInputError, match="Peasants is green: training makes troops no better than Green"):
        ledger.execute(ledger.resolve(None), mc.Train.build(unit_name="Peasants", months=24))


def test_treason_forces_a_morale_roll(company: Ledger) -> None:
    ledger = company
    ledger.execute(
        ledger.resolve(None),
        mc.Raise.build(
            name="Swords", side="Company", profile={"quality": "average", "men": 10, "troop_type": "MI"}, pay=False
        ),
    )
    ledger.execute(
        ledger.resolve(None), mcal.Treason.build(unit_name="Swords"), table=TableEntry((6, 6, 5))
    )  # 17 vs 13: failed
    state, tables = ledger.in_force(ledger.resolve(None), MASS_COMBAT)
    assert state.campaign_morale(unit(ledger, "Swords"), tables, set()) == -1


@pytest.mark.parametrize(("points", "es"), [(99, 0), (100, 0), (150, 1), (299, 3), (300, 5), (500, 20), (530, 23)])
def test_extraordinary_force_from_points(points: int, es: int) -> None:
    from campaign.rulesets.mass_combat.quality import extraordinary_force

    assert extraordinary_force(T, points) == es
    assert extraordinary_force(T, 400, mana="low") == 3 and extraordinary_force(T, 400, mana="very_high") == 24


command = st.one_of(
    st.tuples(st.just("month"), st.sampled_from([0, 100, 150, 200])),
    st.tuples(st.just("rest"), st.integers(1, 20)),
    st.tuples(st.just("march"), st.integers(1, 20)),
    st.tuples(st.just("recruit"), st.integers(1, 15)),
    st.tuples(st.just("battle"), st.integers(-6, 6)),
    st.tuples(
        st.just("treason"),
    ),
)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(command, max_size=12))
def test_replaying_a_mass_combat_log_gives_the_same_state(steps: list[tuple[Any, ...]]) -> None:
    from campaign.rulesets.mass_combat.commands import parse_setup

    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Prop", "mass-combat")

    def info() -> CampaignInfo:
        return ledger.resolve(None)

    ledger.execute(info(), mcal.Funds.build(side="Blue", amount=10_000_000, reason="war chest"))
    ledger.execute(
        info(),
        mc.Raise.build(
            name="Blue foot",
            side="Blue",
            profile={"quality": "average", "men": 200, "troop_type": "MI", "armour": "medium"},
        ),
    )
    ledger.execute(
        info(),
        mc.Raise.build(
            name="Red foot",
            side="Red",
            profile={"quality": "average", "men": 180, "troop_type": "LI", "armour": "light"},
            pay=False,
        ),
    )
    for step in steps:
        try:
            if step[0] == "month":
                ledger.execute(info(), mcal.MonthEnd.build(pay_pct={"Blue": step[1]}))
            elif step[0] in ("rest", "march"):
                ledger.execute(info(), mcal.Days.build(days=step[1], activity=step[0]))
            elif step[0] == "recruit":
                ledger.execute(info(), mc.Recruit.build(unit_name="Blue foot", men=step[1], quality="green"))
            elif step[0] == "treason":
                ledger.execute(info(), mcal.Treason.build(unit_name="Red foot"))
            else:
                setup = parse_setup(
                    {
                        "name": "Skirmish",
                        "sides": [
                            {
                                "name": "Blue",
                                "commander": {"strategy": 12},
                                "units": [{"unit": "Blue foot"}],
                                "misc": step[1] // 2,
                            },
                            {"name": "Red", "commander": {"strategy": 12}, "units": [{"unit": "Red foot"}]},
                        ],
                    }
                )
                ledger.execute(info(), mc.Battle.build(setup=setup))
        except InvalidInputError:
            pass
    events = list(ledger.store.read(info().campaign_id))
    base = base_values("mass_combat")
    once = mc_state.fold(events, base)
    assert once == mc_state.fold(ledger.store.read(info().campaign_id), base)
    for u in once.roster.values():
        assert 0 <= u.wounded <= u.profile.men
        if u.profile.quality in ("veteran", "elite"):
            assert whole(T.values[f"quality.{u.profile.quality}.morale"].value) - u.pay.penalty >= 14


def test_a_transfer_moves_fit_men_and_re_averages_the_receivers_experience(company: Ledger) -> None:
    ledger = company

    def info() -> CampaignInfo:
        return ledger.resolve(None)

    kit = {"troop_type": "MI", "armour": "medium"}
    veterans = {"men": 40, **kit, "quality": "veteran", "experience": 10}
    ledger.execute(info(), mc.Raise.build(name="Old Guard", side="Company", profile=veterans, pay=False))
    ledger.execute(
        info(),
        mc.Raise.build(
            name="New Band",
            side="Company",
            profile={"men": 60, **kit, "quality": "average", "experience": 3},
            pay=False,
        ),
    )
    ledger.execute(
        info(),
        mc.Raise.build(
            name="Archers", side="Company", profile={"quality": "average", "men": 20, "troop_type": "LI"}, pay=False
        ),
    )
    ledger.execute(info(), mc.Transfer.build(from_unit="Old Guard", to_unit="New Band", men=20))
    guard, band = unit(ledger, "Old Guard"), unit(ledger, "New Band")
    assert (guard.profile.men, guard.profile.experience, guard.original_men) == (20, 10, 20)
    # (60 × 3 + 20 × 10) // 80 = 4: still Average (Seasoned begins at 6).
    assert (band.profile.men, band.profile.experience, band.profile.quality) == (80, 4, "average")
    assert band.original_men == 80

    ledger.execute(
        info(), mc.Raise.build(name="Rivals", side="Enemy", profile={"quality": "average", "men": 20, **kit}, pay=False)
    )
    before = info().last_seq
    refusals = [
        (("Old Guard", "New Band", 0), "at least one man"),
        (("Old Guard", "New Band", -3), "at least one man"),
        (("Old Guard", "New Band", 21), "has 20 fit men"),
        (("Old Guard", "Old Guard", 5), "to itself"),
        (("Old Guard", "Archers", 5), "one troop type"),
        (("Old Guard", "Nobody", 5), "unknown unit"),
        (("Old Guard", "Rivals", 5), "fights for Company"),
    ]
    for (from_unit, to_unit, men), message in refusals:
        with pytest.raises(InvalidInputError, match=message):
            ledger.execute(info(), mc.Transfer.build(from_unit=from_unit, to_unit=to_unit, men=men))
    assert info().last_seq == before  # nothing refused was appended
