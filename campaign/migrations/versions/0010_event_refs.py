"""Each event by the unit, officer and battle it concerns (``event_refs``): what ``log --unit`` and ``--battle``
page through instead of decoding the whole log. Filled here from the log already written, a page of
events at a time (bounded memory whatever the log's length); kept inline by every append from then on.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
import sqlalchemy as sa

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PAGE = 5000
"""Events read and indexed at a time."""


def rows_of(page: Sequence[Any]) -> list[dict[str, Any]]:
    """The index rows of a page of (position, campaign_id, seq, payload): as the inline projector writes them
    (``projections.event_refs``), frozen here as this revision wrote them."""
    out: list[dict[str, Any]] = []
    for row in page:
        campaign_id, seq, payload = row[1], row[2], orjson.loads(bytes(row[3]))
        refs = {f"unit:{v}" for k in ("unit_id", "officer_id") if isinstance(v := payload.get(k), str)}
        refs |= {f"battle:{v}" for k in ("battle_id",) if isinstance(v := payload.get(k), str)}
        out.extend({"campaign_id": str(campaign_id), "ref": ref, "seq": int(seq)} for ref in sorted(refs))
    return out


def upgrade() -> None:
    op.create_table(
        "event_refs",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("ref", sa.String(200), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", "ref", "seq", name=op.f("pk_event_refs")),
    )
    conn = op.get_bind()
    events = sa.table("events", sa.column("position"), sa.column("campaign_id"), sa.column("seq"), sa.column("payload"))
    refs = sa.table("event_refs", sa.column("campaign_id"), sa.column("ref"), sa.column("seq"))
    position = 0
    while True:
        page = conn.execute(
            sa.select(events.c.position, events.c.campaign_id, events.c.seq, events.c.payload)
            .where(events.c.position > position)
            .order_by(events.c.position)
            .limit(PAGE)
        ).all()
        if not page:
            break
        rows = rows_of(page)
        if rows:
            conn.execute(sa.insert(refs), rows)
        position = page[-1][0]


def downgrade() -> None:
    op.drop_table("event_refs")
