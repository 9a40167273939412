"""Reading the log's rows: the columns read (an event joined to its command's row, which holds the meta), and
their decoding into :class:`~events.envelope.RecordedEvent` as the store's reads, a rebuild's pages and an inline
projector inside the append's transaction see them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import orjson
from sqlalchemy import Connection, and_, select

from events.envelope import GENESIS_HASH, RecordedEvent
from events.errors import CorruptEventError
from events.schema import commands, events

READ_PAGE = 5000

READ_COLUMNS = (
    events.c.position,
    events.c.campaign_id,
    events.c.seq,
    events.c.type,
    events.c.schema_version,
    events.c.payload,
    events.c.hash,
    events.c.command_seq,
    commands.c.meta,
)
JOINED = events.join(
    commands, and_(commands.c.campaign_id == events.c.campaign_id, commands.c.first_seq == events.c.command_seq)
)


_INT64 = 2**63 - 1


def column_int(value: int) -> int:
    """A seq, position or count as the integer columns hold them: anything beyond 64 bits means "no bound"
    (no campaign has that many events), so a caller's 10**30 reads like the largest value, never overflows."""
    return max(-_INT64 - 1, min(_INT64, value))


def _as_bytes(value: Any) -> bytes:
    # A hand edit in the sqlite3 shell (replace(payload, ...)) turns a BLOB into TEXT; read it all the same.
    return value if type(value) is bytes else bytes(value.encode() if isinstance(value, str) else value)


def _not_json(campaign_id: str, seq: int, type_: str) -> CorruptEventError:
    return CorruptEventError(campaign_id, seq, type_, "its stored payload or meta is not JSON")


def decode_rows(rows: Any, prev_hashes: dict[str, str]) -> list[RecordedEvent]:
    """Rows of ``READ_COLUMNS`` to events.

    ``prev_hashes`` holds, per campaign, the hash of the event before the first row read; each event's
    ``prev_hash`` is the hash of the row before it (the dict is left holding each campaign's last hash). A
    command's meta is parsed once for all its events: they are adjacent in position order, so only a change
    of command (or of campaign) between two rows parses one, and a page of one campaign looks up no dict.
    """
    out: list[RecordedEvent] = []
    append = out.append
    loads = orjson.loads
    new = tuple.__new__
    campaign: str | None = None
    command: int | None = None
    prev = GENESIS_HASH
    meta: Any = None
    meta_json = b""
    for position, campaign_id, seq, type_, version, payload, hash_, command_seq, stored_meta in rows:
        try:  # free unless raised (Python 3.11+)
            if command_seq != command or campaign_id != campaign:
                if campaign_id != campaign:
                    if campaign is not None:
                        prev_hashes[campaign] = prev
                    prev = prev_hashes.get(campaign_id, GENESIS_HASH)
                    campaign = campaign_id
                meta_json = _as_bytes(stored_meta)
                meta = loads(meta_json)
                command = command_seq
            payload_json = payload if type(payload) is bytes else _as_bytes(payload)
            decoded = loads(payload_json)
        except orjson.JSONDecodeError:
            raise _not_json(campaign_id, seq, type_) from None
        append(
            new(
                RecordedEvent,
                (position, campaign_id, seq, type_, version, decoded, meta, prev, hash_, payload_json, meta_json),
            )
        )
        prev = hash_
    if campaign is not None:
        prev_hashes[campaign] = prev
    return out


def decode_stream(rows: Sequence[Any], prev_hash: str) -> Iterator[RecordedEvent]:
    """Rows of one campaign in ``seq`` order (a ``read`` page), decoded one by one as the caller pulls them.

    Lazily, not into a list: a replay drops each event once folded, so decoded payloads die young and the
    cyclic garbage collector never has a page of them to traverse (that doubled the cost of a read).
    """
    loads = orjson.loads
    new = tuple.__new__
    command_seq = None
    meta: Any = None
    meta_json = b""
    for r in rows:
        try:  # free unless raised (Python 3.11+)
            if r[7] != command_seq:
                command_seq, meta_json = r[7], _as_bytes(r[8])
                meta = loads(meta_json)
            payload_json = r[5] if type(r[5]) is bytes else _as_bytes(r[5])
            payload = loads(payload_json)
        except orjson.JSONDecodeError:
            raise _not_json(r[1], r[2], r[3]) from None
        yield new(
            RecordedEvent,
            (r[0], r[1], r[2], r[3], r[4], payload, meta, prev_hash, r[6], payload_json, meta_json),
        )
        prev_hash = r[6]


def read_range_in_transaction(conn: Connection, campaign_id: str, after_seq: int, upto_seq: int) -> list[RecordedEvent]:
    """A campaign's events with ``after_seq < seq <= upto_seq`` through ``conn`` (inside the append): a range read
    of the (campaign, seq) key. The first event's ``prev_hash`` is not read (left empty): this is for folds."""
    query = (
        select(*READ_COLUMNS)
        .select_from(JOINED)
        .where(events.c.campaign_id == campaign_id, events.c.seq > after_seq, events.c.seq <= upto_seq)
        .order_by(events.c.seq)
    )
    return list(decode_stream(list(conn.execute(query)), ""))


def read_in_transaction(conn: Connection, campaign_id: str) -> list[RecordedEvent]:
    """A campaign's whole stream through ``conn``: what an inline projector sees inside the append."""
    query = select(*READ_COLUMNS).select_from(JOINED).where(events.c.campaign_id == campaign_id).order_by(events.c.seq)
    return list(decode_stream(list(conn.execute(query)), GENESIS_HASH))
