"""Invitation links: a game master's link for a role (a player of its sides, or an observer), opened once.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if "invitations" in sa.inspect(op.get_bind()).get_table_names():  # a revision set back over this one
        return
    op.create_table(
        "invitations",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("public_id", sa.String(16), nullable=False),
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("sides", sa.Text, nullable=False),
        sa.Column("made_by", sa.String(100), nullable=False),
        sa.Column("made_at", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
        sa.Column("used_by", sa.String(100), nullable=True),
        sa.Column("used_at", sa.BigInteger, nullable=True),
        sa.Column("revoked_at", sa.BigInteger, nullable=True),
        sa.PrimaryKeyConstraint("token_hash", name="pk_invitations"),
        sa.UniqueConstraint("public_id", name="uq_invitations_public_id"),
    )
    op.create_index("ix_invitations_campaign_id", "invitations", ["campaign_id"])


def downgrade() -> None:
    op.drop_index("ix_invitations_campaign_id", table_name="invitations")
    op.drop_table("invitations")
