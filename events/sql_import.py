"""Writing a whole campaign stream into the SQL store in pages, in one transaction (an import, a branch).

An import streams: each page of events is written and projected as it comes, so memory stays bounded by
the page, not the campaign. The caller checks the events as they pass and raises to abandon everything.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from events.envelope import RecordedEvent
from events.errors import ConcurrencyError, InvalidInputError
from events.pg_append import POSITION, POSITION_BITS
from events.schema import commands, events
from events.store import InlineProjector

IMPORT_PAGE = 1000


def conn_is_postgresql(conn: Connection) -> bool:
    return conn.dialect.name == "postgresql"


def _before_first_position(conn: Connection) -> int:
    """The position just before the import's first event: the log's last on SQLite (which imports under its write
    lock), the transaction's own on PostgreSQL less one (see :mod:`events.pg_append`)."""
    if conn_is_postgresql(conn):
        return int(conn.exec_driver_sql(f"SELECT {POSITION}").scalar_one()) - 1
    aggregate = conn.execute(select(func.coalesce(func.max(events.c.position), 0))).first()
    return int(aggregate[0]) if aggregate is not None else 0


class SqlImport:
    """Adds a campaign's events in order; every page is written with its ``commands`` rows and projected."""

    def __init__(
        self, conn: Connection, campaign_id: str, projectors: Sequence[InlineProjector], *, keep: bool = False
    ) -> None:
        self.connection = conn
        self.recorded: list[RecordedEvent] | None = [] if keep else None
        """Every event written, with its position (kept only when asked: an import does not)."""
        self.campaign_id = campaign_id
        self.count = 0
        self.first: RecordedEvent | None = None
        self.last: RecordedEvent | None = None
        self._projectors = projectors
        self._page: list[RecordedEvent] = []
        self._position = self._first = _before_first_position(conn)
        self._run_first = self._run_last = 0
        self._run_meta: bytes | None = None
        self._run_row: dict[str, Any] | None = None
        """The open command's row while it is not written yet (it is written with the page it starts in)."""
        self._run_stored = 0
        """The open command's ``last_seq`` as written, once its row is."""

    def add(self, event: RecordedEvent) -> None:
        self._page.append(event)
        if len(self._page) >= IMPORT_PAGE:
            self.flush()

    def flush(self) -> None:
        """Write the page: its commands' rows and its events, each in one batched statement, then project it.

        A command's row holds its ``last_seq``: written with the page its command starts in, as far as that page
        goes; only a command that runs on into later pages has it updated, once a page (it was an update for
        every command of more than one event, a round trip each on PostgreSQL)."""
        if not self._page:
            return
        command_rows: list[dict[str, Any]] = []
        rows: list[dict[str, Any]] = []
        recorded: list[RecordedEvent] = []
        for event in self._page:
            if event.meta_json != self._run_meta:  # a new command
                self._close_run()
                command_id = event.meta.get("command_id")
                self._run_first, self._run_meta = event.seq, event.meta_json
                self._run_row = {
                    "campaign_id": self.campaign_id,
                    "first_seq": event.seq,
                    "last_seq": event.seq,
                    "command_id": str(command_id) if command_id is not None else None,
                    "meta": event.meta_json,
                }
                command_rows.append(self._run_row)
            elif self._run_row is not None:
                self._run_row["last_seq"] = event.seq
            self._run_last = event.seq
            self._position += 1
            if conn_is_postgresql(self.connection) and self._position - self._first >= 1 << POSITION_BITS:
                raise InvalidInputError.saying(
                    "an import of more than {most} events: one transaction takes no more",
                    most=format((1 << POSITION_BITS) - 1, ","),
                )
            rows.append(
                {
                    "position": self._position,
                    "campaign_id": self.campaign_id,
                    "seq": event.seq,
                    "command_seq": self._run_first,
                    "type": event.type,
                    "schema_version": event.schema_version,
                    "payload": event.payload_json,
                    "hash": event.hash,
                }
            )
            recorded.append(event._replace(position=self._position))
        # Before the projectors run: a rewind among these events reads the stream through its commands' rows.
        self._close_run()
        if command_rows:
            self.connection.execute(insert(commands), command_rows)
        if self._run_row is not None:  # the open command's row is written now, as far as this page goes
            self._run_row, self._run_stored = None, self._run_last
        self.connection.execute(insert(events), rows)
        for projector in self._projectors:
            projector.project(self.connection, recorded)
        if self.recorded is not None:
            self.recorded.extend(recorded)
        self.first = self.first or recorded[0]
        self.last = recorded[-1]
        self.count += len(recorded)
        self._page = []

    def _close_run(self) -> None:
        """The open command's ``last_seq`` as far as it has been read, if its row was written with an earlier
        page and it ran on since (at most once a page)."""
        if self._run_meta is not None and self._run_row is None and self._run_stored != self._run_last:
            self.connection.execute(
                update(commands)
                .where(commands.c.campaign_id == self.campaign_id, commands.c.first_seq == self._run_first)
                .values(last_seq=self._run_last)
            )
            self._run_stored = self._run_last


@contextmanager
def import_session(
    conn: Connection, campaign_id: str, projectors: Sequence[InlineProjector], *, keep: bool = False
) -> Iterator[SqlImport]:
    """Inside the store's locked write transaction: refuse a campaign that already has events, then stream."""
    if conn.execute(select(events.c.seq).where(events.c.campaign_id == campaign_id).limit(1)).first() is not None:
        raise ConcurrencyError.saying("campaign {campaign} already has events in this database", campaign=campaign_id)
    sink = SqlImport(conn, campaign_id, projectors, keep=keep)
    yield sink
    sink.flush()
