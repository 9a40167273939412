"""Long campaigns stay fast (issue 14): what one command, a rebuild, a verify and the paged reads cost as a
campaign's log grows, side by side with raw sqlite3 on the same rows, in CPU time.

    .venv/bin/python bench/scale_bench.py [--sizes 10000,30000] [--rounds 15] [--json]
    .venv/bin/python bench/scale_bench.py --sizes 10000,100000,300000     # the issue's sizes (≈ 10 min here)
    .venv/bin/python bench/scale_bench.py --sizes 10000,1000000 --no-rss  # the 1M benchmark, not for CI

One GURPS Mass Combat campaign is played on a fresh SQLite file through the executor, ``Ledger.execute`` (a war
chest, a few units raised, then rolls, with a rule command every tenth) and measured as it reaches each size.
At each size, in CPU time (``time.process_time``):

* command   — one rule command (``funds``) and one ``roll``, each paired round by round with a raw sqlite3
              transaction inserting one event row into a copy of the schema; the ratio is raw / ledger
              (1.0 = as fast as raw; the issue asks ≥ 0.05), the median over ``--rounds`` pairs;
* rebuild   — every projection dropped and refolded, against raw sqlite3 reading the campaign's rows and
              orjson-decoding every payload and meta (the issue asks ≥ 0.3× raw and linear growth);
* verify    — chain, schemas and dice without rules, and with every rule re-evaluated, in events/s;
* at        — ``status --at`` early (seq 100) and late (head - 100);
* log       — ``log --last 20``: the last 20 events read by the index;
* audit     — ``audit --roll`` of the last roll;
* storage   — file bytes per event, and snapshot bytes against the log's own bytes (payload + hash + meta).

Peak RSS (``--rss``, on by default) runs ``campaign rebuild``, ``verify`` and ``audit`` as child processes on the
same file and reads each one's own peak from ``wait4``. Nothing is asserted: the figures are for people.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import itertools
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from campaign.bootstrap import App, bootstrap, projectors
from campaign.executor import Ledger
from campaign.logging import configure_logging
from campaign.rulesets.mass_combat import calendar_commands as mct
from campaign.rulesets.mass_combat import commands as mcc
from projections.state.campaigns import CampaignInfo

NAME = "Scale"
KIT = {"Blue": {"troop_type": "MI", "armour": "medium"}, "Red": {"troop_type": "LI", "armour": "light"}}


def cpu(fn: Callable[[], Any]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


class Campaign:
    """The bench's campaign, played through the executor (``Ledger.execute``) with fixed ids and seed."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.ledger: Ledger = app.ledger
        self.ledger.create_campaign(NAME, "mass-combat", seed=hashlib.sha256(b"scale bench").digest())
        for side in ("Blue", "Red"):
            self.ledger.execute(self.info(), mct.Funds(side=side, amount=10**9, reason="war chest"))
            for n in range(3):
                name, profile = f"{side} {n + 1}", {"men": 300, **KIT[side]}
                self.ledger.execute(self.info(), mcc.Raise(unit_name=name, side=side, profile=profile))
        self._turn = itertools.count(1)

    def info(self) -> CampaignInfo:
        return self.ledger.resolve(NAME)

    def grow_to(self, size: int, progress: Callable[[str], None]) -> None:
        """Rolls (two events each: the command and its dice) and a rule command every tenth, until the log
        holds ``size`` events."""
        while (info := self.info()).last_seq < size:
            turn = next(self._turn)
            if turn % 10 == 0:
                self.rule_command(info)
            else:
                self.ledger.roll(info, "3d", "bench filler")
            if turn % 1000 == 0:
                progress(f"\r  {info.last_seq:,} events")
        progress(f"\r  {self.info().last_seq:,} events\n")

    def rule_command(self, info: CampaignInfo) -> None:
        self.ledger.execute(info, mct.Funds(side="Blue", amount=1, reason="a patron's purse"))

    def roll(self) -> None:
        self.ledger.roll(self.info(), "3d", "bench roll")


