"""RULES.md §2.9's Glory table, row by row at its edges, where the mutation run (scripts/mutation.py) found the
Reputation of "failed by 7+" untested: made by 7–9 +1 Reputation for 1d−2 months (min 1), made by 4–6 nothing,
failed by 4–6 −1 for 1d−2 months (min 1), failed by 7+ −2 for 1d months; and R2-26's undead, whom an ES Morale
effect does not touch; and §2.2's special weapons, each worth its own TS."""

from __future__ import annotations

import pytest

from campaign.rulesets.mass_combat.economy import wounded_returning
from campaign.rulesets.mass_combat.pcs import _glory
from campaign.rulesets.mass_combat.profile import UnitProfile
from campaign.rulesets.mass_combat.setup import PcInBattle
from campaign.rulesets.mass_combat.strength import troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from campaign.tables import base_values
from events.dice import TableDice
from tests.acceptance.mass_combat_table import War, applied, battle, d3, side

T = Tables(base_values("mass_combat"))
PC = PcInBattle(name="Ayla", side="Crimson", weapon=12, risk=0)


def reputation(target: int, faces: tuple[int, ...]) -> list[tuple[int, int]]:
    decision = _glory(T, PC, "b", TableDice(faces, "glory", 0), target)
    return [(f.change, f.months) for f in decision.facts if hasattr(f, "change")]


@pytest.mark.parametrize(
    ("target", "faces", "expected"),
    [
        # target 8, rolled 15 (no critical: 15 − 8 = 7 < 10): failed by 7 → −2 for 1d = 3 months
        (8, (5, 5, 5, 3), [(-2, 3)]),
        # target 9, rolled 15: failed by 6 → −1 for 1d−2 months: a 3 gives 1
        (9, (5, 5, 5, 3), [(-1, 1)]),
        # target 11, rolled 15: failed by 4 → −1; a 2 gives 0 months, raised to the minimum 1
        (11, (5, 5, 5, 2), [(-1, 1)]),
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
    # §2.2: one light infantryman (light armour +3) with two of the weapon: 3 × 1 + 2 × its TS.
    profile = UnitProfile(men=1, armour="light", special={item: 2})
    assert troop_strength(T, profile).total == 3 + 2 * ts


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
