"""Where dice seeds live: apart from the log, which holds only their SHA-256 until they are revealed.

A new seed is *staged* before the event that commits to it is appended; the vault's inline projector
stores it in the same transaction as that event, so a seed is kept exactly when its commitment is. The shares
of entropy a group mixes into a seed (``dice.share_committed``) are kept the same way, each with the seq of the
event committing to it: a share is kept exactly when its commitment is, and read back in commit order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, insert

from events.dice.derive import seed_commitment, share_commitment
from events.envelope import RecordedEvent
from events.errors import NotFoundError, VerificationError
from events.recorded import text, whole
from events.schema import campaign_secrets, dice_shares


@dataclass(frozen=True, slots=True)
class HeldShare:
    """A share of entropy as this database keeps it: the seq of the event committing to it, who gave it, and the
    share itself (never shown before its seed is revealed)."""

    epoch: int
    seq: int
    account: str
    share: str


def _committed(event: RecordedEvent) -> tuple[int, str] | None:
    if event.type == "campaign.created":
        return 0, text(event.payload["seed_commitment"])
    if event.type == "dice.seed_committed":
        return whole(event.payload["epoch"]), text(event.payload["commitment"])
    return None


MISSING_SEED = (
    "the secret seed of dice epoch {epoch} is not held in this database (an import without --with-secrets?): "
    "its seeded dice cannot be derived here; table dice (--dice) still can be entered"
)
"""Said when a seed is asked for and not held; no campaign id in it: the person knows which campaign they named."""


class SeedVault:
    """In-memory vault (the fake); :class:`SqlSeedVault` keeps seeds in the database."""

    def __init__(self) -> None:
        self._staged: dict[str, bytes] = {}
        self._seeds: dict[tuple[str, int], bytes] = {}
        self._staged_shares: dict[str, list[str]] = {}
        self._shares: dict[str, list[HeldShare]] = {}

    def stage(self, seed: bytes) -> str:
        commitment = seed_commitment(seed)
        self._staged[commitment] = seed
        return commitment

    def stage_share(self, share: str) -> str:
        """Hold a share until the event committing to it is appended (stored with it); its commitment."""
        commitment = share_commitment(share)
        self._staged_shares.setdefault(commitment, []).append(share)
        return commitment

    def project(self, connection: Any, events: Sequence[RecordedEvent]) -> None:
        for event in events:
            if event.type == "dice.share_committed":
                commitment = text(event.payload["commitment"])
                waiting = self._staged_shares.get(commitment)
                if waiting:
                    share = waiting.pop(0)
                    if not waiting:
                        del self._staged_shares[commitment]
                    p = event.payload
                    held = HeldShare(whole(p["epoch"]), event.seq, text(p["by"]), share)
                    self._store_share(connection, event.campaign_id, held)
                continue
            found = _committed(event)
            if found and (seed := self._staged.pop(found[1], None)) is not None:
                self._store(connection, event.campaign_id, found[0], seed)

    def _store_share(self, connection: Any, campaign_id: str, share: HeldShare) -> None:
        self._shares.setdefault(campaign_id, []).append(share)

    def keep_share_in(self, connection: Any, campaign_id: str, share: HeldShare) -> None:
        """Store a share brought in from elsewhere (an import), in the caller's transaction."""
        self._store_share(connection, campaign_id, share)

    def shares(self, campaign_id: str, epoch: int | None = None) -> list[HeldShare]:
        """The shares held for the campaign (of one epoch, or all), in commit order."""
        held = sorted(self._shares.get(campaign_id, []), key=lambda s: s.seq)
        return [s for s in held if epoch is None or s.epoch == epoch]

    def _store(self, connection: Any, campaign_id: str, epoch: int, seed: bytes) -> None:
        self._seeds[(campaign_id, epoch)] = seed

    def keep_in(self, connection: Any, campaign_id: str, epoch: int, seed: bytes) -> None:
        """Store a seed brought in from elsewhere (an import), in the caller's transaction."""
        self._store(connection, campaign_id, epoch, seed)

    def seed(self, campaign_id: str, epoch: int) -> bytes:
        try:
            return self._seeds[(campaign_id, epoch)]
        except KeyError:
            raise NotFoundError(MISSING_SEED.format(epoch=epoch)) from None


class SqlSeedVault(SeedVault):
    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self._engine = engine

    def _store(self, connection: Connection, campaign_id: str, epoch: int, seed: bytes) -> None:
        connection.execute(insert(campaign_secrets).values(campaign_id=campaign_id, epoch=epoch, seed=seed.hex()))

    def _store_share(self, connection: Connection, campaign_id: str, share: HeldShare) -> None:
        connection.execute(
            insert(dice_shares).values(
                campaign_id=campaign_id, epoch=share.epoch, seq=share.seq, account=share.account, share=share.share
            )
        )

    def shares(self, campaign_id: str, epoch: int | None = None) -> list[HeldShare]:
        # A fixed statement on the driver's cursor, as seed() reads: every roll of an epoch with shares reads them.
        with self._engine.connect() as conn:
            mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
            where = f"campaign_id = {mark}" + ("" if epoch is None else f" AND epoch = {mark}")
            cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            try:
                cursor.execute(
                    f"SELECT epoch, seq, account, share FROM dice_shares WHERE {where} ORDER BY seq",  # noqa: S608
                    (campaign_id,) if epoch is None else (campaign_id, epoch),
                )
                rows = cursor.fetchall()
            finally:
                cursor.close()
        return [HeldShare(int(e), int(s), a, share) for e, s, a, share in rows]

    def seed(self, campaign_id: str, epoch: int) -> bytes:
        # A fixed statement on the driver's cursor: read on every roll, and a Core select cost more to build and
        # compile than the read itself.
        with self._engine.connect() as conn:
            mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
            cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            try:
                cursor.execute(
                    f"SELECT seed FROM campaign_secrets WHERE campaign_id = {mark} AND epoch = {mark}",  # noqa: S608
                    (campaign_id, epoch),
                )
                row = cursor.fetchone()
            finally:
                cursor.close()
        found = None if row is None else row[0]
        if found is None:
            raise NotFoundError(MISSING_SEED.format(epoch=epoch))
        try:
            return bytes.fromhex(found)
        except ValueError:
            raise VerificationError(
                f"the seed held for epoch {epoch} of campaign {campaign_id} is not hexadecimal: it was edited"
            ) from None
