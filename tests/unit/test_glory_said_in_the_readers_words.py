"""A disorder officer's Glory, as the log says it in each language: the translations word the noun as their
grammar wants it ("5 славы", "5 chwały"), and that word is the sentence's, never a format Python is asked to
read (it failed the whole campaign page in Russian and Polish with a 500)."""

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
        ("pl", "zyskuje 5 chwały", "traci 2 chwały", "nie zyskuje chwały"),
    ],
)
def test_an_officers_glory_is_said_in_the_readers_words(lang: str, gained: str, lost: str, none: str) -> None:
    with reading_in(lang):
        assert describe(glory(5)) == f"Capt Dubreton (French) {gained}"
        assert describe(glory(-2)) == f"Capt Dubreton (French) {lost}"
        assert describe(glory(0)) == f"Capt Dubreton (French) {none}"
