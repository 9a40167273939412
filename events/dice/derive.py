"""Seeded dice: each die is derived from the campaign's secret seed with HMAC-SHA256.

Die ``j`` of roll ``i`` takes 64-bit candidates from
``HMAC-SHA256(seed, "campaign-ledger/dice/v1|<campaign id>|<i>|<j>|<attempt>")`` and rejects those in the
incomplete last block, so every face is exactly equally likely (no modulo bias). Anyone who holds the log
and the revealed seed can recompute every roll.

A group may mix in entropy of its own (``campaign entropy commit``): each share is committed (its SHA-256) after
the seed's commitment and before the epoch's first seeded roll, and revealed with the seed. An epoch with shares
derives its dice from the key ``HMAC-SHA256(seed, message)``, where ``message`` is the compact JSON
``["campaign-ledger/dice-key/v1", <campaign id>, <epoch>, [<share>, …]]`` (shares as text, in commit order,
UTF-8, no spaces); an epoch without shares derives from the seed itself, exactly as before shares existed.
Whoever chose the seed committed to it before any share was known, and no share was chosen knowing the seed:
no single party chose the epoch's dice.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

import orjson

DERIVATION = "hmac-sha256/v1"
_SPACE = 1 << 64


def seed_commitment(seed: bytes) -> str:
    """What the log holds until the seed is revealed."""
    return hashlib.sha256(seed).hexdigest()


def share_commitment(share: str) -> str:
    """What the log holds of a share of entropy until it is revealed with its epoch's seed."""
    return hashlib.sha256(share.encode("utf-8")).hexdigest()


KEY_LABEL = "campaign-ledger/dice-key/v1"


def dice_key(seed: bytes, campaign_id: str, epoch: int, shares: Sequence[str]) -> bytes:
    """The key an epoch's dice are derived with: the seed itself without shares, else the seed's HMAC of the
    label, the campaign id, the epoch and the shares in commit order (see the module's docstring)."""
    if not shares:
        return seed
    message = orjson.dumps([KEY_LABEL, campaign_id, epoch, list(shares)])
    return hmac.new(seed, message, hashlib.sha256).digest()


def derive_face(seed: bytes, campaign_id: str, roll_index: int, die_index: int, sides: int) -> int:
    limit = _SPACE - (_SPACE % sides)
    attempt = 0
    while True:
        message = f"campaign-ledger/dice/v1|{campaign_id}|{roll_index}|{die_index}|{attempt}".encode()
        digest = hmac.new(seed, message, hashlib.sha256).digest()
        for offset in range(0, 32, 8):
            candidate = int.from_bytes(digest[offset : offset + 8], "big")
            if candidate < limit:
                return candidate % sides + 1
        attempt += 1


def derive_faces(seed: bytes, campaign_id: str, roll_index: int, count: int, sides: int) -> tuple[int, ...]:
    return tuple(derive_face(seed, campaign_id, roll_index, j, sides) for j in range(count))
