"""Read-model tables, declared on the log's metadata so Alembic manages them with the rest."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Integer, LargeBinary, PrimaryKeyConstraint, String, Table, Text

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
    Column("dice_id", String(64), nullable=False, server_default=""),
    Column("on_table", Text, nullable=False, server_default="[]"),
    Column("epoch_shares", Integer, nullable=False, server_default="0"),
)

projection_checkpoints = Table(
    "projection_checkpoints",
    metadata,
    Column("name", String(100), primary_key=True),
    Column("position", BigInteger, nullable=False),
)

campaign_state = Table(
    "campaign_state",
    metadata,
    Column("campaign_id", String(64), primary_key=True),
    Column("ruleset", String(40), nullable=False),
    Column("last_seq", BigInteger, nullable=False),
    Column("state", LargeBinary, nullable=False),
    Column("logged_bytes", BigInteger, nullable=False, server_default="0"),
    Column("snapshot_bytes", BigInteger, nullable=False, server_default="0"),
)
"""Each campaign's folded state at its head, as canonical JSON: what commands decide from; with the bytes
logged since its last snapshot and that snapshot's size (what decides when the next one is due)."""

campaign_snapshots = Table(
    "campaign_snapshots",
    metadata,
    Column("campaign_id", String(64), nullable=False),
    Column("seq", BigInteger, nullable=False),
    Column("state", LargeBinary, nullable=False),
    PrimaryKeyConstraint("campaign_id", "seq"),
)
"""The state at some seqs, so ``--at SEQ`` folds a few events instead of the whole log: on a multiple of
SNAPSHOT_EVERY once the log has grown by twice the last snapshot's bytes (all of them stay below the log's size)."""

unit_records = Table(
    "unit_records",
    metadata,
    Column("campaign_id", String(64), nullable=False),
    Column("unit_id", String(64), nullable=False),
    Column("name", String(200), nullable=False),
    Column("side", String(200), nullable=False),
    Column("summary", LargeBinary, nullable=False),
    PrimaryKeyConstraint("campaign_id", "unit_id"),
)

battle_history = Table(
    "battle_history",
    metadata,
    Column("campaign_id", String(64), nullable=False),
    Column("battle_id", String(64), nullable=False),
    Column("name", String(200), nullable=False),
    Column("summary", LargeBinary, nullable=False),
    PrimaryKeyConstraint("campaign_id", "battle_id"),
)

treasuries = Table(
    "treasuries",
    metadata,
    Column("campaign_id", String(64), nullable=False),
    Column("side", String(200), nullable=False),
    Column("balance", BigInteger, nullable=False),
    PrimaryKeyConstraint("campaign_id", "side"),
)

campaign_summary = Table(
    "campaign_summary",
    metadata,
    Column("campaign_id", String(64), primary_key=True),
    Column("day", BigInteger, nullable=False),
    Column("careers", LargeBinary, nullable=False),
    Column("ordering", LargeBinary, nullable=False),
)
"""What each campaign's summary holds beyond its unit, battle and treasury rows: its day, its careers (a JSON list,
in the fold's order), and the order the fold gives the unit and battle rows (JSON: their ids), so that
``status`` shows the summary from the read models, as the fold gives it, without folding."""

event_refs = Table(
    "event_refs",
    metadata,
    Column("campaign_id", String(64), nullable=False),
    Column("ref", String(200), nullable=False),
    Column("seq", BigInteger, nullable=False),
    PrimaryKeyConstraint("campaign_id", "ref", "seq"),
)
"""Each event by the unit, officer and battle it concerns (``unit:ID`` for its payload's ``unit_id`` and
``officer_id``, ``battle:ID`` for its ``battle_id``): what ``log --unit`` and ``--battle`` page through instead
of decoding the whole log."""
