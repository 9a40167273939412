"""``branch`` and ``import --with-secrets`` write their events and their seeds in one transaction:
a failure while storing the seeds leaves nothing behind, never a campaign that can neither roll nor reveal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from campaign.bootstrap import bootstrap
from campaign.exchange import export_lines, import_campaign
from campaign.timeline import branch
from events.vault import SqlSeedVault


class DiskGoneError(RuntimeError):
    pass


def _fail(*_args: Any, **_kwargs: Any) -> None:
    raise DiskGoneError("the disk went away while storing a seed")


def played(path: Path) -> Any:
    app = bootstrap(str(path), actor="tester")
    app.ledger.create_campaign("Hill", "fighting-spirit")
    for purpose in ("a", "b"):
        app.ledger.roll(app.ledger.resolve("Hill"), "d6", purpose)
    return app


def test_a_branch_whose_seeds_cannot_be_stored_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = played(tmp_path / "c.db")
    parent = app.ledger.resolve("Hill")
    monkeypatch.setattr(SqlSeedVault, "_store", _fail)
    monkeypatch.setattr(SqlSeedVault, "keep", _fail, raising=False)
    with pytest.raises(DiskGoneError):
        branch(app.ledger, parent, "What if", 3)
    assert [c.name for c in app.ledger.directory.all()] == ["Hill"]
    assert app.ledger.store.campaign_ids() == [parent.campaign_id]
    monkeypatch.undo()
    result = branch(app.ledger, parent, "What if", 3)  # and the same branch can be made once the disk is back
    child = app.ledger.resolve("What if")
    assert result.events[-1].type == "dice.seed_committed"
    app.ledger.roll(child, "d6", "the branch rolls")
    app.ledger.reveal(app.ledger.resolve("What if"))


def test_an_import_whose_seeds_cannot_be_stored_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = played(tmp_path / "source.db")
    lines = list(export_lines(source.ledger, source.ledger.resolve("Hill"), with_secrets=True))
    target = bootstrap(str(tmp_path / "target.db"), actor="tester")
    monkeypatch.setattr(SqlSeedVault, "_store", _fail)
    monkeypatch.setattr(SqlSeedVault, "keep", _fail, raising=False)
    with pytest.raises(DiskGoneError):
        import_campaign(target.ledger, lines)
    assert target.ledger.directory.all() == [] and target.ledger.store.campaign_ids() == []
    monkeypatch.undo()
    import_campaign(target.ledger, lines)
    target.ledger.roll(target.ledger.resolve("Hill"), "d6", "rolls after the import")
    target.ledger.reveal(target.ledger.resolve("Hill"))


def test_a_branch_holds_only_the_parents_revealed_seeds(tmp_path: Path) -> None:
    """The seed a parent still rolls with is its secret: a branch (and so its `export --with-secrets`) must not
    hold it, or whoever receives the branch could compute the parent's coming dice. Seeds the parent has
    revealed are public already and travel with the branch."""
    app = played(tmp_path / "c.db")
    ledger = app.ledger
    ledger.reveal(ledger.resolve("Hill"))  # epoch 0 revealed; the parent now rolls with epoch 1
    ledger.roll(ledger.resolve("Hill"), "d6", "c")
    parent = ledger.resolve("Hill")
    assert parent.seed_epoch == 1
    revealed, current = ledger.vault.seed(parent.campaign_id, 0), ledger.vault.seed(parent.campaign_id, 1)
    branch(ledger, parent, "What if", parent.last_seq)
    child = ledger.resolve("What if")
    secrets = b"\n".join(line for line in export_lines(ledger, child, with_secrets=True) if b'"secret"' in line)
    assert revealed.hex().encode() in secrets
    assert current.hex().encode() not in secrets
    ledger.roll(child, "d6", "the branch rolls with its own seed")
    assert ledger.vault.seed(parent.campaign_id, 1) == current  # the parent's seed is untouched
