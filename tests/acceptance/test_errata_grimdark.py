"""Second-edition errata of seed 004 (RULES.md R2-32 … R2-35), with their thresholds on both sides of the edge.

Expected values are worked by hand from RULES.md's words; the comments show the arithmetic.
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign.executor import TableEntry
from campaign.rulesets.grimdark import commands as gd
from campaign.rulesets.grimdark.plugin import PLUGIN as GRIMDARK
from campaign.tables import base_values
from events.recorded import seq
from events.store import AppendResult
from tests.conftest import Backend, make_ledger

UNITS = {
    # R2-32's example: 7 soldiers (one wound each) and a hero with Tough(3).
    "Squad": ("Saurians", {"models": 7, "quality": 4, "points": 100}),
    "Captain": ("Saurians", {"models": 1, "quality": 4, "tough": 3, "hero": True, "points": 60}),
    "Fearless Warriors": ("Saurians", {"models": 5, "quality": 5, "fearless": True, "points": 100}),
    "Plain Captain": ("Saurians", {"models": 1, "quality": 5, "tough": 3, "hero": True, "points": 50}),
    "Warriors": ("Saurians", {"models": 5, "quality": 5, "points": 80}),
    "Fearless Captain": (
        "Saurians",
        {"models": 1, "quality": 5, "tough": 3, "hero": True, "fearless": True, "points": 50},
    ),
    "Robots": ("Robots", {"models": 10, "quality": 4, "points": 150}),
}


class Match:
    def __init__(self, joins: dict[str, str]) -> None:
        self.ledger = make_ledger(Backend("memory"))
        self.ledger.create_campaign("Sector 7", "grimdark")
        for name, (side, profile) in UNITS.items():
            self.ledger.execute(self.info, gd.Muster.build(name=name, side=side, profile=profile))
        self.ledger.execute(self.info, gd.StartBattle.build(name="Ruins", units=list(UNITS), joins=joins))

    @property
    def info(self) -> Any:
        return self.ledger.resolve(None)

    def unit(self, name: str) -> Any:
        state, _ = self.ledger.in_force(self.info, GRIMDARK)
        battle = state.battles[state.active_battle or ""]
        return state.in_battle(battle, state.unit_by_name(name).unit_id)  # type: ignore[union-attr]

    def removed(self, name: str) -> str | None:
        state, _ = self.ledger.in_force(self.info, GRIMDARK)
        battle = state.battles[state.active_battle or ""]
        return battle.units[state.unit_by_name(name).unit_id].removed  # type: ignore[union-attr]

    def shoot(self, name: str, wounds: int, *faces: int) -> AppendResult:
        return self.ledger.execute(self.info, gd.Shoot.build(unit_name=name, wounds=wounds), table=TableEntry(faces))


def morale_tests(result: AppendResult) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in result.events if e.type == "rules.applied" and e.payload["rule"] == "morale_test"]


def rolls(result: AppendResult) -> int:
    return sum(1 for e in result.events if e.type == "dice.rolled")


@pytest.fixture
def joined() -> Match:
    return Match({"Captain": "Squad", "Plain Captain": "Fearless Warriors", "Fearless Captain": "Warriors"})


# -- R2-32: a joined hero is a model of its unit ----------------------------------------------------------------


def test_r2_32_the_hero_counts_in_the_current_size(joined: Match) -> None:
    assert joined.unit("Squad").start_size == 8  # 7 + the hero
    # 3 soldiers die: 4 soldiers + the hero = 5 of 8: 2 × 5 = 10 > 8, no test.
    assert not morale_tests(joined.shoot("Squad", 3))
    assert joined.unit("Squad").size == 5
    # A 4th dies: 4 of 8, 2 × 4 ≤ 8: a test at the end of that activation (a 4 on Quality 4+ holds).
    held = morale_tests(joined.shoot("Squad", 1, 4))
    assert held[0]["outcome"]["result"] == "passed"


def test_r2_32_a_volley_kills_the_soldiers_then_wounds_the_hero_who_fights_on_alone(joined: Match) -> None:
    # 9 wounds on the full unit: the 7 soldiers, then 2 on the hero (Tough 3): the lone hero, 1 of 8.
    volley = joined.shoot("Squad", 9, 2)  # its test: 2 on 4+ fails → Shaken (shooting never Routs)
    assert morale_tests(volley)[0]["outcome"]["result"] == "shaken"
    assert joined.removed("Squad") is None and joined.removed("Captain") is None
    squad = joined.unit("Squad")
    assert (squad.models, squad.size, squad.hero_carried, squad.half) == (0, 1, 2, True)
    # One more wound uses up its Tough: destroyed, the hero with it.
    last = joined.shoot("Squad", 1)
    assert not morale_tests(last)
    assert joined.removed("Squad") == "destroyed" and joined.removed("Captain") == "destroyed"


@pytest.mark.parametrize(("face", "result"), [(4, "passed"), (3, "routed")])
def test_r2_32_the_lone_hero_loses_a_melee_and_routs_on_a_failed_test(joined: Match, face: int, result: str) -> None:
    joined.ledger.execute(
        joined.info, gd.HouseRule.build(path="morale.shaken_auto_fails", value=False)
    )  # so the melee test is rolled
    joined.shoot("Squad", 7, 6)  # the soldiers die; the hero is untouched, 1 of 8: a 6 holds
    melee = joined.ledger.execute(
        joined.info, gd.Melee.build(a="Squad", b="Robots", wounds_by_a=0, wounds_by_b=1), table=TableEntry((face,))
    )
    # Wounds 0–1: the Squad lost; the hero (Tough 3) takes 1 and lives; 1 of 8 is half: a failure Routs.
    assert morale_tests(melee)[0]["outcome"]["result"] == result
    assert (joined.removed("Squad") == "routed") is (result == "routed")


def test_r2_32_house_rule_the_hero_falls_with_the_last_soldier(joined: Match) -> None:
    joined.ledger.execute(joined.info, gd.HouseRule.build(path="morale.hero_takes_wounds_last", value=False))
    joined.shoot("Squad", 7)
    assert joined.removed("Squad") == "destroyed" and joined.removed("Captain") == "destroyed"


# -- R2-33: Fearless needs every model, the hero included -------------------------------------------------------


def test_r2_33_fearless_warriors_with_a_captain_who_lacks_it_get_no_fearless_die(joined: Match) -> None:
    # 5 Fearless warriors + a plain captain: start 6. 3 die: 2 + the captain = 3 of 6: a test; 2 on 5+ fails.
    result = joined.shoot("Fearless Warriors", 3, 2)
    assert morale_tests(result)[0]["outcome"]["result"] == "shaken"
    assert rolls(result) == 1  # no Fearless die


def test_r2_33_a_fearless_hero_left_alone_gets_the_fearless_die(joined: Match) -> None:
    # Plain warriors + a Fearless captain: no Fearless die while a plain soldier lives.
    first = joined.shoot("Warriors", 3, 2)  # 3 of 6: a test, 2 fails
    assert rolls(first) == 1 and morale_tests(first)[0]["outcome"]["result"] == "shaken"
    joined.ledger.execute(joined.info, gd.Recover.build(unit_name="Warriors"))
    # The last 2 soldiers die: the Fearless captain alone, 1 of 6; a 2 fails, the Fearless die 4 passes.
    alone = joined.shoot("Warriors", 2, 2, 4)
    assert rolls(alone) == 2 and morale_tests(alone)[0]["outcome"]["result"] == "passed"


def test_r2_33_house_rule_reads_the_host_units_flag(joined: Match) -> None:
    joined.ledger.execute(joined.info, gd.HouseRule.build(path="morale.fearless_needs_every_model", value=False))
    result = joined.shoot("Fearless Warriors", 3, 2, 4)  # the host is Fearless: its die, 4 ≥ 4 passes
    assert morale_tests(result)[0]["outcome"]["result"] == "passed"


# -- R2-34, R2-35: values the article states; project defaults now decided --------------------------------------


def test_r2_34_four_values_the_article_states_are_tagged_seed() -> None:
    values = base_values("grimdark")
    for path in ("test.natural_six_passes", "test.natural_one_fails", "morale.shaken_auto_fails"):
        assert values[path].value is True and values[path].source.startswith("SEED")
        assert values[path].erratum == "R2-34"
    assert values["morale.joined_hero_adds"].value == 1 and values["morale.joined_hero_adds"].source.startswith("SEED")


def test_r2_35_a_shaken_units_automatic_failure_is_not_turned_by_fearless() -> None:
    match = Match({})
    match.shoot("Fearless Warriors", 3, 2, 3)  # 2 of 5: a test; 2 fails, the Fearless die 3 < 4: Shaken
    again = match.shoot("Fearless Warriors", 1)  # Shaken: fails without a roll, and no Fearless die (D-4)
    assert morale_tests(again)[0]["outcome"]["result"] == "shaken" and rolls(again) == 0


def test_r2_35_project_defaults_carry_their_tags() -> None:
    values = base_values("grimdark")
    assert [values[p].value for p in ("rewards.draw_vp", "rewards.draw_points", "army.sell_refund_pct")] == [
        0,
        300,
        100,
    ]
    for path in ("rewards.draw_vp", "rewards.draw_points", "army.sell_refund_pct", "morale.fearless_after_auto_fail"):
        assert values[path].source.startswith("INF") and values[path].erratum == "R2-35"
    names = values["traits.unit.names"]
    assert seq(names.value)[5] == "Veteran" and "PUB" in names.source and "PLACEHOLDER (face 6" in names.source


def test_r2_32_a_battle_recorded_before_it_keeps_the_first_editions_reading() -> None:
    from campaign.commands import recorded_command

    args = {"name": "Ruins", "units": ["Squad", "Captain"], "joins": {"Captain": "Squad"}, "special": False}
    assert recorded_command("gf.battle_start", 1, args).hero_is_model is False  # type: ignore[attr-defined]
    assert recorded_command("gf.battle_start", 2, args).hero_is_model is True  # type: ignore[attr-defined]
