"""A campaign's summary as its read models hold it: the unit, battle and treasury rows the inline projector
writes from the ruleset's ``fold.summary``, and one row more (day, careers, and the order of those rows).

``status`` reads it instead of decoding the campaign's state and folding a summary, so it needs neither the
ruleset nor pydantic (start-up time). It equals the fold's summary (a contract test plays every ruleset and compares
them); a campaign whose rows are not there or not at its head (logged before they were kept, until its next
append or a ``rebuild``) gets None: the caller folds it instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from projections.driver import execute
from projections.fold import Summary

if TYPE_CHECKING:
    from sqlalchemy import Engine


def _json(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def summary_row(campaign_id: str, summary: Summary) -> dict[str, object]:
    """The ``campaign_summary`` row of a summary: what its unit, battle and treasury rows do not hold."""
    order = {"units": [u["unit_id"] for u in summary.units], "battles": [b["battle_id"] for b in summary.battles]}
    return {"campaign_id": campaign_id, "day": summary.day, "careers": _json(summary.careers), "ordering": _json(order)}


_HEAD = (
    "SELECT campaign_summary.day, campaign_summary.careers, campaign_summary.ordering, campaign_state.last_seq"
    " FROM campaign_summary JOIN campaign_state ON campaign_state.campaign_id = campaign_summary.campaign_id"
    " WHERE campaign_summary.campaign_id = ?"
)
_UNITS = "SELECT unit_id, summary FROM unit_records WHERE campaign_id = ?"
_BATTLES = "SELECT battle_id, summary FROM battle_history WHERE campaign_id = ?"
_TREASURIES = "SELECT side, balance FROM treasuries WHERE campaign_id = ?"
_LAST_SEQ = "SELECT last_seq FROM campaign_state WHERE campaign_id = ?"


def stored_summary(engine: Engine, campaign_id: str, last_seq: int) -> Summary | None:
    """The campaign's summary at ``last_seq`` (its head) from the read models, units and battles in the fold's
    order, treasuries by side (the fold keeps no order of its sides: a state read back from storage holds them
    sorted, one folded in memory in the order first funded; ``status`` prints them sorted). None when the read
    models do not hold it: no summary row yet, rows of another seq (an append while they were read), or rows
    that are not one summary's."""
    with engine.connect() as conn:
        head = execute(conn, _HEAD, (campaign_id,))
        if not head or int(head[0][3]) != last_seq:
            return None
        day, careers, ordering, _ = head[0]
        units = {str(k): v for k, v in execute(conn, _UNITS, (campaign_id,))}
        battles = {str(k): v for k, v in execute(conn, _BATTLES, (campaign_id,))}
        treasury = {str(k): int(v) for k, v in execute(conn, _TREASURIES, (campaign_id,))}
        # Each read sees the latest commit (PostgreSQL's read committed): an append in between, and the rows may
        # be of two seqs. Every append moves the head, so the same head after the reads means one summary.
        still = execute(conn, _LAST_SEQ, (campaign_id,))
        if not still or int(still[0][0]) != last_seq:
            return None
    order = orjson.loads(bytes(ordering))
    if set(order["units"]) != units.keys() or set(order["battles"]) != battles.keys():
        return None  # rows that are not one summary's: fold instead
    return Summary(
        units=[orjson.loads(bytes(units[k])) for k in order["units"]],
        battles=[orjson.loads(bytes(battles[k])) for k in order["battles"]],
        treasury=dict(sorted(treasury.items())),
        careers=orjson.loads(bytes(careers)),
        day=int(day),
    )
