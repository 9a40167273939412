"""A disorder officer's Glory, as the log says it in each language: the translations word the noun as their
grammar wants it ("5 славы", "5 Chwały"), and that word is the sentence's, never a format Python is asked to
read (it failed the whole campaign page in Russian and Polish with a 500). Polish writes the game's measure with a
capital, as the rule's own line beside it does ("+5 Chwały; razem 5"); the Russian seed writes «слава» lowercase."""

from __future__ import annotations

import pytest

from campaign.i18n import reading_in
from campaign.read.describe import describe
from events.envelope import RecordedEvent
from events.recorded import JsonValue


def glory(n: int) -> RecordedEvent:
    payload: dict[str, JsonValue] = {
        "officer": "Capt Dubreton",
        "side": "French",
        "glory": n,
        "battle_id": "b1",
        "sources": {"won": n},
    }
    return RecordedEvent(1, "c", 1, "career.glory_awarded", 1, payload, {"command": "dis.battle_end"}, "0" * 64, "x")


@pytest.mark.parametrize(
    ("lang", "gained", "lost", "none"),
    [
        ("en", "gains 5 Glory", "loses 2 Glory", "gains no Glory"),
        ("ru", "получает 5 славы", "теряет 2 славы", "не получает славы"),
        ("pl", "zyskuje 5 Chwały", "traci 2 Chwały", "nie zyskuje Chwały"),
    ],
)
def test_an_officers_glory_is_said_in_the_readers_words(lang: str, gained: str, lost: str, none: str) -> None:
    with reading_in(lang):
        assert describe(glory(5)) == f"Capt Dubreton (French) {gained}"
        assert describe(glory(-2)) == f"Capt Dubreton (French) {lost}"
        assert describe(glory(0)) == f"Capt Dubreton (French) {none}"


@pytest.mark.parametrize(("lang", "rank"), [("ru", "(3 славы)"), ("pl", "(3 Chwały)")])
def test_a_promotion_says_the_glory_as_the_award_beside_it(lang: str, rank: str) -> None:
    payload: dict[str, JsonValue] = {"officer": "Capt Dubreton", "side": "French", "rank": "captain", "glory": 3}
    event = RecordedEvent(1, "c", 1, "career.rank_reached", 1, payload, {"command": "dis.battle_end"}, "0" * 64, "x")
    with reading_in(lang):
        assert describe(event).endswith(rank)
