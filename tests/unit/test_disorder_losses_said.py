"""A disorder unit's lost models and a five-grade unit's panic, as the log says them: a loss's cause (shooting,
melee, or captured when a retreat falls short, RULES.md §1.5) in the reader's words — the page's log showed the
recorded "captured" in a Russian sentence."""

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


def panic(state: str) -> RecordedEvent:
    payload: dict[str, JsonValue] = {"battle_id": "b1", "unit_id": "u1", "panic": state}
    return RecordedEvent(1, "c", 1, "morale.panic_changed", 1, payload, {"command": "fs.attack"}, "0" * 64, "x")


@pytest.mark.parametrize(
    ("lang", "state", "said"),
    [
        ("ru", "panicking", "Keno 3rd Squad: в панике"),
        ("ru", "immune", "Keno 3rd Squad: не подвержен панике"),
        ("pl", "panicking", "Keno 3rd Squad: w panice"),
        ("pl", "immune", "Keno 3rd Squad: odporny na panikę"),
    ],
)
def test_a_five_grade_units_panic_is_said_in_the_readers_words(lang: str, state: str, said: str) -> None:
    """A unit's panic (§0.5, R3-2) was the recorded "panicking" in a Russian and a Polish log."""
    with reading_in(lang):
        assert describe(panic(state), {"u1": "Keno 3rd Squad"}) == said
