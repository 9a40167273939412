"""RULES.md second edition: a defending PC's second Survival roll keeps his side's defensive-position bonus when home
soil outweighs a fortification for Strategy (R2-17, R2-22), and a cornered unit's Table C roll says what its +2 is.

The armies are those of ``test_mass_combat_errata_battles``: units of 100 men (Average, Morale 13) of TS 0 per man,
commanders of Strategy 12, no Morale ↔ TS rule; a side's margin is its effective Strategy − its roll.
"""

from __future__ import annotations

import pytest

from tests.acceptance.mass_combat_table import BLUE, RED, War, applied, battle, d3, side, two_armies


@pytest.fixture
def war() -> War:
    return two_armies()


@pytest.mark.parametrize(
    ("sappers", "azure_roll", "strategy_mods", "second_target"),
    [
        # Against sappers the palisade is 3 − 2 = 1 < 2: home soil (+2) counts for Strategy (14), and the second
        # roll still adds the palisade's 1: 10 + 0 + 1 − 3 = 8.
        (True, 14, {"home soil (larger than the fortification)": 2}, 8),
        # Without sappers the palisade's 3 > 2 counts for Strategy (15) and adds 3 to the second roll: 10 + 3 − 3.
        (False, 15, {"position palisade": 3}, 10),
    ],
)
def test_r2_22_a_defending_pcs_second_roll_keeps_the_position_bonus_that_home_soil_outweighs(
    war: War, sappers: bool, azure_roll: int, strategy_mods: dict[str, int], second_target: int
) -> None:
    """R2-22: the second roll's target is "Battle + the same Risk + the defensive-position bonus if his side
    defended, … and −1 per full 3 points of contest difference only if his side lost". R2-17 makes home soil and a
    fortification "the larger of the two" for Strategy only ("the fortification still adds to the casualty row");
    home soil is a circumstance (§2.10), not a position row, so the position bonus the second roll adds is the
    palisade's, after "−2 if the attacker has artillery or sappers".

    Caliburn (IQ 12 → Tactics 6, weapon 14: Battle 10, Risk 0) fights for Azure behind a palisade on home soil.
    Catastrophe rolls 3 and 3; his first Survival 5 (made by 5, unhurt); Glory 10 (made by 0, no modifier).
    Crimson 12 rolls 3 → 9; Azure rolls its Strategy → 0: W 9, Table C 8–12, Azure lost by 9 (−3)."""
    pc = {"name": "Caliburn", "side": "Azure", "unit": "Blue foot", "iq": 12, "weapon": 14, "risk": 0}
    setup = battle(
        "Palisade",
        side("Crimson", RED, role="attacker"),
        side("Azure", BLUE, role="defender", position=["palisade"], home_soil=True),
        pcs=[pc],
        attacker_has_artillery_or_sappers=sappers,
    )
    result = war.fight(setup, [*d3(3, 3), *d3(5), *d3(10), *d3(3, azure_roll)])
    assert applied(result, "strategy_contest")[0]["inputs"]["modifiers"]["Azure"] == strategy_mods
    verdict = applied(result, "result")[0]
    assert verdict["inputs"].items() >= {"table": "C", "w": 9}.items() and verdict["outcome"]["winner"] == "Crimson"
    first, second = applied(result, "survival")
    assert first["inputs"]["target"] == 10
    assert "second Survival roll (losing side)" in second["explanation"]
    assert second["inputs"]["target"] == second_target


@pytest.mark.parametrize(("again", "fate"), [(15, "holds"), (16, "surrenders")])
def test_table_c_8_to_12_a_cornered_units_roll_names_its_nowhere_to_go_bonus(war: War, again: int, fate: str) -> None:
    """§2.11 Table C 8–12: "defender holds if ≥ ½ pass Morale, else retreats in good order*"; "* A unit told to
    retreat with nowhere to go rolls Morale +2". Azure behind a palisade (*+3): 15 rolls 14 → 1; Crimson 12 rolls
    3 → 9: W 8. Both Azure units roll 14 against 13 and fail: the army retreats; Blue foot, cornered, rolls again at
    13 + 2 = 15. Its +2 is the nowhere-to-go bonus, not a result penalty, and the words say so."""
    setup = battle(
        "Corner",
        side("Crimson", RED, role="attacker"),
        {
            "name": "Azure",
            "commander": {"strategy": 12},
            "units": [{"unit": "Blue foot", "nowhere_to_go": True}, {"unit": "Blue guard"}],
            "role": "defender",
            "position": ["palisade"],
        },
    )
    result = war.fight(setup, d3(3, 3, 3, 14, 14, 14, again))
    assert applied(result, "result")[0]["outcome"]["result"] == "defender_holds_half"
    cornered = applied(result, "unit_morale")[-1]
    assert cornered["outcome"]["fate"] == fate
    assert cornered["explanation"].startswith(f"Blue foot: Morale 13 nowhere to go +2 = 15, rolled {again}")
    assert "result" not in cornered["explanation"]
