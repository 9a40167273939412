"""RULES.md §1.8's Glory table [PLACEHOLDER] value by value, where the mutation run found the draw untested:
won +3, drawn +1, lost 0."""

from __future__ import annotations

import pytest

from campaign.rulesets.disorder import rules as dis
from campaign.rulesets.disorder.tables import Tables
from campaign.tables import base_values

T = Tables.of(base_values("disorder"))


@pytest.mark.parametrize(("result", "glory"), [("won", 3), ("drawn", 1), ("lost", 0)])
def test_glory_for_the_scenarios_result(result: str, glory: int) -> None:
    decision = dis.glory(
        T,
        "b",
        "British",
        "Sharpe",
        result=result,
        objectives=0,
        enemy_removed=0,
        own_fled=0,
        officer_removed=False,
        glory_before=0,
    )
    assert decision.outcome["glory"] == glory
