"""``verify --projections``: a campaign's projection rows compared with a fresh fold of its log.

Projections are caches (DESIGN.md, "Projections"): anyone who can edit the database can edit them, and
``status`` would show the edit. The check folds the campaign's log into a scratch in-memory database with
the same inline projectors, then compares every projection table's rows for that campaign, by primary key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, StaticPool, Table, create_engine, select

from events.envelope import RecordedEvent
from events.schema import metadata
from events.sql import SqlEventStore
from events.store import InlineProjector
from projections.campaign_state import PROJECTION_TABLES
from projections.tables import campaign_summary, campaigns, event_refs

CHECKED_TABLES: tuple[Table, ...] = (campaigns, *PROJECTION_TABLES, event_refs)


@dataclass(frozen=True, slots=True)
class Difference:
    table: str
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.table} {self.key}: {self.message}"


def _rows(engine: Engine, table: Table, campaign_id: str) -> dict[tuple[object, ...], dict[str, object]]:
    key_columns = [c.name for c in table.primary_key.columns]
    with engine.connect() as conn:
        rows = conn.execute(select(table).where(table.c.campaign_id == campaign_id)).mappings().all()
    out = {}
    for row in rows:
        plain = {k: bytes(v) if isinstance(v, memoryview) else v for k, v in row.items()}
        out[tuple(plain[k] for k in key_columns)] = plain
    return out


def _shown(value: object) -> str:
    text = value.decode(errors="replace") if isinstance(value, bytes) else str(value)
    return text if len(text) <= 60 else text[:57] + "…"


def compare(
    engine: Engine,
    campaign_id: str,
    events: Iterable[RecordedEvent],
    projectors: Callable[[], Sequence[InlineProjector]],
) -> list[Difference]:
    """Every difference between the stored projection rows of ``campaign_id`` and a fresh fold of ``events``."""
    scratch = create_engine("sqlite://", poolclass=StaticPool)
    try:
        metadata.create_all(scratch)
        SqlEventStore(scratch, projectors()).import_stream(campaign_id, list(events))
        found: list[Difference] = []
        for table in CHECKED_TABLES:
            stored, fresh = _rows(engine, table, campaign_id), _rows(scratch, table, campaign_id)
            for key in sorted(stored.keys() | fresh.keys(), key=repr):
                label = "/".join(str(k) for k in key)
                if key not in fresh:
                    found.append(Difference(table.name, label, "a row the log does not give (added by hand?)"))
                elif key not in stored:
                    if table is campaign_summary:
                        # A campaign logged before this table was kept has no row until its next append, and
                        # `status` folds it meanwhile: the row missing misleads nothing, so it is no finding.
                        continue
                    found.append(Difference(table.name, label, "a row the log gives is missing (deleted?)"))
                else:
                    for column, value in fresh[key].items():
                        if stored[key][column] != value:
                            found.append(
                                Difference(
                                    table.name,
                                    label,
                                    f"{column} is {_shown(stored[key][column])}, the log gives {_shown(value)}",
                                )
                            )
        return found
    finally:
        scratch.dispose()
