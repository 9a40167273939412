"""The access tables, on the log's metadata so Alembic manages them with the rest (migration 0005).

Accounts, sessions and tokens are not campaign events: they hold secrets (hashes), and a campaign's log must
be exportable without them. Memberships are events; ``memberships`` is their read model.
"""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, PrimaryKeyConstraint, String, Table, Text

from events.schema import metadata

accounts = Table(
    "accounts",
    metadata,
    Column("name", String(100), primary_key=True),
    Column("password_hash", String(200), nullable=False),
    Column("created_at", String(40), nullable=False),
)
"""An account: its name (what events' ``actor`` records) and its argon2id password hash."""

account_sessions = Table(
    "account_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account", String(100), ForeignKey("accounts.name"), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("kind", String(10), nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("label", String(200), nullable=False, server_default=""),
)
"""Cookie sessions (``kind`` 'session', with a CSRF token) and bearer tokens for scripts (``kind`` 'token').
Only the SHA-256 of the secret is stored: a copy of the database opens no session."""

memberships = Table(
    "memberships",
    metadata,
    Column("campaign_id", String(64), nullable=False),
    Column("account", String(100), nullable=False),
    Column("role", String(10), nullable=False),
    Column("sides", Text, nullable=False),
    PrimaryKeyConstraint("campaign_id", "account"),
)
"""Each campaign's members as its ``membership.*`` events leave them (``sides`` as a JSON list)."""
