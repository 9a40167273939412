"""RULES.md §0 worked examples (E1–E4) and derived cases (D1–D3), through the public service, table dice."""

from __future__ import annotations

import pytest

from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.commands import Deployment
from tests.acceptance.conftest import FsTable, applied, dice


def test_e1_medium_first_suppression_casualties_and_commander_lost_is_threat_3(table: FsTable) -> None:
    table.muster("1st Squad", quality="regular", leadership=2, size=10)
    table.battle({"Keno": "medium"}, Deployment(unit="1st Squad", fatigue="fresh"))
    result = table.ledger.execute(
        table.info,
        fsb.Attack.build(unit_name="1st Squad", killed=1, wounded=0, suppressing=True, leader_hit=True),
        table=dice(6),
    )
    test = applied(result)[-1]
    assert test["rule"] == "morale_test"
    assert test["inputs"]["threat"] == 3  # max(1, 1, 3)
    assert test["inputs"]["target"] == 5
    assert test["outcome"]["result"] == "pass"


def test_e2_the_same_under_artillery_is_threat_4(table: FsTable) -> None:
    table.muster("1st Squad", quality="regular", leadership=2, size=10)
    table.battle({"Keno": "medium"}, Deployment(unit="1st Squad", fatigue="fresh"))
    result = table.ledger.execute(
        table.info,
        fsb.Attack.build(unit_name="1st Squad", killed=1, wounded=0, suppressing=True, leader_hit=True, artillery=True),
        table=dice(7),
    )
    assert applied(result)[-1]["inputs"]["threat"] == 4


@pytest.mark.parametrize(
    ("roll", "grades_lost", "grade"),
    [(6, 1, "steady"), (5, 1, "steady"), (4, 2, "shaken"), (1, 2, "shaken"), (8, 0, "confident")],
)
def test_e3_keno_patrol_under_mg_fire(table: FsTable, roll: int, grades_lost: int, grade: str) -> None:
    # Keno Guard, Regular d8, 7 men, LV 2, routine patrol (Low). MG fire: 2 killed, 2 wounded, leader fine.
    table.muster("Keno 3rd Squad", quality="regular", leadership=2, size=7, keno_guard=True)
    table.battle({"Keno": "low"}, Deployment(unit="Keno 3rd Squad", fatigue="fresh"))
    result = table.ledger.execute(
        table.info, fsb.Attack.build(unit_name="Keno 3rd Squad", killed=2, wounded=2), table=dice(roll)
    )
    test = applied(result)[-1]
    # 4 lost > 3 left → base 4 (Low); +1 × 2 unverified; target = 2 + 4 + 2 = 8.
    assert test["inputs"]["target"] == 8
    assert "= 8" in test["explanation"]
    if roll == 8:
        # "need > 8 on d8 (impossible, roll anyway)": even the best roll fails.
        assert test["outcome"]["grades_lost"] == 1
        return
    assert test["outcome"]["grades_lost"] == grades_lost
    assert table.grade("Keno 3rd Squad") == grade


def _steel_veterans_broken(table: FsTable) -> None:
    """Steel Veterans (d10, LV 2) at Broken, 1 unverified casualty, having abandoned their wounded earlier."""
    table.muster("Company HQ", side="Steel", quality="veteran", leadership=2, size=5, radio=True)
    table.muster(
        "2nd Platoon HQ", side="Steel", quality="veteran", leadership=2, size=4, radio=True, reports_to="Company HQ"
    )
    table.muster(
        "Steel Veterans",
        side="Steel",
        quality="veteran",
        leadership=2,
        size=10,
        radio=True,
        reports_to="2nd Platoon HQ",
    )
    table.battle(
        {"Steel": "medium"},
        Deployment(unit="Company HQ", fatigue="tired"),
        Deployment(unit="2nd Platoon HQ", fatigue="tired"),
        Deployment(unit="Steel Veterans", fatigue="tired"),
    )
    # Two wounded: casualties (Med 1) → target 3; d10 rolls 1 → half or less → −2: Steady → Broken.
    table.ledger.execute(table.info, fsb.Attack.build(unit_name="Steel Veterans", killed=0, wounded=2), table=dice(1))
    table.ledger.execute(table.info, fs.Wounded.build(unit_name="Steel Veterans", checked=None, abandoned=True))
    # One more wounded man later: casualties 1 + abandoned +2 = threat 3 → target 5; rolls 9: holds.
    table.ledger.execute(table.info, fsb.Attack.build(unit_name="Steel Veterans", killed=0, wounded=1), table=dice(9))
    assert table.grade("Steel Veterans") == "broken"
    state = table.unit_state("Steel Veterans")
    assert (state.unverified, state.abandoned_wounded) == (1, True)


