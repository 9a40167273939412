"""RULES.md §4.2's hero talents where the mutation run (scripts/mutation.py) found Toughened's Tough(+1) untested:
a hero whose casualty roll is a 6 rolls a talent; a 6 on the talent die is Toughened (Tough +1), any other talent
adds no Tough; a talent makes the hero 5 pts dearer."""

from __future__ import annotations

import pytest

from campaign.rulesets.grimdark import rules as gf
from campaign.rulesets.grimdark.tables import Tables
from campaign.tables import base_values
from events.dice import TableDice

T = Tables(base_values("grimdark"))
HERO = gf.Unit("h", "Captain", "Saurians", quality=3, start_size=1, models=0, tough=3, hero=True)


@pytest.mark.parametrize(("talent_face", "trait", "tough"), [(6, "Toughened", 1), (5, "Horrible Scars", 0)])
def test_a_heros_talent_toughened_adds_one_tough(talent_face: int, trait: str, tough: int) -> None:
    decision = gf.casualty(T, HERO, TableDice((6, talent_face), "cas", 0), "b", had=())
    gained = [f for f in decision.facts if hasattr(f, "trait")]
    assert [(f.trait, f.tough, f.points) for f in gained] == [(trait, tough, 5)]


@pytest.mark.parametrize(("face", "passed"), [(3, True), (2, False)])
def test_headstrong_adds_one_to_a_morale_test(face: int, passed: bool) -> None:
    # §4.2 Headstrong: +1 to morale tests. Quality 4+: a 3 + 1 = 4 passes, a 2 + 1 = 3 fails.
    bold = gf.Unit("u", "Bold", "X", quality=4, start_size=10, models=10, tough=1, traits=("Headstrong",))
    assert gf.morale_test(T, bold, TableDice((face,), "gm", 0), "test")[0] is passed


@pytest.mark.parametrize(
    ("kills", "hero_and_unit", "xp", "said"),
    [
        # §4.2: +1 not a casualty; +3 for a hero and its unit killed (one unit and one hero, counted once together).
        ((False, True), 1, 4, "+1 not a casualty, +3 a hero and its unit killed"),
        # The same unit and hero killed apart: +1 the unit, +2 the hero.
        ((False, True), 0, 4, "+1 not a casualty, +1 units killed, +2 heroes killed"),
        # A unit alone: +1; no hero killed, so no heroes line.
        ((False,), 0, 2, "+1 not a casualty, +1 units killed"),
    ],
)
def test_xp_for_kills(kills: tuple[bool, ...], hero_and_unit: int, xp: int, said: str) -> None:
    unit = gf.Unit("u", "Warriors", "Saurians", quality=4, start_size=10, models=10, tough=1)
    decision = gf.experience(T, "b", unit, casualty=False, kills=kills, hero_and_unit=hero_and_unit)
    assert decision is not None
    assert decision.outcome["xp"] == xp
    assert said in decision.explanation and "+0" not in decision.explanation
