"""The campaign directory: kept inline in the append transaction (SQL), or folded from a store (fake). Read from
SQL by :class:`projections.campaign_directory.SqlCampaignDirectory`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import orjson
from sqlalchemy import Connection, delete, insert, select

from events.envelope import RecordedEvent
from projections.campaign_directory import from_row
from projections.driver import by_campaign, execute
from projections.state.campaigns import CampaignInfo, apply, apply_all
from projections.tables import campaigns

if TYPE_CHECKING:
    from events.store import EventStore


class CampaignDirectory(Protocol):
    def get(self, campaign_id: str) -> CampaignInfo | None: ...
    def find(self, name: str) -> CampaignInfo | None: ...
    def all(self) -> list[CampaignInfo]: ...


def _to_row(info: CampaignInfo) -> dict[str, object]:
    return {
        "campaign_id": info.campaign_id,
        "name": info.name,
        "ruleset": info.ruleset,
        "ruleset_version": info.ruleset_version,
        "seed_epoch": info.seed_epoch,
        "seed_commitment": info.seed_commitment,
        "revealed_epochs": orjson.dumps(list(info.revealed_epochs)).decode(),
        "next_roll_index": info.next_roll_index,
        "last_seq": info.last_seq,
        "head_hash": info.head_hash,
        "dice_id": info.dice_id,
        "on_table": orjson.dumps(
            [list(pair) for pair in zip(info.on_table, info.on_table_index, strict=True)]
        ).decode(),
        "epoch_shares": info.epoch_shares,
    }


_UPDATED = [c.name for c in campaigns.columns if c.name != "campaign_id"]
_UPDATE = f"UPDATE campaigns SET {', '.join(f'{c} = ?' for c in _UPDATED)} WHERE campaign_id = ?"  # noqa: S608


class CampaignsProjector:
    """Inline SQL writer of the ``campaigns`` table.

    The entry written (or read, :meth:`hold`) last for each campaign is held between appends of one process: when
    the next batch follows its very event (its seq and hash), nobody else wrote the campaign since, and the row is
    not read back. Taken, not peeked, so that a failed transaction leaves nothing held.
    """

    name = "campaigns"

    def __init__(self) -> None:
        self._held: dict[str, CampaignInfo] = {}

    def project(self, connection: Connection, events: Sequence[RecordedEvent]) -> None:
        for campaign_id, batch in by_campaign(events).items():
            before = self._held.pop(campaign_id, None)
            if batch[0].seq == 1:  # a new campaign: no row yet
                before = None
            elif before is None or before.last_seq != batch[0].seq - 1 or before.head_hash != batch[0].prev_hash:
                row = connection.execute(select(campaigns).where(campaigns.c.campaign_id == campaign_id)).first()
                before = None if row is None else from_row(row)
            info = apply_all(before, batch)
            if info is None:
                continue
            if before is None:
                connection.execute(insert(campaigns).values(**_to_row(info)))
            elif info != before:
                values = _to_row(info)
                execute(connection, _UPDATE, (*(values[c] for c in _UPDATED), campaign_id))
            self._held[campaign_id] = info

    def hold(self, info: CampaignInfo) -> None:
        """Keep the entry a command just read (:class:`projections.campaign_directory.SqlCampaignDirectory`): the
        append that follows it folds its batch into it instead of reading the row again. An entry is the row at its
        ``head_hash``, which no later append changes (the batch checks that it follows that very event)."""
        self._held[info.campaign_id] = info

    def reset(self, connection: Connection) -> None:
        self._held.clear()
        connection.execute(delete(campaigns))


class FoldingCampaignDirectory:
    """The same directory folded straight from a store: for the in-memory fake."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self._folded: dict[str, tuple[int, CampaignInfo | None]] = {}

    def get(self, campaign_id: str) -> CampaignInfo | None:
        # The entry only grows with the stream (a rewind retracts nothing here), so only newer events are folded.
        seq, info = self._folded.get(campaign_id, (0, None))
        for event in self._store.read(campaign_id, after_seq=seq):
            info, seq = apply(info, event), event.seq
        self._folded[campaign_id] = (seq, info)
        return info

    def find(self, name: str) -> CampaignInfo | None:
        return next((c for c in self.all() if c.name == name), None)

    def all(self) -> list[CampaignInfo]:
        found = [self.get(cid) for cid in self._store.campaign_ids()]
        return sorted((c for c in found if c is not None), key=lambda c: c.name)
