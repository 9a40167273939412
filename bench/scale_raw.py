"""The scale benchmark's floors: the same work done by hand with the database driver (sqlite3 or psycopg).

* ``one_event``       — one transaction inserting one event row into a copy of the events table;
* ``read_and_decode`` — the campaign's rows read as the store joins them, payload and meta orjson-decoded;
* ``last``            — the last ``count`` of them, decoded;
* ``storage``         — the log's own bytes (payload + hash + meta) and the snapshots' bytes.
"""

from __future__ import annotations

import hashlib
import itertools
import sqlite3
from pathlib import Path
from typing import Any

import orjson

PAYLOAD = orjson.dumps({"notation": "3d", "purpose": "bench roll", "rolls": [3, 4, 5], "total": 12})
JOINED = (
    "SELECT events.seq, events.payload, commands.meta FROM events JOIN commands"
    " ON commands.campaign_id = events.campaign_id AND commands.first_seq = events.command_seq"
    " WHERE events.campaign_id = {m}"
)
LOG_BYTES = "SELECT coalesce(sum(length(payload) + length(hash)), 0) FROM events"
META_BYTES = "SELECT coalesce(sum(length(meta)), 0) FROM commands"
SNAPSHOT_BYTES = "SELECT coalesce(sum(length(state)), 0), count(*) FROM campaign_snapshots"


def _decoded(rows: list[Any]) -> list[Any]:
    loads = orjson.loads
    return [(loads(p), loads(m)) for _, p, m in rows]


class RawSqlite:
    """sqlite3 on the campaign's file, and on a copy of the events table in a file of its own for inserts."""

    def __init__(self, db: Path, scratch: Path) -> None:
        self.db = db
        with sqlite3.connect(db) as src:
            schema = [sql for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE name = 'events'")]
        self.conn = sqlite3.connect(scratch, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = FULL")  # the ledger's own setting
        for sql in schema:
            self.conn.execute(sql)
        self.position = itertools.count(1)

    def one_event(self) -> None:
        p = next(self.position)
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute(
            "INSERT INTO events (position, campaign_id, seq, command_seq, type, schema_version, payload, hash)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (p, "raw", p, p, "dice.rolled", 1, PAYLOAD, hashlib.sha256(PAYLOAD).hexdigest()),
        )
        self.conn.execute("COMMIT")

    def read_and_decode(self, campaign_id: str) -> int:
        conn = sqlite3.connect(self.db)
        loads = orjson.loads
        count = 0
        for _, payload, meta in conn.execute(JOINED.format(m="?") + " ORDER BY events.seq", (campaign_id,)):
            loads(payload)
            loads(meta)
            count += 1
        conn.close()
        return count

    def last(self, campaign_id: str, count: int) -> list[Any]:
        conn = sqlite3.connect(self.db)
        rows = conn.execute(JOINED.format(m="?") + " ORDER BY events.seq DESC LIMIT ?", (campaign_id, count)).fetchall()
        conn.close()
        return _decoded(rows)

    def storage(self) -> dict[str, int]:
        conn = sqlite3.connect(self.db)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        log = conn.execute(LOG_BYTES).fetchone()[0] + conn.execute(META_BYTES).fetchone()[0]
        snapshots = conn.execute(SNAPSHOT_BYTES).fetchone()
        conn.close()
        return {"file": self.db.stat().st_size, "log": log, "snapshots": snapshots[0], "snapshot_count": snapshots[1]}

    def close(self) -> None:
        self.conn.close()


class RawPostgres:
    """psycopg on the campaign's database, inserting into a table shaped like ``events`` (``raw_events``)."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.conn = psycopg.connect(self.url, autocommit=True)
        self.conn.execute("CREATE TABLE IF NOT EXISTS raw_events (LIKE events INCLUDING ALL)")
        self.position = itertools.count(1)

    def one_event(self) -> None:
        p = next(self.position)
        with self.conn.transaction():
            self.conn.execute(
                "INSERT INTO raw_events (position, campaign_id, seq, command_seq, type, schema_version, payload,"
                " hash) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                (p, "raw", p, p, "dice.rolled", 1, PAYLOAD, hashlib.sha256(PAYLOAD).hexdigest()),
            )

    def read_and_decode(self, campaign_id: str) -> int:
        loads = orjson.loads
        count = 0
        with self.conn.cursor(name="raw_read") as cursor, self.conn.transaction():
            cursor.itersize = 5000
            cursor.execute(JOINED.format(m="%s") + " ORDER BY events.seq", (campaign_id,))
            for _, payload, meta in cursor:
                loads(payload)
                loads(meta)
                count += 1
        return count

    def last(self, campaign_id: str, count: int) -> list[Any]:
        rows = self.conn.execute(
            JOINED.format(m="%s") + " ORDER BY events.seq DESC LIMIT %s", (campaign_id, count)
        ).fetchall()
        return _decoded(rows)

    def storage(self) -> dict[str, int]:
        one = self.conn.execute
        log = one(LOG_BYTES).fetchone()[0] + one(META_BYTES).fetchone()[0]  # type: ignore[index]
        snapshots = one(SNAPSHOT_BYTES).fetchone()
        file = one(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'raw_events'"
        ).fetchone()
        assert snapshots is not None and file is not None
        return {"file": int(file[0]), "log": int(log), "snapshots": int(snapshots[0]), "snapshot_count": snapshots[1]}

    def close(self) -> None:
        self.conn.close()