def test_e4a_company_co_communication_test_fails_on_a_2(table: FsTable) -> None:
    _steel_veterans_broken(table)
    result = table.ledger.execute(
        table.info,
        fsb.Rally.build(unit_name="Steel Veterans", officer_name="Company HQ", distance=20, in_sight=True),
        table=dice(2),
    )
    rally = applied(result)[0]
    # Company CO rallying a squad directly: one link bypassed, d10 → d8; need > max(2, 2) = 2.
    assert rally["outcome"]["result"] == "comms_failed"
    assert "d8" in rally["explanation"] and "need > 2" in rally["explanation"]
    assert table.grade("Steel Veterans") == "broken"


def test_e4b_second_action_rallies_broken_to_shaken(table: FsTable) -> None:
    _steel_veterans_broken(table)
    table.ledger.execute(
        table.info,
        fsb.Rally.build(unit_name="Steel Veterans", officer_name="Company HQ", distance=20, in_sight=True),
        table=dice(2),
    )
    result = table.ledger.execute(
        table.info,
        fsb.Rally.build(unit_name="Steel Veterans", officer_name="Company HQ", distance=20, in_sight=True),
        table=dice(5, 8),
    )
    rally = applied(result)[0]
    # target = 2 + 2 + 0 (1 unverified, Med +0) + 2 (abandoned wounded) = 6; d10 rolls 8 > 6.
    assert rally["inputs"]["target"] == 6
    assert rally["outcome"] == {"result": "rallied", "from": "broken", "to": "shaken"}
    assert table.grade("Steel Veterans") == "shaken"
    # Two rally actions per activation: a third is refused, and nothing is appended.
    before = table.log_length()
    with pytest.raises(Exception, match="2 rally actions"):
        table.ledger.execute(
            table.info,
            fsb.Rally.build(unit_name="Steel Veterans", officer_name="Company HQ", distance=20, in_sight=True),
            table=dice(5, 8),
        )
    assert table.log_length() == before


@pytest.mark.parametrize(("roll", "grade"), [(4, "confident"), (3, "steady"), (2, "steady"), (1, "shaken")])
def test_d1_veteran_high_motivation_leader_hit(table: FsTable, roll: int, grade: str) -> None:
    table.muster("Veterans", quality="veteran", leadership=1, size=8)
    table.battle({"Keno": "high"}, Deployment(unit="Veterans", fatigue="fresh"))
    result = table.ledger.execute(
        table.info, fsb.Attack.build(unit_name="Veterans", killed=0, wounded=0, leader_hit=True), table=dice(roll)
    )
    assert applied(result)[-1]["inputs"]["target"] == 3
    assert table.grade("Veterans") == grade


@pytest.mark.parametrize(("roll", "lost"), [(6, 1), (4, 1), (3, 2), (1, 2)])
def test_d2_green_low_motivation_artillery_first_casualties(table: FsTable, roll: int, lost: int) -> None:
    table.muster("Conscripts", quality="green", leadership=3, size=10)
    table.battle({"Keno": "low"}, Deployment(unit="Conscripts", fatigue="fresh"))
    # The Green unit's first fire calls for its panic test too (R3-4): d6 4 > LV 3 passes.
    result = table.ledger.execute(
        table.info, fsb.Attack.build(unit_name="Conscripts", killed=1, wounded=0, artillery=True), table=dice(roll, 4)
    )
    test = applied(result)[1]
    assert test["inputs"]["threat"] == 4 and test["inputs"]["target"] == 7  # max(2) + 2 artillery; LV 3
    assert test["outcome"]["grades_lost"] == lost


@pytest.mark.parametrize(("roll", "grade"), [(4, "shaken"), (8, "shaken"), (3, "broken")])
def test_d3_sgii_rally_example(table: FsTable, roll: int, grade: str) -> None:
    table.muster("Platoon HQ", quality="veteran", leadership=1, size=4)
    table.muster("Squad", quality="regular", leadership=2, size=8, reports_to="Platoon HQ")
    # R2-3: one fatigue per side; the scenario starts the Squad at Steady (its rally cap).
    table.battle(
        {"Keno": "medium"},
        Deployment(unit="Platoon HQ", fatigue="fresh"),
        Deployment(unit="Squad", start_grade="steady"),
    )
    table.ledger.execute(
        table.info, fsb.Morale.build(unit_name="Squad", rows=["leader_lost"]), table=dice(2)
    )  # target 5, 2×2 ≤ 5 → −2: Steady → Broken
    assert table.grade("Squad") == "broken"
    result = table.ledger.execute(
        table.info,
        fsb.Rally.build(unit_name="Squad", officer_name="Platoon HQ", distance=4, in_sight=True),
        table=dice(roll),
    )
    assert applied(result)[0]["inputs"]["target"] == 3
    assert table.grade("Squad") == grade
