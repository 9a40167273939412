"""The Mass Combat campaign economy and time (RULES.md §2.11–§2.12), through the service."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.executor import TableEntry
from campaign.rulesets.mass_combat import state as mc_state
from campaign.rulesets.mass_combat.economy import PayState, arrears_applied, payday, recruitment_cost
from campaign.rulesets.mass_combat.profile import UnitProfile
from campaign.rulesets.mass_combat.tables import Tables
from campaign.tables import base_values
from events.errors import InvalidInputError
from tests.conftest import Backend, make_ledger
from tests.services import MassCombat

T = Tables.of(base_values("mass_combat"))


@pytest.fixture
def company() -> tuple[MassCombat, Any]:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Free Company", "mass-combat")
    game = MassCombat(ledger)
    game.funds(ledger.resolve(None), "Company", 500_000, "a patron's purse")
    return game, ledger


def unit(game: MassCombat, ledger: Any, name: str) -> mc_state.Unit:
    state, _ = game.state(ledger.resolve(None))
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
    company: tuple[MassCombat, Any],
) -> None:
    game, ledger = company
    game.raise_unit(
        ledger.resolve(None),
        "Pikes",
        "Company",
        {"quality": "average", "men": 100, "troop_type": "PI", "armour": "light"},
    )
    state, _ = game.state(ledger.resolve(None))
    assert state.treasury["Company"] == 500_000 - 200_000
    before = len(list(ledger.store.read(ledger.resolve(None).campaign_id)))
    with pytest.raises(InvalidInputError, match="cannot cover"):
        game.raise_unit(
            ledger.resolve(None), "Knights", "Company", {"quality": "average", "men": 30, "troop_type": "HC"}
        )
    with pytest.raises(InvalidInputError, match="cannot cover"):
        game.funds(ledger.resolve(None), "Company", -400_000, "a bribe")
    assert len(list(ledger.store.read(ledger.resolve(None).campaign_id))) == before


def test_new_units_reroll_veteran_and_elite_quality(company: tuple[MassCombat, Any]) -> None:
    game, ledger = company
    result = game.raise_unit(
        ledger.resolve(None),
        "Levy",
        "Company",
        {"quality": "average", "men": 50, "troop_type": "II"},
        random_quality=True,
        table=TableEntry((2, 2, 2, 3, 4, 4)),
    )  # 6 → Veteran: reroll; 11
    quality = next(e.payload for e in result.events if e.type == "rules.applied")
    assert quality["outcome"] == {"quality": "average"} and "rerolled" in quality["explanation"]
    assert unit(game, ledger, "Levy").profile.experience == 3


def test_recruits_are_averaged_in_at_their_lower_bound(company: tuple[MassCombat, Any]) -> None:
    game, ledger = company
    game.raise_unit(
        ledger.resolve(None),
        "Titus' Veterans",
        "Company",
        {"men": 87, "troop_type": "MI", "armour": "medium", "quality": "veteran", "experience": 10},
        pay=False,
    )
    game.recruit(ledger.resolve(None), "Titus' Veterans", 11, "green")
    titus = unit(game, ledger, "Titus' Veterans")
    assert (titus.profile.men, titus.profile.experience, titus.profile.quality) == (98, 8, "seasoned")
    state, _ = game.state(ledger.resolve(None))
    assert state.treasury["Company"] == 500_000 - 11 * 5000


def test_missed_paydays_cost_morale_and_paid_ones_win_it_back(company: tuple[MassCombat, Any]) -> None:
    """The first edition's reading, kept as a house rule: arrears counted in paydays (R2-19 counts days)."""
    game, ledger = company
    game.house_rule(ledger.resolve(None), "economy.arrears_counted_in", "paydays")
    game.raise_unit(
        ledger.resolve(None),
        "Swords",
        "Company",
        {"men": 10, "troop_type": "MI", "armour": "medium", "quality": "average"},
        pay=False,
    )
    info = lambda: ledger.resolve(None)  # noqa: E731
    penalties = []
    for pct, dice in ((0, (3, 3, 3)), (0, (3, 3, 3)), (100, ()), (100, ()), (100, ()), (100, ())):
        game.month_end(info(), {"Company": pct}, table=TableEntry(dice) if dice else None)
        penalties.append(unit(game, ledger, "Swords").pay.penalty)
    assert penalties == [1, 3, 3, 2, 2, 1]  # −1, then −2; every second paid payday gives one back
    state, _ = game.state(info())
    # Pay is 10% of $5000 a man; upkeep $200 a man, every month.
    assert state.treasury["Company"] == 500_000 - 6 * 2000 - 4 * 5000


