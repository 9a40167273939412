"""The service layer on the in-memory fake: creating campaigns, rolling, refusing bad input."""

from __future__ import annotations

import pytest

from campaign.executor import Ledger, TableEntry
from events.dice import derive_faces
from events.envelope import RecordedEvent
from events.errors import ConcurrencyError, DiceError, InvalidInputError, NotFoundError
from events.recorded import seq, text
from events.store import AppendResult
from tests.conftest import Backend, make_ledger


@pytest.fixture
def mem() -> Ledger:
    return make_ledger(Backend("memory"))


def dice_event(result: AppendResult) -> RecordedEvent:
    return next(e for e in result.events if e.type == "dice.rolled")


def log_length(ledger: Ledger) -> int:
    return sum(len(list(ledger.store.read(cid))) for cid in ledger.store.campaign_ids())


def test_a_campaign_commits_to_its_seed_without_revealing_it(mem: Ledger) -> None:
    result = mem.create_campaign("Ardennes", "fighting-spirit", seed=b"s" * 32)
    created = result.events[0]
    assert created.type == "campaign.created"
    assert "s" * 32 not in str(created.payload) and len(text(created.payload["seed_commitment"])) == 64
    assert mem.vault.seed(created.campaign_id, 0) == b"s" * 32


def test_seeded_rolls_come_from_the_seed_at_growing_indexes(mem: Ledger) -> None:
    mem.create_campaign("Ardennes", "fighting-spirit", seed=b"s" * 32)
    faces = []
    for i in range(3):
        info = mem.resolve("Ardennes")
        event = dice_event(mem.roll(info, "d8", f"test {i}"))
        assert event.payload["roll_index"] == i
        faces.append(tuple(seq(event.payload["faces"])))
    assert faces == [derive_faces(b"s" * 32, info.campaign_id, i, 1, 8) for i in range(3)]


@pytest.mark.parametrize(
    ("notation", "dice", "error"),
    [("d6", (7,), DiceError), ("2d6", (3,), DiceError), ("2x6", None, DiceError), ("d6", (2, 2), DiceError)],
)
def test_bad_rolls_append_nothing(mem: Ledger, notation: str, dice: tuple[int, ...] | None, error: type) -> None:
    mem.create_campaign("Ardennes", "fighting-spirit")
    before = log_length(mem)
    with pytest.raises(error):
        mem.roll(mem.resolve(None), notation, "x", table=TableEntry(dice) if dice else None)
    assert log_length(mem) == before


def test_unknown_ruleset_duplicate_name_and_unknown_campaign_are_refused(mem: Ledger) -> None:
    with pytest.raises(InvalidInputError, match="unknown ruleset"):
        mem.create_campaign("X", "warhammer")
    mem.create_campaign("X", "grimdark")
    with pytest.raises(InvalidInputError, match="already exists"):
        mem.create_campaign("X", "grimdark")
    with pytest.raises(NotFoundError):
        mem.resolve("Y")
    assert log_length(mem) == 1


def test_reveal_rotates_and_later_rolls_use_the_new_seed(mem: Ledger) -> None:
    mem.create_campaign("A", "mass-combat")
    mem.roll(mem.resolve(None), "3d", "before")
    info = mem.resolve(None)
    mem.reveal(info)
    after = mem.resolve(None)
    assert after.seed_epoch == 1 and after.revealed_epochs == (0,)
    event = dice_event(mem.roll(after, "3d", "after"))
    assert event.payload["seed_epoch"] == 1 and event.payload["roll_index"] == 1
    assert tuple(seq(event.payload["faces"])) == derive_faces(
        mem.vault.seed(info.campaign_id, 1), info.campaign_id, 1, 3, 6
    )


def test_a_stale_state_loses_the_race_and_a_repeated_command_id_appends_nothing(mem: Ledger) -> None:
    mem.create_campaign("A", "grimdark")
    stale = mem.resolve(None)
    mem.roll(stale, "d6", "first")
    with pytest.raises(ConcurrencyError):
        mem.roll(stale, "d6", "second")
    once = mem.roll(mem.resolve(None), "d6", "third", command_id="cmd-1")
    again = mem.roll(mem.resolve(None), "d6", "third", command_id="cmd-1")
    assert again.duplicate and again.events == once.events
    assert log_length(mem) == 1 + 2 * 2  # each roll: its command, then its die
