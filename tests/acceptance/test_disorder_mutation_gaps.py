"""Thresholds of RULES.md §1.4–§1.6 that the mutation run (scripts/mutation.py) found untested: the rally's
close-order bonus (+1, §1.6) on both sides of 6, and a loss of no model at all (§1.4: casualties are models lost)."""

from __future__ import annotations

import pytest

from campaign.rulesets.disorder import rules as dis
from campaign.rulesets.disorder.tables import Tables
from campaign.tables import base_values
from events.dice import TableDice
from events.errors import InvalidInputError

T = Tables(base_values("disorder"))


def line(markers: int) -> dis.Unit:
    return dis.Unit(
        "u1", "Line company", "British", start_models=10, models=10, points=60, discipline=0, markers=markers
    )


@pytest.mark.parametrize(("faces", "passed"), [((3, 3), True), ((2, 3), False)])
def test_rally_in_close_order_adds_one(faces: tuple[int, int], passed: bool) -> None:
    # §1.6: 2d6 + Discipline − markers + 1 (close order) ≥ 6. One marker, line (0):
    # 6 + 0 − 1 + 1 = 6 rallies; 5 + 0 − 1 + 1 = 5 does not.
    decision = dis.rally(T, line(1), TableDice(faces, "rally", 0), "b", close_order=True)
    assert bool(decision.facts) is passed


@pytest.mark.parametrize(("faces", "passed"), [((4, 3), True), ((3, 3), False)])
def test_rally_without_close_order_adds_nothing(faces: tuple[int, int], passed: bool) -> None:
    # 7 + 0 − 1 = 6 rallies; 6 + 0 − 1 = 5 does not.
    decision = dis.rally(T, line(1), TableDice(faces, "rally", 0), "b")
    assert bool(decision.facts) is passed


@pytest.mark.parametrize("count", [0, -1])
def test_a_loss_is_at_least_one_model(count: int) -> None:
    with pytest.raises(InvalidInputError, match="at least one model"):
        dis.lose_models(line(0), "b", count, "shooting")


def test_a_loss_of_one_model_counts() -> None:
    after, facts, _ = dis.lose_models(line(0), "b", 1, "shooting")
    assert after.models == 9
    assert facts
