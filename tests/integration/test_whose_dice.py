"""Whose dice: a roll belongs to the side whose unit it tests (DESIGN.md, "Inputs typed by what they are").

A command entered for some sides only (a player's, on the shared server: ``Entrant``) rolls its own dice for its
own sides' units; a roll it makes for another side's unit is that side's — its own table dice, or the campaign's
seeded dice if it chose them — and is refused in words when that side gave none, never taken from the dice the
one who typed the command entered. The executor takes the other side's dice beside the command, each recorded
as entered by whoever read it off the table (what a page "waiting for the Saurians' die" hands in).

RULES.md §4.1 B, the melee: the side that caused fewer unblocked wounds tests; Quality 4+ passes on a d6 of 4 or
more; a unit at half strength that fails Routs. Robot Squad (Robots) deals 9 wounds to Saurian Warriors
(Saurians, 10 models, Quality 4+) and takes none: the Saurians caused fewer, and test, at 1 model of 10.
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign.executor import Entrant, Ledger, TableEntry
from campaign.rulesets.grimdark import commands as gfc
from events.dice import AnotherSidesDieError, parse
from events.dice.dice import SeededDice, SidedDice, TableDice
from events.errors import DiceError
from events.recorded import obj
from tests.conftest import Backend, make_ledger

SQUAD = {"models": 10, "quality": 4, "points": 150}


@pytest.fixture
def ledger() -> Ledger:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Sector 7", "grimdark")
    at = ledger.resolve(None)
    for name, side in (("Robot Squad", "Robots"), ("Saurian Warriors", "Saurians")):
        ledger.execute(at, gfc.Muster.build(name=name, side=side, profile=SQUAD))
        at = ledger.resolve(None)
    units = ("Robot Squad", "Saurian Warriors")
    ledger.execute(at, gfc.StartBattle.build(name="Ruins", units=units))
    return ledger


def melee() -> gfc.Melee:
    return gfc.Melee.build(a="Robot Squad", b="Saurian Warriors", wounds_by_a=9, wounds_by_b=0)


def rolled(result: Any) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in result.events if e.type == "dice.rolled"]


def test_a_players_table_die_is_never_taken_for_the_other_sides_test(ledger: Ledger) -> None:
    info = ledger.resolve(None)
    before = info.last_seq
    robots = Entrant(frozenset({"Robots"}))
    for table in (TableEntry((1,)), None):  # the table's 1, or the campaign's dice: the Saurians' test either way
        with pytest.raises(AnotherSidesDieError) as refused:
            ledger.execute(info, melee(), table=table, entrant=robots)
        assert str(refused.value) == (
            "morale test (lost a melee), Saurian Warriors (d6) is rolled for Saurians: the player of Saurians "
            "or the game master enters it, never the one who typed the command"
        )
        assert refused.value.side == "Saurians"
    assert ledger.resolve(None).last_seq == before  # nothing appended


def test_the_other_sides_die_is_its_own_entered_by_its_player(ledger: Ledger) -> None:
    info = ledger.resolve(None)
    entrant = Entrant(frozenset({"Robots"}), {"Saurians": TableEntry((6,), entered_by="sam")})
    result = ledger.execute(info, melee(), entrant=entrant)
    [die] = rolled(result)
    assert (die["faces"], die["source"], die["entered_by"]) == ([6], "table", "sam")
    tests = [e.payload for e in result.events if e.type == "rules.applied" and e.payload["rule"] == "morale_test"]
    assert [obj(t["outcome"])["passed"] for t in tests] == [True]  # a 6 on Quality 4+: passes, no Rout


def test_a_side_that_chose_the_campaigns_dice_has_them_rolled(ledger: Ledger) -> None:
    info = ledger.resolve(None)
    result = ledger.execute(info, melee(), entrant=Entrant(frozenset({"Robots"}), {"Saurians": None}))
    [die] = rolled(result)
    assert die["source"] == "seeded" and die["roll_index"] == info.next_roll_index


def test_the_game_master_enters_every_sides_dice(ledger: Ledger) -> None:
    result = ledger.execute(ledger.resolve(None), melee(), table=TableEntry((1,)))  # no entrant: every roll
    [die] = rolled(result)
    assert (die["faces"], die["entered_by"]) == ([1], "gm")
    removed = [e.payload for e in result.events if e.type == "battle.unit_removed"]
    assert [r["reason"] for r in removed] == ["routed"]  # fails at 1 of 10 models: Routs


def test_sided_dice_share_the_roll_indexes_and_refuse_leftover_dice() -> None:
    own = TableDice([4, 2], "pat", 7)
    theirs = TableDice([5], "sam", 0)
    dice = SidedDice(own, frozenset({"Robots"}), {"Saurians": theirs})
    d6 = parse("d6")
    assert dice.roll(d6, "ours", side="robots").faces == (4,)  # letter case aside, as a side is read
    assert dice.roll(d6, "theirs", side="Saurians").faces == (5,)
    assert dice.roll(d6, "nobody's: the weather").faces == (2,)  # a roll of no side's: the entrant's
    assert [(r.roll_index, r.entered_by) for r in dice.rolled] == [(7, "pat"), (8, "sam"), (9, "pat")]
    dice.finish()
    short = SidedDice(TableDice([4, 2], "pat", 0), frozenset({"Robots"}))
    short.roll(d6, "ours", side="Robots")
    with pytest.raises(DiceError, match="1 was not used"):
        short.finish()
    with pytest.raises(AnotherSidesDieError):
        SidedDice(SeededDice("c", b"k" * 32, 0, 0), frozenset({"Robots"})).roll(d6, "theirs", side="Saurians")
