"""The campaign directory read from SQL (its ``campaigns`` table, which :mod:`projections.campaigns` keeps inline):
every command resolves its campaign here first, so this module builds none of the schema's Table objects (a
read served from the read models, ``status``, never needs them: start-up time). A test checks :data:`COLUMNS` against
the table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from projections.driver import execute
from projections.state.campaigns import CampaignInfo

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from projections.campaigns import CampaignsProjector

COLUMNS = (
    *("campaign_id", "name", "ruleset", "ruleset_version", "seed_epoch", "seed_commitment", "revealed_epochs"),
    *("next_roll_index", "last_seq", "head_hash", "dice_id", "on_table", "epoch_shares"),
)
"""The ``campaigns`` table's columns, in its order (``projections.tables.campaigns``)."""

_SELECT_BY = {
    key: f"SELECT {', '.join(COLUMNS)} FROM campaigns WHERE {key} = ?"  # noqa: S608
    for key in ("campaign_id", "name")
}
_SELECT_ALL = f"SELECT {', '.join(COLUMNS)} FROM campaigns ORDER BY name"  # noqa: S608


def from_row(row: Any) -> CampaignInfo:
    """A directory entry from a row of ``campaigns`` (a SQLAlchemy row, or the driver's tuple of :data:`COLUMNS`)."""
    data = dict(row._mapping) if hasattr(row, "_mapping") else dict(zip(COLUMNS, row, strict=True))
    data["revealed_epochs"] = tuple(orjson.loads(data["revealed_epochs"]))
    pairs = orjson.loads(data.pop("on_table") or "[]")
    return CampaignInfo(**data, on_table=tuple(p[0] for p in pairs), on_table_index=tuple(p[1] for p in pairs))


class SqlCampaignDirectory:
    def __init__(self, engine: Engine, writer: CampaignsProjector | None = None) -> None:
        self._engine = engine
        self._writer = writer
        """The inline writer of ``campaigns``, handed each entry read by id: the command that reads it appends next,
        and its writer need not read the row again."""

    def get(self, campaign_id: str) -> CampaignInfo | None:
        found = self._one("campaign_id", campaign_id)
        if found is not None and self._writer is not None:
            self._writer.hold(found)
        return found

    def entry(self, row: Any) -> CampaignInfo:
        """The entry of a row of :data:`COLUMNS` read with another statement (a server request reads its session,
        the campaign and the member's role in one), handed to the inline writer as :meth:`get` hands it."""
        found = from_row(row)
        if self._writer is not None:
            self._writer.hold(found)
        return found

    def find(self, name: str) -> CampaignInfo | None:
        return self._one("name", name)

    def all(self) -> list[CampaignInfo]:
        with self._engine.connect() as conn:
            return [from_row(r) for r in execute(conn, _SELECT_ALL, ())]

    def _one(self, key: str, value: str) -> CampaignInfo | None:
        """A fixed statement on the driver's cursor: every command resolves its campaign, and building and
        compiling the Core select cost more than the read itself."""
        with self._engine.connect() as conn:
            rows = execute(conn, _SELECT_BY[key], (value,))
        return from_row(rows[0]) if rows else None
