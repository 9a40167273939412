"""The group's server under load: clients playing campaigns through server processes on PostgreSQL, measured
in paired rounds against the in-process executor on the same PostgreSQL.

    .venv/bin/python bench/server_load.py --pg postgresql+psycopg://postgres@127.0.0.1:54335/postgres
        [--clients 50] [--configs 10x2,1x2,10x1,10x4] [--commands 10] [--rounds 3] [--json]

Loopback only; the PostgreSQL server must run on this machine (its backends' CPU is read from /proc). Each
configuration ``CAMPAIGNSxPROCESSES`` gets a database of its own on the PostgreSQL server (dropped when done, and
only it) and its own ``campaign serve`` processes (``bench/serve_counted.py``, which counts the statements they
send and how long commands wait for their campaign's turn). Client ``i`` is a player with a bearer token, bound
to its own side in campaign ``i % CAMPAIGNS``, and sends its commands (``gf.muster``) to server process
``campaign % PROCESSES``, as a reverse proxy that routes by campaign (README) sends them; with ``--spread``, to
process ``(i // CAMPAIGNS) % PROCESSES``: a campaign's players spread over the processes, whose commands then
race each other for the campaign's head. A round is, for every configuration in turn: each client sends
``--commands`` commands, then the same number of commands runs through ``Ledger.execute`` in this process, one
after another (the pair compared).

Per round and configuration it prints: commands per second, p50/p99 latency with the load average beside them;
CPU milliseconds per command of the server processes, of the in-process executor, and of PostgreSQL's backends
for each; statements per command; how busy the two cores were with the servers and PostgreSQL, and with
everything (colleagues' work on a shared machine included); the share of request time spent waiting for a
database lock (PostgreSQL's backends sampled every 10 ms) and waiting for the campaign's turn in the server
process (the queue of a saturated server); runs again after a lost race. At the end it checks that nothing was
lost or duplicated (every command's unit mustered exactly once) and that every campaign verifies.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import statistics
import subprocess
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
from argon2 import PasswordHasher
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from campaign.access.accounts import Accounts
from campaign.access.memberships import Memberships, grant
from campaign.bootstrap import App, bootstrap, wall_clock
from campaign.commands import command_type
from campaign.logging import configure_logging
from campaign.read import verify as verify_views
from tests.statements import counted

ROOT = Path(__file__).resolve().parents[1]
SQUAD = {"models": 5, "quality": 4, "points": 50}
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
SERVER_APP, LOCAL_APP = "ledger-bench-server", "ledger-bench-local"
"""PostgreSQL ``application_name`` of the servers' and this process's connections (``PGAPPNAME``)."""
TICK = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count() or 1


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def machine_busy() -> tuple[float, float]:
    """Busy and total jiffies of the whole machine so far (/proc/stat)."""
    numbers = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = numbers[3] + numbers[4]
    return sum(numbers) - idle, sum(numbers)


def load_average() -> float:
    return os.getloadavg()[0]


@dataclass
class Config:
    campaigns: int
    processes: int
    name: str = ""
    db: str = ""
    players: list[dict[str, str]] = field(default_factory=list)
    servers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)
    counts: list[Path] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)


def parse_configs(text_: str) -> list[Config]:
    found = []
    for item in text_.split(","):
        campaigns, _, processes = item.strip().partition("x")
        found.append(Config(int(campaigns), int(processes or 2)))
    return found


def side_of(i: int) -> str:
    """Client ``i``'s side: a name apart from every other's (a side a letter or two away from one the campaign
    knows is refused as a typo, and ``S1`` is that close to ``S10``)."""
    return "S" + hashlib.sha256(str(i).encode()).hexdigest()[:9]


def setup(db: str, clients: int, campaigns: int) -> list[dict[str, str]]:
    """Accounts, campaigns and memberships: client i plays side :func:`side_of` i in campaign i % campaigns."""
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
        grant(app.ledger, members, info, name, "player", [side_of(i)], account_exists=True)
        token, _ = accounts.open_session(name, kind="token")
        players.append({"name": name, "token": token, "campaign_id": ids[i % campaigns], "side": side_of(i)})
    app.close()
    return players


def start_server(db: str, port: int, counts: Path, log: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "serve_counted.py"), "--db", db, "serve", "--port", str(port)],
        env={**os.environ, "CAMPAIGN_ACTOR": "server", "PGAPPNAME": SERVER_APP, "BENCH_COUNTS": str(counts)},
        stderr=log.open("wb"),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            # The first answer makes the OpenAPI document: seconds on a loaded machine, not a failed start.
            httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=10)
            return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"a server process did not start (its log: {log})")


def server_counts(config: Config) -> dict[str, float]:
    """What the server processes counted so far (statements, turns and their waits, attempts), summed."""
    total: dict[str, float] = {}
    for server, path in zip(config.servers, config.counts, strict=True):
        before = json.loads(path.read_text())["seq"] if path.exists() else 0
        server.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 10
        while True:
            try:
                got = json.loads(path.read_text())
                if got["seq"] > before:
                    break
            except (FileNotFoundError, json.JSONDecodeError):
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"a server process did not say what it counted ({path})")
            time.sleep(0.01)
        for key, value in got.items():
            if key != "seq":
                total[key] = total.get(key, 0) + value
    return total


def backends(admin: Engine, database: str, application: str) -> list[int]:
    with admin.connect() as conn:
        rows = conn.execute(
            text("SELECT pid FROM pg_stat_activity WHERE datname = :d AND application_name = :a"),
            {"d": database, "a": application},
        ).all()
    return [int(r[0]) for r in rows]


class BackendCpu:
    """CPU seconds of PostgreSQL's backends serving ``application`` on ``database`` between start and stop."""

    def __init__(self, admin: Engine, database: str, application: str) -> None:
        self.admin, self.database, self.application = admin, database, application
        self.start = {pid: cpu_seconds(pid) for pid in backends(admin, database, application)}

    def stop(self) -> float:
        now = {pid: cpu_seconds(pid) for pid in backends(self.admin, self.database, self.application)}
        return sum(now[pid] - self.start.get(pid, 0.0) for pid in now)


