"""Live updates: a campaign's event stream tells every open page of an append, whichever process made it (SQLite:
the server's own appends at once, other processes' by polling twice a second; PostgreSQL: through LISTEN/NOTIFY,
between two server processes). A page that was told hears of the append before the stream's next keep-alive; one
that was not would only find it when the keep-alive makes it look again. No wall-clock bound is asserted: on a
loaded machine a second can pass between an append and its announcement without anything being wrong."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2 as httpx
import pytest
from sqlalchemy import Engine

from campaign.bootstrap import bootstrap
from campaign.server.app import create_app
from campaign.server.live import KEEPALIVE_SECONDS
from tests.conftest import empty_tables
from tests.live_server import free_port, serving
from tests.server.conftest import FAST_HASHER, PASSWORD

CAMPAIGN = [sys.executable, "-m", "campaign.cli.main"]


def signed_in(base: str, name: str, *, sign_up: bool) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=httpx.Timeout(10, read=None))
    if sign_up:
        assert client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    answer = client.post("/api/session", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    client.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return client


@contextmanager
def stream(client: httpx.Client, campaign_id: str, after: int) -> Iterator[queue.Queue[tuple[float, int]]]:
    """The heads the campaign's event stream announces, each with when it arrived."""
    heads: queue.Queue[tuple[float, int]] = queue.Queue()

    def read() -> None:
        try:
            with client.stream("GET", f"/api/campaigns/{campaign_id}/events", params={"after": after}) as r:
                heads.put((time.monotonic(), -r.status_code))
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        heads.put((time.monotonic(), int(line[6:])))
        except httpx.HTTPError:  # the stream is closed under it at the end of the test
            return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert heads.get(timeout=5)[1] == -200
    try:
        yield heads
    finally:
        client.close()
        reader.join(1)  # a daemon thread: it ends when its socket does


def roll(client: httpx.Client, campaign_id: str) -> int:
    answer = client.post(
        f"/api/campaigns/{campaign_id}/commands",
        json={"command": "ledger.roll", "args": {"notation": "d6", "purpose": "t"}},
    )
    assert answer.status_code == 200, answer.text
    return int(answer.json()["head_seq"])


def announced(heads: queue.Queue[tuple[float, int]], seq: int) -> None:
    """The stream announces ``seq`` (or a later head) before any keep-alive (a head of 0, sent when the stream
    has had nothing to say for KEEPALIVE_SECONDS): the page was told of the append."""
    while True:
        _at, head = heads.get(timeout=2 * KEEPALIVE_SECONDS)
        assert head != 0, f"the page heard of head {seq} only when a keep-alive made it look again: nobody told it"
        if head >= seq:
            return


def test_sqlite_pages_hear_of_the_servers_own_appends_and_of_another_processs(tmp_path: Path) -> None:
    db = str(tmp_path / "live.db")
    opened = bootstrap(db, actor="server")
    with serving(create_app(opened, hasher=FAST_HASHER)) as base:
        gina = signed_in(base, "gina", sign_up=True)
        cid = gina.post("/api/campaigns", json={"name": "Kessel", "ruleset": "grimdark"}).json()["campaign_id"]
        with stream(signed_in(base, "gina", sign_up=False), cid, 2) as heads:
            seq = roll(gina, cid)
            announced(heads, seq)
            done = subprocess.run(
                [*CAMPAIGN, "--db", db, "roll", "d6", "--purpose", "from the command line", "-c", "Kessel"],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            assert "from the command line" in done.stdout
            announced(heads, seq + 2)
        gina.close()
    opened.close()


@contextmanager
def server_process(url: str) -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [*CAMPAIGN, "--db", url, "serve", "--port", str(port)], env={**os.environ, "CAMPAIGN_ACTOR": "server"}
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60  # two processes starting at once on a machine shared with others
        while True:
            try:
                httpx.get(base + "/openapi.json", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the server process did not start") from None
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.postgres
def test_postgres_pages_on_one_server_hear_of_appends_made_through_another(pg_engine: Engine, pg_url: str) -> None:
    empty_tables(pg_engine)
    with server_process(pg_url) as first, server_process(pg_url) as second:
        gina = signed_in(first, "gina", sign_up=True)
        cid = gina.post("/api/campaigns", json={"name": "Kessel", "ruleset": "grimdark"}).json()["campaign_id"]
        with stream(signed_in(second, "gina", sign_up=False), cid, 2) as heads:
            for _ in range(3):
                seq = roll(gina, cid)
                announced(heads, seq)
        gina.close()


def test_the_poll_wakes_pages_of_a_campaign_it_sees_for_the_first_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page reads the head, then waits; another process appends before the poll first looks at that campaign.
    The page is sent that head at the poll's first look, not at the stream's keep-alive."""
    import asyncio

    from sqlalchemy import create_engine

    import campaign.server.live as live_module
    from campaign.server.fragments import Rendered
    from campaign.server.live import Live
    from projections.state.campaigns import CampaignInfo

    monkeypatch.setattr(live_module, "POLL_SECONDS", 0)
    moved = CampaignInfo("kessel", "Kessel", "grimdark", "3", 0, "c", (), 0, 3, "h3")  # the page looked at #2

    def render(info: CampaignInfo, lang: str, kind: str) -> Rendered:
        return Rendered(info.last_seq, info.head_hash, {"log": "<section id='log'>#3</section>"}, frozenset({"gina"}))

    async def scenario() -> int | None:
        live = Live(create_engine("sqlite://"), lambda cid: moved, render)
        live._loop = asyncio.get_running_loop()
        poll = asyncio.create_task(live._poll())
        try:
            async for update in live.updates("kessel", after=2):
                return None if update is None else update.head
            return None
        finally:
            live._stop.set()
            poll.cancel()

    seen: list[int | None] = []  # its own thread: the suite's browser tests may leave an event loop in this one
    runner = threading.Thread(target=lambda: seen.append(asyncio.run(asyncio.wait_for(scenario(), 5))))
    runner.start()
    runner.join(30)
    assert seen == [3], "the page was not sent the head the poll found"


def test_a_notice_heard_as_the_server_stops_is_let_go() -> None:
    """The listening thread hears an append just as the server's event loop closes: nothing to wake, no error
    (it was an unhandled exception in that thread, the server's log's last words)."""
    import asyncio

    from sqlalchemy import create_engine

    from campaign.server.fragments import Rendered, RoleKind
    from campaign.server.live import Live
    from projections.state.campaigns import CampaignInfo

    def no_campaign(campaign_id: str) -> CampaignInfo | None:
        return None

    def nothing_rendered(info: CampaignInfo, lang: str, kind: RoleKind) -> Rendered:
        raise AssertionError("the server has stopped: nothing is rendered")

    live = Live(create_engine("sqlite://"), no_campaign, nothing_rendered)
    loop = asyncio.new_event_loop()
    live._loop = loop
    loop.close()
    live.appended("kessel")
