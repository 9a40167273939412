"""RULES.md §1 (seed 001) through the public service with table dice: the test cases C1–C10, rallies, the
force's morale, Glory and careers across battles, refusals, and re-evaluation of everything recorded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from campaign.commands import recorded_command
from campaign.executor import Ledger, TableEntry
from campaign.rulesets.disorder import battle_commands as dib
from campaign.rulesets.disorder import commands as dic
from campaign.rulesets.disorder.battle_commands import EndBattle
from campaign.rulesets.disorder.plugin import PLUGIN as DISORDER
from campaign.timeline import Timeline
from events.errors import InvalidInputError
from events.recorded import obj
from events.store import AppendResult
from tests.conftest import Backend, make_ledger

UNITS = {
    "95th Rifles": ("British", {"models": 10, "troops": "rifles", "points": 100}),
    "Line company": ("British", {"models": 10, "troops": "line", "points": 80}),
    "Voltigeurs": ("French", {"models": 10, "troops": "light", "points": 90}),
    "Fusiliers": ("French", {"models": 12, "troops": "line", "points": 80}),
}


class Skirmish:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    @property
    def info(self) -> Any:
        return self.ledger.resolve(None)

    def log_length(self) -> int:
        return len(list(self.ledger.store.read(self.info.campaign_id)))

    def unit(self, name: str) -> Any:
        state, _ = self.ledger.in_force(self.info, DISORDER)
        battle = (
            state.battles[state.active_battle]
            if state.active_battle
            else max(state.battles.values(), key=lambda b: b.number)
        )
        return battle.units[state.unit_by_name(name).unit_id]  # type: ignore[union-attr]

    def hit(self, name: str, lost: int, *faces: int, **kwargs: Any) -> AppendResult:
        hit = dib.Hit.build(unit_name=name, lost=lost, **kwargs)
        return self.ledger.execute(self.info, hit, table=TableEntry(faces))


def applied(result: AppendResult, rule: str) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in result.events if e.type == "rules.applied" and e.payload["rule"] == rule]


def facts(result: AppendResult, kind: str) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in result.events if e.type == kind]


@pytest.fixture
def table() -> Skirmish:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Peninsula", "disorder")
    s = Skirmish(ledger)
    for name, (side, profile) in UNITS.items():
        s.ledger.execute(s.info, dic.Muster.build(name=name, side=side, profile=profile))
    s.ledger.execute(s.info, dic.Appoint.build(side="British", officer="Sharpe"))
    s.ledger.execute(s.info, dic.Appoint.build(side="French", officer="Dubreton"))
    s.ledger.execute(s.info, dib.StartBattle.build(name="The bridge at Sabugal", units=list(UNITS)))
    return s


def refused(s: Skirmish, action: Callable[[], Any], message: str) -> None:
    before = s.log_length()
    with pytest.raises(InvalidInputError, match=message):
        action()
    assert s.log_length() == before, "a refused command appended something"


def test_c1_a_fail_above_two_retreats_and_keeps_its_marker(table: Skirmish) -> None:
    first = table.hit("Fusiliers", 2, 1, 1)  # 2 − 2 = 0 ≤ 2 with no marker: disordered
    assert applied(first, "morale_check")[0]["outcome"] == {"total": 0, "result": "disordered"}
    result = table.hit("Fusiliers", 3, 4, 3, close_order=True, officer_near=True)
    check = applied(result, "morale_check")[0]
    assert check["outcome"] == {"total": 5, "result": "retreat"}  # 7 − 3 − 1 + 0 + 1 + 1
    assert "7 (4+3) − 3 models lost − 1 markers + 1 close order + 1 officer" in check["explanation"]
    assert table.unit("Fusiliers").markers == 1 and table.unit("Fusiliers").removed is None


def test_c2_a_fail_of_two_or_less_while_disordered_flees(table: Skirmish) -> None:
    table.hit("Fusiliers", 2, 1, 1)
    result = table.hit("Fusiliers", 3, 2, 1, close_order=True, officer_near=True)
    assert applied(result, "morale_check")[0]["outcome"] == {"total": 1, "result": "flees"}
    assert facts(result, "battle.unit_removed")[0]["reason"].startswith("fled")
    assert table.unit("Fusiliers").removed is not None


def test_c3_discipline_counts_and_a_retreat_adds_no_marker(table: Skirmish) -> None:
    result = table.hit("Voltigeurs", 1, 2, 2)  # 4 − 1 + 1 = 4
    assert applied(result, "morale_check")[0]["outcome"] == {"total": 4, "result": "retreat"}
    assert table.unit("Voltigeurs").markers == 0


def test_c4_a_fail_of_two_or_less_in_order_takes_a_marker(table: Skirmish) -> None:
    result = table.hit("Line company", 2, 3, 1)  # 4 − 2 = 2
    check = applied(result, "morale_check")[0]
    assert check["outcome"] == {"total": 2, "result": "disordered"}
    assert "must rally" in check["explanation"]
    assert table.unit("Line company").must_rally == 2, "it must try to rally next turn"
    table.ledger.execute(table.info, dib.NextTurn.build())
    table.ledger.execute(
        table.info, dib.Rally.build(unit_name="Line company"), table=TableEntry((1, 1))
    )  # it tried: failed, but tried
    assert table.unit("Line company").must_rally is None
    assert facts(result, "morale.disorder_changed") == [
        {
            "battle_id": check["battle_id"],
            "unit_id": check["unit_id"],
            "markers": 1,
            "permanent": 0,
            "reason": "failed a morale check",
        }
    ]


def test_c5_simultaneous_causes_make_one_check_at_minus_one_each_extra(table: Skirmish) -> None:
    table.ledger.execute(
        table.info, dib.Remove.build(unit_name="Voltigeurs", reason="destroyed in melee")
    )  # a friend removed this turn (R3-9)
    result = table.hit("Fusiliers", 1, 4, 4, also=["friend_removed"])
    checks = applied(result, "morale_check")
    assert len(checks) == 1
    assert checks[0]["inputs"]["causes"] == ["casualties", "friend_removed"]
    assert checks[0]["outcome"]["total"] == 8 - 1 - 1


def test_c6_the_permanent_marker_comes_before_the_casualty_test(table: Skirmish) -> None:
    table.hit("Line company", 1, 1, 1)  # 2 − 1 = 1: a marker, 9 models
    result = table.hit("Line company", 4, 6, 6)  # 5 of 10 left: permanent marker, then 12 − 4 − 2 = 6
    rules = [e.payload["rule"] for e in result.events if e.type == "rules.applied"]
    assert rules == ["models_lost", "permanent_marker", "morale_check"]
    check = applied(result, "morale_check")[0]
    assert check["inputs"]["markers"] == 1 and check["inputs"]["permanent"] == 1
    assert check["outcome"] == {"total": 6, "result": "pass"}
    assert (table.unit("Line company").markers, table.unit("Line company").permanent) == (1, 1)


def test_c7_a_permanent_marker_that_is_the_third_flees_without_a_test(table: Skirmish) -> None:
    table.ledger.execute(table.info, dib.AddMarker.build(unit_name="Line company", reason="lost a melee"))
    table.ledger.execute(table.info, dib.AddMarker.build(unit_name="Line company", reason="lost a second melee"))
    result = table.ledger.execute(
        table.info, dib.Hit.build(unit_name="Line company", lost=5)
    )  # seeded dice: none may be rolled
    assert [e.payload["rule"] for e in result.events if e.type == "rules.applied"][:2] == [
        "models_lost",
        "permanent_marker",
    ]
    assert not applied(result, "morale_check") and not facts(result, "dice.rolled")
    assert table.unit("Line company").removed == "fled: a third marker"


def test_c8_a_blocked_retreat_loses_a_model_per_full_inch(table: Skirmish) -> None:
    result = table.ledger.execute(table.info, dib.Retreat.build(unit_name="Voltigeurs", needed="3", moved="1.5"))
    assert applied(result, "retreat")[0]["outcome"] == {"captured": 1, "fled": False}
    assert facts(result, "battle.models_lost")[0] == {**facts(result, "battle.models_lost")[0], "count": 1}
    assert table.unit("Voltigeurs").models == 9
    last = table.ledger.execute(table.info, dib.Retreat.build(unit_name="Voltigeurs", needed="3")).events[-1]
    assert obj(last.payload["outcome"])["captured"] == 0
    off = table.ledger.execute(table.info, dib.Retreat.build(unit_name="Voltigeurs", needed="2", off_table=True))
    assert facts(off, "battle.unit_removed")[0]["reason"] == "fled: left the table"


def test_c9_a_force_beyond_three_quarters_lost_flees_and_at_half_every_unit_tests(table: Skirmish) -> None:
    # French: Voltigeurs 90 + Fusiliers 80 = 170 points. Fusiliers gone: 80 (47%): nothing yet.
    table.ledger.execute(table.info, dib.Remove.build(unit_name="Fusiliers", reason="destroyed in melee"))
    half = table.hit("Voltigeurs", 1, 6, 6)  # 9 of 10 models: 80 + 9 = 89 of 170 (52%)
    # R2-7: the Voltigeurs' own loss brought the force to half: one more cause of their single check.
    assert applied(half, "force_half")[0]["outcome"] == {"status": "half", "units_to_check": []}
    assert applied(half, "morale_check")[0]["inputs"]["causes"] == ["casualties", "force_half"]
    again = table.hit("Voltigeurs", 1, 6, 6)  # 98 of 170: still only once
    assert not applied(again, "force_half")
    broke = table.hit("Voltigeurs", 3, 6, 6)  # 5 of 10 models left: 80 + 45 = 125 (73%): not yet
    assert not applied(broke, "force_flees")
    fled = table.hit("Voltigeurs", 1)  # 80 + 54 = 134 of 170 (78%) > 75%: they flee with no check (R2-7)
    assert not applied(fled, "morale_check")
    assert applied(fled, "force_flees")[0]["outcome"]["status"] == "flees"
    assert facts(fled, "battle.unit_removed")[-1]["reason"] == "fled: the force broke"
    state, _ = table.ledger.in_force(table.info, DISORDER)
    assert state.battles[state.active_battle].force["French"] == "flees"  # type: ignore[index]


def test_c9_house_rule_b3_reads_seventy_five_percent_or_more(table: Skirmish) -> None:
    table.ledger.execute(
        table.info, dic.HouseRule.build(path="force.flees_at_exactly", value=True, note="ch.6 wording")
    )
    table.ledger.execute(table.info, dic.HouseRule.build(path="force.flees_over", value=50))
    table.ledger.execute(table.info, dib.Remove.build(unit_name="Fusiliers", reason="destroyed in melee"))
    result = table.hit("Voltigeurs", 1)  # 89 of 170 = 52% ≥ 50: flight, no check (R2-7)
    assert applied(result, "force_flees")


def test_c10_exactly_six_passes(table: Skirmish) -> None:
    table.ledger.execute(
        table.info, dib.Remove.build(unit_name="Voltigeurs", reason="destroyed in melee")
    )  # a friend removed this turn (R3-9)
    result = table.ledger.execute(
        table.info, dib.CheckMorale.build(unit_name="Fusiliers", causes=["friend_removed"]), table=TableEntry((3, 3))
    )
    assert applied(result, "morale_check")[0]["outcome"] == {"total": 6, "result": "pass"}


def test_a_rally_removes_the_markers_but_never_the_permanent_one(table: Skirmish) -> None:
    table.hit("Line company", 1, 1, 1)  # a marker
    failed = table.ledger.execute(
        table.info, dib.Rally.build(unit_name="Line company"), table=TableEntry((2, 2))
    )  # 4 + 0 − 1 = 3
    assert applied(failed, "rally")[0]["outcome"]["passed"] is False
    table.ledger.execute(table.info, dib.NextTurn.build())  # one attempt a turn (R3-11)
    rallied = table.ledger.execute(
        table.info, dib.Rally.build(unit_name="Line company", officer_near=True), table=TableEntry((3, 3))
    )  # 6 − 1 + 1
    assert applied(rallied, "rally")[0]["outcome"] == {"total": 6, "passed": True, "markers": 0, "retreats": False}
    refused(
        table,
        lambda: table.ledger.execute(table.info, dib.Rally.build(unit_name="Line company")),
        "no marker a rally can remove",
    )
    table.hit("Line company", 4, 6, 6)  # 5 of 10: permanent marker, 12 − 4 − 1 = 7 passes
    refused(
        table,
        lambda: table.ledger.execute(table.info, dib.Rally.build(unit_name="Line company")),
        "permanent marker stays",
    )


def test_glory_and_careers_carry_across_battles_and_markers_do_not(table: Skirmish) -> None:
    assert table.ledger.in_force(table.info, DISORDER)[0].careers["Sharpe"].rank == "Lieutenant", (
        "the first rank, from the start"
    )
    table.hit("Line company", 1, 1, 1)  # British disordered
    table.ledger.execute(table.info, dib.Remove.build(unit_name="Fusiliers", reason="destroyed in melee"))
    table.ledger.execute(table.info, dib.OfficerDown.build(side="French"))
    end = table.ledger.execute(table.info, dib.EndBattle.build(winner="British", objectives={"British": 2}))
    glory = {g["inputs"]["side"]: g for g in applied(end, "glory")}
    # British: won 3 + 2 objectives + 1 enemy unit removed = 6; French: lost 0, officer removed −2 = −2.
    assert glory["British"]["outcome"] == {"glory": 6, "total": 6, "rank": "Lieutenant"}
    assert glory["French"]["outcome"] == {"glory": -2, "total": -2, "rank": "Lieutenant"}
    state, _ = table.ledger.in_force(table.info, DISORDER)
    assert state.careers["Sharpe"].glory == 6 and state.roster[state.unit_by_name("Line company").unit_id].battles == 1  # type: ignore[union-attr]
    table.ledger.execute(table.info, dib.StartBattle.build(name="The convent at Fuentes", units=list(UNITS)))
    assert table.unit("Line company").markers == 0, "markers end with the battle"
    table.ledger.execute(table.info, dib.Remove.build(unit_name="Voltigeurs", reason="destroyed"))
    second = table.ledger.execute(table.info, dib.EndBattle.build(winner="British", objectives={"British": 1}))
    sharpe = next(g for g in applied(second, "glory") if g["inputs"]["side"] == "British")
    assert sharpe["outcome"] == {"glory": 5, "total": 11, "rank": "Captain"}
    assert facts(second, "career.rank_reached") == [{"officer": "Sharpe", "rank": "Captain", "glory": 11}]
    state, _ = table.ledger.in_force(table.info, DISORDER)
    assert state.careers["Sharpe"].rank == "Captain" and state.careers["Sharpe"].glory_by_battle == (6, 5)


def test_bad_input_is_refused_and_nothing_is_appended(table: Skirmish) -> None:
    i = table.info
    refused(
        table,
        lambda: table.ledger.execute(i, dib.Hit.build(unit_name="Grenadiers", lost=1)),
        "unknown unit 'Grenadiers'",
    )
    refused(
        table, lambda: table.ledger.execute(i, dib.Hit.build(unit_name="Fusiliers", lost=-1)), "lost must be at least 1"
    )
    refused(
        table, lambda: table.ledger.execute(i, dib.Hit.build(unit_name="Fusiliers", lost=0)), "lost must be at least 1"
    )
    refused(
        table,
        lambda: table.ledger.execute(i, dib.Hit.build(unit_name="Fusiliers", lost=1), table=TableEntry((7, 1))),
        "7 is not a face of a d6",
    )
    refused(
        table,
        lambda: table.ledger.execute(i, dib.Hit.build(unit_name="Fusiliers", lost=1, cause="artillery")),
        "shooting or melee",
    )
    refused(
        table,
        lambda: table.ledger.execute(i, dib.Hit.build(unit_name="Fusiliers", lost=1, also=["weather"])),
        "unknown cause",
    )
    refused(
        table, lambda: table.ledger.execute(i, dib.CheckMorale.build(unit_name="Fusiliers", causes=[])), "needs a cause"
    )
    refused(
        table,
        lambda: table.ledger.execute(i, dib.CheckMorale.build(unit_name="Fusiliers", causes=["casualties"])),
        "comes with the loss",
    )
    refused(
        table,
        lambda: table.ledger.execute(i, dib.Retreat.build(unit_name="Fusiliers", needed="2", moved="3")),
        "cannot move more",
    )
    refused(
        table,
        lambda: table.ledger.execute(i, dib.Retreat.build(unit_name="Fusiliers", needed="3", moved="1.25")),
        "to a tenth at most",
    )
    refused(
        table, lambda: table.ledger.execute(i, dib.EndBattle.build(winner="Prussians")), "not a side of this battle"
    )
    refused(
        table,
        lambda: table.ledger.execute(i, dib.EndBattle.build(winner="British", objectives={"British": -1})),
        "objectives.British cannot be negative",
    )
    refused(
        table,
        lambda: table.ledger.execute(i, dib.EndBattle.build(winner="British", objectives={"British": 1001})),
        "objectives.British must be at most 1000",
    )
    refused(
        table,
        lambda: table.ledger.execute(i, dib.Hit.build(unit_name="Fusiliers", lost=1001)),
        "lost must be at most 1000",
    )
    refused(
        table,
        lambda: table.ledger.execute(
            i, dic.Muster.build(name="Hussars", side="French", profile={"models": 6, "troops": "hussars", "points": 50})
        ),
        "troop",
    )
    refused(
        table,
        lambda: table.ledger.execute(
            i, dic.Muster.build(name="Hussars", side="French", profile={"models": 0, "troops": "line", "points": 50})
        ),
        "models",
    )
    refused(
        table,
        lambda: table.ledger.execute(i, dib.StartBattle.build(name="Another", units=["Fusiliers"])),
        "still being fought",
    )
    refused(table, lambda: table.ledger.execute(i, dic.HouseRule.build(path="rally.removes", value="some")), "'all'")
    refused(
        table,
        lambda: table.ledger.execute(i, dic.HouseRule.build(path="check.dice", value="2q6")),
        "malformed dice notation",
    )
    refused(
        table, lambda: table.ledger.execute(i, dic.HouseRule.build(path="force.flees_over", value=175)), "percentage"
    )
    refused(table, lambda: table.ledger.execute(i, dic.HouseRule.build(path="markers.flees_at", value=0)), "at least 1")
    refused(
        table, lambda: table.ledger.execute(i, dic.Appoint.build(side="French", officer="Massena")), "between battles"
    )
    refused(
        table,
        lambda: table.ledger.execute(i, dic.Transfer.build(from_unit="Fusiliers", to_unit="Voltigeurs", men=2)),
        "between battles",
    )
    table.ledger.execute(i, dib.Remove.build(unit_name="Fusiliers", reason="destroyed"))
    refused(
        table, lambda: table.ledger.execute(i, dib.Hit.build(unit_name="Fusiliers", lost=1)), "no longer on the table"
    )
    refused(table, lambda: table.ledger.execute(i, dib.OfficerDown.build(side="Austrians")), "not a side")


def test_every_recorded_rule_re_evaluates_to_what_was_recorded(table: Skirmish) -> None:
    table.hit("Fusiliers", 2, 1, 1)
    table.ledger.execute(table.info, dib.OfficerDown.build(side="British"))
    table.ledger.execute(
        table.info, dib.Hit.build(unit_name="Line company", lost=3, also=["officer_removed"], close_order=True)
    )
    table.ledger.execute(table.info, dib.Rally.build(unit_name="Fusiliers"))
    table.ledger.execute(table.info, dib.Retreat.build(unit_name="Voltigeurs", needed="3", moved="0.5"))
    table.ledger.execute(table.info, dib.Remove.build(unit_name="Line company", reason="destroyed in melee"))
    table.ledger.execute(table.info, dib.CheckMorale.build(unit_name="95th Rifles", causes=["friend_removed"]))
    table.ledger.execute(table.info, dib.EndBattle.build(winner=None))
    assert Timeline(table.ledger).reevaluate(table.info) == []


def test_a_loss_of_all_the_models_left_destroys_the_unit_one_more_is_refused(table: Skirmish) -> None:
    """A loss is of models the unit has (refused like `fs attack`'s, never capped unsaid)."""
    refused(
        table,
        lambda: table.ledger.execute(table.info, dib.Hit.build(unit_name="Fusiliers", lost=13)),
        "Fusiliers has 12 models left; it cannot lose 13",
    )
    refused(
        table,
        lambda: table.ledger.execute(table.info, dib.Hit.build(unit_name="Fusiliers", lost=1000)),
        "it cannot lose 1000",
    )
    result = table.ledger.execute(table.info, dib.Hit.build(unit_name="Fusiliers", lost=12))  # all of its 12 go
    assert applied(result, "models_lost")[0]["outcome"] == {"models": 0}
    assert facts(result, "battle.unit_removed")[0]["reason"] == "destroyed"


def test_a_battle_end_recorded_before_commands_were_models_reads_with_no_objectives() -> None:
    """Version 0 (the service's parameters) may hold ``objectives: null``: it reads as no objectives held."""
    read = recorded_command("dis.battle_end", None, {"winner": None, "objectives": None})
    assert read == EndBattle(winner=None, objectives={})
