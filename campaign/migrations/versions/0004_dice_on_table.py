"""The dice each campaign has left on the table: those of retracted commands, offered again in order.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("on_table", sa.Text, nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("on_table")
