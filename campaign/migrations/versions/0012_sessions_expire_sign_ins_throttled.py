"""Sessions and tokens that expire and can be listed and revoked, and failed sign-ins counted for throttling.

``account_sessions`` gains a public id (to name one when revoking it), its parent session (a token made in a
session ends with it), its expiry and its last use (Unix seconds). A session or token made before this revision
has expiry 0: it has expired, and its holder signs in again (tokens are made anew). ``sign_in_failures`` counts
failed sign-ins per account and per client address.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A database whose recorded revision was set back over this one (a copy restored beside a newer file, or a
    # test) already has its columns: each step is made only where it is missing.
    inspector = sa.inspect(op.get_bind())
    if "sign_in_failures" in inspector.get_table_names():
        return
    with op.batch_alter_table("account_sessions") as batch:
        batch.add_column(sa.Column("public_id", sa.String(16), nullable=True))
        batch.add_column(sa.Column("parent", sa.String(64), nullable=True))
        batch.add_column(sa.Column("expires_at", sa.BigInteger, nullable=False, server_default="0"))
        batch.add_column(sa.Column("last_used_at", sa.BigInteger, nullable=False, server_default="0"))
    op.execute("UPDATE account_sessions SET public_id = substr(token_hash, 1, 16)")
    with op.batch_alter_table("account_sessions") as batch:
        batch.alter_column("public_id", existing_type=sa.String(16), nullable=False)
        batch.create_unique_constraint(batch.f("uq_account_sessions_public_id"), ["public_id"])
    op.create_table(
        "sign_in_failures",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("last_failure_ms", sa.BigInteger, nullable=False),
        sa.Column("blocked_until_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sign_in_failures")
    with op.batch_alter_table("account_sessions") as batch:
        batch.drop_constraint("uq_account_sessions_public_id", type_="unique")
        batch.drop_column("last_used_at")
        batch.drop_column("expires_at")
        batch.drop_column("parent")
        batch.drop_column("public_id")
