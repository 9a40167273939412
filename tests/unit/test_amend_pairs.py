"""An amendment's preview sets each rule outcome of a re-run command beside the one recorded for the same rule
and unit: one more outcome in the middle (a morale test the re-run now calls for) is "now also", and every
outcome after it is still set beside its own, not beside its neighbour's."""

from __future__ import annotations

from campaign.replay import RuleOutcome
from campaign.timeline.reports import paired


def outcome(rule: str, unit: str | None, said: str) -> RuleOutcome:
    return {"rule": rule, "unit_id": unit, "outcome": {"said": said}, "explanation": said}


WOUNDS_3 = outcome("gf.wounds", "u1", "3 wounds: 7 of 10 left")
WOUNDS_6 = outcome("gf.wounds", "u1", "6 wounds: 4 of 10 left")
MORALE = outcome("gf.morale", "u1", "morale test: fails, Shaken")
END = outcome("gf.battle_end", None, "Ruins ends: won by Saurians")


def test_an_outcome_more_in_the_middle_is_now_also_and_the_rest_keep_their_own() -> None:
    assert paired([WOUNDS_3, END], [WOUNDS_6, MORALE, END]) == [(WOUNDS_3, WOUNDS_6), (None, MORALE), (END, END)]


def test_an_outcome_no_longer_called_for_is_no_longer_and_the_rest_keep_their_own() -> None:
    assert paired([WOUNDS_6, MORALE, END], [WOUNDS_3, END]) == [(WOUNDS_6, WOUNDS_3), (MORALE, None), (END, END)]


def test_the_same_rule_for_another_unit_is_not_its_outcome() -> None:
    other = outcome("gf.morale", "u2", "morale test: passes")
    assert paired([MORALE], [other]) == [(MORALE, other)]  # one for one in its place: said as was/now
    assert paired([MORALE, END], [other, MORALE, END]) == [(None, other), (MORALE, MORALE), (END, END)]
