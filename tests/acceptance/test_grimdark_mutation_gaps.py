"""RULES.md §4.2's hero talents where the mutation run (scripts/mutation.py) found Toughened's Tough(+1) untested:
a hero whose casualty roll is a 6 rolls a talent; a 6 on the talent die is Toughened (Tough +1), any other talent
adds no Tough; a talent makes the hero 5 pts dearer."""

from __future__ import annotations

import pytest

from campaign.rulesets.decision import Decision
from campaign.rulesets.grimdark import rules as gf
from campaign.rulesets.grimdark.tables import Tables
from campaign.tables import base_values
from events.dice import TableDice
from events.families.battle import WoundsTaken
from events.families.career import TraitGained
from events.families.economy import UnitDisbanded

T = Tables.of(base_values("grimdark"))
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


@pytest.mark.parametrize(
    ("value", "points"),
    [
        # §4.2: "1 underdog point per 50 pts difference to the highest army" (whole points: a part of 50 gives none).
        (300, 0),  # the highest army itself
        (251, 0),  # 49 below: not yet a point
        (250, 1),  # 50 below: one point
        (201, 1),  # 99 below: still one
        (200, 2),  # 100 below: two
    ],
)
def test_one_underdog_point_per_full_50_pts_below_the_highest_army(value: int, points: int) -> None:
    assert gf.underdog_points(T, {"Saurians": 300, "Robots": value})["Robots"] == points


def test_a_hero_whose_injury_roll_is_1_is_dead_and_leaves_the_roster() -> None:
    # §4.2 Heroes: a casualty roll of 1 rolls an Injury; Injury 1 is "Dead" (removed, not a trait it carries on).
    decision = gf.casualty(T, hero(), TableDice((1, 1), "gm", 0), "b", had=())
    assert decision.outcome["result"] == "dead"
    assert [type(f) for f in decision.facts] == [UnitDisbanded]


def hero() -> gf.Unit:
    return gf.Unit("h", "Captain", "Saurians", quality=4, start_size=1, models=1, tough=3, hero=True)


def joined(models: int = 7) -> gf.Unit:
    # R2-32's example: 7 soldiers (one wound each) and a joined hero with Tough(3): start 8.
    return gf.Unit(
        "u", "Warriors", "Saurians", quality=4, start_size=8, models=models, tough=1, hero_id="h", hero_tough=3
    )


def hero_wounds(decisions: list[Decision]) -> list[tuple[int, int, int]]:
    return [
        (f.wounds, f.models_lost, f.carried)
        for d in decisions
        for f in d.facts
        if isinstance(f, WoundsTaken) and f.unit_id == "h"
    ]


def test_wounds_that_only_kill_soldiers_put_nothing_on_the_joined_hero() -> None:
    # R2-32: wounds go to the soldiers first, the hero last. 3 wounds kill 3 of the 7 soldiers: 5 of 8 left, no
    # test, and the hero took no wound, so none is recorded against it.
    decisions = gf.shot(T, joined(), TableDice((), "gm", 0), "b", wounds=3)
    assert hero_wounds(decisions) == []
    assert decisions[0].outcome["models"] == 5


def test_a_volley_past_the_last_soldier_wounds_the_hero() -> None:
    # R2-32's example: 9 wounds on the full unit kill the 7 soldiers and put 2 on the hero (Tough 3): the lone hero,
    # 1 of 8, alive with 2 wounds; it tests at the end of the activation (a 4 passes Quality 4+).
    decisions = gf.shot(T, joined(), TableDice((4,), "gm", 0), "b", wounds=9)
    assert hero_wounds(decisions) == [(2, 0, 2)]
    assert decisions[0].outcome["models"] == 1


@pytest.mark.parametrize(("face", "passed"), [(5, True), (4, False)])
def test_traumatized_takes_one_from_a_morale_test(face: int, passed: bool) -> None:
    # §4.2 Injury 5, Traumatized: −1 to morale tests. Quality 4+: a 5 − 1 = 4 passes, a 4 − 1 = 3 fails.
    scarred = gf.Unit("u", "Scarred", "X", quality=4, start_size=10, models=10, tough=1, traits=("Traumatized",))
    assert gf.morale_test(T, scarred, TableDice((face,), "gm", 0), "test")[0] is passed


@pytest.mark.parametrize(
    ("xp_before", "xp_after", "levels"),
    [
        # §4.2 Level-up, regular units: "at 5 XP" a level (and again at every further 5 XP [INF]).
        (3, 4, 0),  # 4 XP: not yet
        (4, 5, 1),  # 5 XP: a level
        (5, 9, 0),  # 9 XP: the same level
        (9, 10, 1),  # 10 XP: the next level
        (4, 10, 2),  # from 4 to 10 XP in one battle: two levels
    ],
)
def test_a_unit_levels_up_at_every_5_xp(xp_before: int, xp_after: int, levels: int) -> None:
    unit = gf.Unit("u", "Warriors", "Saurians", quality=4, start_size=10, models=10, tough=1)
    decision = gf.level_up(T, unit, TableDice((1, 2), "gm", 0), xp_before=xp_before, xp_after=xp_after, had=())
    gained = [] if decision is None else [f for f in decision.facts if isinstance(f, TraitGained)]
    assert len(gained) == levels
    assert all(f.points == 25 for f in gained)  # +25 pts a level