class InFlight:
    """Requests sent and not yet answered."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def add(self, n: int) -> None:
        with self._lock:
            self.count += n


class LockSampler(threading.Thread):
    """Every 10 ms: how many of the servers' backends wait for a lock, and how many requests are in flight."""

    def __init__(self, admin: Engine, database: str, in_flight: InFlight) -> None:
        super().__init__(daemon=True)
        self.admin, self.database, self.in_flight = admin, database, in_flight
        self.stop_now = threading.Event()
        self.lock_waits = self.requests = self.samples = 0

    def run(self) -> None:
        query = text(
            "SELECT count(*) FILTER (WHERE wait_event_type = 'Lock') FROM pg_stat_activity"
            " WHERE datname = :d AND application_name = :a AND state = 'active'"
        )
        with self.admin.connect() as conn:
            while not self.stop_now.wait(0.01):
                waiting = conn.execute(query, {"d": self.database, "a": SERVER_APP}).scalar_one()
                self.lock_waits += int(waiting)
                self.requests += self.in_flight.count
                self.samples += 1


def play(player: dict[str, str], base: str, tag: str, commands: int, out: dict[str, Any], in_flight: InFlight) -> None:
    latencies, refused_409, resent = [], 0, 0
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {player['token']}"}, timeout=300) as client:
        for k in range(commands):
            body = {
                "command": "gf.muster",
                "args": {"name": f"{player['side']} {tag} {k}", "side": player["side"], "profile": SQUAD},
                "command_id": f"{player['name']}-{tag}-{k}",
            }
            start = time.perf_counter()
            in_flight.add(1)
            try:
                while True:
                    try:
                        answer = client.post(f"/api/campaigns/{player['campaign_id']}/commands", json=body)
                    except httpx.TransportError:  # the connection dropped: send it again (same command id)
                        resent += 1
                        continue
                    if answer.status_code == 503:  # busy: nothing was appended, try again
                        resent += 1
                        continue
                    if answer.status_code != 409:
                        break
                    refused_409 += 1  # the servers gave up after their own retries: the client tries again
            finally:
                in_flight.add(-1)
            latencies.append(time.perf_counter() - start)
            if answer.status_code != 200:
                out.setdefault("errors", []).append(f"{answer.status_code} {answer.text[:200]}")
    out["latencies"], out["refused_409"], out["resent"] = latencies, refused_409, resent


