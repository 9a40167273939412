"""Tell listeners that a campaign's log grew: PostgreSQL ``NOTIFY`` inside the append's transaction.

The notification is sent only if the append commits, by whichever process appended (a server, the CLI, a
script), and every server process ``LISTEN``ing on :data:`CHANNEL` wakes its open pages. On SQLite there is no
such channel: a server notices its own appends in-process and polls for other processes' appends.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection

from events.envelope import RecordedEvent
from projections.driver import execute_with_writes

CHANNEL = "campaign_ledger_appended"


class NotifyOnAppend:
    """An inline projector with no table: it sends ``campaign_id:seq`` of each append's last event."""

    name = "notify"

    def project(self, connection: Connection, events: Sequence[RecordedEvent]) -> None:
        if not events or connection.dialect.name != "postgresql":
            return
        last: dict[str, int] = {}
        for event in events:
            last[event.campaign_id] = max(last.get(event.campaign_id, 0), event.seq)
        for campaign_id, seq in last.items():
            execute_with_writes(connection, "SELECT pg_notify(?, ?)", (CHANNEL, f"{campaign_id}:{seq}"))

    def reset(self, connection: Connection) -> None:
        """Nothing is kept: a rebuild has nothing to drop."""
