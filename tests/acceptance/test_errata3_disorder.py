"""Third-edition errata of seed 001 (RULES.md R3-8 … R3-13), each from its words, on both sides of its edge.

Expected values are worked by hand from RULES.md §1 and its errata; the comments show the arithmetic. A morale
check is 2d6 − models lost − markers + Discipline (line 0) + bonuses − (causes − 1): ≥ 6 passes, ≤ 2 is a
disaster, between them a retreat (§1.4); a force is at half at 2 × lost ≥ start and flees at 4 × lost > 3 × start
(R2-8).
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign.rulesets.disorder import battle_commands as disb
from campaign.rulesets.disorder import commands as disc
from campaign.rulesets.disorder.plugin import PLUGIN
from tests.acceptance.third_edition import Table, applied, facts


class Dis(Table):
    def __init__(self) -> None:
        super().__init__("disorder", PLUGIN)

    def muster(self, name: str, side: str, models: int, points: int, contingent: str | None = None) -> None:
        profile: dict[str, Any] = {"models": models, "points": points, "troops": "line"}
        if contingent is not None:
            profile["contingent"] = contingent
        self.run(disc.Muster, name=name, side=side, profile=profile)

    def officers(self, **officers: str) -> None:
        for side, officer in officers.items():
            self.run(disc.Appoint, side=side, officer=officer)

    def start(self, *units: str, name: str = "Fuentes", encounter: bool = False) -> None:
        self.run(disb.StartBattle, name=name, units=units, **({"encounter": True} if encounter else {}))

    def check(self, unit: str, *faces: int, causes: tuple[str, ...] = ("friend_removed",), **more: Any) -> Any:
        return self.rules(disb.CheckMorale, *faces, unit_name=unit, causes=causes, **more)

    def remove(self, unit: str, reason: str = "destroyed in melee") -> list[dict[str, Any]]:
        return self.rules(disb.Remove, unit_name=unit, reason=reason)

    def turn(self) -> None:
        self.run(disb.NextTurn)


@pytest.fixture
def fuentes() -> Dis:
    table = Dis()
    for name in ("A1", "A2", "A3"):
        table.muster(name, "British", 10, 100)
    for name in ("F1", "F2"):
        table.muster(name, "French", 10, 100)
    table.officers(British="Sharpe", French="Dubreton")
    table.start("A1", "A2", "A3", "F1", "F2")
    return table


# -- R3-9: "a friendly unit within 12" was removed" only when one was -----------------------------------------


def test_r3_9_no_friend_removed_check_when_none_was(fuentes: Dis) -> None:
    # RULES.md R3-9's example: a fresh battle: `dis check A --cause friend_removed` → refused.
    fuentes.refused(disb.CheckMorale, "no friendly unit has left play this turn", 4, 4, unit_name="A1",
                    causes=["friend_removed"])  # fmt: skip
    fuentes.refused(disb.Hit, "no friendly unit has left play this turn", 4, 4, unit_name="A1", lost=1,
                    also=["friend_removed"])  # fmt: skip


def test_r3_9_one_check_per_removal_and_only_in_its_turn(fuentes: Dis) -> None:
    # A2 is destroyed: A1's check → accepted once (2d6 8 = 8 ≥ 6, passes); again → refused; next turn → refused.
    fuentes.remove("A2")
    [check] = fuentes.check("A1", 4, 4)
    assert check["inputs"]["friend_removed"] == fuentes.unit_id("A2")
    assert check["outcome"] == {"total": 8, "result": "pass"}
    fuentes.refused(disb.CheckMorale, "already checked for that removal", 4, 4, unit_name="A1",
                    causes=["friend_removed"])  # fmt: skip
    fuentes.check("A3", 4, 4)  # another friend checks for it too
    fuentes.turn()
    fuentes.refused(disb.CheckMorale, "no friendly unit has left play this turn", 4, 4, unit_name="A3",
                    causes=["friend_removed"])  # fmt: skip


def test_r3_9_an_enemy_removed_is_no_friend(fuentes: Dis) -> None:
    fuentes.remove("F1")  # French 100 of 200 lost: at half, F2 must check (R2-8)
    fuentes.refused(disb.CheckMorale, "no friendly unit has left play this turn", 4, 4, unit_name="A1",
                    causes=["friend_removed"])  # fmt: skip
    # F2 may cite it: force at half and a friend removed in one check, −1 for the second cause: 8 − 1 = 7.
    [check] = fuentes.check("F2", 4, 4, causes=("force_half", "friend_removed"))
    assert check["outcome"] == {"total": 7, "result": "pass"}


def test_r3_9_two_removals_two_checks(fuentes: Dis) -> None:
    fuentes.remove("A2")
    fuentes.remove("A3")
    fuentes.check("A1", 4, 4)
    fuentes.check("A1", 4, 4)
    fuentes.refused(disb.CheckMorale, "already checked for that removal", 4, 4, unit_name="A1",
                    causes=["friend_removed"])  # fmt: skip


def test_r3_9_a_hit_with_a_friend_removed_is_one_check(fuentes: Dis) -> None:
    # C5: casualties and a friend removed in one action: 2d6 8 − 1 model − 1 extra cause = 6, passes.
    fuentes.remove("A2")
    rules = fuentes.rules(disb.Hit, 4, 4, unit_name="A1", lost=1, also=["friend_removed"])
    check = next(r for r in rules if r["rule"] == "morale_check")
    assert check["outcome"] == {"total": 6, "result": "pass"}
    fuentes.refused(disb.CheckMorale, "already checked for that removal", 4, 4, unit_name="A1",
                    causes=["friend_removed"])  # fmt: skip


@pytest.mark.parametrize(("distance", "accepted"), [("12.0", True), ("12", True), ("11.9", True), ("12.1", False)])
def test_r3_8_r3_9_the_removed_friend_within_12_inches(fuentes: Dis, distance: str, accepted: bool) -> None:
    # The players' measure is recorded with the check; "within 12" is d ≤ 12 (R3-8).
    fuentes.remove("A2")
    if accepted:
        assert fuentes.check("A1", 4, 4, friend_at=distance)[0]["inputs"]["friend_at"] == distance
    else:
        fuentes.refused(disb.CheckMorale, 'A2 was 12.1" away: not within 12"', 4, 4, unit_name="A1",
                        causes=["friend_removed"], friend_at=distance)  # fmt: skip


# -- R3-10: the turn in which a force flees is the last -------------------------------------------------------


def test_r3_10_the_turn_a_force_flees_is_played_out_and_is_the_last(fuentes: Dis) -> None:
    # RULES.md R3-10's example: B's force flees in turn 2; a hit on A2 later in turn 2 → accepted; `dis turn` →
    # refused. French: 200 points; F1 removed: 100 lost, at half; F2 removed: 200 > 150, the force flees.
    fuentes.turn()
    fuentes.remove("F1")
    fled = fuentes.remove("F2")
    assert fled[-1]["rule"] == "force_flees"
    fuentes.rules(disb.Hit, 5, 5, unit_name="A2", lost=1)  # 10 − 1 = 9 ≥ 6: passes
    fuentes.refused(disb.NextTurn, r"the battle ended with turn 2 \(French fled\): record battle-end")
    fuentes.run(disb.EndBattle, winner="British")


def test_r3_10_play_goes_on_while_no_force_has_fled(fuentes: Dis) -> None:
    fuentes.remove("F1")  # at half only
    fuentes.turn()
    assert fuentes.battle().turn == 2


# -- R3-11: one rally attempt per unit per turn ---------------------------------------------------------------


def test_r3_11_one_rally_attempt_per_turn(fuentes: Dis) -> None:
    # RULES.md R3-11's example: A (1 marker) rallies, 2d6 = 2 → 2 − 1 = 1 < 6, fails and retreats; rallies again in
    # the same turn → refused; next turn → accepted (2d6 12 − 1 = 11 ≥ 6: rallied).
    fuentes.run(disb.AddMarker, unit_name="A1", reason="lost a melee")
    [failed] = fuentes.rules(disb.Rally, 1, 1, unit_name="A1")
    assert failed["outcome"]["passed"] is False and failed["outcome"]["retreats"] is True
    fuentes.refused(disb.Rally, "A1 has made its rally attempt this turn", 6, 6, unit_name="A1")
    fuentes.run(disb.AddMarker, unit_name="A2", reason="lost a melee")
    fuentes.rules(disb.Rally, 6, 6, unit_name="A2")  # another unit's attempt is its own
    fuentes.turn()
    assert fuentes.rules(disb.Rally, 6, 6, unit_name="A1")[0]["outcome"]["passed"] is True


def test_r3_11_a_house_rule_may_allow_more_attempts_never_none(fuentes: Dis) -> None:
    fuentes.refused(disc.HouseRule, "rally.per_turn is a count of 1 or more", path="rally.per_turn", value=0)
    fuentes.run(disc.HouseRule, path="rally.per_turn", value=1)  # the default, stated
    fuentes.run(disc.HouseRule, path="rally.per_turn", value=2)
    fuentes.run(disb.AddMarker, unit_name="A1", reason="lost a melee")
    fuentes.rules(disb.Rally, 1, 1, unit_name="A1")
    fuentes.rules(disb.Rally, 1, 1, unit_name="A1")  # the second of two a turn
    fuentes.refused(disb.Rally, r"\(2 a turn\)", 6, 6, unit_name="A1")


# -- R3-12: the winner of an encounter battle -----------------------------------------------------------------


@pytest.fixture
def encounter() -> Dis:
    # F (British) and B (French); A3, an F unit of 5, will flee whole.
    table = Dis()
    table.muster("A1", "British", 10, 100)
    table.muster("A3", "British", 5, 50)
    table.muster("F1", "French", 10, 100)
    table.muster("F2", "French", 10, 100)
    table.officers(British="Sharpe", French="Dubreton")
    table.start("A1", "A3", "F1", "F2", encounter=True)
    return table


def _losses(table: Dis, *, killed_french: int) -> None:
    # F kills ``killed_french`` of F1's models (2d6 12 − killed − 1 permanent marker > 2: no new marker)
    # and captures 1 in F1's blocked retreat (3" needed, 2" moved: 1 full inch short); B kills 6 of A1's (12 − 6
    # − 1 = 5: a retreat); A3 flees off the table whole.
    table.rules(disb.Hit, 6, 6, unit_name="F1", lost=killed_french)
    table.rules(disb.Retreat, unit_name="F1", needed="3", moved="2")
    table.rules(disb.Hit, 6, 6, unit_name="A1", lost=6, cause="melee")
    table.rules(disb.Retreat, unit_name="A3", needed="3", off_table=True)


def test_r3_12_the_side_that_destroyed_more_models_wins(encounter: Dis) -> None:
    # RULES.md R3-12's example: F killed 7 of B's models and captured 1 → 8; B killed 6 of F's, and an F unit of 5
    # fled → 6: F wins 8 : 6.
    _losses(encounter, killed_french=7)
    ended = encounter.run(disb.EndBattle)
    end = applied(ended, "battle_end")[0]
    assert end["outcome"]["result"] == "won by British"
    assert end["outcome"]["scores"] == {"British": 8, "French": 6}
    assert facts(ended, "battle.ended")[0]["winner"] == "British"
    glory = {g["inputs"]["side"]: g["inputs"]["result"] for g in applied(ended, "glory")}
    assert glory == {"British": "won", "French": "lost"}


def test_r3_12_a_typed_winner_that_contradicts_the_count_is_refused(encounter: Dis) -> None:
    _losses(encounter, killed_french=7)
    said = "British destroyed 8 models of French, French 6 of British; so British won, not French"
    encounter.refused(disb.EndBattle, said, winner="French")
    encounter.run(disb.EndBattle, winner="british")  # the count's winner, typed: accepted


def test_r3_12_equal_counts_are_a_draw(encounter: Dis) -> None:
    # 5 killed + 1 captured = 6 : 6 → a draw.
    _losses(encounter, killed_french=5)
    encounter.refused(disb.EndBattle, "a draw", winner="British")
    end = applied(encounter.run(disb.EndBattle), "battle_end")[0]
    assert end["outcome"]["result"] == "draw" and end["outcome"]["scores"] == {"British": 6, "French": 6}


def test_r3_12_the_fled_models_count_by_house_rule(encounter: Dis) -> None:
    # encounter.counts with "fled": B's 6 + A3's 5 fled = 11 > 8: B wins.
    encounter.run(disc.HouseRule, path="encounter.counts", value=["killed", "captured", "fled"])
    _losses(encounter, killed_french=7)
    end = applied(encounter.run(disb.EndBattle), "battle_end")[0]
    assert end["outcome"]["scores"] == {"British": 8, "French": 11} and end["outcome"]["result"] == "won by French"


def test_r3_12_a_unit_destroyed_in_one_melee_counts_its_models(encounter: Dis) -> None:
    # F2 removed "destroyed in melee" with its 10 models: 10 for F; nothing for B → F wins 10 : 0.
    encounter.remove("F2")
    end = applied(encounter.run(disb.EndBattle), "battle_end")[0]
    assert end["outcome"]["scores"] == {"British": 10, "French": 0}


def test_r3_12_a_scenario_battle_keeps_the_players_winner(fuentes: Dis) -> None:
    fuentes.rules(disb.Hit, 6, 6, unit_name="F1", lost=3)  # F destroyed more, yet the scenario's winner is typed
    assert (
        applied(fuentes.run(disb.EndBattle, winner="French"), "battle_end")[0]["outcome"]["result"] == "won by French"
    )


def test_r3_12_an_encounter_battle_has_no_objectives(encounter: Dis) -> None:
    encounter.refused(disb.EndBattle, "an encounter battle has no scenario objectives", objectives={"British": 1})


def test_r3_12_three_sides_name_their_winner(encounter: Dis) -> None:
    encounter.run(disb.EndBattle)
    encounter.muster("S1", "Spanish", 10, 100)
    encounter.officers(Spanish="Morillo")
    encounter.start("A1", "F1", "S1", name="Three", encounter=True)
    encounter.rules(disb.Hit, 6, 6, unit_name="F1", lost=3)
    end = applied(encounter.run(disb.EndBattle, winner="Spanish"), "battle_end")[0]
    assert end["outcome"]["result"] == "won by Spanish"


# -- R3-13: allies --------------------------------------------------------------------------------------------


@pytest.fixture
def allied() -> Dis:
    # RULES.md R3-13's example: F (British, 300 points) with a 100-point contingent (Portuguese, no officer).
    table = Dis()
    table.muster("A1", "British", 10, 150)
    table.muster("A2", "British", 10, 150)
    table.muster("P1", "British", 10, 100, contingent="Portuguese")
    table.muster("F1", "French", 10, 100)
    table.officers(British="Sharpe", French="Dubreton")
    table.start("A1", "A2", "P1", "F1")
    return table


def test_r3_13_the_contingent_is_not_in_the_forces_points(allied: Dis) -> None:
    # F is at half when its own units have lost 150 (150 of 300; counted with the contingent: 150 of 400, 37%).
    rules = allied.remove("A1")
    half = next(r for r in rules if r["rule"] == "force_half")
    assert half["inputs"] == {"start_points": 300, "lost_points": 150, "side": "British", "folded": None}
    assert half["outcome"]["units_to_check"] == ["A2"], "the contingent takes no check for F at half"
    allied.refused(disb.CheckMorale, "P1 cannot check for force_half", 4, 4, unit_name="P1", causes=["force_half"])


def test_r3_13_a_contingent_without_an_officer_takes_no_check_for_the_forces_officer(allied: Dis) -> None:
    down = allied.rules(disb.OfficerDown, side="British")[0]
    assert down["outcome"]["units_to_check"] == ["A1", "A2"]
    allied.refused(disb.CheckMorale, "P1 cannot check for officer_removed", 4, 4, unit_name="P1",
                   causes=["officer_removed"])  # fmt: skip
    allied.check("A1", 4, 4, causes=("officer_removed",))
    allied.refused(disb.OfficerDown, "not a side", side="Portuguese")


def test_r3_13_the_contingent_losing_all_counts_nothing_for_the_force(allied: Dis) -> None:
    rules = allied.remove("P1")
    assert [r["rule"] for r in rules] == ["unit_removed"], "no force morale for F"
    # A contingent unit destroyed within 12" of an F unit → that F unit checks (friend removed).
    allied.check("A1", 4, 4)


def test_r3_13_the_force_flees_without_its_contingent(allied: Dis) -> None:
    allied.remove("A1")
    fled = allied.remove("A2")
    flees = next(r for r in fled if r["rule"] == "force_flees")
    assert flees["outcome"]["fled"] == [], "F's own units only; P1 stays"
    assert allied.on_table("P1").removed is None
    # F's units fled in the force's flight (none left) or were removed earlier: the contingent checks for A2's.
    allied.check("P1", 4, 4)


def test_r3_13_glory_never_counts_a_contingent_as_an_enemy_or_as_own(allied: Dis) -> None:
    allied.rules(disb.Retreat, unit_name="P1", needed="3", off_table=True)  # P1 flees off the table
    glory = {g["inputs"]["side"]: g["inputs"] for g in applied(allied.run(disb.EndBattle, winner="British"), "glory")}
    assert glory["French"]["enemy_removed"] == 1, "P1 fought on British's side: an enemy of French"
    assert glory["British"]["enemy_removed"] == 0 and glory["British"]["own_fled"] == 0


def test_r3_13_a_contingent_with_its_own_officer_is_a_force_of_its_own() -> None:
    table = Dis()
    table.muster("A1", "British", 10, 100)
    table.muster("P1", "British", 10, 100, contingent="Portuguese")
    table.muster("P2", "British", 10, 100, contingent="Portuguese")
    table.muster("F1", "French", 10, 100)
    table.officers(British="Sharpe", French="Dubreton", Portuguese="Silveira")
    table.start("A1", "P1", "P2", "F1")
    half = next(r for r in table.remove("P1") if r["rule"] == "force_half")
    assert half["inputs"] == {"start_points": 200, "lost_points": 100, "side": "Portuguese", "folded": None}
    assert half["outcome"]["units_to_check"] == ["P2"]
    table.check("P2", 4, 4, causes=("force_half",))
    down = table.rules(disb.OfficerDown, side="Portuguese")[0]
    assert down["outcome"]["units_to_check"] == ["P2"]
    table.refused(disb.CheckMorale, "A1 cannot check for officer_removed", 4, 4, unit_name="A1",
                  causes=["officer_removed"])  # fmt: skip


def test_r3_13_a_contingent_is_not_named_as_a_side() -> None:
    table = Dis()
    table.muster("A1", "British", 10, 100)
    table.refused(disc.Muster, "British is a side", name="P1", side="Spanish",
                  profile={"models": 10, "points": 100, "troops": "line", "contingent": "British"})  # fmt: skip
    table.muster("P1", "British", 10, 100, contingent="Portuguese")
    table.refused(disc.Muster, "Portuguese is an allied contingent", name="X", side="Portuguese",
                  profile={"models": 10, "points": 100, "troops": "line"})  # fmt: skip


def test_r3_13_the_encounter_winner_counts_a_side_with_its_contingents() -> None:
    table = Dis()
    table.muster("A1", "British", 10, 100)
    table.muster("P1", "British", 10, 100, contingent="Portuguese")
    table.muster("F1", "French", 10, 100)
    table.officers(British="Sharpe", French="Dubreton")
    table.start("A1", "P1", "F1", encounter=True)
    table.rules(disb.Hit, 6, 6, unit_name="P1", lost=3)  # 12 − 3 = 9: passes
    table.rules(disb.Hit, 6, 6, unit_name="F1", lost=2)
    end = applied(table.run(disb.EndBattle), "battle_end")[0]
    assert end["outcome"]["scores"] == {"British": 2, "French": 3} and end["outcome"]["result"] == "won by French"


# -- R3-8: measured distances in a retreat --------------------------------------------------------------------


@pytest.mark.parametrize(("needed", "moved", "captured"), [("2.5", "0.6", 1), ("2.5", "0.5", 2), ("2.75", "1", 1)])
def test_r3_8_a_retreat_is_half_the_move_unrounded(fuentes: Dis, needed: str, moved: str, captured: int) -> None:
    # RULES.md R3-8: a 5" move retreats 2.5"; short by 1.9" → 1 model captured; short by 2.0" → 2. Half of a 5.5"
    # move is 2.75" (unrounded): 1" moved, 1.75" short → 1.
    [retreat] = fuentes.rules(disb.Retreat, unit_name="A1", needed=needed, moved=moved)
    assert retreat["outcome"]["captured"] == captured


@pytest.mark.parametrize("moved", ["1.55", "one"])
def test_r3_8_a_measured_distance_has_one_decimal_place(fuentes: Dis, moved: str) -> None:
    fuentes.refused(disb.Retreat, "inches", unit_name="A1", needed="3", moved=moved)


def test_r3_8_whole_inches_by_house_rule(fuentes: Dis) -> None:
    fuentes.run(disc.HouseRule, path="measure.decimals", value=0)
    fuentes.refused(disb.Retreat, "whole inches", unit_name="A1", needed="3", moved="1.5")
    fuentes.rules(disb.Retreat, unit_name="A1", needed="2.5", moved="1")  # half of a 5" move: allowed


@pytest.mark.parametrize(("inclusive", "at", "counts"), [(True, "12.0", True), (True, "12.1", False),
                                                         (False, "12.0", False), (False, "11.9", True)])  # fmt: skip
def test_r3_8_within_12_of_the_removed_friend(fuentes: Dis, inclusive: bool, at: str, counts: bool) -> None:
    # R3-8: "within N" is d ≤ N; measure.within_inclusive false reads it as d < N. A removed friend 12.0" away
    # calls for the check (d ≤ 12) unless the house rule says d < 12, when 11.9" is the farthest that does.
    if not inclusive:
        fuentes.run(disc.HouseRule, path="measure.within_inclusive", value=False)
    fuentes.remove("A2")
    if counts:
        [check] = fuentes.check("A1", 4, 4, friend_at=at)
        assert check["inputs"]["friend_removed"] == fuentes.unit_id("A2")
    else:
        fuentes.refused(disb.CheckMorale, "not within 12", 4, 4, unit_name="A1", causes=["friend_removed"],
                        friend_at=at)  # fmt: skip
