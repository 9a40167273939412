"""Shares of entropy on every backend (memory, SQLite, PostgreSQL) alike: the share and its commitment
in one transaction, the dice derived with the shares, checked after the reveal; and a share that cannot be stored
leaves nothing behind."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from campaign.executor import Ledger, TableEntry
from events.dice.derive import derive_faces, dice_key
from events.errors import InvalidInputError, NotFoundError
from events.registry import registry
from events.schema import dice_shares
from events.vault import SeedVault, SqlSeedVault
from events.verify import check_held_seeds, check_held_shares, verify_events
from tests.conftest import Backend, make_ledger


class DiskGoneError(RuntimeError):
    pass


def as_actor(ledger: Ledger, actor: str) -> Ledger:
    other = copy.copy(ledger)
    other.actor = actor
    return other


def test_shares_mix_into_the_dice_and_verify_after_the_reveal(backend: Backend) -> None:
    ledger = make_ledger(backend)
    ledger.create_campaign("Hill", "fighting-spirit")
    as_actor(ledger, "gina").commit_share(ledger.resolve("Hill"), "gina's line")
    as_actor(ledger, "pat").commit_share(ledger.resolve("Hill"), "pat's line")
    info = ledger.resolve("Hill")
    assert info.epoch_shares == 2
    rolled = ledger.roll(info, "4d6", "four dice").events[1].payload["faces"]
    seed = ledger.vault.seed(info.campaign_id, 0)
    key = dice_key(seed, info.campaign_id, 0, ["gina's line", "pat's line"])
    assert list(derive_faces(key, info.campaign_id, 0, 4, 6)) == rolled
    with pytest.raises(InvalidInputError, match="already used the seed of epoch 0"):
        as_actor(ledger, "olive").commit_share(ledger.resolve("Hill"), "late")
    revealed = ledger.reveal(ledger.resolve("Hill")).events[0].payload
    assert revealed["shares"] == ["gina's line", "pat's line"]
    info = ledger.resolve("Hill")
    assert info.epoch_shares == 0 and info.seed_epoch == 1
    report = verify_events(info.campaign_id, ledger.store.read(info.campaign_id), registry)
    assert report.ok and report.rolls_rederived == 1
    check_held_seeds(report, lambda epoch: ledger.vault.seed(info.campaign_id, epoch))
    check_held_shares(report, lambda: [(h.epoch, h.seq, h.share) for h in ledger.vault.shares(info.campaign_id)])
    assert report.ok, report.findings


def _fail(*_args: Any, **_kwargs: Any) -> None:
    raise DiskGoneError("the disk went away while storing a share")


def test_a_share_that_cannot_be_stored_leaves_nothing(backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = make_ledger(backend)
    ledger.create_campaign("Hill", "fighting-spirit")
    info = ledger.resolve("Hill")
    monkeypatch.setattr(SqlSeedVault if backend.engine is not None else SeedVault, "_store_share", _fail)
    with pytest.raises(DiskGoneError):
        ledger.commit_share(info, "lost")
    assert ledger.resolve("Hill").last_seq == info.last_seq and ledger.vault.shares(info.campaign_id) == []
    monkeypatch.undo()
    ledger.commit_share(ledger.resolve("Hill"), "kept")
    assert [h.share for h in ledger.vault.shares(info.campaign_id)] == ["kept"]
    assert ledger.resolve("Hill").epoch_shares == 1


def test_a_seed_whose_shares_are_not_all_held_does_not_roll(backend: Backend) -> None:
    if backend.engine is None:
        pytest.skip("the held shares are rows of the database")
    ledger = make_ledger(backend)
    ledger.create_campaign("Hill", "fighting-spirit")
    ledger.commit_share(ledger.resolve("Hill"), "kept")
    with backend.engine.begin() as conn:
        conn.execute(dice_shares.delete())
    with pytest.raises(NotFoundError, match="holds 0: its dice cannot be derived here"):
        ledger.roll(ledger.resolve("Hill"), "d6", "no key")


def test_table_dice_leave_the_round_open_however_many_the_first_seeded_roll_closes_it(backend: Backend) -> None:
    ledger = make_ledger(backend)
    ledger.create_campaign("Hill", "fighting-spirit")
    for _ in range(70):  # more than one page of the roll index the check reads
        ledger.roll(ledger.resolve("Hill"), "d6", "table", table=TableEntry((3,)))
    as_actor(ledger, "gina").commit_share(ledger.resolve("Hill"), "after 70 table rolls")
    ledger.roll(ledger.resolve("Hill"), "d6", "the first seeded roll")
    closing = ledger.first_seeded_roll(ledger.resolve("Hill"))
    assert closing is not None and closing.payload["roll_index"] == 70
    with pytest.raises(InvalidInputError, match=r"roll #70 \(#"):
        as_actor(ledger, "pat").commit_share(ledger.resolve("Hill"), "too late")
