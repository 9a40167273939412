"""Live updates: wake every open page of a campaign when its log grows, from whichever process appended.

PostgreSQL: one ``LISTEN`` connection per server process (a thread) receives the ``NOTIFY`` that every append
sends in its transaction (:mod:`campaign.live`). SQLite has no such channel: appends made by this process wake
pages at once, and a poll of the campaigns' heads (twice a second) catches other processes' appends.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from campaign.live import CHANNEL
from campaign.logging import get_logger

log = get_logger(__name__)
POLL_SECONDS = 0.5
KEEPALIVE_SECONDS = 15.0


class Live:
    def __init__(self, engine: Engine, head_of: Callable[[str], int]) -> None:
        self.engine = engine
        self.head_of = head_of
        self._events: dict[str, set[asyncio.Event]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop = threading.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._thread: threading.Thread | None = None

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if self.engine.dialect.name == "postgresql":
            self._thread = threading.Thread(target=self._listen, name="campaign-listen", daemon=True)
            self._thread.start()
        else:
            self._tasks.append(asyncio.create_task(self._poll()))

    async def stop(self) -> None:
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        for events in self._events.values():
            for event in events:
                event.set()

    def appended(self, campaign_id: str) -> None:
        """This process appended to ``campaign_id`` (safe to call from any thread)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake, campaign_id)

    def _wake(self, campaign_id: str) -> None:
        for event in self._events.get(campaign_id, ()):
            event.set()

    def _listen(self) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=1.0):
                            self.appended(notice.payload.partition(":")[0])
            except psycopg.Error as exc:  # the database restarted: listen again
                log.warning("live.listen_failed", error=str(exc))
                self._stop.wait(1.0)

    async def _poll(self) -> None:
        heads: dict[str, int] = {}
        while not self._stop.is_set():
            await asyncio.sleep(POLL_SECONDS)
            for campaign_id in [c for c, waiting in self._events.items() if waiting]:
                head = await self._head(campaign_id)
                if head is None:
                    continue
                # A campaign seen for the first time wakes its pages too: another process may have appended
                # between a page's own look at the head and this one (a spurious wake only makes it look again).
                if heads.get(campaign_id) != head:
                    self._wake(campaign_id)
                heads[campaign_id] = head

    async def _head(self, campaign_id: str) -> int | None:
        """The campaign's head, or None while the database does not answer (a restart: the stream waits on)."""
        try:
            return await asyncio.to_thread(self.head_of, campaign_id)
        except SQLAlchemyError as exc:
            log.warning("live.head_unread", campaign_id=campaign_id, error=str(exc).splitlines()[0])
            return None

    async def heads(self, campaign_id: str, after: int) -> AsyncIterator[int]:
        """The campaign's head seq each time it passes ``after`` (None-free); a 0 now and then as keep-alive."""
        event = asyncio.Event()
        self._events.setdefault(campaign_id, set()).add(event)
        try:
            while not self._stop.is_set():
                head = await self._head(campaign_id)
                if head is not None and head > after:
                    after = head
                    yield head
                try:
                    await asyncio.wait_for(event.wait(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield 0
                event.clear()
        finally:
            self._events[campaign_id].discard(event)
