"""A disorder unit's lost models, as the log says them: the cause (shooting, melee, or captured when a retreat falls
short, RULES.md §1.5) in the reader's words — the page's log showed the recorded "captured" in a Russian sentence."""

from __future__ import annotations

import pytest

from campaign.i18n import reading_in
from campaign.read.describe import describe
from events.envelope import RecordedEvent
from events.recorded import JsonValue


def lost(cause: str, count: int) -> RecordedEvent:
    payload: dict[str, JsonValue] = {"battle_id": "b1", "unit_id": "u1", "count": count, "cause": cause}
    return RecordedEvent(1, "c", 1, "battle.models_lost", 1, payload, {"command": "dis.retreat"}, "0" * 64, "x")


@pytest.mark.parametrize(
    ("lang", "cause", "count", "said"),
    [
        ("en", "captured", 1, "Voltigeurs loses 1 model (captured)"),
        ("ru", "captured", 1, "Voltigeurs теряет: 1 модель (плен)"),
        ("ru", "shooting", 2, "Voltigeurs теряет: 2 модели (стрельба)"),
        ("pl", "captured", 1, "Voltigeurs traci: 1 model (niewola)"),
        ("pl", "melee", 5, "Voltigeurs traci: 5 modeli (walka wręcz)"),
    ],
)
def test_a_loss_is_said_with_its_cause_in_the_readers_words(lang: str, cause: str, count: int, said: str) -> None:
    with reading_in(lang):
        assert describe(lost(cause, count), {"u1": "Voltigeurs"}) == said
