"""The access tables, on the log's metadata so Alembic manages them with the rest (migration 0005).

Accounts, sessions and tokens are not campaign events: they hold secrets (hashes), and a campaign's log must
be exportable without them. Memberships are events; ``memberships`` is their read model.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, ForeignKey, Integer, PrimaryKeyConstraint, String, Table, Text

from events.schema import metadata

accounts = Table(
    "accounts",
    metadata,
    Column("name", String(100), primary_key=True),
    Column("password_hash", String(200), nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("language", String(8), nullable=True),
)
"""An account: its name (what events' ``actor`` records), its argon2id password hash, and the page's language
its holder chose (none: the browser's; migration 0014)."""

account_sessions = Table(
    "account_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account", String(100), ForeignKey("accounts.name"), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("kind", String(10), nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("label", String(200), nullable=False, server_default=""),
    Column("public_id", String(16), nullable=False, unique=True),
    Column("parent", String(64), nullable=True),
    Column("expires_at", BigInteger, nullable=False, server_default="0"),
    Column("last_used_at", BigInteger, nullable=False, server_default="0"),
)
"""Cookie sessions (``kind`` 'session', with a CSRF token) and bearer tokens for scripts (``kind`` 'token').
Only the SHA-256 of the secret is stored: a copy of the database opens no session. ``public_id`` names one in
the list of an account's sessions (to revoke it); ``parent`` is the session a token was made in (signing out
of it revokes the token too); ``expires_at`` and ``last_used_at`` are Unix seconds (a session's expiry slides
forward as it is used; a token's does not) (migration 0012)."""

sign_in_failures = Table(
    "sign_in_failures",
    metadata,
    Column("key", String(200), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("last_failure_ms", BigInteger, nullable=False),
    Column("blocked_until_ms", BigInteger, nullable=False),
)
"""Failed sign-ins counted per account (``account:NAME``) and per client address (``address:ADDR``), shared by
every server process on the database: how many since the last success, the last one's time, and until when the
next attempt is refused (Unix milliseconds) (migration 0012)."""

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

invitations = Table(
    "invitations",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("public_id", String(16), nullable=False, unique=True),
    Column("campaign_id", String(64), nullable=False, index=True),
    Column("role", String(10), nullable=False),
    Column("sides", Text, nullable=False),
    Column("made_by", String(100), nullable=False),
    Column("made_at", BigInteger, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
    Column("used_by", String(100), nullable=True),
    Column("used_at", BigInteger, nullable=True),
    Column("revoked_at", BigInteger, nullable=True),
)
"""Invitation links a game master made (migration 0013): each opens once, for one role (a player's sides as a JSON
list), until ``expires_at`` (Unix seconds) unless revoked. Only the SHA-256 of the link's secret is kept, as for
sessions: a copy of the database joins nobody. Not events: the secret's hash is not part of the story, and a
campaign's log is exported without it; joining by a link is the ``membership.granted`` event joining always is."""
