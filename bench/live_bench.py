"""The live page under many open pages: what an append costs the server with 200 pages open on its campaign,
for a campaign of 1,000 events and one of 100,000, side by side in paired rounds.

    .venv/bin/python bench/live_bench.py --pg postgresql+psycopg://postgres@127.0.0.1:54335/postgres
        [--streams 200] [--sizes 1000,100000] [--events 20] [--rounds 3] [--json]

Loopback only; the PostgreSQL server must run on this machine (its backends' CPU is read from /proc). It makes a
database of its own (dropped when done, and only it) holding one Grimdark campaign of each size: two units, a
battle fought and ended, a second one being fought, then rolls (built by the executor in memory, brought in by
the store's import), and one ``campaign serve`` process (``bench/serve_counted.py``). ``--streams`` pages of
each campaign stay open on it (server-sent events with the page's fragments). A round is, for each size in turn:
``--events`` commands (a roll: two events) sent one after another through the API, each once every open page
of that campaign was sent the previous one. Printed per round and size: the server's CPU per append, its
PostgreSQL backends', the statements it sent, how long the last page waited for an update; then the ratio of
the largest size's CPU per append to the smallest's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx2 as httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from bench.server_load import CHEAP, SERVER_APP, BackendCpu, cpu_seconds, load_average, server_counts, start_server
from campaign.access.accounts import Accounts
from campaign.access.memberships import Memberships, grant
from campaign.bootstrap import App, bootstrap, wall_clock
from campaign.commands import command_type, fold_for
from campaign.executor import Ledger
from campaign.logging import configure_logging
from campaign.server.context import SESSION_COOKIE
from events.memory import InMemoryEventStore
from events.vault import SeedVault
from projections.campaign_state import FoldingCampaignStates
from projections.campaigns import FoldingCampaignDirectory

SQUAD = {"models": 10, "quality": 4, "points": 150}
PASSWORD = "a bench password"


def build(app: App, name: str, size: int) -> str:
    """A campaign of ``size`` events, played in memory and brought in by the store's import."""
    vault = SeedVault()
    store = InMemoryEventStore([vault])
    memory = Ledger(
        store=store,
        directory=FoldingCampaignDirectory(store),
        vault=vault,
        states=FoldingCampaignStates(store, fold_for),
        actor="gina",
        clock=wall_clock,
        new_id=lambda: uuid.uuid4().hex,
        new_seed=lambda: secrets.token_bytes(32),
    )
    cid = memory.create_campaign(name, "grimdark").events[0].campaign_id
    for command, args in (
        ("gf.muster", {"name": "Robot Squad", "side": "Robots", "profile": SQUAD}),
        ("gf.muster", {"name": "Saurian Warriors", "side": "Saurians", "profile": SQUAD}),
        ("gf.battle_start", {"name": "Ruins", "units": ["Robot Squad", "Saurian Warriors"]}),
        ("gf.battle_end", {"winner": "Robots"}),
        ("gf.battle_start", {"name": "Ridge", "units": ["Robot Squad", "Saurian Warriors"]}),
    ):
        memory.execute(memory.resolve(name), command_type(command).build(**args))
    while memory.resolve(name).last_seq < size - 1:
        memory.roll(memory.resolve(name), "d6", "the weather")
    with app.ledger.store.import_session(cid) as sink:
        for event in memory.store.read(cid):
            sink.add(event)
    info = app.ledger.directory.get(cid)
    assert info is not None
    grant(app.ledger, Memberships(app.engine), info, "gina", "gm", account_exists=True)
    return cid


@dataclass
class Pages:
    """The open pages of one campaign: the head each was last sent, and the bytes they got."""

    campaign_id: str
    heads: list[int] = field(default_factory=list)
    received: int = 0
    reached: dict[int, float] = field(default_factory=dict)
    """When the last page was sent each head."""


async def open_page(port: int, cookie: str, pages: Pages, index: int, after: int, ready: asyncio.Event) -> None:
    """One page's stream, read as a browser's EventSource reads it (HTTP/1.1 chunks, events split on blank lines)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /api/campaigns/{pages.campaign_id}/events?after={after}&fragments=true HTTP/1.1\r\n"
        f"Host: 127.0.0.1\r\nCookie: {SESSION_COOKIE}={cookie}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    while (await reader.readline()) not in (b"\r\n", b""):  # the status line and headers
        pass
    ready.set()
    buffered = b""
    while True:
        size = int((await reader.readline()).strip() or b"0", 16)
        if size == 0:
            return
        buffered += await reader.readexactly(size)
        await reader.readexactly(2)  # the chunk's CRLF
        pages.received += size
        *events, buffered = buffered.split(b"\n\n")
        for raw in events:
            if raw.startswith(b"event: appended\ndata: "):
                head = int(raw.split(b"data: ", 1)[1])
                pages.heads[index] = head
                if min(pages.heads) >= head:
                    pages.reached[head] = time.perf_counter()


def serve_pages(port: int, cookie: str, all_pages: list[Pages], streams: int, after: dict[str, int]) -> threading.Event:
    """Every campaign's ``streams`` pages, open in an event loop of their own (a thread)."""
    opened = threading.Event()

    async def run() -> None:
        tasks = []
        for pages in all_pages:
            pages.heads = [after[pages.campaign_id]] * streams
            for i in range(streams):
                ready = asyncio.Event()
                tasks.append(asyncio.create_task(open_page(port, cookie, pages, i, after[pages.campaign_id], ready)))
                await ready.wait()
        opened.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    threading.Thread(target=lambda: asyncio.run(run()), daemon=True).start()
    return opened