class RawSqlite:
    """sqlite3 on a copy of the schema: the floor of a single-event transaction."""

    def __init__(self, path: Path, source: Path) -> None:
        with sqlite3.connect(source) as src:
            schema = [sql for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE name = 'events'")]
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = NORMAL")
        for sql in schema:
            self.conn.execute(sql)
        self.position = itertools.count(1)
        self.payload = orjson.dumps({"notation": "3d", "purpose": "bench roll", "rolls": [3, 4, 5], "total": 12})

    def one_event(self) -> None:
        p = next(self.position)
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute(
            "INSERT INTO events (position, campaign_id, seq, command_seq, type, schema_version, payload, hash)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (p, "raw", p, p, "dice.rolled", 1, self.payload, hashlib.sha256(self.payload).hexdigest()),
        )
        self.conn.execute("COMMIT")


def paired(rounds: int, ours: Callable[[], Any], raw: Callable[[], Any]) -> tuple[float, float, float]:
    """Median CPU seconds of ours and raw, and the median of the per-round ratios raw / ours."""
    mine, theirs, ratios = [], [], []
    for _ in range(rounds):
        a, b = cpu(ours), cpu(raw)
        mine.append(a)
        theirs.append(b)
        ratios.append(b / a if a > 0 else float("inf"))
    return statistics.median(mine), statistics.median(theirs), statistics.median(ratios)


def raw_read_and_decode(path: Path, campaign_id: str) -> int:
    """sqlite3 reading the campaign's rows, as the store joins them, and orjson decoding payload and meta."""
    conn = sqlite3.connect(path)
    loads = orjson.loads
    count = 0
    for _, payload, meta in conn.execute(
        "SELECT events.seq, events.payload, commands.meta FROM events JOIN commands"
        " ON commands.campaign_id = events.campaign_id AND commands.first_seq = events.command_seq"
        " WHERE events.campaign_id = ? ORDER BY events.seq",
        (campaign_id,),
    ):
        loads(payload)
        loads(meta)
        count += 1
    conn.close()
    return count


def raw_last(path: Path, campaign_id: str, count: int) -> list[Any]:
    conn = sqlite3.connect(path)
    rows = conn.execute(
        "SELECT events.seq, events.payload, commands.meta FROM events JOIN commands"
        " ON commands.campaign_id = events.campaign_id AND commands.first_seq = events.command_seq"
        " WHERE events.campaign_id = ? ORDER BY events.seq DESC LIMIT ?",
        (campaign_id, count),
    ).fetchall()
    conn.close()
    return [(orjson.loads(p), orjson.loads(m)) for _, p, m in rows]


def storage(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    one = conn.execute
    log = one("SELECT coalesce(sum(length(payload) + length(hash)), 0) FROM events").fetchone()[0]
    meta = one("SELECT coalesce(sum(length(meta)), 0) FROM commands").fetchone()[0]
    snapshots = one("SELECT coalesce(sum(length(state)), 0), count(*) FROM campaign_snapshots").fetchone()
    conn.close()
    return {"file": path.stat().st_size, "log": log + meta, "snapshots": snapshots[0], "snapshot_count": snapshots[1]}


CHILD = """
import atexit, re, sys
def peak():
    with open("/proc/self/status") as status:
        sys.stderr.write("PEAK_RSS_KB=" + re.search(r"VmHWM:\\s+(\\d+)", status.read()).group(1) + "\\n")
atexit.register(peak)
sys.argv = ["campaign", *sys.argv[1:]]
from campaign.cli.main import main
main()
"""


def child(db: Path, *args: str) -> dict[str, float]:
    """One ``campaign`` command in its own process: its CPU seconds (wait4) and peak RSS in MiB.

    The peak is the child's own VmHWM, read as it exits: the ``ru_maxrss`` that wait4 reports starts from
    this (large) bench process's RSS, inherited through fork and exec.
    """
    cmd = [sys.executable, "-c", CHILD, "--db", str(db), *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    peak = [line for line in stderr.splitlines() if line.startswith("PEAK_RSS_KB=")]
    if proc.returncode != 0 or not peak:
        raise RuntimeError(f"{' '.join(args)} failed: {stderr}")
    return {"cpu_s": usage.ru_utime + usage.ru_stime, "rss_mib": int(peak[-1].split("=")[1]) / 1024}


def measure(c: Campaign, raw: RawSqlite, db: Path, rounds: int, heavy: int, rss: bool) -> dict[str, Any]:
    from campaign.log_view import log_page
    from campaign.timeline import Timeline
    from events.registry import registry
    from events.verify import verify_events
    from projections.campaign_state import rebuild

    ledger, store = c.ledger, c.ledger.store
    cid = c.info().campaign_id
    out: dict[str, Any] = {}
    gc.collect()
    ours, theirs, ratio = paired(rounds, lambda: c.rule_command(c.info()), raw.one_event)
    out["rule_command"] = {"ms": ours * 1e3, "raw_ms": theirs * 1e3, "vs_raw": ratio}
    ours, theirs, ratio = paired(rounds, c.roll, raw.one_event)
    out["roll"] = {"ms": ours * 1e3, "raw_ms": theirs * 1e3, "vs_raw": ratio}
    info = c.info()
    events = info.last_seq
    ours, theirs, ratio = paired(
        heavy, lambda: rebuild(c.app.engine, store, projectors()), lambda: raw_read_and_decode(db, cid)
    )
    out["rebuild"] = {"s": ours, "raw_s": theirs, "vs_raw": ratio}
    seconds = cpu(lambda: verify_events(cid, store.read(cid), registry))
    out["verify"] = {"s": seconds, "events_per_s": events / seconds}
    seconds = cpu(lambda: Timeline(ledger).reevaluate(info))
    out["verify_rules"] = {"s": seconds, "events_per_s": events / seconds}
    for key, at in (("at_early", 100), ("at_late", info.last_seq - 100)):
        ours, theirs, ratio = paired(3, lambda at=at: ledger.states.get(info, at_seq=at), lambda: None)
        out[key] = {"ms": ours * 1e3}
    ours, theirs, ratio = paired(rounds, lambda: log_page(store, cid, last=20), lambda: raw_last(db, cid, 20))
    out["log_last_20"] = {"ms": ours * 1e3, "raw_ms": theirs * 1e3, "vs_raw": ratio}
    out["storage"] = storage(db)
    out["storage"]["bytes_per_event"] = out["storage"]["file"] / events
    if rss:
        last_roll = c.info().next_roll_index - 1
        out["processes"] = {
            "start-up (list)": child(db, "list"),
            "rebuild": child(db, "rebuild"),
            "verify --no-rules": child(db, "verify", "--no-rules"),
            "log --last 20": child(db, "log", "--last", "20"),
            f"audit --roll {last_roll}": child(db, "audit", "--roll", str(last_roll)),
        }
    out["events"] = events
    return out


def targets(results: dict[int, dict[str, Any]]) -> dict[str, bool]:
    small, large = min(results), max(results)
    s, big = results[small], results[large]
    growth = large / small
    met = {
        "command_flat (≤1.5× smallest)": big["rule_command"]["ms"] <= 1.5 * s["rule_command"]["ms"],
        "roll_flat (≤1.5× smallest)": big["roll"]["ms"] <= 1.5 * s["roll"]["ms"],
        "command_vs_raw ≥ 0.05": all(r["rule_command"]["vs_raw"] >= 0.05 for r in results.values()),
        "rebuild_vs_raw ≥ 0.3": big["rebuild"]["vs_raw"] >= 0.3,
        "rebuild_linear (≤ 35/30 × size growth)": big["rebuild"]["s"] / s["rebuild"]["s"] <= growth * 35 / 30,
        "verify ≥ 100k ev/s": all(r["verify"]["events_per_s"] >= 100_000 for r in results.values()),
        "verify_rules ≥ 20k ev/s": all(r["verify_rules"]["events_per_s"] >= 20_000 for r in results.values()),
        "log_last_20 ≤ 2× smallest": big["log_last_20"]["ms"] <= 2 * s["log_last_20"]["ms"],
        "snapshots ≤ log bytes": all(r["storage"]["snapshots"] <= r["storage"]["log"] for r in results.values()),
    }
    if "processes" in big:
        audit_small = next(v for k, v in s["processes"].items() if k.startswith("audit"))
        audit_big = next(v for k, v in big["processes"].items() if k.startswith("audit"))
        met["audit ≤ 2× smallest (process CPU)"] = audit_big["cpu_s"] <= 2 * audit_small["cpu_s"]
    return met


def report(results: dict[int, dict[str, Any]], met: dict[str, bool]) -> None:
    sizes = sorted(results)
    head = f"{'':<34}" + "".join(f"{n:>14,}" for n in sizes)
    print(head)

    def line(label: str, get: Callable[[dict[str, Any]], str]) -> None:
        print(f"{label:<34}" + "".join(f"{get(results[n]):>14}" for n in sizes))

    line("rule command ms CPU", lambda r: f"{r['rule_command']['ms']:.2f}")
    line("  × raw one-event txn", lambda r: f"{r['rule_command']['vs_raw']:.3f}×")
    line("roll ms CPU", lambda r: f"{r['roll']['ms']:.2f}")
    line("  × raw one-event txn", lambda r: f"{r['roll']['vs_raw']:.3f}×")
    line("raw one-event txn ms", lambda r: f"{r['roll']['raw_ms']:.3f}")
    line("rebuild s CPU", lambda r: f"{r['rebuild']['s']:.2f}")
    line("  × raw read+decode", lambda r: f"{r['rebuild']['vs_raw']:.3f}×")
    line("verify --no-rules ev/s", lambda r: f"{r['verify']['events_per_s']:,.0f}")
    line("verify (rules) ev/s", lambda r: f"{r['verify_rules']['events_per_s']:,.0f}")
    line("status --at 100 ms", lambda r: f"{r['at_early']['ms']:.1f}")
    line("status --at head-100 ms", lambda r: f"{r['at_late']['ms']:.1f}")
    line("log --last 20 ms", lambda r: f"{r['log_last_20']['ms']:.2f}")
    line("  × raw last 20", lambda r: f"{r['log_last_20']['vs_raw']:.3f}×")
    line("file bytes / event", lambda r: f"{r['storage']['bytes_per_event']:.0f}")
    line("snapshot / log bytes", lambda r: f"{r['storage']['snapshots'] / r['storage']['log']:.3f}")
    if "processes" in results[sizes[0]]:
        for i, name in enumerate(results[sizes[0]]["processes"]):
            line(
                f"{name.split(' --roll')[0]} (process) s",
                lambda r, i=i: f"{list(r['processes'].values())[i]['cpu_s']:.2f}",
            )
            line("  peak RSS MiB", lambda r, i=i: f"{list(r['processes'].values())[i]['rss_mib']:.0f}")
    print()
    for name, ok in met.items():
        print(f"{'met   ' if ok else 'MISSED'} {name}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,30000", help="campaign sizes in events, comma-separated")
    parser.add_argument("--rounds", type=int, default=15, help="paired rounds of the per-command measures")
    parser.add_argument("--heavy-rounds", type=int, default=1, help="paired rounds of rebuild against raw")
    parser.add_argument("--rss", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    configure_logging(0)

    def progress(text: str) -> None:
        if not args.json:
            print(text, end="", file=sys.stderr, flush=True)

    folder = Path(tempfile.mkdtemp(prefix="scale-bench-"))
    db = folder / "campaign.db"
    counter = itertools.count(1)
    app = bootstrap(str(db), actor="bench", new_id=lambda: f"scale{next(counter):09d}")
    campaign = Campaign(app)
    app.ledger.reveal(campaign.info())  # the seed so far is public: verify re-derives the early rolls
    raw = RawSqlite(folder / "raw.db", db)
    results: dict[int, dict[str, Any]] = {}
    for size in sizes:
        progress(f"growing the campaign to {size:,} events\n")
        campaign.grow_to(size, progress)
        progress(f"measuring at {size:,} events\n")
        results[size] = measure(campaign, raw, db, args.rounds, args.heavy_rounds, args.rss)
        progress(json.dumps({size: results[size]}) + "\n")  # each size as it is done: a long run can be cut short
    app.close()
    met = targets(results)
    if args.json:
        print(json.dumps({"sizes": sizes, "results": results, "targets_met": met}, indent=2))
    else:
        report(results, met)
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
