"""Second-edition errata of seed 001 (RULES.md R2-6 … R2-8) and §1's thresholds, each on both sides of its edge.

Expected values are worked by hand from RULES.md's words; the comments show the arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from campaign.executor import TableEntry
from campaign.rulesets.disorder import battle_commands as dib
from campaign.rulesets.disorder import commands as dic
from campaign.rulesets.disorder import rules as dis
from campaign.rulesets.disorder.plugin import PLUGIN as DISORDER
from campaign.rulesets.disorder.tables import Tables
from campaign.rulesets.tables import Sourced
from campaign.tables import base_values
from events.errors import InvalidInputError
from events.store import AppendResult
from tests.conftest import Backend, make_ledger


class Force:
    """A British force of 300 points (its units given) against one French unit."""

    def __init__(self, units: dict[str, tuple[int, int, str]]) -> None:
        self.ledger = make_ledger(Backend("memory"))
        self.ledger.create_campaign("Peninsula", "disorder")
        for name, (models, points, troops) in units.items():
            self.ledger.execute(
                self.info,
                dic.Muster.build(
                    name=name, side="British", profile={"models": models, "points": points, "troops": troops}
                ),
            )
        self.ledger.execute(
            self.info,
            dic.Muster.build(name="Voltigeurs", side="French", profile={"models": 10, "points": 90, "troops": "light"}),
        )
        self.ledger.execute(self.info, dic.Appoint.build(side="British", officer="Sharpe"))
        self.ledger.execute(self.info, dic.Appoint.build(side="French", officer="Dubreton"))
        self.ledger.execute(self.info, dib.StartBattle.build(name="Sabugal", units=[*units, "Voltigeurs"]))

    @property
    def info(self) -> Any:
        return self.ledger.resolve(None)

    def log_length(self) -> int:
        return len(list(self.ledger.store.read(self.info.campaign_id)))

    def refused(self, action: Callable[[], Any], message: str) -> None:
        before = self.log_length()
        with pytest.raises(InvalidInputError, match=message):
            action()
        assert self.log_length() == before, "a refused command appended something"


def applied(result: AppendResult, rule: str) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in result.events if e.type == "rules.applied" and e.payload["rule"] == rule]


def removed(result: AppendResult) -> list[str]:
    return [str(e.payload["reason"]) for e in result.events if e.type == "battle.unit_removed"]


def dice(*faces: int) -> TableEntry:
    return TableEntry(faces)


# -- R2-6: a failed rally test makes the unit retreat ---------------------------------------------------------


@pytest.fixture
def rallying() -> Force:
    force = Force({"Line": (10, 100, "line"), "Reserve": (10, 200, "line")})
    force.ledger.execute(
        force.info, dib.Hit.build(unit_name="Line", lost=1), table=dice(1, 1)
    )  # 2 − 1 = 1 ≤ 2 with no marker: a marker
    return force


@pytest.mark.parametrize(("faces", "passed"), [((4, 3), True), ((3, 3), False)])
def test_r2_6_a_failed_rally_test_retreats_half_a_move(rallying: Force, faces: tuple[int, int], passed: bool) -> None:
    # §1.6: 2d6 + Discipline 0 − 1 marker ≥ 6: 7 − 1 = 6 passes; 6 − 1 = 5 fails → retreat ½ move (R2-6).
    rally = applied(
        rallying.ledger.execute(rallying.info, dib.Rally.build(unit_name="Line"), table=dice(*faces)), "rally"
    )[0]
    assert rally["outcome"]["passed"] is passed
    assert rally["outcome"]["retreats"] is (not passed)
    assert ("retreats ½ move directly away from the nearest enemy" in rally["explanation"]) is (not passed)


def test_r2_6_house_rule_a_failed_rally_changes_nothing(rallying: Force) -> None:
    rallying.ledger.execute(rallying.info, dic.HouseRule.build(path="rally.failed_retreats", value=False))
    rally = applied(
        rallying.ledger.execute(rallying.info, dib.Rally.build(unit_name="Line"), table=dice(3, 3)), "rally"
    )[0]
    assert rally["outcome"]["retreats"] is False and "no change" in rally["explanation"]


# -- R2-7: one check per unit per event; a cause must have happened; two causes once per game ----------------


@pytest.fixture
def example() -> Force:
    # RULES.md R2-7's example: a force of 300 points that has lost 120.
    force = Force(
        {
            "Lost": (10, 120, "line"),
            "Grenadiers": (9, 90, "line"),
            "Rifles": (6, 70, "rifles"),
            "Guard": (2, 20, "guard"),
        }
    )
    result = force.ledger.execute(force.info, dib.Remove.build(unit_name="Lost", reason="destroyed in melee"))
    assert not applied(result, "force_half")  # 120 of 300: not yet half
    return force


@pytest.mark.parametrize(("faces", "result"), [((5, 5), "pass"), ((4, 5), "retreat")])
def test_r2_7_the_hit_that_brings_the_force_to_half_is_one_check_at_minus_one(
    example: Force, faces: tuple[int, int], result: str
) -> None:
    # 3 of 9 models of the 90-point unit: 30 more, 150 lost, exactly ½. One check:
    # 2d6 − 3 (models lost) − 0 markers + 0 (line) − 1 (force at half, its second cause): 10 − 4 = 6 passes,
    # 9 − 4 = 5 retreats.
    hit = example.ledger.execute(example.info, dib.Hit.build(unit_name="Grenadiers", lost=3), table=dice(*faces))
    checks = applied(hit, "morale_check")
    assert len(checks) == 1
    assert checks[0]["inputs"]["causes"] == ["casualties", "force_half"]
    assert checks[0]["outcome"] == {"total": sum(faces) - 4, "result": result}
    half = applied(hit, "force_half")[0]
    assert half["inputs"]["lost_points"] == 150
    assert half["outcome"]["units_to_check"] == ["Rifles", "Guard"]


def test_r2_7_force_at_half_and_officer_removed_only_once_happened_and_once_per_unit(example: Force) -> None:
    example.refused(
        lambda: example.ledger.execute(example.info, dib.CheckMorale.build(unit_name="Rifles", causes=["force_half"])),
        "has not lost half",
    )
    example.refused(
        lambda: example.ledger.execute(
            example.info, dib.CheckMorale.build(unit_name="Rifles", causes=["officer_removed"])
        ),
        "officer is in play",
    )
    example.ledger.execute(
        example.info, dib.Hit.build(unit_name="Grenadiers", lost=3), table=dice(5, 5)
    )  # brings the force to half (above)
    example.refused(
        lambda: example.ledger.execute(
            example.info, dib.CheckMorale.build(unit_name="Grenadiers", causes=["force_half"])
        ),
        "already checked for force_half",
    )
    check = applied(
        example.ledger.execute(
            example.info, dib.CheckMorale.build(unit_name="Rifles", causes=["force_half"]), table=dice(3, 3)
        ),
        "morale_check",
    )[0]
    assert check["outcome"]["total"] == 3 + 3 + 1  # Rifles +1, one cause: no −1
    example.refused(
        lambda: example.ledger.execute(example.info, dib.CheckMorale.build(unit_name="Rifles", causes=["force_half"])),
        "already checked for force_half",
    )
    example.refused(
        lambda: example.ledger.execute(
            example.info, dib.CheckMorale.build(unit_name="Voltigeurs", causes=["force_half"])
        ),
        "has not lost half",
    )
    example.ledger.execute(example.info, dib.OfficerDown.build(side="British"))
    both = applied(
        example.ledger.execute(
            example.info,
            dib.CheckMorale.build(unit_name="Guard", causes=["officer_removed", "force_half"]),
            table=dice(3, 3),
        ),
        "morale_check",
    )
    assert both[0]["outcome"]["total"] == 3 + 3 + 2 - 1  # Guard +2, a second cause −1
    example.refused(
        lambda: example.ledger.execute(
            example.info, dib.CheckMorale.build(unit_name="Guard", causes=["officer_removed"])
        ),
        "already checked for officer_removed",
    )
    # A friend removed within 12" may come again: it is not a once-per-game cause (R3-9: once for each removal).
    example.ledger.execute(
        example.info, dib.CheckMorale.build(unit_name="Guard", causes=["friend_removed"]), table=dice(6, 6)
    )  # Lost's
    example.ledger.execute(
        example.info, dib.Remove.build(unit_name="Rifles", reason="destroyed in melee")
    )  # 120 + 30 + 70 = 220 of 300: not beyond 75%
    example.ledger.execute(
        example.info, dib.CheckMorale.build(unit_name="Guard", causes=["friend_removed"]), table=dice(6, 6)
    )  # Rifles'
    example.refused(
        lambda: example.ledger.execute(
            example.info, dib.CheckMorale.build(unit_name="Guard", causes=["friend_removed"])
        ),
        "already checked",
    )


def test_r2_7_beyond_the_flight_threshold_nobody_checks(example: Force) -> None:
    # 120 + Rifles (70) = 190 lost; then 4 Grenadiers: 190 + 40 = 230 of 300 > 75%: everyone left flees at once.
    example.ledger.execute(example.info, dib.Remove.build(unit_name="Rifles", reason="destroyed"))
    hit = example.ledger.execute(
        example.info, dib.Hit.build(unit_name="Grenadiers", lost=4)
    )  # no dice: the hit unit's check is not rolled
    assert not applied(hit, "morale_check")
    assert applied(hit, "force_flees")[0]["inputs"]["lost_points"] == 230
    assert removed(hit) == ["fled: the force broke", "fled: the force broke"]


# -- R2-8: points lost, and the exact thresholds --------------------------------------------------------------


def test_r2_8_a_unit_on_the_table_counts_its_share_of_points_rounded_down() -> None:
    tables = Tables.of(base_values("disorder"))
    # RULES.md R2-8: a 70-point unit of 6 models that has lost 4 counts floor(70 × 4 ÷ 6) = 46.
    unit = dis.Unit("r", "Rifles", "British", start_models=6, models=2, points=70, discipline=1)
    assert dis.points_lost(tables, unit, removed=False) == 46
    assert dis.points_lost(tables, unit, removed=True) == 70
    only_removed = Tables.of({**tables.values, "force.points_lost": Sourced("removed_units_only", "HOUSE RULE")})
    assert dis.points_lost(only_removed, unit, removed=False) == 0


@pytest.mark.parametrize(("reserve", "half"), [(103, False), (104, True)])
def test_r2_8_force_at_half_at_exactly_fifty_percent(reserve: int, half: bool) -> None:
    # 300 points: Reserve + Rifles (70/6) + Line (the rest). Reserve removed, then 4 Rifles lost (46):
    # 103 + 46 = 149 of 300 → nothing; 104 + 46 = 150 → 2 × 150 ≥ 300: force at half.
    force = Force({"Reserve": (5, reserve, "line"), "Rifles": (6, 70, "rifles"), "Line": (10, 230 - reserve, "line")})
    force.ledger.execute(force.info, dib.Remove.build(unit_name="Reserve", reason="destroyed"))
    # Rifles: 2 of 6 left ≤ ½ → permanent marker first; check 12 − 4 − 1 + 1 (rifles) [− 1 force at half].
    hit = force.ledger.execute(force.info, dib.Hit.build(unit_name="Rifles", lost=4), table=dice(6, 6))
    assert bool(applied(hit, "force_half")) is half
    assert applied(hit, "morale_check")[0]["outcome"]["total"] == (7 if half else 8)


@pytest.mark.parametrize(
    ("reserve", "flees_at_exactly", "flees"),
    [(225, False, False), (226, False, True), (224, True, False), (225, True, True)],
)
def test_r2_8_flight_beyond_seventy_five_percent(reserve: int, flees_at_exactly: bool, flees: bool) -> None:
    # 300 points: removing a unit of 225 is exactly 75 %: no flight by default (4 × 225 = 900, not > 900);
    # 226 flees. With the ch.6 reading (≥): 224 stays, 225 flees.
    force = Force({"Reserve": (5, reserve, "line"), "Line": (10, 300 - reserve, "line")})
    if flees_at_exactly:
        force.ledger.execute(force.info, dic.HouseRule.build(path="force.flees_at_exactly", value=True))
    result = force.ledger.execute(force.info, dib.Remove.build(unit_name="Reserve", reason="destroyed"))
    assert bool(applied(result, "force_flees")) is flees
    assert bool(applied(result, "force_half")) is not flees


# -- R2-9: clearing the markers after the battle is a reading [INF], kept as a house rule ----------------------


@pytest.mark.parametrize(("cleared", "permanent"), [(True, 0), (False, 1)])
def test_r2_9_markers_cleared_after_the_battle(cleared: bool, permanent: int) -> None:
    force = Force({"Line": (10, 100, "line"), "Reserve": (10, 200, "line")})
    assert tables_source("markers.cleared_after_battle").startswith("INF")
    if not cleared:
        force.ledger.execute(force.info, dic.HouseRule.build(path="markers.cleared_after_battle", value=False))
    # 5 of 10 models lost: ≤ ½, the permanent marker; check 12 − 5 − 1 = 6 passes.
    force.ledger.execute(force.info, dib.Hit.build(unit_name="Line", lost=5), table=dice(6, 6))
    force.ledger.execute(force.info, dib.EndBattle.build(winner=None))
    force.ledger.execute(force.info, dib.StartBattle.build(name="Fuentes", units=["Line", "Voltigeurs"]))
    state, _ = force.ledger.in_force(force.info, DISORDER)
    line = state.unit_by_name("Line")
    assert line is not None and state.battles[state.active_battle or ""].units[line.unit_id].permanent == permanent


def tables_source(path: str) -> str:
    return base_values("disorder")[path].source
