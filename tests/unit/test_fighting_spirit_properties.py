"""Properties of the five-grade rules under random play with seeded dice (hypothesis)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.commands import fold_for
from campaign.executor import Ledger
from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.commands import Deployment
from campaign.rulesets.fighting_spirit.state import CampaignState
from events.errors import InvalidInputError
from events.recorded import obj
from projections.state.campaigns import CampaignInfo
from tests.conftest import Backend, examples, make_ledger

GRADES = ("confident", "steady", "shaken", "broken", "routed")

command = st.one_of(
    st.tuples(st.just("attack"), st.integers(0, 2), st.integers(0, 2), st.booleans(), st.booleans(), st.booleans()),
    st.tuples(st.just("morale"), st.sampled_from(["leader_lost", "casualties", "lost_more_than_left"])),
    st.tuples(st.just("rally"), st.integers(0, 30), st.booleans()),
    st.tuples(
        st.just("react"),
        st.sampled_from(["go_prone_open", "go_prone_cover", "move_while_prone", "close_combat", "leave_cover_shaken"]),
    ),
    st.tuples(st.just("panic"), st.sampled_from(["enemy_in_sight", "fired_on", "armour_in_sight", None])),
    st.tuples(st.just("last_stand"), st.integers(0, 1), st.integers(2, 4)),
    st.tuples(st.just("turn")),
    st.tuples(st.just("cover"), st.booleans(), st.booleans()),
)


def play(steps: list[tuple[Any, ...]], quality: str, fatigue: str, motivation: str) -> tuple[Ledger, Any]:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Prop", "fighting-spirit")

    def info() -> CampaignInfo:
        return ledger.resolve("Prop")

    ledger.execute(
        info(),
        fs.Muster.build(
            name="HQ", side="Keno", profile={"quality": "veteran", "leadership": 1, "size": 4, "radio": True}
        ),
    )
    ledger.execute(
        info(),
        fs.Muster.build(
            name="Squad",
            side="Keno",
            profile={"quality": quality, "leadership": 2, "size": 12, "radio": True},
            reports_to="HQ",
        ),
    )
    deployed = [Deployment(unit="HQ", fatigue=fatigue), Deployment(unit="Squad", fatigue=fatigue)]  # R2-3
    ledger.execute(info(), fs.StartBattle.build(name="Prop", motivation={"Keno": motivation}, deployments=deployed))
    for step in steps:
        try:
            if step[0] == "attack":
                ledger.execute(
                    info(),
                    fsb.Attack.build(
                        unit_name="Squad",
                        killed=step[1],
                        wounded=step[2],
                        suppressing=step[3],
                        artillery=step[4],
                        leader_hit=step[5],
                    ),
                )
            elif step[0] == "morale":
                ledger.execute(info(), fsb.Morale.build(unit_name="Squad", rows=[step[1]]))
            elif step[0] == "rally":
                ledger.execute(
                    info(), fsb.Rally.build(unit_name="Squad", officer_name="HQ", distance=step[1], in_sight=step[2])
                )
            elif step[0] == "react":
                ledger.execute(info(), fsb.React.build(unit_name="Squad", action=step[1]))
            elif step[0] == "panic":
                ledger.execute(info(), fsb.Panic.build(unit_name="Squad", trigger=step[1]))
            elif step[0] == "last_stand":
                ledger.execute(
                    info(),
                    fsb.LastStand.build(unit_name="Squad", friends_within_12=step[1], enemy_squads_in_sight=step[2]),
                )
            elif step[0] == "turn":
                ledger.execute(info(), fs.NextTurn.build())
            else:
                ledger.execute(info(), fs.Position.build(unit_name="Squad", prone=step[1], in_cover=step[2]))
        except InvalidInputError:
            pass  # an impossible command is refused; play goes on
    return ledger, info()


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=st.lists(command, max_size=25),
    quality=st.sampled_from(["untrained", "green", "regular", "veteran", "elite"]),
    fatigue=st.sampled_from(["fresh", "tired", "exhausted"]),
    motivation=st.sampled_from(["low", "medium", "high"]),
)
def test_grades_stay_between_start_and_routed_last_stand_never_tests_and_replay_agrees(
    steps: list[tuple[Any, ...]], quality: str, fatigue: str, motivation: str
) -> None:
    ledger, info = play(steps, quality, fatigue, motivation)
    events = list(ledger.store.read(info.campaign_id))
    fold = fold_for("fighting-spirit")
    assert fold is not None
    state = CampaignState()
    start = {"fresh": 0, "tired": 1, "exhausted": 2}[fatigue]
    in_last_stand = False
    for event in events:
        if (
            event.type == "rules.applied"
            and event.payload["rule"] in ("morale_test", "reaction_test")
            and in_last_stand
        ):
            assert event.payload["dice"] == [], "a unit in No step back rolled a morale or reaction test"
            assert obj(event.payload["outcome"])["result"] == "auto_pass"
        state = fold.apply(state, event)
        battle = state.battles.get(state.active_battle or "")
        if battle is None:
            continue
        squad = next((u for u in battle.units.values() if u.start_men == 12), None)
        if squad is None:
            continue
        index = GRADES.index(squad.grade)
        assert start <= index <= 4, f"grade {squad.grade} outside start {GRADES[start]} … routed"
        in_last_stand = squad.last_stand
    # Replaying the log gives the same state, twice over.
    assert fold.fold(events) == state == fold.fold(ledger.store.read(info.campaign_id))


def test_a_unit_in_no_step_back_never_takes_a_morale_or_reaction_test() -> None:
    from tests.acceptance.conftest import FsTable, applied, dice

    table = FsTable(make_ledger(Backend("memory")))
    table.muster("Last Squad", quality="regular", leadership=2, size=6, keno_guard=True)
    table.battle({"Keno": "medium"}, Deployment(unit="Last Squad", fatigue="fresh", in_cover=True))
    table.ledger.execute(
        table.info,
        fsb.LastStand.build(unit_name="Last Squad", friends_within_12=0, enemy_squads_in_sight=3),
        table=dice(7),
    )
    assert table.unit_state("Last Squad").last_stand
    result = table.ledger.execute(
        table.info, fsb.Attack.build(unit_name="Last Squad", killed=2, wounded=1, suppressing=True, leader_hit=True)
    )
    test = applied(result)[-1]
    assert test["outcome"]["result"] == "auto_pass" and test["dice"] == []
    assert table.unit_state("Last Squad").suppression == 0  # never gets suppression markers
    react = applied(table.ledger.execute(table.info, fsb.React.build(unit_name="Last Squad", action="close_combat")))[0]
    assert react["outcome"]["result"] == "auto_pass" and react["dice"] == []
    # It ends when no enemy is in view but Broken ones: back to Steady.
    table.ledger.execute(table.info, fsb.EndLastStand.build(unit_name="Last Squad", reason="only_broken_enemies"))
    assert table.grade("Last Squad") == "steady" and not table.unit_state("Last Squad").last_stand


@pytest.mark.parametrize("roll", [5, 6])
def test_no_step_back_needs_6_on_a_d6_for_others_and_failure_scatters(roll: int) -> None:
    from tests.acceptance.conftest import FsTable, dice

    table = FsTable(make_ledger(Backend("memory")))
    table.muster("Line Squad", quality="regular", leadership=2, size=6)
    table.battle({"Keno": "medium"}, Deployment(unit="Line Squad", fatigue="fresh", prone=True))
    table.ledger.execute(
        table.info,
        fsb.LastStand.build(unit_name="Line Squad", friends_within_12=0, enemy_squads_in_sight=3, enemy_within=20),
        table=dice(roll),
    )
    state = table.unit_state("Line Squad")
    assert state.last_stand == (roll == 6)
    assert state.removed == (None if roll == 6 else "scattered")
