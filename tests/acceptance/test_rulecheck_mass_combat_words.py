"""What a player reads of a Mass Combat battle says why (RULES.md §2.11, §2.13, §2.9), in words.

The armies are those of ``mass_combat_table``: commanders with Strategy 12, so a side's margin is 12 − its roll.
"""

from __future__ import annotations

import pytest

from tests.acceptance.mass_combat_table import BLUE, RED, War, applied, battle, d3, side, two_armies


@pytest.fixture
def war() -> War:
    return two_armies()


def test_equal_margins_in_the_open_give_no_side_the_better_of_it(war: War) -> None:
    # Both roll 10: margins +2 and +2, W 0: Table A 0–3, no clear winner; every unit of both sides rolls Morale.
    result = war.fight(battle("Tie", side("Crimson", RED), side("Azure", BLUE)), d3(3, 3, 10, 10))
    contest = applied(result, "strategy_contest")[0]
    assert contest["outcome"]["difference"] == 0
    assert "difference 0: the margins are equal" in contest["explanation"]
    assert "difference 0 to" not in contest["explanation"]
    verdict = applied(result, "result")[0]
    assert (
        verdict["inputs"].items() >= {"table": "A", "w": 0}.items()
        and verdict["outcome"]["result"] == "no_clear_winner"
    )
    words = verdict["explanation"]
    assert "(W 0–3 of Table A): the margins are equal; neither side has the better of it" in words
    assert "every unit of both sides rolls Morale" in words
    assert "has the better of it" not in words.replace("neither side has the better of it", "")
    assert len(applied(result, "unit_morale")) == 4  # both sides' units rolled


def test_w_3_is_still_no_clear_winner_and_w_4_has_a_winner(war: War) -> None:
    # Crimson rolls 9 (+3), Azure 12 (0): W 3, no clear winner; the higher margin is named, but it counts for nothing.
    three = applied(war.fight(battle("Three", side("Crimson", RED), side("Azure", BLUE)), d3(3, 3, 9, 12)), "result")
    assert three[0]["outcome"]["result"] == "no_clear_winner"
    assert (
        "Crimson's margin is higher by 3, too little to count; neither side has the better of it"
        in three[0]["explanation"]
    )
    # Crimson rolls 8 (+4), Azure 12 (0): W 4, a minor victory: Crimson has the better of it.
    four = applied(war.fight(battle("Four", side("Crimson", RED), side("Azure", BLUE)), d3(3, 3, 8, 12)), "result")
    assert four[0]["outcome"]["result"] == "minor_victory"
    assert "minor victory; Crimson has the better of it" in four[0]["explanation"]
    assert "neither side" not in four[0]["explanation"]


def test_equal_margins_in_an_assault_go_to_the_defender_and_say_so(war: War) -> None:
    # Azure behind a palisade (*+3): 15 rolls 10 → +5; Crimson 12 rolls 7 → +5. W 0: Table B begins at 0 and
    # Table C at 1, so the tie is the defender's: "thrown back".
    setup = battle(
        "Assault", side("Crimson", RED, role="attacker"), side("Azure", BLUE, role="defender", position=["palisade"])
    )
    verdict = applied(war.fight(setup, d3(3, 3, 7, 10)), "result")[0]
    assert verdict["inputs"].items() >= {"table": "B", "w": 0}.items() and verdict["outcome"]["winner"] == "Azure"
    assert "a tie goes to the defender (Table B begins at W 0, Table C at W 1)" in verdict["explanation"]


@pytest.mark.parametrize(
    ("men", "per_man", "effect", "words"),
    [
        # R2-23: points × 100 ÷ TS, to the nearest, a half up. 1 point on TS 300 = 0.33 → 0; on TS 201 = 0.49 → 0;
        # on TS 200 = 0.50 → 1 (the edge).
        (100, 3, 0, "1 point × 100 ÷ TS 300 = 0.33, to the nearest: 0, too few points for a unit of that strength"),
        (201, 1, 0, "1 point × 100 ÷ TS 201 = 0.49, to the nearest: 0, too few points for a unit of that strength"),
        (100, 2, 1, "1 point × 100 ÷ TS 200 = 0.50, to the nearest: 1"),
    ],
)
def test_a_morale_spell_says_why_it_moves_morale_by_what_it_does(
    war: War, men: int, per_man: int, effect: int, words: str
) -> None:
    war.muster("Azure horse", "Azure", men=men, ts_per_man=per_man)
    spell = {"kind": "morale", "points": 1, "target": "Azure horse", "direction": -1}
    result = war.fight(
        battle("Spell", side("Crimson", RED, es=1, spells=[spell]), side("Azure", ["Azure horse"])),
        d3(3, 3, 10, 10),
    )
    force = applied(result, "extraordinary_force")[0]["explanation"]
    assert words in force
    assert ("no effect" in force) == (effect == 0)
    horse = next(d for d in applied(result, "unit_morale") if d["explanation"].startswith("Azure horse"))
    assert horse["inputs"]["morale"] == 13 - effect  # Average, Morale 13, lowered by the effect


@pytest.mark.parametrize(
    ("roll", "damage", "words"),
    [
        # Battle (IQ 12 → Tactics 6, weapon 14) = 10, Risk 0: Survival 10 (§2.9). Made by 5+: unhurt; by 1–4: 1 hit;
        # exactly: 2 hits, "hits" being points of damage with no damage roll.
        (5, 0, "made by 5: unhurt"),
        (6, 1, "made by 4: 1 hit: 1 point of damage, as the Survival table gives it (no damage roll, no DR)"),
        (9, 1, "made by 1: 1 hit: 1 point of damage, as the Survival table gives it (no damage roll, no DR)"),
        (10, 2, "made by 0: 2 hits: 2 points of damage, as the Survival table gives it (no damage roll, no DR)"),
    ],
)
def test_a_survival_roll_of_one_or_two_hits_says_the_damage(war: War, roll: int, damage: int, words: str) -> None:
    pc = {"name": "Caliburn", "side": "Crimson", "iq": 12, "weapon": 14, "risk": 0, "dr": 2}
    result = war.fight(battle("Hits", side("Crimson", RED), side("Azure", BLUE), pcs=[pc]), d3(3, 3, roll, 10, 10, 10))
    survival = applied(result, "survival")[0]["explanation"]
    assert survival.endswith(words)
    wounds = [e.payload["damage"] for e in result.events if e.type == "career.pc_wounded"]
    assert wounds == ([damage] if damage else [])