def test_a_missed_payday_calls_for_a_morale_roll(company: tuple[MassCombat, Any]) -> None:
    game, ledger = company
    game.raise_unit(
        ledger.resolve(None),
        "Swords",
        "Company",
        {"quality": "average", "men": 10, "troop_type": "MI", "armour": "medium"},
        pay=False,
    )
    result = game.month_end(ledger.resolve(None), {"Company": 0}, table=TableEntry((6, 6, 6)))
    roll = next(e.payload for e in result.events if e.type == "rules.applied")
    # Average: Morale 13, −1 for the first missed payday → 12; 3d rolled 18.
    assert roll["outcome"]["morale_roll"] == "failed"
    assert "Morale roll 18 vs 12" in roll["explanation"]


def test_bonus_pay_raises_next_months_morale(company: tuple[MassCombat, Any]) -> None:
    game, ledger = company
    game.raise_unit(
        ledger.resolve(None),
        "Swords",
        "Company",
        {"quality": "average", "men": 10, "troop_type": "MI", "armour": "medium"},
        pay=False,
    )
    game.month_end(ledger.resolve(None), {"Company": 200})
    state, tables = game.state(ledger.resolve(None))
    assert state.campaign_morale(unit(game, ledger, "Swords"), tables, set()) == 2
    game.month_end(ledger.resolve(None), {"Company": 100})
    state, tables = game.state(ledger.resolve(None))
    assert state.campaign_morale(unit(game, ledger, "Swords"), tables, set()) == 0


def test_paying_a_disbanded_unit_is_refused(company: tuple[MassCombat, Any]) -> None:
    game, ledger = company
    game.raise_unit(
        ledger.resolve(None), "Deserters", "Company", {"quality": "average", "men": 5, "troop_type": "II"}, pay=False
    )
    game.disband(ledger.resolve(None), "Deserters", "the contract ended")
    with pytest.raises(InvalidInputError, match="was disbanded"):
        game.pay(ledger.resolve(None), "Deserters")


def test_wounded_return_by_days_of_rest_and_march(company: tuple[MassCombat, Any]) -> None:
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


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(
    pays=st.lists(st.sampled_from([0, 0, 50, 100, 150, 200]), max_size=30),
    quality=st.sampled_from(["veteran", "elite"]),
)
def test_arrears_never_push_a_veteran_or_elite_unit_below_14(pays: list[int], quality: str) -> None:
    profile = UnitProfile(men=10, troop_type="MI", quality=quality)  # type: ignore[arg-type]
    pay = PayState()
    for pct in pays:
        pay = payday(T, profile, pay, pct).state
        # R2-19 (b): the floor is on the unit's final Morale, so it is applied where Morale is reckoned.
        assert int(T.values[f"quality.{quality}.morale"].value) - arrears_applied(T, profile, pay.penalty, 0) >= 14


def test_a_new_commander_drops_quality_and_an_npcs_leadership_is_rolled(company: tuple[MassCombat, Any]) -> None:
    game, ledger = company
    game.raise_unit(
        ledger.resolve(None),
        "Lances",
        "Company",
        {"men": 20, "troop_type": "MC", "mount": "medium_horse", "quality": "veteran", "experience": 11},
        pay=False,
    )
    result = game.new_commander(ledger.resolve(None), "Lances", npc=True, table=TableEntry((3, 3, 2)))  # 8: Seasoned
    rolled = next(e.payload for e in result.events if e.type == "rules.applied")
    assert rolled["outcome"] == {"experience": "seasoned", "leadership": 14}
    lances = unit(game, ledger, "Lances")
    assert (lances.profile.quality, lances.profile.leader_leadership) == ("seasoned", 14)


