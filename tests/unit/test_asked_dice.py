"""``--dice ask`` underneath: dice asked for one at a time through a callback, checked, recorded as table dice;
and the counting dice of a dry run."""

from __future__ import annotations

import pytest

from campaign.cli.common import tally
from campaign.executor import AskEntry, Ledger
from events.dice import parse
from events.dice.ask import Ask, CountingDice, DieRequest
from events.errors import DiceError
from tests.conftest import Backend, make_ledger


@pytest.fixture
def mem() -> Ledger:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Ardennes", "fighting-spirit", seed=b"s" * 32)
    return ledger


def test_each_die_is_asked_for_in_order_and_recorded_as_table_dice(mem: Ledger) -> None:
    asked: list[DieRequest] = []
    answers = iter([3, 5])

    def ask(request: DieRequest) -> int:
        asked.append(request)
        return next(answers)

    result = mem.roll(mem.resolve(None), "2d6+1", "morale check, Fusiliers", table=AskEntry(ask))
    rolled = next(e for e in result.events if e.type == "dice.rolled").payload
    assert (rolled["faces"], rolled["total"], rolled["source"], rolled["entered_by"]) == ([3, 5], 9, "table", "gm")
    assert [r.question() for r in asked] == [
        "Morale check, Fusiliers: d6 (1 of 2 for 2d6+1)?",
        "Morale check, Fusiliers: d6 (2 of 2 for 2d6+1)?",
    ]


def _answering(asked: list[str], face: int) -> Ask:
    """The player at the table: notes each question put and answers ``face``."""

    def ask(request: DieRequest) -> int:
        asked.append(request.question())
        return face

    return ask


def test_a_single_die_is_asked_for_plainly(mem: Ledger) -> None:
    asked: list[str] = []
    mem.roll(mem.resolve(None), "d8", "morale test of 3rd Squad", table=AskEntry(_answering(asked, 8)))
    assert asked == ["Morale test of 3rd Squad: d8?"]


@pytest.mark.parametrize("face", [0, 7])
def test_a_face_the_die_does_not_have_is_refused_and_nothing_is_appended(mem: Ledger, face: int) -> None:
    before = mem.resolve(None).last_seq
    with pytest.raises(DiceError, match=f"{face} is not a face of a d6"):
        mem.roll(mem.resolve(None), "d6", "x", table=AskEntry(lambda _: face))
    assert mem.resolve(None).last_seq == before


def test_the_highest_and_lowest_faces_are_taken(mem: Ledger) -> None:
    for face in (1, 6):
        result = mem.roll(mem.resolve(None), "d6", "x", table=AskEntry(lambda _, f=face: f))  # type: ignore[misc]
        assert next(e for e in result.events if e.type == "dice.rolled").payload["faces"] == [face]


def test_counting_dice_answer_at_either_end_and_tally_the_kinds() -> None:
    low, high = CountingDice("low", 0), CountingDice("high", 0)
    for dice in (low, high):
        dice.roll(parse("2d6"), "morale check")
        dice.roll(parse("d8"), "rally")
    assert [r.faces for r in low.rolled] == [(1, 1), (1,)]
    assert [r.faces for r in high.rolled] == [(6, 6), (8,)]
    assert tally(low.needed) == "3 dice: 2 d6, 1 d8"
    assert tally(low.needed[1:]) == "1 die: 1 d8"
    assert tally([]) == "no dice"


def test_a_die_left_on_the_table_by_an_undo_is_asked_for_again_and_must_match(mem: Ledger) -> None:
    from campaign.timeline import Timeline

    mem.roll(mem.resolve(None), "d8", "morale test of 3rd Squad", table=AskEntry(lambda _: 6))
    Timeline(mem).undo(mem.resolve(None))
    asked: list[str] = []
    before = mem.resolve(None).last_seq
    with pytest.raises(DiceError, match="still on the table"):
        mem.roll(mem.resolve(None), "d8", "again", table=AskEntry(_answering(asked, 2)))
    assert asked == ["Again: d8 [still on the table: 6]?"] and mem.resolve(None).last_seq == before
    result = mem.roll(mem.resolve(None), "d8", "again", table=AskEntry(lambda _: 6))
    rolled = next(e for e in result.events if e.type == "dice.rolled").payload
    assert (rolled["faces"], rolled["source"]) == ([6], "offered")
