"""Read-model tables, declared on the log's metadata so Alembic manages them with the rest."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Integer, String, Table, Text

from events.schema import metadata

campaigns = Table(
    "campaigns",
    metadata,
    Column("campaign_id", String(64), primary_key=True),
    Column("name", String(200), nullable=False, unique=True),
    Column("ruleset", String(40), nullable=False),
    Column("ruleset_version", String(40), nullable=False),
    Column("seed_epoch", Integer, nullable=False),
    Column("seed_commitment", String(64), nullable=False),
    Column("revealed_epochs", Text, nullable=False),
    Column("next_roll_index", BigInteger, nullable=False),
    Column("last_seq", BigInteger, nullable=False),
    Column("head_hash", String(64), nullable=False),
)

projection_checkpoints = Table(
    "projection_checkpoints",
    metadata,
    Column("name", String(100), primary_key=True),
    Column("position", BigInteger, nullable=False),
)
