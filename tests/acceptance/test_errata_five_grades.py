"""Second-edition errata of seed 000 (RULES.md R2-1 … R2-5) and §0's thresholds, each on both sides of its edge.

Expected values are worked by hand from RULES.md's words; the comments show the arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.commands import Deployment
from campaign.rulesets.fighting_spirit.plugin import PLUGIN as FIGHTING_SPIRIT
from campaign.tables import base_values
from events.errors import InvalidInputError
from tests.acceptance.conftest import FsTable, applied, dice

# The psion: a Master, d8; at 5" (first band) he rolls his d8 unshifted.
PSION = "Barf-jat Master"


@pytest.fixture
def front(table: FsTable) -> FsTable:
    table.muster(PSION, quality="regular", leadership=2, size=1, psi_rank="master")
    table.muster("Elite Androids", side="Otlok", quality="elite", leadership=1, size=6, kind="android")
    table.muster("Veterans", side="Otlok", quality="veteran", leadership=3, size=8)
    table.muster("Greens", side="Otlok", quality="green", leadership=2, size=8)
    table.battle(
        {"Keno": "medium", "Otlok": "low"},
        *(Deployment(unit=n, fatigue="fresh") for n in (PSION, "Elite Androids", "Veterans", "Greens")),
    )
    return table


def refused(front: FsTable, action: Callable[[], Any], message: str) -> None:
    before = front.log_length()
    with pytest.raises(InvalidInputError, match=message):
        action()
    assert front.log_length() == before, "a refused command appended something"


def psi(front: FsTable, target: str, effect: str, *faces: int, blast: str = "grades") -> list[dict[str, Any]]:
    result = front.ledger.execute(
        front.info,
        fsb.Psi.build(
            psion_name=PSION, target_name=target, effect=effect, distance=5, in_sight=True, blast_choice=blast
        ),
        table=dice(*faces),
    )
    return applied(result)


# -- R2-1: androids take every psi-resistance test on a d6 ---------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "grade"),
    [
        (5, "confident"),  # 5 > 4: passes
        (4, "steady"),  # 4 ≤ 4 and 2·4 = 8 > 4: −1 grade
        (3, "steady"),  # 2·3 = 6 > 4: −1 grade
        (2, "shaken"),  # 2·2 = 4 ≤ 4: −2 grades
    ],
)
def test_r2_1_an_elite_android_tests_a_psi_strike_on_a_d6_with_no_save(front: FsTable, roll: int, grade: str) -> None:
    # RULES.md R2-1's example: Elite (d12) androids, LV 1, psi-strike: target 1 + 3 = 4, rolled on d6.
    rules = psi(front, "Elite Androids", "psi_strike", 4, roll)  # d8 4 ≥ 4: the strike succeeds
    assert rules[0]["outcome"]["result"] == "success"
    test = rules[1]
    assert test["rule"] == "morale_test"
    assert test["inputs"]["target"] == 4 and test["inputs"]["die"] == 6
    assert "d6 rolled" in test["explanation"]
    assert front.grade("Elite Androids") == grade


def test_r2_1_an_androids_test_with_no_psi_cause_uses_its_quality_die(front: FsTable) -> None:
    result = applied(
        front.ledger.execute(
            front.info, fsb.Morale.build(unit_name="Elite Androids", rows=["leader_lost"]), table=dice(6)
        )
    )
    # Low motivation, leader lost: 4; target 1 + 4 = 5; on its d12 a 6 passes.
    assert result[0]["inputs"]["die"] == 12 and result[0]["outcome"]["result"] == "pass"


@pytest.mark.parametrize(("roll", "result"), [(6, "pass"), (5, "fail")])
def test_r2_1_kills_morale_test_on_an_android_is_on_a_d6(front: FsTable, roll: int, result: str) -> None:
    # Kill (≥ 8 on the d8), then "leader lost" at low motivation (4): target 1 + 4 = 5 on d6.
    rules = psi(front, "Elite Androids", "kill", 8, roll)
    assert rules[1]["inputs"]["die"] == 6 and rules[1]["inputs"]["target"] == 5
    assert rules[1]["outcome"]["result"] == result


# -- R2-2: psionics override the ordinary limits on panic and No step back -----------------------------------


@pytest.mark.parametrize(("roll", "panicking", "grade"), [(4, False, "confident"), (3, True, "steady")])
def test_r2_2_psi_panic_reaches_a_veteran_squad(front: FsTable, roll: int, panicking: bool, grade: str) -> None:
    # RULES.md R2-2's example: Veterans (d10), LV 3: 4–10 passes; 1–3 panics and drops one grade.
    refused(
        front,
        lambda: front.ledger.execute(front.info, fsb.Panic.build(unit_name="Veterans", trigger="enemy_in_sight")),
        "never panic",
    )
    rules = psi(front, "Veterans", "panic", 4, roll)  # d8 4 ≥ 4: psi Panic succeeds
    assert rules[1]["rule"] == "panic_test" and rules[1]["inputs"]["target"] == 3
    assert (front.unit_state("Veterans").panic == "panicking") is panicking
    assert front.grade("Veterans") == grade


def test_r2_2_a_veteran_panicked_by_psi_takes_the_usual_later_tests(front: FsTable) -> None:
    psi(front, "Veterans", "panic", 4, 1)  # d10 1 ≤ LV 3: panics, −1 grade
    assert front.unit_state("Veterans").panic == "panicking" and front.grade("Veterans") == "steady"
    later = applied(
        front.ledger.execute(front.info, fsb.Panic.build(unit_name="Veterans", trigger=None), table=dice(4))
    )  # 4 > 3: the panic is over
    assert later[0]["outcome"]["result"] == "pass" and front.unit_state("Veterans").panic == "immune"


def test_r2_2_psi_panic_reaches_a_unit_that_passed_its_panic_test(front: FsTable) -> None:
    front.ledger.execute(
        front.info, fsb.Panic.build(unit_name="Greens", trigger="armour_in_sight"), table=dice(3)
    )  # d6 3 > LV 2: passes, never again
    refused(
        front,
        lambda: front.ledger.execute(
            front.info, fsb.Panic.build(unit_name="Greens", trigger="armour_in_sight"), table=dice(1)
        ),
        "never panic again",
    )
    rules = psi(front, "Greens", "panic", 4, 2)  # d6 2 ≤ 2: fails
    assert rules[1]["outcome"]["result"] == "fail"
    assert front.unit_state("Greens").panic == "panicking" and front.grade("Greens") == "steady"


def test_r2_2_psi_blast_with_the_panic_option_is_a_panic_test_on_the_android_die(front: FsTable) -> None:
    # Blast ≥ 7 on the d8; Elite androids (no ordinary panic) test d6 > LV 1.
    passed = psi(front, "Elite Androids", "psi_blast", 7, 2, blast="panic")
    assert passed[1]["rule"] == "panic_test" and passed[1]["outcome"]["result"] == "pass"
    assert front.grade("Elite Androids") == "confident"
    failed = psi(front, "Elite Androids", "psi_blast", 7, 1, blast="panic")
    assert failed[1]["outcome"]["result"] == "fail" and front.grade("Elite Androids") == "steady"


def test_r2_2_house_rule_keeps_the_ordinary_limits(front: FsTable) -> None:
    front.ledger.execute(front.info, fs.HouseRule.build(path="psi.rules.overrides_ordinary_limits", value=False))
    rules = psi(front, "Veterans", "panic", 4)
    assert rules[0]["outcome"]["result"] == "no_effect" and len(rules) == 1
    assert front.unit_state("Veterans").panic == "none"


def test_r2_2_psi_no_step_back_needs_no_roll_and_nothing_reaches_a_unit_in_it(front: FsTable) -> None:
    # The Greens are in the open, not prone, with friends about: §0.9's conditions do not hold.
    rules = psi(front, "Greens", "no_step_back", 6)
    assert rules[0]["outcome"]["result"] == "success" and len(rules) == 1
    assert front.unit_state("Greens").last_stand is True
    before = front.log_length()
    front.ledger.execute(
        front.info, fs.NextTurn.build()
    )  # two psi actions per activation (R2-4 a), one activation a turn (R3-1)
    again = psi(front, "Greens", "panic", 4)
    assert again[0]["outcome"]["result"] == "no_effect" and front.unit_state("Greens").panic == "none"
    blast = psi(front, "Greens", "psi_blast", 8)
    assert blast[0]["outcome"]["result"] == "no_effect" and front.grade("Greens") == "confident"
    assert front.log_length() > before


# -- R2-3: one fatigue per side; scenario starts -----------------------------------------------------------------


@pytest.fixture
def blue(table: FsTable) -> FsTable:
    # RULES.md R2-3's example: Bravo's record is tired (14 days at the front), Alpha's and Charlie's fresh.
    table.muster("Bravo", side="Blue", quality="regular", leadership=2, size=8)
    table.ledger.execute(table.info, fs.PassDays.build(days=14, activity="front"))
    table.muster("Alpha", side="Blue", quality="regular", leadership=2, size=8)
    table.muster("Charlie", side="Blue", quality="regular", leadership=2, size=8)
    return table


def start_grades(front: FsTable, *deployments: Deployment) -> dict[str, str]:
    front.battle({"Blue": "medium"}, *deployments)
    return {d.unit: front.unit_state(d.unit).start_grade for d in deployments}


def test_r2_3_a_side_starts_at_its_most_tired_units_fatigue(blue: FsTable) -> None:
    state, tables = blue.ledger.in_force(blue.info, FIGHTING_SPIRIT)
    records = {n: state.fatigue(state.unit_by_name(n).unit_id, tables) for n in ("Alpha", "Bravo", "Charlie")}  # type: ignore[union-attr]
    assert records == {"Alpha": "fresh", "Bravo": "tired", "Charlie": "fresh"}
    grades = start_grades(blue, Deployment(unit="Alpha"), Deployment(unit="Bravo"), Deployment(unit="Charlie"))
    assert grades == {"Alpha": "steady", "Bravo": "steady", "Charlie": "steady"}


def test_r2_3_the_gm_may_state_the_sides_fatigue(blue: FsTable) -> None:
    grades = start_grades(
        blue, Deployment(unit="Alpha", fatigue="fresh"), Deployment(unit="Bravo"), Deployment(unit="Charlie")
    )
    assert grades == {"Alpha": "confident", "Bravo": "confident", "Charlie": "confident"}


def test_r2_3_different_fatigues_for_one_side_are_refused(blue: FsTable) -> None:
    before = blue.log_length()
    with pytest.raises(InvalidInputError, match="one fatigue for all its troops"):
        blue.battle(
            {"Blue": "medium"}, Deployment(unit="Alpha", fatigue="fresh"), Deployment(unit="Bravo", fatigue="tired")
        )
    assert blue.log_length() == before


def test_r2_3_a_scenario_start_grade_for_one_unit(blue: FsTable) -> None:
    grades = start_grades(
        blue, Deployment(unit="Alpha"), Deployment(unit="Bravo"), Deployment(unit="Charlie", start_grade="broken")
    )
    assert grades == {"Alpha": "steady", "Bravo": "steady", "Charlie": "broken"}


def test_r2_3_routed_is_never_a_start_grade(blue: FsTable) -> None:
    with pytest.raises(InvalidInputError, match="not 'routed'"):
        blue.battle({"Blue": "medium"}, Deployment(unit="Alpha", start_grade="routed"))


def test_r2_3_house_rule_per_unit_fatigue(blue: FsTable) -> None:
    blue.ledger.execute(blue.info, fs.HouseRule.build(path="campaign.side_fatigue", value="per_unit"))
    grades = start_grades(blue, Deployment(unit="Alpha"), Deployment(unit="Bravo"), Deployment(unit="Charlie"))
    assert grades == {"Alpha": "confident", "Bravo": "steady", "Charlie": "confident"}


# -- R2-4: psi actions per activation, No step back, Kill, psion defence -----------------------------------------


def test_r2_4_a_two_psi_actions_per_activation(front: FsTable) -> None:
    psi(front, "Greens", "confusion", 1)  # fails (< 4), still an action
    psi(front, "Greens", "confusion", 2)
    refused(front, lambda: psi(front, "Greens", "confusion", 5), "made its 2 psi actions this turn")
    front.ledger.execute(front.info, fs.NextTurn.build())  # its next activation is next turn's (R3-1)
    assert psi(front, "Greens", "confusion", 5)[0]["outcome"]["result"] == "success"


def test_r2_4_b_a_unit_in_no_step_back_has_no_grade_and_cannot_surrender(front: FsTable) -> None:
    psi(front, "Greens", "no_step_back", 6)
    front.ledger.execute(front.info, fs.NextTurn.build())
    blast = psi(front, "Greens", "psi_blast", 7)  # either option: nothing
    assert blast[0]["outcome"]["result"] == "no_effect" and front.grade("Greens") == "confident"
    kill = psi(front, "Greens", "kill", 8)  # a trooper shoots a comrade; no marker; its test passes unrolled
    assert front.unit_state("Greens").suppression == 0 and kill[1]["outcome"]["result"] == "auto_pass"
    refused(
        front,
        lambda: front.ledger.execute(front.info, fsb.Surrender.build(unit_name="Greens", enemy_within=3)),
        "cannot surrender",
    )


def test_r2_4_c_kill_on_a_one_man_unit_only_with_a_crew_served_weapon(table: FsTable) -> None:
    table.muster(PSION, quality="regular", leadership=2, size=1, psi_rank="master")
    table.muster("Sniper", side="Otlok", quality="regular", leadership=2, size=1)
    table.muster("Gunner", side="Otlok", quality="regular", leadership=2, size=1, crew_weapon=True)
    table.battle(
        {"Keno": "medium", "Otlok": "low"}, *(Deployment(unit=n, fatigue="fresh") for n in (PSION, "Sniper", "Gunner"))
    )
    refused(table, lambda: psi(table, "Sniper", "kill", 8), "one-man unit")
    # Kill ≥ 8, then the leader-lost test at low motivation: LV 2 + 4 = 6 on the d8: a 7 passes.
    assert psi(table, "Gunner", "kill", 8, 7)[0]["outcome"]["result"] == "success"


@pytest.mark.parametrize(
    ("aimed", "from_air", "on_psion", "die"),
    [(True, False, True, 8), (False, False, True, 4), (True, True, True, 4), (True, False, False, 4)],
)
def test_r2_4_d_a_psion_defends_with_the_psi_die_only_against_aimed_fire_on_himself(
    front: FsTable, aimed: bool, from_air: bool, on_psion: bool, die: int
) -> None:
    result = front.ledger.execute(
        front.info, fsb.Defence.build(unit_name=PSION, aimed=aimed, from_air=from_air, on_psion=on_psion), table=dice(3)
    )
    assert applied(result)[0]["inputs"]["die"] == die


# -- R2-5: two ambiguities added (A-7, A-8) ----------------------------------------------------------------------


@pytest.mark.parametrize(("slack", "roll", "grade"), [(0, 4, "steady"), (1, 4, "shaken"), (0, 3, "shaken")])
def test_r2_5_two_grades_at_half_of_the_target_and_a7s_alternative(
    front: FsTable, slack: int, roll: int, grade: str
) -> None:
    # RULES.md R2-5: T = 7 (Veterans LV 3 + leader lost at low motivation 4), roll 4: 2·4 = 8 > 7 → −1 by default;
    # under A-7's alternative 8 ≤ 7 + 1 → −2. A 3: 6 ≤ 7 → −2 either way.
    if slack:
        front.ledger.execute(front.info, fs.HouseRule.build(path="test.two_grades_slack", value=slack))
    test = applied(
        front.ledger.execute(front.info, fsb.Morale.build(unit_name="Veterans", rows=["leader_lost"]), table=dice(roll))
    )[0]
    assert test["inputs"]["target"] == 7 and front.grade("Veterans") == grade


def test_r2_5_and_r2_9_tags() -> None:
    values = base_values("fighting_spirit")
    assert values["reactions.leave_cover_shaken.threat"].value == 2
    assert values["reactions.leave_cover_shaken.threat"].tag == "INF"
    assert values["test.two_grades_slack"].value == 0 and values["test.two_grades_slack"].tag == "INF"
    # R2-9: the troop die d4 is PUB only; the threat combination rule is the seed's.
    assert values["qualities.untrained.die"].value == 4 and values["qualities.untrained.die"].tag == "PUB"
    kinds = {p: s for p, s in values.items() if p.startswith("threats.") and p.endswith(".kind")}
    assert kinds and all(s.tag == "SEED" and s.erratum == "R2-9" for s in kinds.values())


# -- §0 thresholds on both sides of their edges ------------------------------------------------------------------


@pytest.mark.parametrize(("killed", "threat"), [(4, 2), (5, 4)])
def test_more_lost_than_left_at_equality(front: FsTable, killed: int, threat: int) -> None:
    # The Greens (8 men) fight for Otlok, at low motivation: casualties 2, more lost than left 4 (the highest base
    # row counts). 4 lost, 4 left: not more than left → 2; 5 lost, 3 left → 4. Its first fire: a panic test too
    # (R3-4; d6 3 > LV 2 passes).
    result = applied(
        front.ledger.execute(
            front.info, fsb.Attack.build(unit_name="Greens", killed=killed, wounded=0), table=dice(6, 3)
        )
    )
    assert next(r for r in result if r["rule"] == "morale_test")["inputs"]["threat"] == threat


@pytest.mark.parametrize(
    ("suppressing", "killed", "already_suppressed", "threat"),
    [
        (False, 1, False, 2 + 2),  # casualties (low 2) + artillery (low +2)
        (True, 0, False, 2 + 2),  # first suppression (low 2) + artillery
        (True, 0, True, 4),  # not the first suppression, no casualties: only the leader lost (low 4), no artillery
    ],
)
def test_artillery_counts_only_when_it_causes_the_first_suppression_or_casualties(
    front: FsTable, suppressing: bool, killed: int, already_suppressed: bool, threat: int
) -> None:
    if already_suppressed:  # its first fire, with its panic test (R3-4: d6 3 > LV 2 passes)
        front.ledger.execute(
            front.info, fsb.Attack.build(unit_name="Greens", killed=0, wounded=0, suppressing=True), table=dice(6, 3)
        )
    leader = already_suppressed  # the third case needs a base row: the leader is hit
    result = front.ledger.execute(
        front.info,
        fsb.Attack.build(
            unit_name="Greens", killed=killed, wounded=0, suppressing=suppressing, artillery=True, leader_hit=leader
        ),
        table=dice(6) if already_suppressed else dice(6, 3),
    )
    assert next(r for r in applied(result) if r["rule"] == "morale_test")["inputs"]["threat"] == threat


@pytest.mark.parametrize(("enemy_within", "surrenders"), [(12, True), (13, False)])
def test_a_routed_unit_surrenders_with_an_enemy_at_exactly_12(
    front: FsTable, enemy_within: int, surrenders: bool
) -> None:
    # Greens: LV 2 + leader lost (low 4) = 6; a 1 on the d6 (2·1 ≤ 6) → −2 each time: Confident → Shaken → Routed.
    front.ledger.execute(front.info, fsb.Morale.build(unit_name="Greens", rows=["leader_lost"]), table=dice(1))
    result = applied(
        front.ledger.execute(
            front.info,
            fsb.Morale.build(unit_name="Greens", rows=["leader_lost"], enemy_within=enemy_within),
            table=dice(1),
        )
    )
    assert result[0]["outcome"]["to"] == "routed"
    assert result[0]["outcome"]["surrendered"] is surrenders
    assert (front.unit_state("Greens").removed == "surrendered") is surrenders


def last_stand(front: FsTable, *faces: int, enemies: int = 3, enemy_within: int | None = None) -> dict[str, Any]:
    if not front.unit_state("Greens").in_cover:
        front.ledger.execute(front.info, fs.Position.build(unit_name="Greens", prone=None, in_cover=True))
    result = front.ledger.execute(
        front.info,
        fsb.LastStand.build(
            unit_name="Greens", friends_within_12=0, enemy_squads_in_sight=enemies, enemy_within=enemy_within
        ),
        table=dice(*faces),
    )
    return applied(result)[0]


@pytest.mark.parametrize(("roll", "result"), [(6, "stands"), (5, "scattered")])
def test_no_step_back_succeeds_on_six_or_more(front: FsTable, roll: int, result: str) -> None:
    assert last_stand(front, roll)["outcome"]["result"] == result  # d6 (not Keno Guard), success ≥ 6


@pytest.mark.parametrize(("enemy_within", "result"), [(12, "surrendered"), (13, "scattered")])
def test_a_failed_no_step_back_surrenders_with_an_enemy_at_exactly_12(
    front: FsTable, enemy_within: int, result: str
) -> None:
    assert last_stand(front, 1, enemy_within=enemy_within)["outcome"]["result"] == result


def test_no_step_back_needs_three_enemy_squads_in_sight(front: FsTable) -> None:
    front.ledger.execute(front.info, fs.Position.build(unit_name="Greens", prone=None, in_cover=True))
    refused(front, lambda: last_stand(front, 6, enemies=2), "only 2 enemy squads")
    assert last_stand(front, 6, enemies=3)["outcome"]["result"] == "stands"
