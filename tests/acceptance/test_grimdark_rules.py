"""RULES.md §4 (seed 004) through the public service with table dice: the worked examples O1–O14, the campaign
after a battle (casualty rolls, XP, level-ups, hero injuries and talents, rewards), refusals, re-evaluation."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from campaign.executor import Ledger, TableEntry
from campaign.rulesets.grimdark import commands as gd
from campaign.rulesets.grimdark import rules as gf
from campaign.rulesets.grimdark.plugin import PLUGIN as GRIMDARK
from campaign.rulesets.grimdark.tables import Tables
from campaign.tables import base_values
from campaign.timeline import Timeline
from events.dice import TableDice
from events.errors import InvalidInputError
from events.store import AppendResult
from tests.conftest import Backend, make_ledger

T = Tables.of(base_values("grimdark"))
UNITS = {
    "Saurian Warriors": ("Saurians", {"models": 10, "quality": 4, "points": 140}),
    "Saurian Hero": ("Saurians", {"models": 1, "quality": 3, "tough": 3, "hero": True, "points": 60}),
    "Robot Squad": ("Robots", {"models": 10, "quality": 4, "points": 150}),
    "Robot Tank": ("Robots", {"models": 1, "quality": 4, "tough": 12, "points": 200}),
    "Fearless Guard": ("Robots", {"models": 5, "quality": 5, "fearless": True, "points": 100}),
    "Guard Twins": ("Robots", {"models": 5, "quality": 5, "fearless": True, "points": 100}),
}


class Match:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    @property
    def info(self) -> Any:
        return self.ledger.resolve(None)

    def log_length(self) -> int:
        return len(list(self.ledger.store.read(self.info.campaign_id)))

    def unit(self, name: str) -> Any:
        state, _ = self.ledger.in_force(self.info, GRIMDARK)
        battle = state.battles[state.active_battle] if state.active_battle else None
        assert battle is not None
        return state.in_battle(battle, state.unit_by_name(name).unit_id)  # type: ignore[union-attr]

    def roster(self, name: str) -> Any:
        return self.ledger.in_force(self.info, GRIMDARK)[0].unit_by_name(name)


def rules(result: AppendResult, rule: str) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in result.events if e.type == "rules.applied" and e.payload["rule"] == rule]


def facts(result: AppendResult, kind: str) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in result.events if e.type == kind]


BATTLES = itertools.count(1)  # a battle's name is its own (no two battles of one name): each ambush gets a number


def start(m: Match, joins: dict[str, str] | None = None) -> None:
    m.ledger.execute(
        m.info, gd.StartBattle.build(name=f"Ambush at the ruins {next(BATTLES)}", units=list(UNITS), joins=joins or {})
    )


@pytest.fixture
def match() -> Match:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Sector 7", "grimdark")
    m = Match(ledger)
    for name, (side, profile) in UNITS.items():
        m.ledger.execute(m.info, gd.Muster.build(name=name, side=side, profile=profile))
    return m


def refused(m: Match, action: Callable[[], Any], message: str) -> None:
    before = m.log_length()
    with pytest.raises(InvalidInputError, match=message):
        action()
    assert m.log_length() == before, "a refused command appended something"


@pytest.mark.parametrize(("face", "passed"), [(4, True), (5, True), (6, True), (1, False), (2, False), (3, False)])
def test_o1_a_quality_test_passes_on_its_quality_or_more(face: int, passed: bool) -> None:
    unit = gf.Unit("u", "Saurian Warriors", "Saurians", quality=4, start_size=10, models=4, tough=1)
    assert gf.morale_test(T, unit, TableDice((face,), "gm", 0), "test")[0] is passed


def test_an_unmodified_six_passes_and_an_unmodified_one_fails_whatever_the_modifiers() -> None:
    poor = gf.Unit("u", "Rabble", "X", quality=6, start_size=10, models=4, tough=1, traits=("Traumatized",))
    assert gf.morale_test(T, poor, TableDice((6,), "gm", 0), "test")[0] is True  # 6 − 1 = 5 < 6, but a natural 6
    bold = gf.Unit("u", "Elite", "X", quality=2, start_size=10, models=4, tough=1, traits=("Headstrong",))
    assert gf.morale_test(T, bold, TableDice((1,), "gm", 0), "test")[0] is False  # 1 + 1 ≥ 2, but a natural 1


def test_o2_o3_o8_wounds_test_only_at_half_and_every_time_after(match: Match) -> None:
    start(match)
    no_test = match.ledger.execute(
        match.info, gd.Shoot.build(unit_name="Saurian Warriors", wounds=4, by="Robot Squad")
    )  # 6 left of 10
    assert not rules(no_test, "morale_test")
    passed = match.ledger.execute(
        match.info, gd.Shoot.build(unit_name="Saurian Warriors", wounds=1), table=TableEntry((5,))
    )  # 5 left: tests
    assert rules(passed, "morale_test")[0]["outcome"] == {"passed": True, "result": "passed"}
    shaken = match.ledger.execute(
        match.info, gd.Shoot.build(unit_name="Saurian Warriors", wounds=1), table=TableEntry((2,))
    )  # O8: 4 left, roll 2
    assert rules(shaken, "morale_test")[0]["outcome"] == {"passed": False, "result": "shaken"}
    assert match.unit("Saurian Warriors").shaken and not facts(shaken, "battle.unit_removed"), "shooting never Routs"


def test_o4_a_tough_vehicle_reaches_half_at_six_wounds(match: Match) -> None:
    start(match)
    assert not rules(match.ledger.execute(match.info, gd.Shoot.build(unit_name="Robot Tank", wounds=5)), "morale_test")
    at_half = match.ledger.execute(match.info, gd.Shoot.build(unit_name="Robot Tank", wounds=1), table=TableEntry((4,)))
    assert rules(at_half, "morale_test")[0]["inputs"]["half"] is True
    later = match.ledger.execute(match.info, gd.Shoot.build(unit_name="Robot Tank", wounds=1), table=TableEntry((3,)))
    assert rules(later, "morale_test")[0]["outcome"]["result"] == "shaken"


def test_o5_o6_the_side_that_caused_fewer_unblocked_wounds_tests(match: Match) -> None:
    start(match)
    result = match.ledger.execute(
        match.info,
        gd.Melee.build(a="Saurian Warriors", b="Robot Squad", wounds_by_a=3, wounds_by_b=1),
        table=TableEntry((5,)),
    )
    melee = rules(result, "melee")[0]
    assert melee["outcome"]["loser"] == match.roster("Robot Squad").unit_id
    test = rules(result, "morale_test")[0]
    assert test["unit_id"] == match.roster("Robot Squad").unit_id and test["inputs"]["trigger"] == "lost a melee"
    # O6: the score is unblocked wounds, whatever the attacks: 12 attacks, 1 wound is a melee score of 1.
    assert melee["inputs"]["wounds_by_b"] == 1


def test_o7_o9_losing_a_melee_at_half_routs(match: Match) -> None:
    start(match)
    match.ledger.execute(match.info, gd.Shoot.build(unit_name="Saurian Warriors", wounds=4))  # 6 left
    match.ledger.execute(
        match.info, gd.Shoot.build(unit_name="Saurian Warriors", wounds=2), table=TableEntry((5,))
    )  # 4 left, passes
    result = match.ledger.execute(
        match.info,
        gd.Melee.build(a="Saurian Warriors", b="Robot Squad", wounds_by_a=1, wounds_by_b=2),
        table=TableEntry((3,)),
    )  # O9
    assert rules(result, "morale_test")[0]["outcome"] == {"passed": False, "result": "routed"}
    assert facts(result, "battle.unit_removed")[0]["reason"] == "routed"
    assert facts(result, "battle.kill_credited")[0]["unit_id"] == match.roster("Robot Squad").unit_id


def test_o10_losing_a_melee_above_half_is_shaken_not_routed(match: Match) -> None:
    start(match)
    match.ledger.execute(match.info, gd.Shoot.build(unit_name="Saurian Warriors", wounds=3))  # 7 left
    result = match.ledger.execute(
        match.info,
        gd.Melee.build(a="Saurian Warriors", b="Robot Squad", wounds_by_a=0, wounds_by_b=1),
        table=TableEntry((2,)),
    )
    assert rules(result, "morale_test")[0]["outcome"]["result"] == "shaken"


def test_o12_a_joined_hero_adds_to_the_starting_size_and_lends_its_quality(match: Match) -> None:
    start(match, {"Saurian Hero": "Saurian Warriors"})
    warriors = match.unit("Saurian Warriors")
    assert (warriors.start_size, warriors.quality) == (11, 3)
    # R2-32: the hero is one of the current models: 4 soldiers + the hero = 5 of 11 (2 × 5 ≤ 11): a test.
    routed = match.ledger.execute(
        match.info, gd.Shoot.build(unit_name="Saurian Warriors", wounds=6), table=TableEntry((1,))
    )
    assert rules(routed, "morale_test")[0]["outcome"]["result"] == "shaken"
    # 7 wounds: the 4 soldiers first, then the hero's Tough(3): the unit is destroyed, the hero with it.
    wiped = match.ledger.execute(
        match.info, gd.Melee.build(a="Saurian Warriors", b="Robot Squad", wounds_by_a=0, wounds_by_b=7)
    )
    assert [f["reason"] for f in facts(wiped, "battle.unit_removed")] == ["destroyed", "destroyed"]
    assert {f["victim_hero"] for f in facts(wiped, "battle.kill_credited")} == {True, False}


def test_o11_two_like_units_combined_start_at_ten_and_are_at_half_at_five(match: Match) -> None:
    start(match, {"Guard Twins": "Fearless Guard"})
    guard = match.unit("Fearless Guard")
    assert (guard.start_size, guard.models) == (10, 10)
    assert not rules(
        match.ledger.execute(match.info, gd.Shoot.build(unit_name="Fearless Guard", wounds=4)), "morale_test"
    )  # 6 of 10
    assert rules(
        match.ledger.execute(match.info, gd.Shoot.build(unit_name="Fearless Guard", wounds=1), table=TableEntry((5,))),
        "morale_test",
    )  # 5
    refused(
        match,
        lambda: match.ledger.execute(match.info, gd.Shoot.build(unit_name="Guard Twins", wounds=1)),
        "has joined Fearless Guard",
    )
    wiped = match.ledger.execute(
        match.info, gd.Melee.build(a="Saurian Warriors", b="Fearless Guard", wounds_by_a=5, wounds_by_b=0)
    )
    assert sorted(f["unit_id"] for f in facts(wiped, "battle.unit_removed")) == sorted(
        [match.roster("Fearless Guard").unit_id, match.roster("Guard Twins").unit_id]
    )
    refused(
        match,
        lambda: match.ledger.execute(match.info, gd.StartBattle.build(name="Again", units=list(UNITS))),
        "still being fought",
    )


def test_only_like_units_combine(match: Match) -> None:
    refused(match, lambda: start(match, {"Robot Squad": "Fearless Guard"}), "only like units combine")


def test_o13_a_shaken_unit_that_loses_a_melee_at_half_routs_without_a_roll(match: Match) -> None:
    start(match)
    match.ledger.execute(
        match.info, gd.Shoot.build(unit_name="Saurian Warriors", wounds=5), table=TableEntry((2,))
    )  # 5 left: shaken
    result = match.ledger.execute(
        match.info, gd.Melee.build(a="Saurian Warriors", b="Robot Squad", wounds_by_a=0, wounds_by_b=1)
    )  # seeded dice: none rolled
    assert rules(result, "morale_test")[0]["outcome"]["result"] == "routed"
    assert not facts(result, "dice.rolled")


def test_o14_a_tie_means_nobody_tests(match: Match) -> None:
    start(match)
    for a, b in ((0, 0), (2, 2)):
        result = match.ledger.execute(
            match.info, gd.Melee.build(a="Saurian Warriors", b="Robot Squad", wounds_by_a=a, wounds_by_b=b)
        )
        assert not rules(result, "morale_test") and rules(result, "melee")[0]["outcome"]["loser"] is None


def test_a_destroyed_unit_loses_and_its_opponent_does_not_test(match: Match) -> None:
    start(match)
    result = match.ledger.execute(
        match.info, gd.Melee.build(a="Saurian Warriors", b="Fearless Guard", wounds_by_a=5, wounds_by_b=9)
    )
    assert not rules(result, "morale_test")
    assert facts(result, "battle.unit_removed")[0]["unit_id"] == match.roster("Fearless Guard").unit_id


def test_shaken_clears_after_an_idle_activation_and_fearless_saves_on_four(match: Match) -> None:
    start(match)
    saved = match.ledger.execute(
        match.info, gd.Shoot.build(unit_name="Fearless Guard", wounds=3), table=TableEntry((2, 4))
    )  # fails 2, Fearless 4
    assert rules(saved, "morale_test")[0]["outcome"]["passed"] is True
    shaken = match.ledger.execute(
        match.info, gd.Shoot.build(unit_name="Fearless Guard", wounds=1), table=TableEntry((2, 3))
    )
    assert match.unit("Fearless Guard").shaken and rules(shaken, "morale_test")[0]["outcome"]["result"] == "shaken"
    match.ledger.execute(match.info, gd.Recover.build(unit_name="Fearless Guard"))
    assert not match.unit("Fearless Guard").shaken
    refused(match, lambda: match.ledger.execute(match.info, gd.Recover.build(unit_name="Fearless Guard")), "not Shaken")


def test_after_the_battle_casualties_xp_level_ups_and_rewards(match: Match) -> None:
    start(match, {"Saurian Hero": "Saurian Warriors"})
    match.ledger.execute(
        match.info, gd.Melee.build(a="Saurian Warriors", b="Robot Squad", wounds_by_a=10, wounds_by_b=0)
    )  # the squad destroyed by the warriors
    match.ledger.execute(match.info, gd.Remove.build(unit_name="Robot Tank", reason="destroyed", by="Saurian Warriors"))
    # Casualty rolls in unit-id order for Robot Squad and Robot Tank; the warriors reach 3 XP: no level-up yet.
    end = match.ledger.execute(match.info, gd.EndBattle.build(winner="Saurians"), table=TableEntry((6, 1)))
    results = {r["unit_id"]: r["outcome"]["result"] for r in rules(end, "casualty")}
    assert sorted(results.values()) == ["Natural Talent", "dead"]
    xp = {f["unit_id"]: f["xp"] for f in facts(end, "career.xp_gained")}
    warriors, hero = match.roster("Saurian Warriors"), match.roster("Saurian Hero")
    assert xp[warriors.unit_id] == 1 + 2 and xp[hero.unit_id] == 1  # survived +1, two units killed +2
    assert rules(end, "rewards")[0]["outcome"] == {
        "Saurians": {"vp": 2, "points": 150},
        "Robots": {"vp": 0, "points": 300},
    }
    state, _ = match.ledger.in_force(match.info, GRIMDARK)
    assert state.victory_points == {"Saurians": 2} and state.treasury == {"Saurians": 150, "Robots": 300}
    dead = [u for u in state.roster.values() if u.disbanded and u.disbanded.startswith("dead")]
    assert len(dead) == 1
    assert state.active_battle is None and state.unit_by_name("Saurian Warriors").xp == 3  # type: ignore[union-attr]


def test_a_unit_at_five_xp_levels_up_and_a_hero_rolls_injuries_and_talents(match: Match) -> None:
    # Each battle the warriors destroy the squad and the tank routs the hero. After it, in unit-id order (muster
    # order): the hero's casualty roll and its trait roll, the squad's casualty roll, then level-ups.
    for dice in ((6, 2, 3), (1, 5, 3, 2)):
        start(match)
        match.ledger.execute(
            match.info, gd.Remove.build(unit_name="Robot Squad", reason="destroyed", by="Saurian Warriors")
        )
        match.ledger.execute(match.info, gd.Remove.build(unit_name="Saurian Hero", reason="routed", by="Robot Tank"))
        end = match.ledger.execute(match.info, gd.EndBattle.build(winner="Saurians"), table=TableEntry(dice))
    hero_rolls = [r["outcome"]["result"] for r in rules(end, "casualty") if r["inputs"]["hero"]]
    assert hero_rolls == ["Traumatized"]  # 1: an injury, D6 = 5
    assert rules(end, "level_up")[0]["outcome"]["traits"] == ["Headstrong"]  # the tank: 3 + 3 = 6 XP, D6 = 2
    state, _ = match.ledger.in_force(match.info, GRIMDARK)
    hero, tank = state.unit_by_name("Saurian Hero"), state.unit_by_name("Robot Tank")
    warriors = state.unit_by_name("Saurian Warriors")
    assert hero is not None and tank is not None and warriors is not None
    assert hero.traits == ("Motivated", "Traumatized") and hero.points == 60 + 5 - 5
    assert (tank.xp, tank.traits, tank.points) == (6, ("Headstrong",), 200 + 25)  # +1 survived, +2 a hero, twice
    assert warriors.xp == 4 and warriors.traits == ()  # 2 battles × (survived +1, a unit killed +1)


def test_bad_input_is_refused_and_nothing_is_appended(match: Match) -> None:
    i = match.info
    refused(
        match,
        lambda: match.ledger.execute(
            i,
            gd.Muster.build(
                name="Big Hero", side="Saurians", profile={"models": 3, "quality": 3, "hero": True, "points": 9}
            ),
        ),
        "single model",
    )
    refused(
        match,
        lambda: match.ledger.execute(
            i, gd.Muster.build(name="Bad", side="Saurians", profile={"models": 3, "quality": 7, "points": 9})
        ),
        "quality",
    )
    refused(
        match,
        lambda: match.ledger.execute(i, gd.Shoot.build(unit_name="Saurian Warriors", wounds=1)),
        "no battle is being fought",
    )
    refused(
        match,
        lambda: match.ledger.execute(i, gd.StartBattle.build(name="Solo", units=["Saurian Warriors"])),
        "two sides",
    )
    refused(
        match,
        lambda: match.ledger.execute(
            i, gd.StartBattle.build(name="J", units=list(UNITS), joins={"Robot Tank": "Robot Squad"})
        ),
        "only like units",
    )
    start(match)
    refused(
        match, lambda: match.ledger.execute(i, gd.Shoot.build(unit_name="Saurian Warriors", wounds=0)), "at least one"
    )
    refused(
        match,
        lambda: match.ledger.execute(i, gd.Shoot.build(unit_name="Saurian Warriors", wounds=5), table=TableEntry((7,))),
        "7 is not a face",
    )
    refused(
        match,
        lambda: match.ledger.execute(i, gd.Shoot.build(unit_name="Saurian Warriors", wounds=1, by="Saurian Hero")),
        "same side",
    )
    refused(
        match,
        lambda: match.ledger.execute(
            i, gd.Melee.build(a="Saurian Warriors", b="Robot Squad", wounds_by_a=-1, wounds_by_b=2)
        ),
        "negative",
    )
    refused(
        match,
        lambda: match.ledger.execute(i, gd.Melee.build(a="Robot Tank", b="Robot Squad", wounds_by_a=1, wounds_by_b=2)),
        "same side",
    )
    refused(
        match,
        lambda: match.ledger.execute(i, gd.Shoot.build(unit_name="Saurian Warriors", wounds=2, models_lost=11)),
        "cannot lose 11",
    )
    refused(match, lambda: match.ledger.execute(i, gd.EndBattle.build(winner="Orks")), "not a side")
    refused(
        match,
        lambda: match.ledger.execute(i, gd.Transfer.build(from_unit="Saurian Warriors", to_unit="Saurian Hero", men=1)),
        "do not trade models",
    )


def test_every_recorded_rule_re_evaluates_to_what_was_recorded(match: Match) -> None:
    start(match, {"Saurian Hero": "Saurian Warriors"})
    match.ledger.execute(match.info, gd.Shoot.build(unit_name="Saurian Warriors", wounds=5, by="Robot Squad"))
    match.ledger.execute(
        match.info, gd.Melee.build(a="Saurian Warriors", b="Robot Squad", wounds_by_a=2, wounds_by_b=3)
    )
    match.ledger.execute(match.info, gd.Shoot.build(unit_name="Robot Tank", wounds=7))
    match.ledger.execute(match.info, gd.NextRound.build())
    match.ledger.execute(match.info, gd.EndBattle.build(winner=None))
    assert Timeline(match.ledger).reevaluate(match.info) == []


def test_motivated_passes_the_first_morale_test_of_a_match_only() -> None:
    hero = gf.Unit("h", "Hero", "X", quality=5, start_size=1, models=1, tough=3, hero=True, traits=("Motivated",))
    assert gf.morale_test(T, hero, TableDice((), "gm", 0), "test") == (
        True,
        gf.morale_test(T, hero, TableDice((), "gm", 0), "t")[1],
        [],
    )
    tested = gf.Unit("h", "Hero", "X", quality=5, start_size=1, models=1, tough=3, traits=("Motivated",), tested=True)
    assert gf.morale_test(T, tested, TableDice((2,), "gm", 0), "test")[0] is False


def test_campaign_points_buy_and_sell_units_within_the_army_cap(match: Match) -> None:
    start(match)
    match.ledger.execute(match.info, gd.EndBattle.build(winner="Saurians"))  # Saurians +150, Robots +300
    # Armies now: Saurians 200, Robots 550. Saurians buy with their 150 pts; none may exceed the lowest + 250.
    refused(
        match,
        lambda: match.ledger.execute(
            match.info,
            gd.Buy.build(name="Big Beast", side="Saurians", profile={"models": 1, "quality": 3, "points": 160}),
        ),
        "has 150",
    )
    match.ledger.execute(
        match.info, gd.Buy.build(name="Raptors", side="Saurians", profile={"models": 5, "quality": 4, "points": 100})
    )
    assert match.ledger.in_force(match.info, GRIMDARK)[0].treasury["Saurians"] == 50
    refused(
        match,
        lambda: match.ledger.execute(
            match.info, gd.Buy.build(name="Drones", side="Robots", profile={"models": 5, "quality": 4, "points": 100})
        ),
        "lowest army",
    )
    sold = match.ledger.execute(match.info, gd.Sell.build(unit_name="Robot Tank"))
    assert [e.payload.get("amount") for e in sold.events if e.type == "economy.funds_changed"] == [200]
    state, _ = match.ledger.in_force(match.info, GRIMDARK)
    assert state.army_values() == {"Saurians": 300, "Robots": 350} and state.treasury["Robots"] == 500
    match.ledger.execute(match.info, gd.HouseRule.build(path="army.sell_refund_pct", value=50, note="a buyer's market"))
    half = match.ledger.execute(match.info, gd.Sell.build(unit_name="Guard Twins"))
    assert [e.payload.get("amount") for e in half.events if e.type == "economy.funds_changed"] == [50]


def test_special_objectives_are_rolled_at_the_start_and_pay_when_achieved(match: Match) -> None:
    started = match.ledger.execute(
        match.info, gd.StartBattle.build(name="Ruins", units=list(UNITS), special=True), table=TableEntry((1, 5))
    )
    assert rules(started, "special_objectives")[0]["outcome"] == {"Saurians": "Mastery", "Robots": "Rage"}
    refused(
        match,
        lambda: match.ledger.execute(match.info, gd.EndBattle.build(winner=None, special_achieved=["Orks"])),
        "had no special objective",
    )
    end = match.ledger.execute(match.info, gd.EndBattle.build(winner="Saurians", special_achieved=["Robots"]))
    assert rules(end, "special_objective_achieved")[0]["outcome"] == {"points": 75}
    assert match.ledger.in_force(match.info, GRIMDARK)[0].treasury == {"Saurians": 150, "Robots": 300 + 75}


def test_a_hero_levels_up_on_its_skill_set(match: Match) -> None:
    refused(
        match,
        lambda: match.ledger.execute(
            match.info,
            gd.Muster.build(
                name="X",
                side="Saurians",
                profile={"models": 1, "quality": 3, "hero": True, "points": 1, "skill_set": "Pirate"},
            ),
        ),
        "unknown skill set",
    )
    refused(
        match,
        lambda: match.ledger.execute(
            match.info,
            gd.Muster.build(
                name="Y", side="Saurians", profile={"models": 5, "quality": 3, "points": 1, "skill_set": "Captain"}
            ),
        ),
        "only a hero",
    )
    match.ledger.execute(
        match.info,
        gd.Muster.build(
            name="Captain Vex",
            side="Robots",
            profile={"models": 1, "quality": 3, "hero": True, "points": 80, "skill_set": "Captain"},
        ),
    )
    for number, dice in enumerate(((), ()), start=1):
        match.ledger.execute(
            match.info, gd.StartBattle.build(name=f"Ruins {number}", units=["Saurian Warriors", "Captain Vex"])
        )
        match.ledger.execute(
            match.info, gd.Remove.build(unit_name="Saurian Warriors", reason="withdrawn")
        )  # not a casualty: no roll
        end = match.ledger.execute(match.info, gd.EndBattle.build(winner="Robots"), table=TableEntry(dice))
    # Two battles × (+1 not a casualty) = 2 XP: no level yet. Three kills of heroes later it is.
    match.ledger.execute(match.info, gd.StartBattle.build(name="Spire", units=["Saurian Hero", "Captain Vex"]))
    match.ledger.execute(match.info, gd.Remove.build(unit_name="Saurian Hero", reason="destroyed", by="Captain Vex"))
    end = match.ledger.execute(
        match.info, gd.EndBattle.build(winner="Robots"), table=TableEntry((3, 4))
    )  # the hero's casualty roll 3; Vex's skill 4
    level = rules(end, "level_up")[0]
    assert level["inputs"]["skill_set"] == "Captain" and level["outcome"]["traits"] == ["Instigator"]  # 3–4
    vex = match.roster("Captain Vex")
    assert vex.xp == 2 + 1 + 2 and vex.traits == ("Instigator",) and vex.points == 80 + 25


def test_a_melee_of_one_wound_is_told_in_the_singular(match: Match) -> None:
    """ "Saurian Warriors 1 wounds" read as a slip: one wound is "1 wound", two are "2 wounds"."""
    start(match)
    result = match.ledger.execute(
        match.info,
        gd.Melee.build(a="Saurian Warriors", b="Robot Squad", wounds_by_a=1, wounds_by_b=2),
        table=TableEntry((5,)),
    )
    said = rules(result, "melee")[0]["explanation"]
    assert said.startswith("melee, Saurian Warriors 1 wound, Robot Squad 2: "), said
    result = match.ledger.execute(
        match.info,
        gd.Melee.build(a="Robot Squad", b="Saurian Warriors", wounds_by_a=2, wounds_by_b=1),
        table=TableEntry((5,)),
    )
    assert rules(result, "melee")[0]["explanation"].startswith("melee, Robot Squad 2 wounds, Saurian Warriors 1: ")
