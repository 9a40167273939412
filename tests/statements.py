"""Statements sent to PostgreSQL, counted at the driver: every query psycopg sends, a pool's ping, a ``BEGIN``, a
``COMMIT`` and a ``ROLLBACK`` included (psycopg sends those two only for a connection in a transaction)."""

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
    _lock: threading.Lock = field(default_factory=threading.Lock)

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

    psycopg.Cursor.execute = counted_execute  # type: ignore[method-assign]
    psycopg.Cursor.executemany = counted_executemany  # type: ignore[method-assign]
    psycopg.Connection.commit = counted_end(commit, "COMMIT")  # type: ignore[method-assign]
    psycopg.Connection.rollback = counted_end(rollback, "ROLLBACK")  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        psycopg.Cursor.execute = execute  # type: ignore[method-assign]
        psycopg.Cursor.executemany = executemany  # type: ignore[method-assign]
        psycopg.Connection.commit = commit  # type: ignore[method-assign]
        psycopg.Connection.rollback = rollback  # type: ignore[method-assign]