def test_training_stops_at_green(company: tuple[MassCombat, Any]) -> None:
    game, ledger = company
    game.raise_unit(
        ledger.resolve(None),
        "Peasants",
        "Company",
        {"men": 50, "troop_type": "II", "quality": "inexperienced", "experience": 0},
        pay=False,
    )
    # R3-21: mustered Inexperienced (not untrained), they count the 6 months that make untrained men so; 6 more
    # make the year that makes them Green, at Green's lower bound of experience (1).
    game.train(ledger.resolve(None), "Peasants", 6)
    assert unit(game, ledger, "Peasants").profile.quality == "green"
    assert unit(game, ledger, "Peasants").profile.experience == 1
    with pytest.raises(InvalidInputError, match="Peasants is green: training makes troops no better than Green"):
        game.train(ledger.resolve(None), "Peasants", 24)


def test_treason_forces_a_morale_roll(company: tuple[MassCombat, Any]) -> None:
    game, ledger = company
    game.raise_unit(
        ledger.resolve(None), "Swords", "Company", {"quality": "average", "men": 10, "troop_type": "MI"}, pay=False
    )
    game.treason(ledger.resolve(None), "Swords", table=TableEntry((6, 6, 5)))  # 17 vs 13: failed
    state, tables = game.state(ledger.resolve(None))
    assert state.campaign_morale(unit(game, ledger, "Swords"), tables, set()) == -1


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


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(command, max_size=12))
def test_replaying_a_mass_combat_log_gives_the_same_state(steps: list[tuple[Any, ...]]) -> None:
    from campaign.rulesets.mass_combat.commands import parse_setup

    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Prop", "mass-combat")
    game = MassCombat(ledger)
    info = lambda: ledger.resolve(None)  # noqa: E731
    game.funds(info(), "Blue", 10_000_000, "war chest")
    game.raise_unit(
        info(), "Blue foot", "Blue", {"quality": "average", "men": 200, "troop_type": "MI", "armour": "medium"}
    )
    game.raise_unit(
        info(), "Red foot", "Red", {"quality": "average", "men": 180, "troop_type": "LI", "armour": "light"}, pay=False
    )
    for step in steps:
        try:
            if step[0] == "month":
                game.month_end(info(), {"Blue": step[1]})
            elif step[0] in ("rest", "march"):
                game.pass_days(info(), step[1], step[0])
            elif step[0] == "recruit":
                game.recruit(info(), "Blue foot", step[1], "green")
            elif step[0] == "treason":
                game.treason(info(), "Red foot")
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
                game.battle(info(), setup)
        except InvalidInputError:
            pass
    events = list(ledger.store.read(info().campaign_id))
    base = base_values("mass_combat")
    once = mc_state.fold(events, base)
    assert once == mc_state.fold(ledger.store.read(info().campaign_id), base)
    for u in once.roster.values():
        assert 0 <= u.wounded <= u.profile.men
        if u.profile.quality in ("veteran", "elite"):
            assert int(T.values[f"quality.{u.profile.quality}.morale"].value) - u.pay.penalty >= 14


def test_a_transfer_moves_fit_men_and_re_averages_the_receivers_experience(company: tuple[MassCombat, Any]) -> None:
    game, ledger = company
    info = lambda: ledger.resolve(None)  # noqa: E731
    kit = {"troop_type": "MI", "armour": "medium"}
    veterans = {"men": 40, **kit, "quality": "veteran", "experience": 10}
    game.raise_unit(info(), "Old Guard", "Company", veterans, pay=False)
    game.raise_unit(info(), "New Band", "Company", {"men": 60, **kit, "quality": "average", "experience": 3}, pay=False)
    game.raise_unit(info(), "Archers", "Company", {"quality": "average", "men": 20, "troop_type": "LI"}, pay=False)
    game.transfer(info(), "Old Guard", "New Band", 20)
    guard, band = unit(game, ledger, "Old Guard"), unit(game, ledger, "New Band")
    assert (guard.profile.men, guard.profile.experience, guard.original_men) == (20, 10, 20)
    # (60 × 3 + 20 × 10) // 80 = 4: still Average (Seasoned begins at 6).
    assert (band.profile.men, band.profile.experience, band.profile.quality) == (80, 4, "average")
    assert band.original_men == 80

    game.raise_unit(info(), "Rivals", "Enemy", {"quality": "average", "men": 20, **kit}, pay=False)
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
    for args, message in refusals:
        with pytest.raises(InvalidInputError, match=message):
            game.transfer(info(), *args)
    assert info().last_seq == before  # nothing refused was appended