def server_round(config: Config, admin: Engine, tag: str, commands: int, spread: bool) -> dict[str, Any]:
    results: list[dict[str, Any]] = [{} for _ in config.players]
    in_flight = InFlight()

    def base(i: int) -> str:
        process = ((i // config.campaigns) if spread else i % config.campaigns) % config.processes
        return f"http://127.0.0.1:{config.ports[process]}"

    threads = [
        threading.Thread(target=play, args=(p, base(i), tag, commands, results[i], in_flight))
        for i, p in enumerate(config.players)
    ]
    counts_before = server_counts(config)
    cpu_before = sum(cpu_seconds(s.pid) for s in config.servers)
    pg_cpu = BackendCpu(admin, config.name, SERVER_APP)
    sampler = LockSampler(admin, config.name, in_flight)
    busy_before, total_before = machine_busy()
    load_before, me_before = load_average(), time.process_time()
    wall = time.perf_counter()
    sampler.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - wall
    sampler.stop_now.set()
    sampler.join()
    busy_after, total_after = machine_busy()
    server_cpu = sum(cpu_seconds(s.pid) for s in config.servers) - cpu_before
    backend_cpu = pg_cpu.stop()
    client_cpu = time.process_time() - me_before
    counts = {k: v - counts_before.get(k, 0) for k, v in server_counts(config).items()}
    latencies = sorted(x for r in results for x in r.get("latencies", []))
    done = len(latencies)
    request_time = sum(latencies)
    return {
        "commands": done,
        "commands_per_s": done / wall,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(done - 1, int(done * 0.99))],
        "load_average": (load_before + load_average()) / 2,
        "server_cpu_ms_per_command": 1000 * server_cpu / done,
        "postgres_cpu_ms_per_command": 1000 * backend_cpu / done,
        "statements_per_command": counts.get("statements", 0) / done,
        "cores_busy_servers_and_postgres": (server_cpu + backend_cpu) / (wall * CORES),
        "cores_busy_machine": (busy_after - busy_before) / max(1, total_after - total_before),
        "client_cpu_share_of_cores": client_cpu / (wall * CORES),
        "lock_wait_share_of_request_time": sampler.lock_waits / max(1, sampler.requests),
        "turn_wait_share_of_request_time": counts.get("turn_wait_s", 0.0) / request_time,
        "runs_again_after_a_lost_race": counts.get("attempts", 0) - counts.get("commands", 0),
        "refused_409_then_sent_again": sum(r.get("refused_409", 0) for r in results),
        "resent_after_a_dropped_connection": sum(r.get("resent", 0) for r in results),
        "errors": [e for r in results for e in r.get("errors", [])],
    }


def local_round(config: Config, app: App, admin: Engine, tag: str, commands: int) -> dict[str, Any]:
    """The same commands through Ledger.execute in this process, one after another."""
    model = command_type("gf.muster")
    pg_cpu = BackendCpu(admin, config.name, LOCAL_APP)
    wall, cpu, done = time.perf_counter(), time.process_time(), 0
    with counted() as sent:
        for k in range(commands):
            for player in config.players:
                info = app.ledger.directory.get(player["campaign_id"])
                assert info is not None
                command = model.build(name=f"{player['side']} {tag} local {k}", side=player["side"], profile=SQUAD)
                app.ledger.execute(info, command, command_id=f"local-{player['name']}-{tag}-{k}")
                done += 1
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {
        "commands": done,
        "commands_per_s": done / wall,
        "cpu_ms_per_command": 1000 * cpu / done,
        "postgres_cpu_ms_per_command": 1000 * pg_cpu.stop() / done,
        "statements_per_command": sent.count / done,
    }


def check(db: str, players: list[dict[str, str]], tags: list[str], commands: int) -> dict[str, Any]:
    app = bootstrap(db, actor="bench")
    lost = duplicated = 0
    verified = True
    for campaign_id in sorted({p["campaign_id"] for p in players}):
        info = app.ledger.directory.get(campaign_id)
        assert info is not None
        names = [e.payload["name"] for e in app.ledger.store.read(campaign_id) if e.type == "roster.unit_mustered"]
        for player in (p for p in players if p["campaign_id"] == campaign_id):
            for tag in tags:
                for k in range(commands):
                    count = names.count(f"{player['side']} {tag} {k}")
                    lost += count == 0
                    duplicated += count > 1
        report, _ = verify_views.verify(app.ledger, info, rules=False)
        verified &= report.ok
    app.close()
    return {"lost": lost, "duplicated": duplicated, "every_campaign_verifies": verified}


def median(rounds: list[dict[str, Any]], key: str) -> float:
    return float(statistics.median(r[key] for r in rounds))


def summary(config: Config, spread: bool) -> dict[str, Any]:
    served = [r["server"] for r in config.rounds]
    local = [r["local"] for r in config.rounds]
    ratios = [s["server_cpu_ms_per_command"] / x["cpu_ms_per_command"] for s, x in zip(served, local, strict=True)]
    return {
        "campaigns": config.campaigns,
        "processes": config.processes,
        "clients": len(config.players),
        "commands": sum(s["commands"] for s in served),
        **{f"median_{k}": median(served, k) for k in served[0] if isinstance(served[0][k], int | float)},
        "median_in_process_cpu_ms_per_command": median(local, "cpu_ms_per_command"),
        "median_in_process_postgres_cpu_ms_per_command": median(local, "postgres_cpu_ms_per_command"),
        "median_in_process_statements_per_command": median(local, "statements_per_command"),
        "median_in_process_commands_per_s": median(local, "commands_per_s"),
        "cpu_ratio_server_to_in_process_by_round": ratios,
        "cpu_ratio_server_to_in_process": float(statistics.median(ratios)),
        "throughput_ratio_server_to_in_process": median(served, "commands_per_s") / median(local, "commands_per_s"),
        "routing": "spread" if spread else "by campaign",
        "rounds": config.rounds,
    }


def show(s: dict[str, Any]) -> None:
    print(
        f"{s['clients']} clients, {s['campaigns']} campaigns, {s['processes']} server processes, routed"
        f" {s['routing']} ({s['commands']} commands)"
    )
    for n, r in enumerate(s["rounds"], 1):
        v, x = r["server"], r["local"]
        print(
            f"  round {n}: {v['commands_per_s']:6.1f} commands/s  p50 {v['p50_ms']:7.1f} ms  p99 {v['p99_ms']:7.1f} ms"
            f"  (load average {v['load_average']:4.1f})   CPU ms/command: server {v['server_cpu_ms_per_command']:5.2f}"
            f" + PostgreSQL {v['postgres_cpu_ms_per_command']:5.2f}, in-process {x['cpu_ms_per_command']:5.2f}"
            f" + PostgreSQL {x['postgres_cpu_ms_per_command']:5.2f}"
        )
        print(
            f"           statements/command {v['statements_per_command']:4.1f}"
            f" (in-process {x['statements_per_command']:4.1f})"
            f"  cores busy: servers+PostgreSQL {100 * v['cores_busy_servers_and_postgres']:3.0f}%,"
            f" whole machine {100 * v['cores_busy_machine']:3.0f}%"
            f" (this bench's clients {100 * v['client_cpu_share_of_cores']:3.0f}%)"
            f"  request time waiting: for a lock {100 * v['lock_wait_share_of_request_time']:4.1f}%,"
            f" for the campaign's turn {100 * v['turn_wait_share_of_request_time']:4.1f}%"
            f"  runs again after a lost race {v['runs_again_after_a_lost_race']}"
        )
        for error in v["errors"][:3]:
            print(f"           error: {error}")
    print(
        f"  median: {s['median_commands_per_s']:.1f} commands/s, p50 {s['median_p50_ms']:.1f} ms,"
        f" p99 {s['median_p99_ms']:.1f} ms;"
        f" server CPU per command {s['cpu_ratio_server_to_in_process']:.2f}× the in-process executor's"
        f" (rounds: {', '.join(f'{r:.2f}' for r in s['cpu_ratio_server_to_in_process_by_round'])})"
    )


def main() -> None:  # noqa: C901 (one step per option of the script)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pg", default=os.environ.get("CAMPAIGN_TEST_PG_URL"), help="a PostgreSQL server's URL")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--configs", default="10x2", help="CAMPAIGNSxPROCESSES, comma-separated (e.g. 10x2,1x2)")
    parser.add_argument("--commands", type=int, default=10, help="commands per client per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--spread", action="store_true", help="spread each campaign's players over the processes")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.pg:
        raise SystemExit("name a PostgreSQL server: --pg URL (or set CAMPAIGN_TEST_PG_URL)")
    configure_logging(0)
    os.environ["PGAPPNAME"] = LOCAL_APP
    server_url = make_url(args.pg)
    admin = create_engine(server_url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    configs = parse_configs(args.configs)
    apps: list[App] = []
    tags = [f"r{n}" for n in range(1, args.rounds + 1)]
    try:
        for config in configs:
            config.name = f"ledger_bench_{uuid.uuid4().hex[:8]}"
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{config.name}"'))
            config.db = server_url.set(database=config.name).render_as_string(hide_password=False)
            config.players = setup(config.db, args.clients, config.campaigns)
            for p in range(config.processes):
                port = 20000 + (os.getpid() * 7 + len(apps) * 10 + p) % 20000
                folder = Path(tempfile.gettempdir())
                config.counts.append(folder / f"server_load-{config.name}-{p}.json")
                config.logs.append(folder / f"server_load-{config.name}-{p}.log")
                config.ports.append(port)
                config.servers.append(start_server(config.db, port, config.counts[-1], config.logs[-1]))
            apps.append(bootstrap(config.db, actor="bench"))
        for tag in tags:  # the configurations interleaved: each round sees the machine as the others do
            for config, app in zip(configs, apps, strict=True):
                served = server_round(config, admin, tag, args.commands, args.spread)
                local = local_round(config, app, admin, tag, args.commands)
                config.rounds.append({"server": served, "local": local})
        for config in configs:
            for s in config.servers:
                s.terminate()
                s.wait(30)
        for app in apps:
            app.close()
        apps.clear()
        results = [{**summary(c, args.spread), **check(c.db, c.players, tags, args.commands)} for c in configs]
    finally:
        for config in configs:
            for s in config.servers:
                if s.poll() is None:
                    s.terminate()
                    s.wait(10)
        for app in apps:
            app.close()
        with admin.connect() as conn:  # the bench's own databases, and only them
            for config in configs:
                if config.name:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{config.name}" WITH (FORCE)'))
        admin.dispose()
    if args.json:
        print(json.dumps({**results[0], "configs": results}, indent=2))
    else:
        for result in results:
            show(result)
            print(
                f"  lost {result['lost']}, duplicated {result['duplicated']},"
                f" every campaign verifies: {result['every_campaign_verifies']}"
            )
        errors = [e for c in configs for r in c.rounds for e in r["server"]["errors"]]
        if errors:
            print(f"  the servers' own logs: {', '.join(str(log) for c in configs for log in c.logs)}")
    if any(r["lost"] or r["duplicated"] or not r["every_campaign_verifies"] for r in results):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
