"""The group's server under load: 50 clients playing 10 campaigns through two server processes on PostgreSQL.

    .venv/bin/python bench/server_load.py --pg postgresql+psycopg://postgres@127.0.0.1:54335/postgres
        [--clients 50] [--campaigns 10] [--commands 20] [--json]

Loopback only, bounded in count (clients × commands) and time (--timeout seconds). It creates a database of
its own on the PostgreSQL server (and drops only that one), starts two `campaign serve` processes on it, and
has each client (a player with a bearer token, bound to its own side) muster units through the JSON API,
half through each server, retrying a lost race (409). It prints commands per second, p50/p99 latency, the
CPU seconds per command of the two servers, and the same commands run by the in-process executor
(Ledger.execute) on the same PostgreSQL, side by side with their ratios. It checks that nothing was lost or
duplicated (every command's unit mustered exactly once) and that every campaign verifies.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx2 as httpx
from argon2 import PasswordHasher
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from campaign import verify_views
from campaign.access.accounts import Accounts
from campaign.access.memberships import Memberships, grant
from campaign.bootstrap import bootstrap, wall_clock
from campaign.commands import command_type
from campaign.logging import configure_logging

SQUAD = {"models": 5, "quality": 4, "points": 50}
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(db: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "campaign.cli.main", "--db", db, "serve", "--port", str(port)],
        env={**os.environ, "CAMPAIGN_ACTOR": "server"},
        stderr=log.open("wb"),
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=1)
            return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("a server process did not start")


def setup(db: str, clients: int, campaigns: int) -> list[dict[str, str]]:
    """Accounts, campaigns and memberships: client i plays side S{i} in campaign i % campaigns."""
    app = bootstrap(db, actor="bench")
    accounts, members = Accounts(app.engine, wall_clock, CHEAP), Memberships(app.engine)
    accounts.add("gm-bench", "a bench password")
    ids = []
    for c in range(campaigns):
        made = app.ledger.create_campaign(f"Bench {c}", "grimdark")
        info = app.ledger.directory.get(made.events[0].campaign_id)
        assert info is not None
        grant(app.ledger, members, info, "gm-bench", "gm", account_exists=True)
        ids.append(info.campaign_id)
    players = []
    for i in range(clients):
        name = f"player-{i}"
        accounts.add(name, "a bench password")
        info = app.ledger.directory.get(ids[i % campaigns])
        assert info is not None
        grant(app.ledger, members, info, name, "player", [f"S{i}"], account_exists=True)
        token, _ = accounts.open_session(name, kind="token")
        players.append({"name": name, "token": token, "campaign_id": ids[i % campaigns], "side": f"S{i}"})
    app.close()
    return players


def play(player: dict[str, str], base: str, commands: int, out: dict[str, Any], deadline: float) -> None:
    latencies, retries, resent = [], 0, 0
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {player['token']}"}, timeout=300) as client:
        for k in range(commands):
            body = {
                "command": "gf.muster",
                "args": {"name": f"{player['side']} unit {k}", "side": player["side"], "profile": SQUAD},
                "command_id": f"{player['name']}-{k}",
            }
            start = time.perf_counter()
            while time.monotonic() < deadline:
                try:
                    answer = client.post(f"/api/campaigns/{player['campaign_id']}/commands", json=body)
                except httpx.TransportError:  # the connection dropped: send it again (its command id is the same)
                    resent += 1
                    continue
                if answer.status_code != 409:
                    break
                retries += 1
                time.sleep(random.uniform(0.005, 0.05) * min(retries, 8))  # lost a race: back off, then again
            else:
                out.setdefault("errors", []).append(f"{body['command_id']}: gave up at the run's --timeout")
                continue
            latencies.append(time.perf_counter() - start)
            if answer.status_code != 200:
                out.setdefault("errors", []).append(f"{answer.status_code} {answer.text[:200]}")
    out["latencies"], out["retries"], out["resent"] = latencies, retries, resent


def in_process(db: str, players: list[dict[str, str]], commands: int) -> tuple[float, float, int]:
    """The same commands through Ledger.execute in this process, one after another: wall and CPU seconds."""
    app = bootstrap(db, actor="bench")
    model = command_type("gf.muster")
    wall, cpu, done = time.perf_counter(), time.process_time(), 0
    for player in players:
        for k in range(commands):
            info = app.ledger.directory.get(player["campaign_id"])
            assert info is not None
            command = model.build(name=f"{player['side']} local {k}", side=player["side"], profile=SQUAD)
            app.ledger.execute(info, command, command_id=f"local-{player['name']}-{k}")
            done += 1
    result = (time.perf_counter() - wall, time.process_time() - cpu, done)
    app.close()
    return result


def check(db: str, players: list[dict[str, str]], commands: int) -> dict[str, Any]:
    app = bootstrap(db, actor="bench")
    lost = duplicated = 0
    verified = True
    for campaign_id in sorted({p["campaign_id"] for p in players}):
        info = app.ledger.directory.get(campaign_id)
        assert info is not None
        names = [e.payload["name"] for e in app.ledger.store.read(campaign_id) if e.type == "roster.unit_mustered"]
        for player in (p for p in players if p["campaign_id"] == campaign_id):
            for k in range(commands):
                count = names.count(f"{player['side']} unit {k}")
                lost += count == 0
                duplicated += count > 1
        report, _ = verify_views.verify(app.ledger, info, rules=False)
        verified &= report.ok
    app.close()
    return {"lost": lost, "duplicated": duplicated, "every_campaign_verifies": verified}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pg", default=os.environ.get("CAMPAIGN_TEST_PG_URL"), help="a PostgreSQL server's URL")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--campaigns", type=int, default=10)
    parser.add_argument("--commands", type=int, default=20, help="commands per client")
    parser.add_argument("--timeout", type=float, default=300.0, help="stop retrying after this many seconds")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.pg:
        raise SystemExit("name a PostgreSQL server: --pg URL (or set CAMPAIGN_TEST_PG_URL)")
    configure_logging(0)
    server_url = make_url(args.pg)
    name = f"ledger_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(server_url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    db = server_url.set(database=name).render_as_string(hide_password=False)
    servers: list[subprocess.Popen[bytes]] = []
    try:
        players = setup(db, args.clients, args.campaigns)
        ports = [20000 + (os.getpid() % 20000), 20001 + (os.getpid() % 20000)]
        logs = [Path(tempfile.gettempdir()) / f"server_load-{port}.log" for port in ports]
        servers = [start_server(db, port, log) for port, log in zip(ports, logs, strict=True)]
        cpu_before = sum(cpu_seconds(s.pid) for s in servers)
        results: list[dict[str, Any]] = [{} for _ in players]
        deadline = time.monotonic() + args.timeout
        threads = [
            threading.Thread(
                target=play, args=(p, f"http://127.0.0.1:{ports[i % 2]}", args.commands, results[i], deadline)
            )
            for i, p in enumerate(players)
        ]
        wall = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - wall
        server_cpu = sum(cpu_seconds(s.pid) for s in servers) - cpu_before
        for s in servers:  # a request whose connection dropped may still be running: let it finish first
            s.terminate()
            s.wait(30)
        latencies = sorted(x for r in results for x in r.get("latencies", []))
        total = len(latencies)
        local_wall, local_cpu, local_total = in_process(db, players, args.commands)
        checked = check(db, players, args.commands)
        figures = {
            "clients": args.clients,
            "campaigns": args.campaigns,
            "commands": total,
            "server_commands_per_s": total / wall,
            "p50_ms": 1000 * statistics.median(latencies),
            "p99_ms": 1000 * latencies[min(total - 1, int(total * 0.99))],
            "retries_after_409": sum(r.get("retries", 0) for r in results),
            "resent_after_a_dropped_connection": sum(r.get("resent", 0) for r in results),
            "errors": sum(len(r.get("errors", [])) for r in results),
            "first_errors": [e for r in results for e in r.get("errors", [])][:3],
            "server_cpu_ms_per_command": 1000 * server_cpu / total,
            "in_process_commands_per_s": local_total / local_wall,
            "in_process_cpu_ms_per_command": 1000 * local_cpu / local_total,
            **checked,
        }
        figures["throughput_ratio_server_to_in_process"] = (
            figures["server_commands_per_s"] / figures["in_process_commands_per_s"]
        )
        figures["cpu_ratio_server_to_in_process"] = (
            figures["server_cpu_ms_per_command"] / figures["in_process_cpu_ms_per_command"]
        )
    finally:
        for s in servers:
            if s.poll() is None:
                s.terminate()
                s.wait(10)
        with admin.connect() as conn:  # the bench's own database, and only it
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    f = figures
    print(f"{f['clients']} clients, {f['campaigns']} campaigns, {f['commands']} commands, two server processes")
    print(
        f"  server     {f['server_commands_per_s']:8.1f} commands/s   p50 {f['p50_ms']:7.1f} ms   "
        f"p99 {f['p99_ms']:7.1f} ms   {f['server_cpu_ms_per_command']:6.2f} CPU ms/command (both servers)   "
        f"{f['retries_after_409']} retries after 409, {f['resent_after_a_dropped_connection']} resent"
    )
    print(
        f"  in-process {f['in_process_commands_per_s']:8.1f} commands/s   (Ledger.execute, one thread)   "
        f"{f['in_process_cpu_ms_per_command']:6.2f} CPU ms/command"
    )
    print(
        f"  ratio server / in-process: throughput {f['throughput_ratio_server_to_in_process']:.2f}, "
        f"CPU per command {f['cpu_ratio_server_to_in_process']:.2f}"
    )
    print(
        f"  lost {f['lost']}, duplicated {f['duplicated']}, errors {f['errors']}, "
        f"every campaign verifies: {f['every_campaign_verifies']}"
    )
    for error in f["first_errors"]:
        print(f"  error: {error}")
    if f["errors"]:
        print(f"  the servers' own logs: {', '.join(str(log) for log in logs)}")
    if figures["lost"] or figures["duplicated"] or not figures["every_campaign_verifies"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
