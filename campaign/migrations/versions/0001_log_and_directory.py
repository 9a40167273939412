"""The event log, command ids, dice seeds, and the campaign directory.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Position = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("position", Position, autoincrement=False, nullable=False),
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("command_seq", sa.BigInteger(), nullable=False),
        sa.Column("type", sa.String(100), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("payload", sa.LargeBinary(), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("position", name=op.f("pk_events")),
        sa.UniqueConstraint("campaign_id", "seq", name=op.f("uq_events_campaign_id_seq")),
    )
    op.create_table(
        "commands",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("first_seq", sa.BigInteger(), nullable=False),
        sa.Column("last_seq", sa.BigInteger(), nullable=False),
        sa.Column("command_id", sa.String(100), nullable=True),
        sa.Column("meta", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", "first_seq", name=op.f("pk_commands")),
        sa.UniqueConstraint("campaign_id", "command_id", name=op.f("uq_commands_campaign_id_command_id")),
    )
    op.create_table(
        "campaign_secrets",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", "epoch", name=op.f("pk_campaign_secrets")),
    )
    op.create_table(
        "campaigns",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("ruleset_version", sa.String(40), nullable=False),
        sa.Column("seed_epoch", sa.Integer(), nullable=False),
        sa.Column("seed_commitment", sa.String(64), nullable=False),
        sa.Column("revealed_epochs", sa.Text(), nullable=False),
        sa.Column("next_roll_index", sa.BigInteger(), nullable=False),
        sa.Column("last_seq", sa.BigInteger(), nullable=False),
        sa.Column("head_hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("campaign_id", name=op.f("pk_campaigns")),
        sa.UniqueConstraint("name", name=op.f("uq_campaigns_name")),
    )
    op.create_table(
        "projection_checkpoints",
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("position", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_projection_checkpoints")),
    )


def downgrade() -> None:
    op.drop_table("projection_checkpoints")
    op.drop_table("campaigns")
    op.drop_table("campaign_secrets")
    op.drop_table("commands")
    op.drop_table("events")
