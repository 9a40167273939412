"""Accounts, their sessions and tokens, and the read model of campaign memberships.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("name", sa.String(100), primary_key=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account", sa.String(100), sa.ForeignKey("accounts.name"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("label", sa.String(200), nullable=False, server_default=""),
    )
    op.create_table(
        "memberships",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("account", sa.String(100), nullable=False),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("sides", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", "account"),
    )


def downgrade() -> None:
    op.drop_table("memberships")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
