"""Table definitions of the log. Alembic creates them (``campaign/migrations/versions``); nothing else does.

An event row stores the exact canonical JSON bytes of its payload and its hash. Its ``prev_hash`` is not
stored: it is by definition the hash of the row before it in the campaign, so readers derive it (and
verification still recomputes every hash from it, so a deleted or edited row is caught all the same).

Projection tables are declared on the same :data:`metadata` in :mod:`projections.tables`, so that one
``alembic check`` compares everything.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
)

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)

# SQLite aliases the rowid only for a column declared exactly INTEGER PRIMARY KEY.
Position = BigInteger().with_variant(Integer(), "sqlite")

events = Table(
    "events",
    metadata,
    Column("position", Position, primary_key=True, autoincrement=False),
    Column("campaign_id", String(64), nullable=False),
    Column("seq", BigInteger, nullable=False),
    Column("command_seq", BigInteger, nullable=False),
    Column("type", String(100), nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("payload", LargeBinary, nullable=False),
    Column("hash", String(64), nullable=False),
    UniqueConstraint("campaign_id", "seq"),
    Index("ix_events_campaign_id_type_seq", "campaign_id", "type", "seq"),
)

commands = Table(
    "commands",
    metadata,
    Column("campaign_id", String(64), nullable=False),
    Column("first_seq", BigInteger, nullable=False),
    Column("last_seq", BigInteger, nullable=False),
    Column("command_id", String(100), nullable=True),
    Column("meta", LargeBinary, nullable=False),
    PrimaryKeyConstraint("campaign_id", "first_seq"),
    UniqueConstraint("campaign_id", "command_id"),
)
"""One row per append. Its ``meta`` (actor, command, command id, wall-clock time) is part of the envelope
of each of the command's events, and covered by their hashes, but stored once per command."""

campaign_secrets = Table(
    "campaign_secrets",
    metadata,
    Column("campaign_id", String(64), nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("seed", String(64), nullable=False),
    PrimaryKeyConstraint("campaign_id", "epoch"),
)
"""Dice seeds live apart from the log: the log holds only their commitments until they are revealed."""

dice_shares = Table(
    "dice_shares",
    metadata,
    Column("campaign_id", String(64), nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("seq", BigInteger, nullable=False),
    Column("account", String(100), nullable=False),
    Column("share", Text, nullable=False),
    PrimaryKeyConstraint("campaign_id", "epoch", "seq"),
    UniqueConstraint("campaign_id", "epoch", "account"),
)
"""The shares of entropy a group mixes into each seed (``campaign entropy commit``), kept apart from the log like
the seeds: the log holds only their commitments (``dice.share_committed``, whose seq is ``seq``) until the
seed is revealed with them."""
