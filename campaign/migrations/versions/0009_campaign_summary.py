"""Each campaign's day, careers and the order of its summary rows, kept by the inline projector beside its unit,
battle and treasury rows: ``status`` reads them instead of decoding and folding the campaign's state (start-up time).

A campaign logged before this revision has no row until its next append (or ``campaign rebuild``); until then
``status`` folds it, as before.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "campaign_summary",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("day", sa.BigInteger(), nullable=False),
        sa.Column("careers", sa.LargeBinary(), nullable=False),
        sa.Column("ordering", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", name=op.f("pk_campaign_summary")),
    )


def downgrade() -> None:
    op.drop_table("campaign_summary")
