"""The index of events by the unit, officer and battle they concern (``event_refs``), kept inline in the append's
transaction: ``log --unit`` and ``--battle`` page through it instead of decoding the whole log.

What an event concerns is what ``log``'s filter matches: its payload's ``unit_id`` or ``officer_id`` (a unit) and
its ``battle_id`` (a battle), when they are strings (names and ids given on the command line are).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from sqlalchemy import Connection, Engine, delete, select

from events.envelope import RecordedEvent
from projections.driver import execute_many
from projections.tables import event_refs

UNIT_KEYS = ("unit_id", "officer_id")
BATTLE_KEYS = ("battle_id",)
_NAMING = frozenset((*UNIT_KEYS, *BATTLE_KEYS))


def unit_ref(unit_id: str) -> str:
    return f"unit:{unit_id}"


def battle_ref(battle_id: str) -> str:
    return f"battle:{battle_id}"


def refs_of(payload: Mapping[str, object]) -> set[str]:
    """The refs an event's payload gives: one per unit, officer or battle it names."""
    refs = {unit_ref(v) for k in UNIT_KEYS if isinstance(v := payload.get(k), str)}
    refs |= {battle_ref(v) for k in BATTLE_KEYS if isinstance(v := payload.get(k), str)}
    return refs


_INSERT = "INSERT INTO event_refs (campaign_id, ref, seq) VALUES (?, ?, ?)"


class EventRefsProjector:
    """Inline writer of ``event_refs``: the refs of each appended event (events are only ever appended)."""

    name = "event_refs"

    def project(self, connection: Connection, events: Sequence[RecordedEvent]) -> None:
        # On the driver's cursor: a Core insert cost 34 µs an append, three times the statement's own cost.
        # Most events name no unit, officer or battle (rolls, command records): a look at their keys passes them
        # by (1 µs), where making their two empty sets and sorting them cost 9 µs, a tenth of a rebuild's CPU.
        rows = [
            (e.campaign_id, ref, e.seq)
            for e in events
            if not _NAMING.isdisjoint(e.payload)
            for ref in sorted(refs_of(e.payload))
        ]
        if rows:
            execute_many(connection, _INSERT, rows)

    def reset(self, connection: Connection) -> None:
        connection.execute(delete(event_refs))


def ref_seqs(
    engine: Engine,
    campaign_id: str,
    refs: Collection[str],
    after_seq: int = 0,
    upto_seq: int | None = None,
    *,
    limit: int,
    last: bool = False,
) -> list[int]:
    """The seqs of the campaign's events concerning any of ``refs``, after ``after_seq`` and up to ``upto_seq``:
    the first ``limit`` of them (the last, with ``last``), in seq order. One index range per ref, merged."""
    found: set[int] = set()
    with engine.connect() as conn:
        for ref in sorted(set(refs)):
            query = select(event_refs.c.seq).where(
                event_refs.c.campaign_id == campaign_id, event_refs.c.ref == ref, event_refs.c.seq > after_seq
            )
            if upto_seq is not None:
                query = query.where(event_refs.c.seq <= upto_seq)
            query = query.order_by(event_refs.c.seq.desc() if last else event_refs.c.seq).limit(limit)
            found.update(int(s) for s in conn.execute(query).scalars())
    seqs = sorted(found)
    return seqs[-limit:] if last else seqs[:limit]
