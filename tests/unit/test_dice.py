"""Dice notation, table dice, and the seeded derivation (determinism, rotation, uniformity)."""

from __future__ import annotations

import hashlib
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.dice import (
    DiceSpec,
    ReplayDice,
    SeededDice,
    TableDice,
    derive_faces,
    die,
    parse,
    parse_table_dice,
)
from events.errors import DiceError


@pytest.mark.parametrize(
    ("text", "count", "sides", "modifier", "effective"),
    [
        ("d6", 1, 6, 0, 6),
        ("2d6", 2, 6, 0, 6),
        ("3d", 3, 6, 0, 6),
        ("4d+20", 4, 6, 20, 6),
        ("1d-2", 1, 6, -2, 6),
        ("d10-1step", 1, 10, 0, 8),
        ("d10 -2 steps +1", 1, 10, 1, 6),
        ("d4-1step", 1, 4, 0, 4),
        ("d12+1step", 1, 12, 0, 12),
        ("d8+1step", 1, 8, 0, 10),
        ("D100", 1, 100, 0, 100),
        ("d20+3", 1, 20, 3, 20),
    ],
)
def test_notation(text: str, count: int, sides: int, modifier: int, effective: int) -> None:
    spec = parse(text)
    assert (spec.count, spec.base_sides, spec.modifier, spec.sides) == (count, sides, modifier, effective)
    assert parse(spec.notation) == spec


@pytest.mark.parametrize("text", ["", "d", "d7", "0d6", "101d6", "2d6+", "d6x", "d20-1step", "3x6", "d6+5000", "-d6"])
def test_malformed_notation_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(DiceError):
        parse(text)


def test_die_step_ladder_clamps_at_both_ends() -> None:
    assert die(10).shifted(-1).sides == 8
    assert die(10).shifted(-9).sides == 4
    assert die(6).shifted(+9).sides == 12
    with pytest.raises(DiceError):
        die(20).shifted(-1)


def test_table_dice_are_checked_against_the_notation() -> None:
    dice = TableDice([4, 2], "alice", next_index=5)
    roll = dice.roll(parse("2d6"), "morale")
    assert roll.faces == (4, 2) and roll.total == 6 and roll.roll_index == 5
    assert dice.rolled[0].entered_by == "alice" and dice.rolled[0].source == "table"
    dice.finish()
    with pytest.raises(DiceError, match=r"^7 is not a face of a d6 \(faces 1–6\)$"):  # not "… in d6" again
        TableDice([7], "alice", 0).roll(parse("d6"), "morale")
    with pytest.raises(DiceError, match=r"^7 is not a face of a d6 \(faces 1–6\) in 2d6$"):
        TableDice([7, 1], "alice", 0).roll(parse("2d6"), "rally")
    with pytest.raises(DiceError, match="not enough table dice"):
        TableDice([3], "alice", 0).roll(parse("2d6"), "morale")
    leftover = TableDice([3, 4], "alice", 0)
    leftover.roll(parse("d6"), "x")
    with pytest.raises(DiceError, match=r"called for 1 of the 2 table dice entered; 1 was not used \(4\)"):
        leftover.finish()
    with pytest.raises(DiceError, match=r"called for no die here, and 1 table die was entered \(5\): leave out"):
        TableDice([5], "alice", 0).finish()  # e.g. a unit hit, but not hard enough for a test
    # A stepped die is checked against the die actually rolled: d10-1step is a d8, so 9 is impossible.
    with pytest.raises(DiceError, match="9 is not a face of a d8"):
        TableDice([9], "alice", 0).roll(parse("d10-1step"), "comms")


@pytest.mark.parametrize("text", ["4,x", "", "4.5"])
def test_table_dice_text_must_be_whole_numbers(text: str) -> None:
    with pytest.raises(DiceError):
        parse_table_dice(text)


SEED = hashlib.sha256(b"unit test seed").digest()


@given(st.integers(0, 10**9), st.integers(1, 10), st.sampled_from([4, 6, 8, 10, 12, 20, 100]))
def test_the_same_seed_gives_the_same_rolls(index: int, count: int, sides: int) -> None:
    first = derive_faces(SEED, "c1", index, count, sides)
    assert first == derive_faces(SEED, "c1", index, count, sides)
    assert all(1 <= f <= sides for f in first)


def test_a_rotated_seed_or_another_campaign_gives_different_rolls() -> None:
    rotated = hashlib.sha256(b"the next seed").digest()
    before = [derive_faces(SEED, "c1", i, 1, 100)[0] for i in range(200)]
    assert before != [derive_faces(rotated, "c1", i, 1, 100)[0] for i in range(200)]
    assert before != [derive_faces(SEED, "c2", i, 1, 100)[0] for i in range(200)]


def test_seeded_dice_use_growing_indexes_and_record_how_to_rederive() -> None:
    dice = SeededDice("c1", SEED, epoch=3, next_index=10)
    a = dice.roll(parse("3d"), "strategy")
    b = dice.roll(die(8), "confidence")
    assert (a.roll_index, b.roll_index, dice.next_index) == (10, 11, 12)
    event = dice.rolled[0]
    assert event.seed_epoch == 3 and event.source == "seeded"
    assert tuple(event.faces) == derive_faces(SEED, "c1", 10, 3, 6)


def test_replay_dice_hand_back_the_recorded_dice_and_catch_a_different_request() -> None:
    dice = SeededDice("c1", SEED, 0, 0)
    dice.roll(die(8), "x")
    replay = ReplayDice(dice.rolled)
    assert replay.roll(die(8), "x").faces == tuple(dice.rolled[0].faces)
    with pytest.raises(DiceError, match="more dice"):
        replay.roll(die(8), "x")
    with pytest.raises(DiceError, match="recorded d8"):
        ReplayDice(dice.rolled).roll(die(6), "x")


def _chi_square_critical(dof: int, z: float = 4.265) -> float:
    """Wilson–Hilferty upper quantile of chi-square (z = 4.265 is p ≈ 1e-5)."""
    k = 2 / (9 * dof)
    return dof * (1 - k + z * math.sqrt(k)) ** 3


@pytest.mark.parametrize("sides", [4, 6, 8, 10, 12, 20, 100])
def test_every_face_appears_with_frequency_one_in_n_over_100000_rolls(sides: int) -> None:
    rolls = 100_000
    counts = [0] * (sides + 1)
    for index in range(rolls):
        counts[derive_faces(SEED, "uniformity", index, 1, sides)[0]] += 1
    expected = rolls / sides
    chi2 = sum((c - expected) ** 2 / expected for c in counts[1:])
    assert chi2 < _chi_square_critical(sides - 1), f"d{sides} faces are not uniform: chi2 = {chi2:.1f}"
    # And no single face strays more than 5 standard deviations from 1/N.
    sd = math.sqrt(rolls * (1 / sides) * (1 - 1 / sides))
    assert max(abs(c - expected) for c in counts[1:]) < 5 * sd


def test_spec_bounds() -> None:
    spec = DiceSpec(4, 6, 20)
    assert (spec.minimum, spec.maximum) == (24, 44)
