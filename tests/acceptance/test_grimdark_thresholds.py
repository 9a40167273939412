"""RULES.md §4.2's numbers on both sides of their edges, where the mutation run found them untested: the army
cap of 250 pts above the lowest army, and a hero's casualty roll (5 pts cheaper with an injury, 5 pts dearer and,
for Natural Talent, +1 XP with a talent)."""

from __future__ import annotations

import pytest

from campaign.rulesets.grimdark import rules as gf
from campaign.rulesets.grimdark.tables import Tables
from campaign.tables import base_values
from events.dice import TableDice
from events.families.career import TraitGained, XpGained

T = Tables.of(base_values("grimdark"))


@pytest.mark.parametrize(("new_value", "allowed"), [(350, True), (351, False)])
def test_no_army_more_than_250_above_the_lowest(new_value: int, allowed: bool) -> None:
    # The lowest army is worth 100: another may grow to 100 + 250 = 350, not to 351.
    problem = gf.army_cap_problem(T, {"Saurians": 100, "Robots": 300}, "Robots", new_value)
    assert (problem is None) is allowed


def hero() -> gf.Unit:
    return gf.Unit("h", "Captain", "Saurians", quality=4, start_size=1, models=1, tough=3, hero=True)


def test_a_hero_injured_on_a_1_becomes_5_pts_cheaper() -> None:
    # D6 1: an Injury; the injury D6 2: Chest Wound (1 would be Dead).
    decision = gf.casualty(T, hero(), TableDice((1, 2), "gm", 0), "b", had=())
    [trait] = [f for f in decision.facts if isinstance(f, TraitGained)]
    assert (trait.kind, trait.trait, trait.points) == ("injury", "Chest Wound", -5)


def test_a_hero_with_a_6_becomes_5_pts_dearer_and_natural_talent_gives_1_xp() -> None:
    # D6 6: a Talent; the talent D6 1: Natural Talent (+1 XP).
    decision = gf.casualty(T, hero(), TableDice((6, 1), "gm", 0), "b", had=())
    [trait] = [f for f in decision.facts if isinstance(f, TraitGained)]
    [xp] = [f for f in decision.facts if isinstance(f, XpGained)]
    assert (trait.kind, trait.trait, trait.points) == ("talent", "Natural Talent", 5)
    assert xp.xp == 1
