"""An account's language: the page's language its holder chose (the switch or the account page), or none.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A database whose recorded revision was set back over this one already has the column.
    if "language" in {c["name"] for c in sa.inspect(op.get_bind()).get_columns("accounts")}:
        return
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("language")