def appends(client: httpx.Client, pages: Pages, count: int) -> list[float]:
    """``count`` rolls, each sent once every page was sent the previous one; how long the last page waited."""
    waits = []
    for _ in range(count):
        # The table's die: the seed stayed in memory where the campaign was built (an import brings no secret).
        body = {"command": "ledger.roll", "args": {"notation": "d6", "purpose": "the weather"}, "dice": "3"}
        start = time.perf_counter()
        answer = client.post(f"/api/campaigns/{pages.campaign_id}/commands", json=body)
        answer.raise_for_status()
        head = answer.json()["head_seq"]
        deadline = time.monotonic() + 120
        while head not in pages.reached:
            if time.monotonic() > deadline:
                raise SystemExit(f"not every page was sent head #{head} within two minutes")
            time.sleep(0.002)
        waits.append(pages.reached[head] - start)
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pg", default=os.environ.get("CAMPAIGN_TEST_PG_URL"), help="a PostgreSQL server's URL")
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--events", type=int, default=20, help="appends per size per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.pg:
        raise SystemExit("name a PostgreSQL server: --pg URL (or set CAMPAIGN_TEST_PG_URL)")
    configure_logging(0)
    sizes = [int(s) for s in args.sizes.split(",")]
    server_url = make_url(args.pg)
    name = f"ledger_live_{uuid.uuid4().hex[:8]}"
    admin = create_engine(server_url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    db = server_url.set(database=name).render_as_string(hide_password=False)
    os.environ["BENCH_KEEPALIVE_SECONDS"] = "3600"
    folder = Path(tempfile.gettempdir())
    config: Any = argparse.Namespace(counts=[folder / f"live_bench-{name}.json"], servers=[])
    results: dict[int, list[dict[str, float]]] = {size: [] for size in sizes}
    try:
        app = bootstrap(db, actor="bench")
        Accounts(app.engine, wall_clock, CHEAP).add("gina", PASSWORD)
        campaigns = {size: build(app, f"Live {size}", size) for size in sizes}
        with app.engine.begin() as conn:  # as autovacuum does soon after a large import: plans from real counts
            conn.execute(text("ANALYZE"))
        heads = {cid: app.ledger.directory.get(cid).last_seq for cid in campaigns.values()}  # type: ignore[union-attr]
        app.close()
        port = 20000 + (os.getpid() * 13) % 20000
        config.servers.append(start_server(db, port, config.counts[0], folder / f"live_bench-{name}.log"))
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120)
        signed = client.post("/api/session", json={"name": "gina", "password": PASSWORD})
        signed.raise_for_status()
        client.headers["X-CSRF-Token"] = signed.json()["csrf"]
        cookie = client.cookies[SESSION_COOKIE]
        pages = {size: Pages(cid) for size, cid in campaigns.items()}
        opened = serve_pages(port, cookie, list(pages.values()), args.streams, heads)
        if not opened.wait(300):
            raise SystemExit("the pages did not open")
        appends(client, pages[sizes[0]], 2)  # warm: the server's first append and rendering
        pid = config.servers[0].pid
        for _ in range(args.rounds):
            for size in sizes:
                counts = server_counts(config)
                cpu, backend, load = cpu_seconds(pid), BackendCpu(admin, name, SERVER_APP), load_average()
                received = pages[size].received
                waits = appends(client, pages[size], args.events)
                after = server_counts(config)
                results[size].append(
                    {
                        "server_cpu_ms_per_append": 1000 * (cpu_seconds(pid) - cpu) / args.events,
                        "postgres_cpu_ms_per_append": 1000 * backend.stop() / args.events,
                        "statements_per_append": (after["statements"] - counts["statements"]) / args.events,
                        "kb_sent_per_page_per_append": (pages[size].received - received)
                        / 1024
                        / args.streams
                        / args.events,
                        "last_page_waited_ms_p50": 1000 * statistics.median(waits),
                        "last_page_waited_ms_max": 1000 * max(waits),
                        "load_average": (load + load_average()) / 2,
                    }
                )
        client.close()
    finally:
        for s in config.servers:
            s.terminate()
            s.wait(30)
        with admin.connect() as conn:  # the bench's own database, and only it
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
    median = {
        size: statistics.median(r["server_cpu_ms_per_append"] for r in rounds) for size, rounds in results.items()
    }
    ratios = [
        results[sizes[-1]][n]["server_cpu_ms_per_append"] / results[sizes[0]][n]["server_cpu_ms_per_append"]
        for n in range(args.rounds)
    ]
    figures = {
        "streams": args.streams,
        "sizes": sizes,
        "rounds": {str(size): rounds for size, rounds in results.items()},
        "median_server_cpu_ms_per_append": {str(k): v for k, v in median.items()},
        "cpu_ratio_largest_to_smallest_by_round": ratios,
        "cpu_ratio_largest_to_smallest": statistics.median(ratios),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{args.streams} open pages on each campaign; {args.events} appends (a roll) per size per round")
    for n in range(args.rounds):
        for size in sizes:
            r = results[size][n]
            print(
                f"  round {n + 1}, {size:>7,} events: server {r['server_cpu_ms_per_append']:6.2f} CPU ms/append"
                f" + PostgreSQL {r['postgres_cpu_ms_per_append']:5.2f}, {r['statements_per_append']:4.1f} statements,"
                f" {r['kb_sent_per_page_per_append']:5.1f} kB/page; last page served after"
                f" {r['last_page_waited_ms_p50']:6.1f} ms (max {r['last_page_waited_ms_max']:6.1f})"
                f"  (load average {r['load_average']:4.1f})"
            )
    print(
        f"  CPU per append at {sizes[-1]:,} events / at {sizes[0]:,}: {figures['cpu_ratio_largest_to_smallest']:.2f}"
        f" (rounds: {', '.join(f'{r:.2f}' for r in ratios)})"
    )


if __name__ == "__main__":
    main()
