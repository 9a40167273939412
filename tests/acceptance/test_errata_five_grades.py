"""Second-edition errata of seed 000 (RULES.md R2-1 … R2-5) and §0's thresholds, each on both sides of its edge.

Expected values are worked by hand from RULES.md's words; the comments show the arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from campaign.fighting_spirit import Deployment
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
        *(Deployment(n, "fresh") for n in (PSION, "Elite Androids", "Veterans", "Greens")),
    )
    return table


def refused(front: FsTable, action: Callable[[], Any], message: str) -> None:
    before = front.log_length()
    with pytest.raises(InvalidInputError, match=message):
        action()
    assert front.log_length() == before, "a refused command appended something"


def psi(front: FsTable, target: str, effect: str, *faces: int, blast: str = "grades") -> list[dict[str, Any]]:
    result = front.fs.psi(
        front.info, PSION, target, effect=effect, distance=5, in_sight=True, blast_choice=blast, table=dice(*faces)
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
    result = applied(front.fs.morale(front.info, "Elite Androids", ["leader_lost"], table=dice(6)))
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
    refused(front, lambda: front.fs.panic(front.info, "Veterans", "enemy_in_sight"), "never panic")
    rules = psi(front, "Veterans", "panic", 4, roll)  # d8 4 ≥ 4: psi Panic succeeds
    assert rules[1]["rule"] == "panic_test" and rules[1]["inputs"]["target"] == 3
    assert (front.unit_state("Veterans").panic == "panicking") is panicking
    assert front.grade("Veterans") == grade


def test_r2_2_psi_panic_reaches_a_unit_that_passed_its_panic_test(front: FsTable) -> None:
    front.fs.panic(front.info, "Greens", "fired_on", table=dice(3))  # d6 3 > LV 2: passes, never again
    refused(front, lambda: front.fs.panic(front.info, "Greens", "fired_on", table=dice(1)), "never panic again")
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
    front.fs.house_rule(front.info, "psi.rules.overrides_ordinary_limits", False)
    rules = psi(front, "Veterans", "panic", 4)
    assert rules[0]["outcome"]["result"] == "no_effect" and len(rules) == 1
    assert front.unit_state("Veterans").panic == "none"


def test_r2_2_psi_no_step_back_needs_no_roll_and_nothing_reaches_a_unit_in_it(front: FsTable) -> None:
    # The Greens are in the open, not prone, with friends about: §0.9's conditions do not hold.
    rules = psi(front, "Greens", "no_step_back", 6)
    assert rules[0]["outcome"]["result"] == "success" and len(rules) == 1
    assert front.unit_state("Greens").last_stand is True
    before = front.log_length()
    again = psi(front, "Greens", "panic", 4)
    assert again[0]["outcome"]["result"] == "no_effect" and front.unit_state("Greens").panic == "none"
    blast = psi(front, "Greens", "psi_blast", 8)
    assert blast[0]["outcome"]["result"] == "no_effect" and front.grade("Greens") == "confident"
    assert front.log_length() > before
