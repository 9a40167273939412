"""Live updates: every open page of a campaign learns of an append, from whichever process made it, and gets the
fragments of the page that changed, rendered once for all of them.

One feed per campaign that has open pages: woken by an append, it reads the campaign's head once, has its
fragments rendered once for that head (:mod:`campaign.server.fragments`), and hands the same rendering, already
written as server-sent events, to each of its pages. A page's cost per append is its bytes on the wire.

What wakes a feed: PostgreSQL: one ``LISTEN`` connection per server process (a thread) receives the ``NOTIFY``
that every append sends in its transaction (:mod:`campaign.live`). SQLite has no such channel: appends made by
this process wake their feed at once, and a poll of the watched campaigns' heads (twice a second) catches other
processes' appends.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import orjson
from sqlalchemy import Engine

from campaign.live import CHANNEL
from campaign.logging import get_logger
from campaign.server.fragments import OTHERS, Rendered, RoleKind, RowChanges
from projections.state.campaigns import CampaignInfo

log = get_logger(__name__)
POLL_SECONDS = 0.5
KEEPALIVE_SECONDS = 15.0


@dataclass(frozen=True)
class Update:
    """What a page is sent: the head, and the server-sent events that bring it there."""

    head: int
    members: frozenset[str]
    appended: bytes
    """``event: appended`` with the head: every stream gets it (a script's, too)."""
    changed: bytes
    """``event: fragments`` with the fragments that changed since the previous head (a page that shows it)."""
    every: bytes
    """``event: fragments`` with every fragment (a page that shows an older head)."""
    previous: int | None


def _fragments_event(head: int, parts: dict[str, str], rows: dict[str, RowChanges] | None = None) -> bytes:
    data: dict[str, object] = {"head": head, "parts": parts}
    if rows:
        data["rows"] = {n: {"order": c.order, "rows": c.rows} for n, c in rows.items()}
    return b"event: fragments\ndata: " + orjson.dumps(data) + b"\n\n"


def update_of(rendered: Rendered) -> Update:
    by_rows = rendered.row_changes
    return Update(
        rendered.head,
        rendered.members,
        b"event: appended\ndata: %d\n\n" % rendered.head,
        _fragments_event(rendered.head, {n: rendered.parts[n] for n in rendered.changed if n not in by_rows}, by_rows),
        _fragments_event(rendered.head, rendered.parts),
        rendered.previous,
    )


@dataclass
class _Feed:
    poked: asyncio.Event = field(default_factory=asyncio.Event)
    published: asyncio.Event = field(default_factory=asyncio.Event)
    """Set (and replaced by a fresh one) at each update: what a page waits for (all of this on the event loop)."""
    latest: Update | None = None
    readers: int = 0
    task: asyncio.Task[None] | None = None


class Live:
    def __init__(
        self,
        engine: Engine,
        info_of: Callable[[str], CampaignInfo | None],
        render: Callable[[CampaignInfo, str, RoleKind], Rendered],
    ) -> None:
        self.engine = engine
        self.info_of = info_of
        self.render = render
        self._feeds: dict[tuple[str, str, RoleKind], _Feed] = {}
        """A feed for each campaign, language and role kind its open pages read it in."""
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
        for feed in self._feeds.values():
            if feed.task is not None:
                feed.task.cancel()
            feed.published.set()

    def appended(self, campaign_id: str) -> None:
        """The campaign's log grew (safe to call from any thread)."""
        loop = self._loop
        if loop is None or self._stop.is_set():
            return
        # The listening thread can hear a notice as the server stops and its loop closes: no page to wake then.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._wake, campaign_id)

    def _wake(self, campaign_id: str) -> None:
        for (of, _lang, _kind), feed in self._feeds.items():
            if of == campaign_id:
                feed.poked.set()

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
        while not self._stop.is_set():
            await asyncio.sleep(POLL_SECONDS)
            for feed in self._feeds.values():  # each feed reads its head once, whether it moved or not
                feed.poked.set()

    async def _refresh(self, campaign_id: str, lang: str, kind: RoleKind, feed: _Feed) -> None:
        """The feed's one reader of the head and asker for its rendering, while the campaign has open pages."""
        while not self._stop.is_set():
            await feed.poked.wait()
            feed.poked.clear()
            try:
                info = await asyncio.to_thread(self.info_of, campaign_id)
                if info is None or (feed.latest is not None and info.last_seq <= feed.latest.head):
                    continue
                update = update_of(await asyncio.to_thread(self.render, info, lang, kind))
            except Exception as exc:  # the database went away: the next wake-up (or poll) tries again
                log.warning("live.refresh_failed", campaign_id=campaign_id, error=_first_line(exc))
                continue
            if feed.latest is None or update.head > feed.latest.head:
                feed.latest = update
                published, feed.published = feed.published, asyncio.Event()
                published.set()

    async def updates(
        self, campaign_id: str, after: int, lang: str = "en", kind: RoleKind = OTHERS
    ) -> AsyncIterator[Update | None]:
        """The campaign's updates past head ``after``, rendered in ``lang`` for the role ``kind``, each as soon as
        it is rendered; a None now and then as a keep-alive (every :data:`KEEPALIVE_SECONDS` without one)."""
        key = (campaign_id, lang, kind)
        feed = self._feeds.get(key)
        if feed is None:
            feed = self._feeds[key] = _Feed()
            feed.task = asyncio.create_task(self._refresh(campaign_id, lang, kind, feed))
        feed.readers += 1
        feed.poked.set()  # look at the head now: an append may have come before the page asked
        try:
            quiet_since = asyncio.get_running_loop().time()
            while not self._stop.is_set():
                latest = feed.latest
                if latest is not None and latest.head > after:
                    yield latest
                    after, quiet_since = latest.head, asyncio.get_running_loop().time()
                    continue
                left = quiet_since + KEEPALIVE_SECONDS - asyncio.get_running_loop().time()
                if left <= 0:
                    yield None
                    quiet_since = asyncio.get_running_loop().time()
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(feed.published.wait(), left)
        finally:
            feed.readers -= 1
            if not feed.readers and self._feeds.get(key) is feed:
                del self._feeds[key]
                if feed.task is not None:
                    feed.task.cancel()


def _first_line(exc: BaseException) -> str:
    """The error in one line for the log (a driver's message runs on with its SQL and a link)."""
    return (str(exc).splitlines() or [type(exc).__name__])[0]
