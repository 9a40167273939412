"""§4.2 mission rewards: the winner 2 VP and 150 pts, every loser 300 pts. The loser's larger share is the rule,
and the line says so, with the values in force (a house rule included)."""

from __future__ import annotations

import pytest

from campaign.rulesets.grimdark import rules as gf
from campaign.rulesets.grimdark.tables import Tables
from campaign.rulesets.tables import Override, apply_overrides
from campaign.tables import base_values

BASE = base_values("grimdark")


def _with(**values: int) -> Tables:
    overrides = [Override(f"rewards.{k}", v, "HOUSE RULE") for k, v in values.items()]
    return Tables.of(apply_overrides(BASE, overrides))


def test_the_loser_takes_more_points_and_the_line_says_why() -> None:
    decision = gf.rewards(Tables.of(BASE), "b1", ["Saurians", "Robots"], "Robots")
    assert decision.outcome == {"Saurians": {"vp": 0, "points": 300}, "Robots": {"vp": 2, "points": 150}}
    assert decision.explanation == (
        "mission rewards: Saurians 0 VP, 300 pts; Robots 2 VP, 150 pts (the winner takes 2 VP and 150 pts, every "
        "loser 300 pts and no VP: the loser gets more points to spend on its army, the winner the VP)"
    )


@pytest.mark.parametrize(("loser", "more"), [(250, True), (151, True), (150, False)])
def test_a_house_rule_on_the_losers_points_is_the_one_named(loser: int, more: bool) -> None:
    decision = gf.rewards(_with(loser_points=loser), "b1", ["Saurians", "Robots"], "Saurians")
    assert f"every loser {loser} pts and no VP" in decision.explanation
    assert ("the loser gets more points" in decision.explanation) is more


def test_a_draw_says_each_side_is_paid_as_a_loser() -> None:
    decision = gf.rewards(Tables.of(BASE), "b1", ["Saurians", "Robots"], None)
    assert decision.explanation.endswith("(a draw: 0 VP and 300 pts to each side (R2-35))")
