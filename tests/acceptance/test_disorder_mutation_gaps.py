"""Thresholds of RULES.md §1.4–§1.6 that the mutation run (scripts/mutation.py) found untested: the rally's
close-order bonus (+1, §1.6) on both sides of 6, a loss of no model at all (§1.4: casualties are models lost), a
retreat that captures the last model (§1.5), a force of no points (§1.3, R2-8), a passed rally removing every
marker (§1.6) and the least number of markers a house rule may make a unit flee at."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from campaign.executor import TableEntry
from campaign.rulesets.disorder import battle_commands as dib
from campaign.rulesets.disorder import commands as dic
from campaign.rulesets.disorder import rules as dis
from campaign.rulesets.disorder.tables import Tables
from campaign.rulesets.tables import Sourced, check_override
from campaign.tables import base_values
from events.dice import TableDice
from events.errors import InvalidInputError
from events.families.battle import UnitRemoved
from events.families.career import GloryAwarded
from events.recorded import text
from tests.conftest import Backend, make_ledger

T = Tables.of(base_values("disorder"))


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


def test_a_retreat_that_captures_every_model_removes_the_unit_once() -> None:
    # §1.5: 6" needed, 0" moved: 6 full inches short, 1 model captured per inch; the unit has 2, so both are
    # captured and it is gone. It cannot also flee off the table: it is removed once, captured to the last man.
    two = dis.Unit("u1", "Line company", "British", start_models=10, models=2, points=60, discipline=0, markers=1)
    decision = dis.retreat(T, two, "b", needed=Decimal(6), moved=Decimal(0), off_table=True)
    removed = [f for f in decision.facts if isinstance(f, UnitRemoved)]
    assert [f.reason for f in removed] == ["destroyed"]


def test_a_retreat_off_the_table_with_models_left_is_a_flight() -> None:
    # 6" needed, 1" moved: 5 short, 5 of 10 captured, 5 remain, and one left the table: the whole unit has fled.
    ten = dis.Unit("u1", "Line company", "British", start_models=10, models=10, points=60, discipline=0, markers=1)
    decision = dis.retreat(T, ten, "b", needed=Decimal(6), moved=Decimal(1), off_table=True)
    removed = [f for f in decision.facts if isinstance(f, UnitRemoved)]
    assert [f.reason for f in removed] == ["fled: left the table"]


def test_a_force_of_no_points_never_reaches_half() -> None:
    # §1.3, R2-8: force at half is 2 × lost ≥ start; a force that started with no points has no share to lose,
    # so a casualty among its 0-point units asks for the casualty check alone, and nothing breaks.
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Drill", "disorder")
    ledger.execute(
        ledger.resolve(None),
        dic.Muster.build(name="Recruits", side="British", profile={"models": 10, "troops": "line", "points": 0}),
    )
    ledger.execute(
        ledger.resolve(None),
        dic.Muster.build(name="Conscripts", side="French", profile={"models": 10, "troops": "line", "points": 0}),
    )
    ledger.execute(ledger.resolve(None), dic.Appoint.build(side="British", officer="Sharpe"))
    ledger.execute(ledger.resolve(None), dic.Appoint.build(side="French", officer="Dubreton"))
    ledger.execute(ledger.resolve(None), dib.StartBattle.build(name="Drill field", units=["Recruits", "Conscripts"]))
    result = ledger.execute(ledger.resolve(None), dib.Hit.build(unit_name="Recruits", lost=1), table=TableEntry((6, 6)))
    rules = [text(e.payload["rule"]) for e in result.events if e.type == "rules.applied"]
    assert not any(r.startswith("force") for r in rules)
    assert any(e.type == "battle.models_lost" for e in result.events)


def test_markers_flees_at_is_at_least_one() -> None:
    # The house rule on the number of markers that makes a unit flee: 1 is the least that makes sense; 0 is refused.
    check_override(T, "markers.flees_at", 1)
    with pytest.raises(InvalidInputError, match=r"markers\.flees_at is at least 1, not 0"):
        check_override(T, "markers.flees_at", 0)


@pytest.mark.parametrize(("removes", "left"), [("all", 0), ("one", 1)])
def test_a_passed_rally_removes_all_the_markers(removes: str, left: int) -> None:
    # §1.6: ≥ 6 removes ALL non-permanent markers (B-6; the house rule 'one' removes one). Two markers, line (0):
    # 4 + 4 + 0 − 2 = 6 rallies.
    tables = Tables.of({**base_values("disorder"), "rally.removes": Sourced(removes, "HOUSE RULE (test)")})
    decision = dis.rally(tables, line(2), TableDice((4, 4), "rally", 0), "b")
    assert decision.outcome["markers"] == left


@pytest.mark.parametrize(
    ("before", "sources", "total", "rank", "reached"),
    [
        # §1.8: won +3, 2 objectives +2, 1 enemy unit removed +1, 1 own unit fled −1, officer removed −2.
        (6, {"objectives": 2, "enemy_removed": 1, "own_fled": 1, "officer_removed": True}, 9, "Lieutenant", False),
        (7, {"objectives": 2, "enemy_removed": 1, "own_fled": 1, "officer_removed": True}, 10, "Captain", True),
        (22, {"objectives": 0, "enemy_removed": 0, "own_fled": 0, "officer_removed": False}, 25, "Major", True),
        (21, {"objectives": 0, "enemy_removed": 0, "own_fled": 0, "officer_removed": False}, 24, "Captain", False),
    ],
)
def test_glory_sources_and_the_rank_at_each_threshold(
    before: int, sources: dict[str, object], total: int, rank: str, reached: bool
) -> None:
    # Career ranks at 0 / 10 / 25 / 45 cumulative Glory; a rank reached is said so ("now Captain").
    decision = dis.glory(T, "b", "British", "Sharpe", result="won", glory_before=before, **sources)  # type: ignore[arg-type]
    assert (decision.outcome["total"], decision.outcome["rank"]) == (total, rank)
    assert decision.explanation.endswith(f", now {rank}" if reached else f"({rank})")


@pytest.mark.parametrize(("text", "inches"), [("100", "100"), ("3", "3"), ("1.5", "1.5"), ("0", "0")])
def test_a_distance_is_taken_exactly_up_to_100_inches(text: str, inches: str) -> None:
    assert dis.distance(T, text, "moved") == Decimal(inches)


@pytest.mark.parametrize("text", ["100.1", "1.25", "-1", "two"])
def test_a_distance_beyond_100_inches_or_finer_than_a_tenth_is_refused(text: str) -> None:
    with pytest.raises(InvalidInputError, match="moved"):
        dis.distance(T, text, "moved")


def test_half_a_move_takes_one_decimal_place_more_and_no_more() -> None:
    assert dis.distance(T, "2.75", "the retreat", halved=True) == Decimal("2.75")  # R3-8: ½ of 5.5", unrounded
    with pytest.raises(InvalidInputError, match="the retreat"):
        dis.distance(T, "2.755", "the retreat", halved=True)


@pytest.mark.parametrize(
    ("result", "objectives", "recorded"),
    [("won", 0, {"won": 3}), ("lost", 0, {"lost": 0}), ("drawn", 2, {"drawn": 1, "objectives": 2})],
)
def test_the_glory_recorded_names_the_result_and_only_the_sources_that_gave_some(
    result: str, objectives: int, recorded: dict[str, int]
) -> None:
    # §1.8: the scenario's result always counts (a loss gives 0); the other sources only when they give Glory.
    decision = dis.glory(
        T,
        "b",
        "British",
        "Sharpe",
        result=result,
        objectives=objectives,
        enemy_removed=0,
        own_fled=0,
        officer_removed=False,
        glory_before=0,
    )
    awarded = [f for f in decision.facts if isinstance(f, GloryAwarded)]
    assert [dict(f.sources) for f in awarded] == [recorded]


@pytest.mark.parametrize(
    ("troops", "discipline"), [("militia", -1), ("line", 0), ("light", 1), ("rifles", 1), ("guard", 2)]
)
def test_discipline_by_troop_type(troops: str, discipline: int) -> None:
    # §1.7 [INF/PLACEHOLDER]: militia −1, line 0, light +1, rifles +1, guard +2.
    assert T.discipline_of(troops) == discipline


@pytest.mark.parametrize("path", ["force.half_at", "force.flees_over"])
def test_a_force_threshold_is_a_percentage_from_0_to_100(path: str) -> None:
    check_override(T, path, 0)
    check_override(T, path, 100)
    for bad in (-1, 101):
        said = re.escape(f"{path} is a percentage of the force's points (0–100), not {bad}")
        with pytest.raises(InvalidInputError, match=said):
            check_override(T, path, bad)


@pytest.mark.parametrize(("markers", "permanent", "flees"), [(1, 0, False), (2, 0, True), (1, 1, True), (0, 1, False)])
def test_a_third_marker_from_any_source_flees_the_unit(markers: int, permanent: int, flees: bool) -> None:
    # §1.2: "3 → flees, removed at once: a 3rd marker from any source" (here a lost melee), the permanent marker
    # counted. 1 + 1 = 2 (broken) stays; 2 + 1 = 3 flees; 1 + 1 permanent + 1 = 3 flees; 1 permanent + 1 = 2 stays.
    unit = dis.Unit("u1", "Line company", "British", 10, 10, 60, 0, markers=markers, permanent=permanent)
    decision = dis.add_marker(T, unit, "b", "lost a melee")
    fled = [f for f in decision.facts if type(f).__name__ == "UnitRemoved"]
    assert decision.outcome["flees"] is flees
    assert bool(fled) is flees


@pytest.mark.parametrize(("flees_at", "result"), [(2, "flees"), (3, "disordered")])
def test_a_failed_check_whose_new_marker_reaches_the_flight_count_flees(flees_at: int, result: str) -> None:
    # §1.4 with two house rules: B-4's alternative (only an ordinary marker turns a disaster into flight:
    # check.any_marker_flees false) and a flight at markers.flees_at. A unit at half with its permanent marker and
    # no other fails badly: 2d6 = 2 − 1 model lost − 1 marker = 0 ≤ 2, so it takes a marker: its 2nd. With flight
    # at 2 that marker flees it; at 3 (the seed's) it is only disordered.
    tables = Tables.of(
        {
            **base_values("disorder"),
            "check.any_marker_flees": Sourced(False, "HOUSE RULE (test)"),
            "markers.flees_at": Sourced(flees_at, "HOUSE RULE (test)"),
        }
    )
    unit = dis.Unit("u1", "Line company", "British", 10, 5, 60, 0, permanent=1)
    decision = dis.morale_check(tables, unit, TableDice((1, 1), "check", 0), "b", causes=["casualties"], lost=1)
    assert decision.outcome["result"] == result


def _flees_at(n: int) -> Tables:
    return Tables.of({**base_values("disorder"), "markers.flees_at": Sourced(n, "HOUSE RULE (test)")})


@pytest.mark.parametrize(("flees_at", "markers", "words"), [(3, 2, "third"), (4, 3, "fourth"), (2, 1, "second")])
def test_the_flight_names_the_marker_the_house_rule_counts(flees_at: int, markers: int, words: str) -> None:
    # §1.2: "a 3rd marker from any source" flees the unit; with markers.flees_at at 4 it is the fourth marker that
    # does, at 2 the second, and the record says which (never "third" when the count is not three).
    decision = dis.add_marker(_flees_at(flees_at), line(markers), "b", "lost a melee")
    fled = [f for f in decision.facts if type(f).__name__ == "UnitRemoved"]
    assert decision.outcome["flees"] is True
    assert [getattr(f, "reason", None) for f in fled] == [f"fled: a {words} marker"]


def test_a_failed_check_says_which_marker_made_the_unit_flee() -> None:
    # §1.4 with check.any_marker_flees false and markers.flees_at 2: a unit at half with only its permanent marker
    # fails badly (2 − 1 model − 1 marker = 0 ≤ 2) and takes a marker, its second: it flees.
    tables = Tables.of(
        {
            **base_values("disorder"),
            "check.any_marker_flees": Sourced(False, "HOUSE RULE (test)"),
            "markers.flees_at": Sourced(2, "HOUSE RULE (test)"),
        }
    )
    unit = dis.Unit("u1", "Line company", "British", 10, 5, 60, 0, permanent=1)
    decision = dis.morale_check(tables, unit, TableDice((1, 1), "check", 0), "b", causes=["casualties"], lost=1)
    assert "the new marker is its second, it flees" in decision.explanation
    assert [getattr(f, "reason", None) for f in decision.facts if type(f).__name__ == "UnitRemoved"] == [
        "fled: a second marker"
    ]


@pytest.mark.parametrize(("flees_at", "words"), [(3, "third"), (2, "second")])
def test_the_permanent_marker_that_flees_a_unit_is_named_by_its_place(flees_at: int, words: str) -> None:
    # §1.2: "If it is the 3rd marker the unit flees at once"; with markers.flees_at at 2, a unit with one marker that
    # falls to half gets its permanent marker, its second, and flees.
    unit = dis.Unit("u1", "Line company", "British", 10, 5, 60, 0, markers=flees_at - 1)
    decision = dis.permanent_marker(_flees_at(flees_at), unit, "b")
    assert decision is not None
    assert [getattr(f, "reason", None) for f in decision.facts if type(f).__name__ == "UnitRemoved"] == [
        f"fled: a {words} marker"
    ]


@pytest.mark.parametrize(("n", "words"), [(1, "first"), (3, "third"), (10, "tenth"), (11, "11th"), (12, "12th"),
                                          (21, "21st"), (22, "22nd"), (23, "23rd"), (111, "111th")])  # fmt: skip
def test_a_markers_place_in_words_from_the_first(n: int, words: str) -> None:
    # A house rule may make the first marker the one that flees (markers.flees_at 1): "a first marker".
    assert dis.ordinal(n) == words


def test_a_force_of_no_points_has_no_status_even_asked_directly() -> None:
    # 2 × 0 ≥ 0 would read as "at half": a force with no points is never at half nor fleeing.
    assert dis.force_status(T, 0, 0) is None
