"""What a campaign has logged since its last snapshot, and that snapshot's size: snapshots are written only
when the log has grown by twice the last one's bytes, so that they never outweigh the log.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("campaign_state") as batch:
        batch.add_column(sa.Column("logged_bytes", sa.BigInteger(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("snapshot_bytes", sa.BigInteger(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("campaign_state") as batch:
        batch.drop_column("snapshot_bytes")
        batch.drop_column("logged_bytes")
