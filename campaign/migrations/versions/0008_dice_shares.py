"""Shares of entropy a group mixes into each dice seed: kept apart from the log like the seeds, and
how many the current epoch of each campaign has (a roll derives its key from them).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dice_shares",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("account", sa.String(100), nullable=False),
        sa.Column("share", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", "epoch", "seq", name=op.f("pk_dice_shares")),
        sa.UniqueConstraint("campaign_id", "epoch", "account", name=op.f("uq_dice_shares_campaign_id_epoch_account")),
    )
    # No campaign had shares before this revision: 0 is every campaign's count.
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("epoch_shares", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("epoch_shares")
    op.drop_table("dice_shares")
