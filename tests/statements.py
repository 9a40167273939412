"""Statements sent to PostgreSQL and rows read back, counted at the driver: every query psycopg sends, a pool's
ping, a ``BEGIN``, a ``COMMIT`` and a ``ROLLBACK`` included (psycopg sends those two only for a connection in a
transaction), and every row fetched."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import psycopg


@dataclass
class Statements:
    texts: list[str] = field(default_factory=list)
    rows: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def fetched(self, rows: int) -> None:
        with self._lock:
            self.rows += rows

    @property
    def count(self) -> int:
        return len(self.texts)

    def add(self, text: Any, times: int = 1) -> None:
        with self._lock:
            self.texts.extend([str(text)] * times)


@contextmanager
def counted() -> Iterator[Statements]:
    """Count what every psycopg connection of this process sends until the block ends."""
    seen = Statements()
    execute, executemany = psycopg.Cursor.execute, psycopg.Cursor.executemany
    commit, rollback = psycopg.Connection.commit, psycopg.Connection.rollback

    def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        seen.add(query)
        return execute(self, query, *args, **kwargs)

    def counted_executemany(self: Any, query: Any, params_seq: Any, *args: Any, **kwargs: Any) -> Any:
        rows = list(params_seq)
        seen.add(query, len(rows))
        return executemany(self, query, rows, *args, **kwargs)

    def counted_end(end: Any, word: str) -> Any:
        def ending(self: Any) -> Any:
            if self.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                seen.add(word)
            return end(self)

        return ending

    fetchone, fetchmany, fetchall = psycopg.Cursor.fetchone, psycopg.Cursor.fetchmany, psycopg.Cursor.fetchall

    def counted_fetchone(self: Any) -> Any:
        row = fetchone(self)
        seen.fetched(row is not None)
        return row

    def counted_fetchmany(self: Any, size: int = 0) -> Any:
        rows = fetchmany(self, size)
        seen.fetched(len(rows))
        return rows

    def counted_fetchall(self: Any) -> Any:
        rows = fetchall(self)
        seen.fetched(len(rows))
        return rows

    following = psycopg.Cursor.__next__

    def counted_next(self: Any) -> Any:
        row = following(self)
        seen.fetched(1)
        return row

    psycopg.Cursor.__next__ = counted_next  # type: ignore[method-assign]
    psycopg.Cursor.fetchone = counted_fetchone  # type: ignore[method-assign]
    psycopg.Cursor.fetchmany = counted_fetchmany  # type: ignore[method-assign]
    psycopg.Cursor.fetchall = counted_fetchall  # type: ignore[method-assign]
    psycopg.Cursor.execute = counted_execute  # type: ignore[method-assign]
    psycopg.Cursor.executemany = counted_executemany  # type: ignore[method-assign]
    psycopg.Connection.commit = counted_end(commit, "COMMIT")  # type: ignore[method-assign]
    psycopg.Connection.rollback = counted_end(rollback, "ROLLBACK")  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        psycopg.Cursor.execute = execute  # type: ignore[method-assign]
        psycopg.Cursor.__next__ = following  # type: ignore[method-assign]
        psycopg.Cursor.fetchone = fetchone  # type: ignore[method-assign]
        psycopg.Cursor.fetchmany = fetchmany  # type: ignore[method-assign]
        psycopg.Cursor.fetchall = fetchall  # type: ignore[method-assign]
        psycopg.Cursor.executemany = executemany  # type: ignore[method-assign]
        psycopg.Connection.commit = commit  # type: ignore[method-assign]
        psycopg.Connection.rollback = rollback  # type: ignore[method-assign]
