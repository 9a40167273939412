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
