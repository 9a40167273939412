"""Campaign projections: folded state, snapshots, and the summary tables read between battles.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "campaign_state",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("last_seq", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", name=op.f("pk_campaign_state")),
    )
    op.create_table(
        "campaign_snapshots",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", "seq", name=op.f("pk_campaign_snapshots")),
    )
    op.create_table(
        "unit_records",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("unit_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("side", sa.String(200), nullable=False),
        sa.Column("summary", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", "unit_id", name=op.f("pk_unit_records")),
    )
    op.create_table(
        "battle_history",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("battle_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("summary", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", "battle_id", name=op.f("pk_battle_history")),
    )
    op.create_table(
        "treasuries",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("side", sa.String(200), nullable=False),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", "side", name=op.f("pk_treasuries")),
    )


def downgrade() -> None:
    for table in ("treasuries", "battle_history", "unit_records", "campaign_snapshots", "campaign_state"):
        op.drop_table(table)
