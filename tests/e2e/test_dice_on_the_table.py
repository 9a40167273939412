"""Dice stay on the table (DESIGN.md, "Dice"): a retracted command's dice are offered again, in order,
to the next commands that roll the same dice; only an explicit, recorded reroll takes them off the table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.timeline import Timeline
from events.errors import InvalidInputError
from events.recorded import seq
from tests.conftest import Backend, examples, make_ledger
from tests.e2e.test_cli import Cli


def _rolls(result: Any) -> list[dict[str, Any]]:
    return [dict(e["payload"]) for e in result["events"] if e["type"] == "dice.rolled"]


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "table.db"))
    c("new", "Table", "--ruleset", "grimdark")
    return c


def test_ten_rewinds_give_the_same_die_ten_times_and_verify_says_so(cli: Cli) -> None:
    first = _rolls(cli.json("roll", "d20", "-p", "ambush"))[0]
    seen = []
    for _ in range(10):
        cli("undo")
        again = _rolls(cli.json("roll", "d20", "-p", "ambush"))[0]
        assert again["faces"] == first["faces"] and again["source"] == "offered"
        assert again["roll_index"] > first["roll_index"], "a roll index is never used again"
        seen.append(again["offered_from"])
    assert len(set(seen)) == 10, "each re-entry is offered the die the one before it left on the table"
    [report] = cli.json("verify")
    assert report["ok"] is True and report["offered_rolls"] == 10


def test_other_dice_do_not_take_a_die_left_for_the_same_dice(cli: Cli) -> None:
    d20 = _rolls(cli.json("roll", "d20", "-p", "ambush"))[0]
    cli("undo")
    six = _rolls(cli.json("roll", "d6", "-p", "scatter"))[0]
    assert six["source"] == "seeded", "a d6 is not the d20 left on the table"
    again = _rolls(cli.json("roll", "d20", "-p", "ambush"))[0]
    assert again["faces"] == d20["faces"] and again["offered_from"] == d20["roll_index"]


def test_a_reroll_is_explicit_recorded_and_refused_with_nothing_on_the_table(cli: Cli) -> None:
    assert "no dice are on the table" in cli("reroll", "--reason", "cocked die", code=2).output
    d20 = _rolls(cli.json("roll", "d20", "-p", "ambush"))[0]
    cli("undo")
    assert "needs a reason" in cli("reroll", "--reason", " ", code=2).output
    set_aside = cli.json("reroll", "--reason", "the die fell off the table")
    assert set_aside["events"][0]["payload"] == {
        "roll_index": d20["roll_index"],
        "reason": "the die fell off the table",
    }
    fresh = _rolls(cli.json("roll", "d20", "-p", "ambush"))[0]
    assert fresh["source"] == "seeded" and fresh.get("offered_from") is None
    cli("undo")  # the roll after the reroll goes back on the table; the reroll itself stays
    again = _rolls(cli.json("roll", "d20", "-p", "ambush"))[0]
    assert again["faces"] == fresh["faces"] and again["offered_from"] == fresh["roll_index"]
    assert cli.json("verify")[0]["ok"] is True


def test_a_rule_re_entered_after_a_rewind_gets_its_dice_again(cli: Cli) -> None:
    cli("gf", "muster", "A", "--side", "X", "--models", "10", "--quality", "4", "--points", "140")
    cli("gf", "muster", "B", "--side", "Y", "--models", "10", "--quality", "4", "--points", "140")
    cli("gf", "battle-start", "Field", "--unit", "A", "--unit", "B")
    head = cli.events()
    first = cli.json("gf", "shoot", "A", "--wounds", "5", "--by", "B")  # half strength: a morale test on a d6
    cli("rewind", "--to", str(head))
    again = cli.json("gf", "shoot", "A", "--wounds", "5", "--by", "B")
    assert [r["faces"] for r in _rolls(again)] == [r["faces"] for r in _rolls(first)]
    outcome = [e["payload"]["outcome"] for e in again["events"] if e["type"] == "rules.applied"]
    assert outcome == [e["payload"]["outcome"] for e in first["events"] if e["type"] == "rules.applied"]
    assert cli.json("verify")[0]["ok"] is True


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["d6", "d20", "undo", "reroll"]), max_size=25))
def test_a_re_entered_roll_never_gets_another_die_unless_a_reroll_is_recorded(script: list[str]) -> None:
    """An independent model: each append is live unless an undo in effect took it back; the table holds, in the
    order rolled, the dice of rolls not in effect, less those offered again or set aside by a reroll."""
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Model", "grimdark")
    timeline = Timeline(ledger)
    appends: list[dict[str, Any]] = []  # {"kind", "die": (index, notation, faces), "target": i, "from": index}
    taken: set[int] = set()

    def live(i: int) -> bool:
        return not any(a["kind"] == "undo" and a["target"] == i and live(j) for j, a in enumerate(appends))

    def table() -> list[tuple[int, str, tuple[int, ...]]]:
        return [
            a["die"] for i, a in enumerate(appends) if a["kind"] == "roll" and not live(i) and a["die"][0] not in taken
        ]

    for step in script:
        info = ledger.resolve(None)
        if step in ("d6", "d20"):
            held = next((d for d in table() if d[1] == step), None)
            result = ledger.roll(info, step, "model")
            [rolled] = [e.payload for e in result.events if e.type == "dice.rolled"]
            if held is not None:
                assert tuple(seq(rolled["faces"])) == held[2] and rolled["offered_from"] == held[0]
                taken.add(held[0])
            else:
                assert rolled["source"] == "seeded"
            appends.append({"kind": "roll", "die": (rolled["roll_index"], step, tuple(seq(rolled["faces"])))})
        elif step == "reroll":
            waiting = table()
            if not waiting:
                with pytest.raises(InvalidInputError):
                    ledger.reroll(info, "model")
                continue
            ledger.reroll(info, "model")
            taken.add(waiting[0][0])
        else:
            target = next((i for i in reversed(range(len(appends))) if live(i)), None)
            if target is None:
                with pytest.raises(InvalidInputError):
                    timeline.undo(info)
                continue
            timeline.undo(info)
            appends.append({"kind": "undo", "target": target})


def test_physical_dice_left_on_the_table_are_entered_again_not_rethrown(cli: Cli) -> None:
    cli("roll", "d20", "-p", "ambush", "--dice", "7")
    cli("undo")
    before = cli.events()
    refused = cli("roll", "d20", "-p", "ambush", "--dice", "19", code=2)
    assert "still on the table (7" in refused.output and "reroll" in refused.output
    assert "“ambush”" in refused.output  # the purpose the die on the table was rolled for
    impossible = cli("roll", "d20", "-p", "ambush", "--dice", "21", code=2)
    assert "21 is not a face of a d20" in impossible.output  # a bad die is named as such, table or no table
    assert cli.events() == before
    again = _rolls(cli.json("roll", "d20", "-p", "ambush", "--dice", "7"))[0]
    assert again["faces"] == [7] and again["source"] == "offered"
