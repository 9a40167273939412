"""Third-edition errata of seed 002 between battles and in a unit's strength (RULES.md R3-21, R3-23, R3-24), and
R2-23's Extraordinary Force of several users summed with their fractions, through the one executor.

Expected values are worked by hand from RULES.md's words; the comments show the arithmetic.
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign.executor import TableEntry
from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from campaign.rulesets.mass_combat.plugin import PLUGIN as MASS_COMBAT
from campaign.rulesets.mass_combat.profile import UnitProfile
from campaign.rulesets.mass_combat.strength import troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from campaign.tables import base_values
from events.errors import InvalidInputError
from tests.acceptance.mass_combat_table import War, applied, battle, faces, side

T = Tables.of(base_values("mass_combat"))


def unit(w: War, name: str) -> Any:
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    found = state.unit_by_name(name)
    assert found is not None
    return found


def events_now(w: War) -> int:
    return len(list(w.ledger.store.read(w.info.campaign_id)))


# --- R3-21: training months add up -----------------------------------------------------------------------------


def test_r3_21_an_untrained_units_months_add_up_to_inexperienced_then_green() -> None:
    # "untrained: 5 months → untrained (5); +1 → Inexperienced (6); +5 → Inexperienced (11); +1 → Green (12)".
    w = War()
    w.muster("Levy", "Crimson", quality="inexperienced", untrained=True)
    seen = []
    for months in (5, 1, 5, 1):
        w.ledger.execute(w.info, mc.Train.build(unit_name="Levy", months=months))
        p = unit(w, "Levy").profile
        seen.append((p.trained_months, p.untrained, p.quality))
    assert seen == [
        (5, True, "inexperienced"),
        (6, False, "inexperienced"),
        (11, False, "inexperienced"),
        (12, False, "green"),
    ]
    assert unit(w, "Levy").profile.experience == 1  # Green's lower bound (R2-12)


def test_r3_21_five_months_then_eight_make_green_and_the_record_says_the_sum() -> None:
    # "Untrained, 5 then 8 → Green (13)."
    w = War()
    w.muster("Levy", "Crimson", quality="inexperienced", untrained=True)
    w.ledger.execute(w.info, mc.Train.build(unit_name="Levy", months=5))
    result = w.ledger.execute(w.info, mc.Train.build(unit_name="Levy", months=8))
    p = unit(w, "Levy").profile
    assert (p.trained_months, p.quality, p.untrained) == (13, "green", False)
    [training] = applied(result, "training")
    assert training["explanation"].startswith("Levy: 5 + 8 = 13 months of training → Green")


@pytest.mark.parametrize(("months", "quality"), [(5, "inexperienced"), (6, "green")])
def test_r3_21_a_unit_mustered_inexperienced_counts_six_months(months: int, quality: str) -> None:
    # "Mustered Inexperienced: +6 → Green"; +5 → 11 months, still Inexperienced.
    w = War()
    w.muster("Recruits", "Crimson", quality="inexperienced")
    w.ledger.execute(w.info, mc.Train.build(unit_name="Recruits", months=months))
    assert unit(w, "Recruits").profile.quality == quality


@pytest.mark.parametrize("quality", ["green", "average", "veteran"])
def test_r3_21_training_a_green_or_better_unit_is_refused_naming_its_quality(quality: str) -> None:
    w = War()
    w.muster("Old hands", "Crimson", quality=quality)
    before = events_now(w)
    with pytest.raises(InvalidInputError, match=f"Old hands is {quality}: training makes troops no better than Green"):
        w.ledger.execute(w.info, mc.Train.build(unit_name="Old hands", months=1))
    assert events_now(w) == before


def test_r3_21_months_counted_alone_is_a_house_rule() -> None:
    # ``training.months_add_up`` false: the second edition's program: 5 months alone do nothing, and are refused.
    w = War()
    w.ledger.execute(w.info, mc.HouseRule.build(path="training.months_add_up", value=False))
    w.muster("Levy", "Crimson", quality="inexperienced", untrained=True)
    with pytest.raises(InvalidInputError, match="untrained men need 6 months"):
        w.ledger.execute(w.info, mc.Train.build(unit_name="Levy", months=5))


@pytest.mark.parametrize(
    ("months", "quality", "untrained"),
    [(6, "inexperienced", False), (11, "inexperienced", False), (12, "green", False), (13, "green", False)],
)
def test_r3_21_months_counted_alone_still_make_inexperienced_at_6_and_green_at_12(
    months: int, quality: str, untrained: bool
) -> None:
    # §2.3, each period alone (``training.months_add_up`` false): "six months … turn untrained troops into
    # Inexperienced; a year of training makes them Green" — 11 months are not a year, 12 are.
    w = War()
    w.ledger.execute(w.info, mc.HouseRule.build(path="training.months_add_up", value=False))
    w.muster("Levy", "Crimson", quality="inexperienced", untrained=True)
    w.ledger.execute(w.info, mc.Train.build(unit_name="Levy", months=months))
    p = unit(w, "Levy").profile
    assert (p.quality, p.untrained) == (quality, untrained)


# --- R3-23: a muster with an experience and no quality (or neither) ----------------------------------------------


@pytest.mark.parametrize(
    ("experience", "quality"),
    [
        (0, "inexperienced"),
        (1, "green"),
        (2, "green"),
        (3, "average"),
        (5, "average"),
        (6, "seasoned"),  # the example (the program: refused, "experience 6 is seasoned, not average")
        (9, "seasoned"),
        (10, "veteran"),
        (14, "veteran"),
        (15, "elite"),
    ],
)
def test_r3_23_an_experience_and_no_quality_is_the_band_it_falls_in(experience: int, quality: str) -> None:
    w = War()
    w.ledger.execute(
        w.info, mc.Muster.build(name="Hands", side="Crimson", profile={"men": 10, "experience": experience})
    )
    p = unit(w, "Hands").profile
    assert (p.quality, p.experience) == (quality, experience)


@pytest.mark.parametrize(
    ("rolled", "quality", "experience"), [(9, "seasoned", 6), (6, "veteran", 10), (11, "average", 3)]
)
def test_r3_23_neither_rolls_the_quality_on_3d(rolled: int, quality: str, experience: int) -> None:
    # "Neither: 3d 9 → Seasoned, experience 6". A muster is no new unit: a Veteran stands.
    w = War()
    w.ledger.execute(
        w.info,
        mc.Muster.build(name="Hands", side="Crimson", profile={"men": 10}),
        table=TableEntry(tuple(faces(rolled))),
    )
    p = unit(w, "Hands").profile
    assert (p.quality, p.experience) == (quality, experience)


def test_r3_23_a_new_unit_raised_with_neither_rerolls_a_veteran() -> None:
    # "3d 6 → Veteran → roll again (a new unit)"; then 11 → Average, experience 3.
    w = War()
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=10_000, reason="chest"))
    result = w.ledger.execute(
        w.info,
        mc.Raise.build(name="Hands", side="Crimson", profile={"men": 10, "cost_per_man": 100}),
        table=TableEntry((2, 2, 2, 3, 4, 4)),
    )
    p = unit(w, "Hands").profile
    assert (p.quality, p.experience) == ("average", 3)
    assert "rolled 6, 11 → average (Veterans and Elite rerolled" in applied(result, "troop_quality")[0]["explanation"]


def test_r3_23_both_must_agree_and_average_unstated_is_a_house_rule() -> None:
    w = War()
    with pytest.raises(InvalidInputError, match="experience 5 is average, not veteran"):
        w.ledger.execute(
            w.info,
            mc.Muster.build(
                name="Pretenders", side="Crimson", profile={"men": 10, "quality": "veteran", "experience": 5}
            ),
        )
    w.ledger.execute(w.info, mc.HouseRule.build(path="quality.when_unstated", value="average"))
    result = w.ledger.execute(w.info, mc.Muster.build(name="Hands", side="Crimson", profile={"men": 10}))
    assert not [e for e in result.events if e.type == "dice.rolled"]
    assert (unit(w, "Hands").profile.quality, unit(w, "Hands").profile.experience) == ("average", 3)


# --- R3-24: a chariot's extra archer -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("special", "ranged", "quality", "ts"),
    [
        ({"light_chariot": 3}, "none", "average", 60),  # "3 light chariots → 60": 3 × (15 + 3 + bow 2)
        ({"light_chariot": 3}, "crossbow", "average", 63),  # "with crossbow archers (+3) → 3 × 21 = 63"
        ({"medium_chariot": 1}, "none", "average", 31),  # 25 + 4 + 2
        ({"heavy_chariot": 1}, "none", "average", 42),  # 35 + 5 + 2
        ({"light_chariot": 3}, "none", "green", 48),  # × 0.8
        ({"elephant": 1}, "none", "average", 100),  # no archer for other special weapons
    ],
)
def test_r3_24_a_chariot_adds_its_archers_ts(special: dict[str, int], ranged: str, quality: str, ts: int) -> None:
    profile = UnitProfile(men=0, special=special, ranged=ranged, quality=quality)
    assert troop_strength(T, profile).total == ts


# --- R2-23: a side's Extraordinary Force is its users' summed with the fractions ------------------------------


def _mages(users: list[dict[str, Any]], spent: int, es: int = 0) -> dict[str, Any]:
    spells = [{"kind": "morale", "points": spent, "target": "Red foot"}]
    return battle(
        "Sorcery", side("Crimson", ["Red foot"], es=es, users=users, spells=spells), side("Azure", ["Blue foot"])
    )


@pytest.mark.parametrize(
    ("users", "es", "spent", "allowed"),
    [
        ([{"points": 100}, {"points": 100}], 0, 1, True),  # "Two 100-point mages give 1 ES"
        ([{"points": 100}], 0, 1, False),  # "one alone gives ½ and buys nothing"
        ([{"points": 100}], 1, 1, True),  # 1 + ½ = 1½: one whole point
        ([{"points": 100}], 1, 2, False),
        ([{"points": 200, "mana": "low"}, {"points": 150, "mana": "low"}], 0, 1, False),  # ½ + ¼ = ¾
        ([{"points": 200, "mana": "very_high"}], 0, 4, True),  # 2 × 2 = 4
        ([{"points": 100, "stone": 5}, {"points": 100, "stone": 5}], 0, 1, True),  # a stone of 5 adds nothing
    ],
)
def test_r2_23_a_sides_users_are_summed_with_their_fractions(
    users: list[dict[str, Any]], es: int, spent: int, allowed: bool
) -> None:
    w = War()
    w.muster("Red foot", "Crimson")
    w.muster("Blue foot", "Azure")
    setup = _mages(users, spent, es)
    if not allowed:
        with pytest.raises(InvalidInputError, match=f"Crimson spends {spent} Extraordinary Force points but has"):
            w.fight(setup, [])
        return
    result = w.fight(setup, [])
    assert applied(result, "extraordinary_force")[0]["outcome"] == {"spent": spent}


@pytest.mark.parametrize(
    ("troop_type", "price"),
    [("HC", 14000), ("MC", 9000), ("LC", 5000), ("IC", 3000), ("HI", 9000), ("MI", 5000), ("PI", 2000),
     ("LI", 1500), ("II", 200), ("SE", 15000), ("LE", 25000)],
)  # fmt: skip
def test_each_yrth_troop_type_costs_what_the_seed_prices_it(troop_type: str, price: int) -> None:
    # Seed 002's Yrth price list, a man each (R2-30: example data the tables ship): "Иррегулярная Кавалерия: $3000" …
    # the siege engines "$15000 / $25000 on average, armour included".
    from campaign.rulesets.mass_combat.economy import recruitment_cost

    assert recruitment_cost(T, UnitProfile(men=1, troop_type=troop_type)) == price
