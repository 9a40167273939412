"""The rest of RULES.md §0: refusals, reactions, panic, surrender, psionics, provenance and house rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.commands import Deployment
from campaign.rulesets.fighting_spirit.plugin import PLUGIN as FIGHTING_SPIRIT
from campaign.rulesets.fighting_spirit.tables import Tables
from campaign.tables import base_values
from events.errors import InvalidInputError
from tests.acceptance.conftest import FsTable, applied, dice


@pytest.fixture
def front(table: FsTable) -> FsTable:
    table.muster("Company HQ", quality="veteran", leadership=2, size=5, radio=True)
    table.muster("1st Platoon", quality="regular", leadership=2, size=4, radio=True, reports_to="Company HQ")
    table.muster("1st Squad", quality="regular", leadership=2, size=8, radio=True, reports_to="1st Platoon")
    table.muster("2nd Squad", quality="green", leadership=2, size=8, reports_to="1st Platoon")
    table.muster("Barf-jat Master", quality="regular", leadership=2, size=1, psi_rank="master")
    table.muster("Walker", side="Otlok", quality="regular", leadership=2, size=3, kind="vehicle")
    table.muster("Android Team", side="Otlok", quality="regular", leadership=2, size=5, kind="android")
    table.muster("Otlok Squad", side="Otlok", quality="untrained", leadership=3, size=10)
    table.battle(
        {"Keno": "medium", "Otlok": "low"},
        *(
            Deployment(unit=n, fatigue="fresh")
            for n in (
                "Company HQ",
                "1st Platoon",
                "1st Squad",
                "2nd Squad",
                "Barf-jat Master",
                "Walker",
                "Android Team",
                "Otlok Squad",
            )
        ),
    )
    return table


def refused(front: FsTable, action: Callable[[], Any], message: str) -> None:
    before = front.log_length()
    with pytest.raises(InvalidInputError, match=message):
        action()
    assert front.log_length() == before, "a refused command appended something"


def test_rallying_from_outside_the_chain_of_command_is_refused(front: FsTable) -> None:
    front.ledger.execute(front.info, fsb.Morale.build(unit_name="2nd Squad", rows=["leader_lost"]), table=dice(1))
    refused(
        front,
        lambda: front.ledger.execute(
            front.info, fsb.Rally.build(unit_name="2nd Squad", officer_name="1st Squad", distance=3, in_sight=True)
        ),
        "not on the direct chain of command of 2nd Squad",
    )
    # Out of sight and with no radio on the squad: no link.
    refused(
        front,
        lambda: front.ledger.execute(
            front.info, fsb.Rally.build(unit_name="2nd Squad", officer_name="1st Platoon", distance=20, in_sight=False)
        ),
        "needs both to have a radio",
    )


def test_a_psi_effect_on_a_vehicle_is_refused(front: FsTable) -> None:
    refused(
        front,
        lambda: front.ledger.execute(
            front.info,
            fsb.Psi.build(
                psion_name="Barf-jat Master", target_name="Walker", effect="psi_strike", distance=5, in_sight=True
            ),
        ),
        "only living targets",
    )


def test_a_test_for_a_removed_unit_is_refused(front: FsTable) -> None:
    front.ledger.execute(
        front.info, fsb.Morale.build(unit_name="Otlok Squad", rows=["leader_lost"]), table=dice(1)
    )  # Low 4 + LV 3 = 7: −2 → shaken
    front.ledger.execute(
        front.info, fsb.Morale.build(unit_name="Otlok Squad", rows=["leader_lost"]), table=dice(1)
    )  # → routed
    front.ledger.execute(front.info, fsb.Surrender.build(unit_name="Otlok Squad", enemy_within=10))
    assert front.unit_state("Otlok Squad").removed == "surrendered"
    refused(
        front,
        lambda: front.ledger.execute(
            front.info, fsb.Morale.build(unit_name="Otlok Squad", rows=["casualties"]), table=dice(3)
        ),
        "was removed from the battle",
    )


def test_an_unknown_threat_row_unit_or_action_is_refused(front: FsTable) -> None:
    refused(
        front,
        lambda: front.ledger.execute(
            front.info, fsb.Morale.build(unit_name="1st Squad", rows=["dragons"]), table=dice(3)
        ),
        "unknown threat row",
    )
    refused(
        front,
        lambda: front.ledger.execute(front.info, fsb.Morale.build(unit_name="Nobody", rows=["casualties"])),
        "unknown unit",
    )
    refused(
        front,
        lambda: front.ledger.execute(front.info, fsb.React.build(unit_name="1st Squad", action="dance")),
        "action must be one of .go_prone_open.",
    )
    refused(
        front,
        lambda: front.ledger.execute(front.info, fsb.Attack.build(unit_name="1st Squad", killed=-1, wounded=0)),
        "negative",
    )
    refused(
        front,
        lambda: front.ledger.execute(front.info, fsb.Attack.build(unit_name="1st Squad", killed=9, wounded=0)),
        "8 men left",
    )
    refused(
        front,
        lambda: front.ledger.execute(
            front.info, fsb.Morale.build(unit_name="1st Squad", rows=["casualties"]), table=dice(9)
        ),
        "not a face of a d8",
    )


def test_a_failed_reaction_cannot_be_retried_this_turn_but_can_next_turn(front: FsTable) -> None:
    result = front.ledger.execute(
        front.info, fsb.React.build(unit_name="1st Squad", action="go_prone_open"), table=dice(3)
    )  # LV 2 + 2 = 4; 3 fails
    assert applied(result)[0]["outcome"]["result"] == "fail"
    refused(
        front,
        lambda: front.ledger.execute(
            front.info, fsb.React.build(unit_name="1st Squad", action="go_prone_open"), table=dice(8)
        ),
        "may not try again",
    )
    front.ledger.execute(front.info, fs.NextTurn.build())
    passed = front.ledger.execute(
        front.info, fsb.React.build(unit_name="1st Squad", action="go_prone_open"), table=dice(5)
    )
    assert applied(passed)[0]["outcome"]["result"] == "pass"
    assert front.unit_state("1st Squad").prone


@pytest.mark.parametrize(("grade_rolls", "threat"), [((), 0), ((4,), 1), ((1,), 3)])
def test_close_combat_threat_depends_on_the_grade(front: FsTable, grade_rolls: tuple[int, ...], threat: int) -> None:
    for roll in grade_rolls:
        front.ledger.execute(
            front.info, fsb.Morale.build(unit_name="1st Squad", rows=["leader_lost"]), table=dice(roll)
        )  # Med 3 + LV 2 = 5
    result = front.ledger.execute(
        front.info, fsb.React.build(unit_name="1st Squad", action="close_combat"), table=dice(8)
    )
    assert applied(result)[0]["inputs"]["threat"] == threat


def test_panic_needs_the_qualitys_trigger_and_a_pass_gives_immunity(front: FsTable) -> None:
    refused(
        front,
        lambda: front.ledger.execute(front.info, fsb.Panic.build(unit_name="Company HQ", trigger="enemy_in_sight")),
        "never panic",
    )
    refused(
        front,
        lambda: front.ledger.execute(front.info, fsb.Panic.build(unit_name="2nd Squad", trigger="enemy_in_sight")),
        "does not make green",
    )
    failed = front.ledger.execute(
        front.info, fsb.Panic.build(unit_name="2nd Squad", trigger="armour_in_sight"), table=dice(2)
    )  # d6 > LV 2? no
    assert applied(failed)[0]["outcome"]["result"] == "fail"
    assert front.unit_state("2nd Squad").panic == "panicking" and front.grade("2nd Squad") == "steady"
    again = front.ledger.execute(
        front.info, fsb.Panic.build(unit_name="2nd Squad", trigger=None), table=dice(1)
    )  # still panicking: −1 more
    assert applied(again)[0]["outcome"]["to"] == "shaken"
    front.ledger.execute(
        front.info, fs.NextTurn.build()
    )  # one panic test per activation, one activation a turn (R3-1, R3-2)
    front.ledger.execute(front.info, fsb.Panic.build(unit_name="2nd Squad", trigger=None), table=dice(5))
    assert front.unit_state("2nd Squad").panic == "immune"
    again_seen = lambda: front.ledger.execute(  # noqa: E731
        front.info, fsb.Panic.build(unit_name="2nd Squad", trigger="armour_in_sight"), table=dice(1)
    )
    refused(front, again_seen, "never panic again")


def test_a_routed_unit_with_an_enemy_within_12_surrenders_after_its_test(front: FsTable) -> None:
    front.ledger.execute(front.info, fsb.Morale.build(unit_name="Otlok Squad", rows=["leader_lost"]), table=dice(1))
    result = front.ledger.execute(
        front.info, fsb.Morale.build(unit_name="Otlok Squad", rows=["leader_lost"], enemy_within=8), table=dice(1)
    )
    assert applied(result)[0]["outcome"]["surrendered"] is True
    assert front.unit_state("Otlok Squad").removed == "surrendered"


@pytest.mark.parametrize(
    ("effect", "distance", "roll", "succeeds", "die"),
    [
        ("remove_suppression", 5, 2, True, 8),
        ("inspire", 5, 3, False, 8),
        ("no_step_back", 5, 6, True, 8),
        ("psi_detection", 5, 1, True, 8),
        ("psi_strike", 20, 4, True, 6),  # second band: d8 → d6
        ("confusion", 30, 3, False, 4),  # third band: d8 → d4
        ("psi_blast", 5, 7, True, 8),
        ("kill", 5, 8, True, 8),
        ("kill", 5, 7, False, 8),
    ],
)
def test_psi_effects_succeed_on_at_least_their_number(
    front: FsTable, effect: str, distance: int, roll: int, succeeds: bool, die: int
) -> None:
    extra = (3,) if succeeds and effect in ("psi_strike", "kill") else ()  # the follow-up test: a d4
    result = front.ledger.execute(
        front.info,
        fsb.Psi.build(
            psion_name="Barf-jat Master", target_name="Otlok Squad", effect=effect, distance=distance, in_sight=True
        ),
        table=dice(roll, *extra),
    )
    first = applied(result)[0]
    assert first["outcome"]["result"] == ("success" if succeeds else "fail")
    assert f"d{die}" in first["explanation"]


def test_psi_beyond_the_first_band_needs_line_of_sight_and_androids_have_no_save(front: FsTable) -> None:
    refused(
        front,
        lambda: front.ledger.execute(
            front.info,
            fsb.Psi.build(
                psion_name="Barf-jat Master", target_name="Otlok Squad", effect="confusion", distance=13, in_sight=False
            ),
        ),
        "needs line of sight",
    )
    # R2-1: no android save; Confusion calls for no test, so the psion's roll alone decides.
    affected = front.ledger.execute(
        front.info,
        fsb.Psi.build(
            psion_name="Barf-jat Master", target_name="Android Team", effect="confusion", distance=5, in_sight=True
        ),
        table=dice(5),
    )
    assert applied(affected)[0]["outcome"]["result"] == "success"


def test_psi_strike_is_a_morale_test_at_plus_3(front: FsTable) -> None:
    result = front.ledger.execute(
        front.info,
        fsb.Psi.build(
            psion_name="Barf-jat Master", target_name="Otlok Squad", effect="psi_strike", distance=5, in_sight=True
        ),
        table=dice(4, 3),
    )
    strike = applied(result)[1]
    assert strike["rule"] == "morale_test" and strike["inputs"]["threat"] == 3 and strike["inputs"]["target"] == 6


def test_psionic_communication_always_succeeds_between_psions_and_defence_uses_the_psi_die(front: FsTable) -> None:
    result = front.ledger.execute(front.info, fsb.Defence.build(unit_name="Barf-jat Master"), table=dice(7))
    assert "d8" in applied(result)[0]["explanation"]
    plain = front.ledger.execute(front.info, fsb.Defence.build(unit_name="1st Squad"), table=dice(3))
    assert "d4" in applied(plain)[0]["explanation"]


def test_every_table_value_carries_its_provenance_tag() -> None:
    tags = ("SEED", "SEED-DERIVED", "PUB", "INF", "PLACEHOLDER")
    values = base_values("fighting_spirit")
    assert len(values) > 60
    for path, sourced in values.items():
        assert sourced.source.startswith(tags), f"{path} has no provenance tag: {sourced.source!r}"


def test_a_house_rule_is_an_event_and_only_later_tests_use_it(front: FsTable) -> None:
    # E3's text reading (+2 per unverified casualty at Low) as a house rule, between two tests.
    front.muster("Keno 3rd Squad", quality="regular", leadership=2, size=7, keno_guard=True)
    before = front.ledger.in_force(front.info, FIGHTING_SPIRIT)[1]
    assert Tables.of(before.values).threat("unverified_casualty", "low") == 1
    refused(
        front,
        lambda: front.ledger.execute(front.info, fs.HouseRule.build(path="threats.unverified_casualty.lo", value=2)),
        "no table value",
    )
    refused(
        front,
        lambda: front.ledger.execute(
            front.info, fs.HouseRule.build(path="threats.unverified_casualty.low", value="lots")
        ),
        "same kind",
    )
    result = front.ledger.execute(
        front.info, fs.HouseRule.build(path="threats.unverified_casualty.low", value=2, note="the seed text's reading")
    )
    event = next(e for e in result.events if e.type == "rules.table_overridden")
    assert event.type == "rules.table_overridden" and event.payload["value"] == 2
    _, tables = front.ledger.in_force(front.info, FIGHTING_SPIRIT)
    assert tables.threat("unverified_casualty", "low") == 2
    assert tables.source("threats.unverified_casualty.low").startswith("HOUSE RULE")
    # A test taken now uses the house rule: Otlok (Low) untrained LV 3, 2 wounded of 10 → casualties 2 + 2×2.
    test = applied(
        front.ledger.execute(front.info, fsb.Attack.build(unit_name="Otlok Squad", killed=0, wounded=2), table=dice(4))
    )[-1]
    assert test["inputs"]["threat"] == 6


def test_numbers_past_the_commands_bounds_are_refused_in_words_and_append_nothing(front: FsTable) -> None:
    front.ledger.execute(front.info, fs.EndBattle.build(result="the front is quiet", winner=None))
    refused(
        front,
        lambda: front.ledger.execute(front.info, fs.PassDays.build(days=36_501, activity="rest")),
        "days must be at most 36500",
    )
    refused(
        front,
        lambda: front.ledger.execute(front.info, fs.PassDays.build(days=0, activity="rest")),
        "time only moves forward",
    )
    refused(
        front,
        lambda: front.ledger.execute(front.info, fs.Recruit.build(unit_name="1st Squad", men=10_001)),
        "men must be at most 10000",
    )
    refused(
        front,
        lambda: front.ledger.execute(front.info, fs.Funds.build(side="Keno", amount=-(2**70), reason="a palace")),
        "amount .* is out of range",
    )
    before = front.log_length()
    front.ledger.execute(
        front.info, fs.PassDays.build(days=36_500, activity="rest")
    )  # a century at rest: the longest a command may say
    front.ledger.execute(front.info, fs.Recruit.build(unit_name="1st Squad", men=10_000))
    assert front.log_length() > before
