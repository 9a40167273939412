"""The campaigns' states and summary rows refolded from the log, once: the five-grade battles now keep the day
they began on and their winner, and the Mass Combat units their Morale, arrears and pay owed, in the
rows ``status`` and ``battles`` read. A database made before this revision holds rows without them, which
``status`` would show and ``verify --projections`` would find differing from the log.

The log is read a page of events at a time (bounded memory whatever its length) and folded by the inline
projector of this version, as ``campaign rebuild`` does for these tables; the log itself is not touched.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PAGE = 5000
"""Events read and folded at a time."""


def upgrade() -> None:
    from campaign.commands import fold_for
    from events.sql_rows import JOINED, READ_COLUMNS, decode_rows
    from projections.campaign_state import CampaignStateProjector

    conn = op.get_bind()
    projector = CampaignStateProjector(fold_for)
    projector.reset(conn)  # the states, snapshots and summary rows: made again below, as the log gives them
    position = 0
    last_hashes: dict[str, str] = {}  # each campaign's last hash, carried from page to page
    while True:
        rows = conn.execute(
            sa.select(*READ_COLUMNS)
            .select_from(JOINED)
            .where(READ_COLUMNS[0] > position)
            .order_by(READ_COLUMNS[0])
            .limit(PAGE)
        ).all()
        if not rows:
            break
        page = decode_rows(rows, last_hashes)
        projector.project(conn, page)
        position = page[-1].position


def downgrade() -> None:
    """Nothing to undo: the rows stay as this version made them (the version before rewrites a campaign's on its
    next append)."""
