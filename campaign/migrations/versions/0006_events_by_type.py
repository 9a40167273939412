"""Events of a campaign by type, in seq order: what ``log --type`` and the log's rewinds and names read.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_events_campaign_id_type_seq", "events", ["campaign_id", "type", "seq"])


def downgrade() -> None:
    op.drop_index("ix_events_campaign_id_type_seq", table_name="events")
