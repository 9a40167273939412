"""A preview's stand-in dice end a rule that rolls again until a roll leaves a band, and never run without end."""

from __future__ import annotations

import pytest

from events.dice.notation import parse
from events.dice.rerun import StandInFaces
from events.errors import DiceError


def test_a_second_die_for_the_same_purpose_takes_the_other_extreme() -> None:
    low, high = StandInFaces("low"), StandInFaces("high")
    three_d = parse("3d")
    # Mass Combat's 3d quality of a new unit (§2.3, R3-23): 3 reads Elite, rolled again; 18 reads Inexperienced
    assert [low.take(three_d, "troop quality of Titus", i)[0] for i in range(3)] == [(1, 1, 1), (6, 6, 6), (1, 1, 1)]
    assert high.take(three_d, "troop quality of Titus", 0)[0] == (6, 6, 6)
    assert low.take(parse("d6"), "another roll", 3)[0] == (1,)  # each purpose starts at its own extreme


def test_a_preview_stops_after_its_most_stand_ins() -> None:
    dice = StandInFaces("low")
    for i in range(StandInFaces.MOST):
        dice.take(parse("d6"), f"roll {i}", i)
    with pytest.raises(DiceError, match="stopped after 1000 stand-in dice"):
        dice.take(parse("d6"), "one more", StandInFaces.MOST)
