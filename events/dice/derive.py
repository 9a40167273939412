"""Seeded dice: each die is derived from the campaign's secret seed with HMAC-SHA256.

Die ``j`` of roll ``i`` takes 64-bit candidates from
``HMAC-SHA256(seed, "campaign-ledger/dice/v1|<campaign id>|<i>|<j>|<attempt>")`` and rejects those in the
incomplete last block, so every face is exactly equally likely (no modulo bias). Anyone who holds the log
and the revealed seed can recompute every roll.
"""

from __future__ import annotations

import hashlib
import hmac

DERIVATION = "hmac-sha256/v1"
_SPACE = 1 << 64


def seed_commitment(seed: bytes) -> str:
    """What the log holds until the seed is revealed."""
    return hashlib.sha256(seed).hexdigest()


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
