"""Between two battles a unit's Morale may change by its experience alone (§2.3): every man who fought has one
battle more; Inexperienced (0) → Green from 1, Green → Average from 3; base Morale 9 (6 for irregulars: −3 more),
11, 13. The battle's last line says so, unit by unit, so a player sees why Caliburn's gang goes from 6 to 11."""

from __future__ import annotations

from typing import Any

from campaign.rulesets.mass_combat.plugin import PLUGIN as MASS_COMBAT
from tests.acceptance.mass_combat_table import War, applied, battle, d3, side


def _war(**crimson: Any) -> War:
    w = War()
    w.muster("Gang", "Crimson", **crimson)
    w.muster("Blue foot", "Azure")  # Average, experience 3
    return w


def _end(w: War, **kw: Any) -> str:
    # Both roll 10 (W 0): no clear winner.
    result = w.fight(battle("Field", side("Crimson", ["Gang"]), side("Azure", ["Blue foot"])), d3(3, 3, 10, 10), **kw)
    return str(applied(result, "battle_end")[0]["explanation"])


def _roster(w: War, name: str) -> Any:
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    unit = state.unit_by_name(name)
    assert unit is not None
    return unit.profile


def test_inexperienced_irregulars_after_their_first_battle_are_green_at_morale_11() -> None:
    w = _war(quality="inexperienced", experience=0, irregular=True)
    words = _end(w)
    assert "one battle more of experience for every unit that fought (§2.3)" in words
    assert (
        "Gang 0 → 1, now green (was inexperienced): base Morale 6 → 11 "
        "(the -3 for inexperienced irregulars no longer applies)"
    ) in words
    assert "Blue foot 3 → 4" in words and "Blue foot 3 → 4, now" not in words
    assert _roster(w, "Gang").quality == "green" and _roster(w, "Gang").experience == 1


def test_green_at_1_stays_green_at_2_and_green_at_2_becomes_average_at_3() -> None:
    one = _war(quality="green", experience=1)
    assert _end(one).endswith("; Gang 1 → 2")  # the units in name order: Blue foot, then Gang
    assert _roster(one, "Gang").quality == "green"
    two = _war(quality="green", experience=2)
    assert "Gang 2 → 3, now average (was green): base Morale 11 → 13" in _end(two)
    assert _roster(two, "Gang").quality == "average"


def test_a_day_that_is_not_the_last_says_nothing_of_experience() -> None:
    w = _war(quality="inexperienced", experience=0, irregular=True)
    assert "experience" not in _end(w, final_day=False)
    assert _roster(w, "Gang").experience == 0
