"""RULES.md §2 examples: troop strength, quality and experience, Leadership, Morale ↔ TS, casualties, PCs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign.rulesets.mass_combat.battle import casualty_offset
from campaign.rulesets.mass_combat.pcs import (
    battle_skill,
    damage_dice,
    glory_target,
    survival_column,
    survival_target,
)
from campaign.rulesets.mass_combat.profile import NonHuman, UnitProfile
from campaign.rulesets.mass_combat.quality import (
    average_experience,
    base_morale,
    leadership_modifier,
    needs_reroll,
    quality_for_experience,
    quality_from_roll,
    quality_step_down,
)
from campaign.rulesets.mass_combat.setup import PcInBattle
from campaign.rulesets.mass_combat.strength import morale_adjusted_ts, troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from campaign.tables import base_values
from events.dice import parse
from events.recorded import whole

T = Tables.of(base_values("mass_combat"))


@pytest.mark.parametrize(
    ("profile", "ts"),
    [
        (UnitProfile(men=1, armour="heavy", mount="heavy_horse"), 8),  # knight
        (UnitProfile(men=1, armour="heavy", mount="heavy_horse", ranged="crossbow"), 11),
        (UnitProfile(men=6, tl=7, armour="light", rifle=True, flying=True), 102),  # TL7 air cavalry
        (UnitProfile(men=6, tl=7, armour="light", rifle=True, flying=True, special={"helicopter": 1}), 152),
        (UnitProfile(men=1, armour="light", non_human=NonHuman(st_mod=-2)), 2),  # hobbit light infantry
        (UnitProfile(men=1, armour="heavy", ranged="sling", non_human=NonHuman(st_mod=-2)), 5),
        (UnitProfile(men=15, armour="light", irregular=True, quality="inexperienced"), 15),  # Caliburn's gang
        (UnitProfile(men=13, armour="light", irregular=True, quality="green"), 20),  # after two battles
        (UnitProfile(men=30, armour="heavy", quality="veteran"), 225),
        (UnitProfile(men=20, armour="medium", quality="seasoned"), 96),
        (UnitProfile(men=125, armour="light", quality="elite", ranged="bow"), 1250),
    ],
)
def test_troop_strength_examples(profile: UnitProfile, ts: int) -> None:
    assert troop_strength(T, profile).total == ts


@pytest.mark.parametrize(
    ("ts", "morale", "base", "expected"), [(225, 13, 15, 180), (96, 13, 14, 86), (48, 15, 13, 58), (240, 10, 13, 168)]
)
def test_morale_and_ts_examples(ts: int, morale: int, base: int, expected: int) -> None:
    assert morale_adjusted_ts(T, ts, morale, base) == expected


@pytest.mark.parametrize(("leadership", "modifier"), [(15, 1), (9, -1), (10, 0), (11, 0), (12, 0), (6, -2), (18, 2)])
def test_leadership_examples(leadership: int, modifier: int) -> None:
    assert leadership_modifier(T, leadership) == modifier
    if leadership in (15, 9):  # Seasoned (14) with Leadership 15 → 15, with 9 → 13
        assert base_morale(T, "seasoned") + modifier == {15: 15, 9: 13}[leadership]


def test_titus_experience_averaging() -> None:
    # 87 Veterans at 10 battles + 11 Green recruits at their lower bound (1): 881 / 98 = 8.99 → 8 → Seasoned.
    avg = average_experience([(87, 10), (11, whole(T.values["quality.green.experience_from"].value))])
    assert avg == 8 and quality_for_experience(T, avg) == "seasoned"
    assert quality_for_experience(T, avg + 2) == "veteran"  # two more battles


def test_titus_morale_in_and_after_battle() -> None:
    veteran = base_morale(T, "veteran")
    loot, commander_wounded = 1, -1
    assert veteran == 15
    assert veteran + loot + commander_wounded == 15  # in battle
    assert veteran + loot == 16  # after it: the wound lasted for the battle only


def test_quality_table_rerolls_commanders_and_irregulars() -> None:
    assert [quality_from_roll(T, r) for r in (3, 5, 8, 10, 13, 16, 18)] == [
        "elite",
        "veteran",
        "seasoned",
        "average",
        "green",
        "inexperienced",
        "inexperienced",
    ]
    assert needs_reroll(T, "veteran", new_unit=True, replacements=0)
    assert needs_reroll(T, "elite", new_unit=False, replacements=11)
    assert not needs_reroll(T, "veteran", new_unit=False, replacements=10)
    assert base_morale(T, "inexperienced", irregular=True) == 6
    assert quality_step_down("veteran") == "seasoned" and quality_step_down("inexperienced") == "inexperienced"


@pytest.mark.parametrize(
    ("row", "offset"),
    [
        (3, 0),
        (-3, 20),
        (0, 10),
        (1, 7),
        (2, 3),
        (4, -3),
        (-1, 13),
        (-2, 17),
        (10, -23),
        (15, -23),
        (-20, 77),
        (-25, 77),
    ],
)
def test_casualty_rows_through_both_seed_anchors(row: int, offset: int) -> None:
    assert casualty_offset(T, row) == offset


def test_caliburn_battle_skill_survival_and_glory() -> None:
    caliburn = PcInBattle(name="Caliburn", side="Megalos", iq=12, weapon=15, risk=-2)
    battle = battle_skill(T, caliburn)
    assert battle == 10  # (6 + 15) / 2 = 10.5 → 10
    assert (survival_target(T, battle, -2), glory_target(T, battle, -2)) == (8, 12)
    assert (survival_target(T, battle, -1), glory_target(T, battle, -1)) == (9, 11)
    assert survival_target(T, 14, 6) == 16  # the cap
    assert [survival_column(T, r, 8) for r in (3, 7, 8, 10, 12, 14, 16)] == [
        "unhurt",
        "one_hit",
        "two_hits",
        "A",
        "B",
        "C",
        "D",
    ]
    assert survival_column(T, 18, 16) == "D"  # a critical failure


@given(
    men=st.integers(1, 5000),
    row=st.integers(-40, 40),
    four_d=st.integers(4, 24),
    armour=st.sampled_from(["none", "light", "medium", "heavy"]),
    quality=st.sampled_from(["inexperienced", "green", "average", "seasoned", "veteran", "elite"]),
)
def test_casualties_never_exceed_strength_and_ts_never_goes_negative(
    men: int, row: int, four_d: int, armour: str, quality: str
) -> None:
    pct = max(0, min(100, four_d + casualty_offset(T, row)))
    lost = -(-men * pct // 100)
    dead = lost // 2
    assert 0 <= dead <= lost <= men
    profile = UnitProfile(men=men, armour=armour, quality=quality)
    after = troop_strength(T, profile, men=men - dead).total
    assert 0 <= after <= troop_strength(T, profile).total
    assert morale_adjusted_ts(T, after, 0, 20) >= 0


def test_npc_commander_experience_gives_strategy_or_leadership() -> None:
    from campaign.rulesets.mass_combat.quality import commander_skill

    assert commander_skill(T, 6) == ("veteran", 16)  # Al-Wazif's general
    assert commander_skill(T, 9) == ("seasoned", 14)  # the retired legionary
    assert commander_skill(T, 3) == ("elite", 18) and commander_skill(T, 17) == ("inexperienced", 8)


def _published_damage(column: str, tl: int) -> tuple[int, str, str]:
    """RULES.md's damage table by TL, band by band, as printed ((TL/2)d at an odd TL rounds down: C-8)."""
    light = column in "AB"
    if tl <= 3:
        dice = "1d+2" if light else "2d+2"
    elif tl <= 7:
        dice = f"{tl // 2}d" if light else f"{tl}d"
    elif tl <= 9:
        dice = f"{tl - 3}d" if light else f"{tl + 3}d"
    else:
        dice = f"{tl}d" if light else f"{2 * tl}d"
    armour = "DR" if tl <= 9 else "DR/2" if tl <= 13 else "DR/5" if tl == 14 else "DR/10"
    return {"A": 1, "B": 2, "C": 2, "D": 3}[column], dice, armour


def test_the_damage_table_in_the_data_is_the_published_one_for_every_tl() -> None:
    for tl in range(17):
        for column in "ABCD":
            wounds, dice, armour = _published_damage(column, tl)
            assert damage_dice(T, column, tl) == (wounds, parse(dice), armour), f"TL{tl} column {column}"
    # The odd-TL rounding is an inference, and the data says so.
    assert all(T.source(f"damage.tl{tl}.{c}").startswith("INF") for tl in (5, 7) for c in "ab")
    assert T.source("damage.tl6.a").startswith("PUB")
