"""Long campaigns stay fast: what one command, a rebuild, a verify and the paged reads cost as a
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

The growth targets (command and roll flat, rebuild linear, ``log --last 20``) compare the largest size with the
smallest round by round, both campaigns open in this one process; verify is paired with raw read+decode too, so
that its events/s can be read against what the machine gave that round.

Peak RSS (``--rss``, on by default) runs ``campaign rebuild``, ``verify`` (with and without rules) and ``audit`` as
child processes on the same file and reads each one's own peak from ``wait4`` (the issue asks ≤ 300 MiB at 1M
events). Nothing is asserted: the figures are for people; the exit status is 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scale_build import Campaign, cached_campaign, default_cache, open_campaign, postgres_copy, working_copy
from scale_raw import RawPostgres, RawSqlite
from timing import timed as cpu

from campaign.bootstrap import projectors
from campaign.logging import configure_logging


def paired(rounds: int, ours: Callable[[], Any], raw: Callable[[], Any]) -> tuple[float, float, float]:
    """Median CPU seconds of ours and raw, and the median of the per-round ratios raw / ours."""
    mine, theirs, ratios = [], [], []
    for _ in range(rounds):
        a, b = cpu(ours), cpu(raw)
        mine.append(a)
        theirs.append(b)
        ratios.append(b / a if a > 0 else float("inf"))
    return statistics.median(mine), statistics.median(theirs), statistics.median(ratios)


def rebuild_now(c: Campaign) -> None:
    """The cached file's read models refolded by this code (the cache key covers only the log's contents)."""
    from projections.campaign_state import rebuild

    rebuild(c.app.engine, c.ledger.store, projectors())


UNIT = "Red 1"
"""A unit of the bench's Mass Combat campaign (``unit`` is measured on it)."""

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


def child(db: str, *args: str) -> dict[str, float]:
    """One ``campaign`` command in its own process: its CPU seconds (wait4) and peak RSS in MiB.

    The peak is the child's own VmHWM, read as it exits: the ``ru_maxrss`` that wait4 reports starts from
    this (large) bench process's RSS, inherited through fork and exec.
    """
    cmd = [sys.executable, "-c", CHILD, "--db", db, *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    peak = [line for line in stderr.splitlines() if line.startswith("PEAK_RSS_KB=")]
    if proc.returncode != 0 or not peak:
        raise RuntimeError(f"{' '.join(args)} failed: {stderr}")
    return {"cpu_s": usage.ru_utime + usage.ru_stime, "rss_mib": int(peak[-1].split("=")[1]) / 1024}


def amendable_near_head(store: Any, cid: str) -> tuple[int, str, int] | None:
    """The last of the last 64 recorded commands with a whole-number input, that input and a new value for it."""
    for issued in reversed(store.read_types(cid, ["timeline.command_issued"], limit=64, last=True)):
        numbers = [(k, v) for k, v in issued.payload["args"].items() if isinstance(v, int) and not isinstance(v, bool)]
        if numbers:
            key, value = numbers[0]
            return issued.seq, key, value + 1
    return None


def measure(c: Campaign, raw: RawSqlite | RawPostgres, db: str, rounds: int, heavy: int, rss: bool) -> dict[str, Any]:
    from campaign.read.log import log_page
    from campaign.replay import command_groups
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
        heavy, lambda: rebuild(c.app.engine, store, projectors()), lambda: raw.read_and_decode(cid)
    )
    out["rebuild"] = {"s": ours, "raw_s": theirs, "vs_raw": ratio}
    ours, theirs, ratio = paired(
        max(3, heavy), lambda: verify_events(cid, store.read(cid), registry), lambda: raw.read_and_decode(cid)
    )
    out["verify"] = {"s": ours, "events_per_s": events / ours, "raw_s": theirs, "vs_raw": ratio}
    seconds = cpu(lambda: Timeline(ledger).reevaluate(info))
    out["verify_rules"] = {"s": seconds, "events_per_s": events / seconds}
    for key, at in (("at_early", 100), ("at_late", info.last_seq - 100)):
        ours, theirs, ratio = paired(3, lambda at=at: ledger.states.get(info, at_seq=at), lambda: None)
        out[key] = {"ms": ours * 1e3}
    ours, theirs, ratio = paired(rounds, lambda: log_page(store, cid, last=20), lambda: raw.last(cid, 20))
    out["log_last_20"] = {"ms": ours * 1e3, "raw_ms": theirs * 1e3, "vs_raw": ratio}
    out["storage"] = raw.storage()
    out["storage"]["bytes_per_event"] = out["storage"]["file"] / events
    if rss:
        last_roll = c.info().next_roll_index - 1
        out["processes"] = {
            "start-up (list)": child(db, "list"),
            "rebuild": child(db, "rebuild"),
            "verify --no-rules": child(db, "verify", "--no-rules"),
            "verify (rules)": child(db, "verify"),
            "log --last 20": child(db, "log", "--last", "20"),
            f"audit --roll {last_roll}": child(db, "audit", "--roll", str(last_roll)),
        }
        near_head = amendable_near_head(store, cid)
        if near_head is not None:  # an amend costs what follows the amended command, not the log
            seq, key, value = near_head
            out["processes"]["amend --dry-run"] = child(db, "amend", str(seq), "--set", f"{key}={value}", "--dry-run")
        # Last, as they append: a rewind to the end of the command before the last, then an undo (of that rewind).
        before_last = command_groups(store.read(cid, after_seq=c.info().last_seq - 64))[-2].last_seq
        out["processes"]["rewind"] = child(db, "rewind", "--to", str(before_last), "--reason", "bench")
        out["processes"]["undo"] = child(db, "undo")
        out["processes"][f"unit {UNIT!r}"] = child(db, "unit", UNIT)
    out["events"] = events
    return out


def across_sizes(small: Campaign, large: Campaign, rounds: int, heavy: int) -> dict[str, float]:
    """Largest size ÷ smallest, paired: each round measures both campaigns back to back (in alternating order),
    so that the machine's load changes both alike; the median of the per-round ratios. Measured apart, minutes
    apart, the sizes' figures differed by more than the 1.5× a target allows on a loaded machine."""
    from campaign.read.log import log_page

    def ratio(n: int, measure: Callable[[Campaign], Any]) -> float:
        ratios = []
        for i in range(n):
            if i % 2:
                big = cpu(lambda: measure(large))
                ratios.append(big / max(cpu(lambda: measure(small)), 1e-9))
            else:
                one = max(cpu(lambda: measure(small)), 1e-9)
                ratios.append(cpu(lambda: measure(large)) / one)
        return statistics.median(ratios)

    def last_20(c: Campaign) -> None:
        log_page(c.ledger.store, c.info().campaign_id, last=20)

    return {
        "rule_command": ratio(rounds, lambda c: c.rule_command(c.info())),
        "roll": ratio(rounds, lambda c: c.roll()),
        "rebuild": ratio(max(3, heavy), rebuild_now),
        "log_last_20": ratio(rounds, last_20),
    }


def targets(results: dict[int, dict[str, Any]], across: dict[str, float] | None = None) -> dict[str, bool]:
    small, large = min(results), max(results)
    s, big = results[small], results[large]
    growth = large / small
    # Growth from the paired rounds across sizes when there are two sizes (else each size's own median).
    grew = across or {
        key: big[key][unit] / s[key][unit]
        for key, unit in (("rule_command", "ms"), ("roll", "ms"), ("rebuild", "s"), ("log_last_20", "ms"))
    }
    met = {
        "command_flat (≤1.5× smallest)": grew["rule_command"] <= 1.5,
        "roll_flat (≤1.5× smallest)": grew["roll"] <= 1.5,
        "command_vs_raw ≥ 0.05": all(r["rule_command"]["vs_raw"] >= 0.05 for r in results.values()),
        "rebuild_vs_raw ≥ 0.3": big["rebuild"]["vs_raw"] >= 0.3,
        "rebuild_linear (≤ 35/30 × size growth)": grew["rebuild"] <= growth * 35 / 30,
        "verify ≥ 100k ev/s": all(r["verify"]["events_per_s"] >= 100_000 for r in results.values()),
        "verify_rules ≥ 20k ev/s": all(r["verify_rules"]["events_per_s"] >= 20_000 for r in results.values()),
        "log_last_20 ≤ 2× smallest": grew["log_last_20"] <= 2,
        "snapshots ≤ log bytes": all(r["storage"]["snapshots"] <= r["storage"]["log"] for r in results.values()),
    }
    if "processes" in big:
        audit_small = next(v for k, v in s["processes"].items() if k.startswith("audit"))
        audit_big = next(v for k, v in big["processes"].items() if k.startswith("audit"))
        met["audit ≤ 2× smallest (process CPU)"] = audit_big["cpu_s"] <= 2 * audit_small["cpu_s"]
        for name in ("amend", "rewind", "undo", "unit"):
            was_now = big["processes"].items()
            mine = [(s["processes"][k], v) for k, v in was_now if k.startswith(name) and k in s["processes"]]
            if mine:
                ((was, now),) = mine
                met[f"{name} ≤ 2× smallest (process CPU and peak RSS)"] = (
                    now["cpu_s"] <= 2 * was["cpu_s"] and now["rss_mib"] <= 2 * was["rss_mib"]
                )
        met["peak RSS of rebuild, verify, audit ≤ 300 MiB"] = all(
            v["rss_mib"] <= 300 for k, v in big["processes"].items() if k.startswith(("rebuild", "verify", "audit"))
        )
    return met


def report(results: dict[str, dict[str, Any]], met: dict[str, bool], across: dict[str, float] | None) -> None:
    sizes = list(results)
    print(f"{'':<34}" + "".join(f"{n.split()[0]:>16}" for n in sizes))
    print(f"{'':<34}" + "".join(f"{n.split()[1]:>16}" for n in sizes))

    def line(label: str, get: Callable[[dict[str, Any]], str]) -> None:
        print(f"{label:<34}" + "".join(f"{get(results[n]):>16}" for n in sizes))

    line("rule command ms CPU", lambda r: f"{r['rule_command']['ms']:.2f}")
    line("  × raw one-event txn", lambda r: f"{r['rule_command']['vs_raw']:.3f}×")
    line("roll ms CPU", lambda r: f"{r['roll']['ms']:.2f}")
    line("  × raw one-event txn", lambda r: f"{r['roll']['vs_raw']:.3f}×")
    line("raw one-event txn ms", lambda r: f"{r['roll']['raw_ms']:.3f}")
    line("rebuild s CPU", lambda r: f"{r['rebuild']['s']:.2f}")
    line("  × raw read+decode", lambda r: f"{r['rebuild']['vs_raw']:.3f}×")
    line("verify --no-rules ev/s", lambda r: f"{r['verify']['events_per_s']:,.0f}")
    line("  × raw read+decode", lambda r: f"{r['verify']['vs_raw']:.3f}×")
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
    if across:
        paired_growth = ", ".join(f"{k} {v:.2f}×" for k, v in across.items())
        print(f"\nlargest ÷ smallest size, paired round by round: {paired_growth}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
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
    parser.add_argument("--cache", help="folder of the campaigns played once and reused (default: ~/.cache/…)")
    parser.add_argument("--build-only", action="store_true", help="play and cache the sizes, measure nothing")
    parser.add_argument("--pg", metavar="URL", help="also measure on PostgreSQL (a new database on this server)")
    parser.add_argument("--pg-sizes", default="100000", help="the sizes measured on PostgreSQL too")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    pg_sizes = {int(s) for s in args.pg_sizes.split(",")}
    configure_logging(0)

    def progress(text: str) -> None:
        if not args.json:
            print(text, end="", file=sys.stderr, flush=True)

    cache = Path(args.cache) if args.cache else default_cache()
    results: dict[int, dict[str, Any]] = {}
    columns: dict[str, dict[str, Any]] = {}
    across: dict[str, float] | None = None
    with contextlib.ExitStack() as kept:
        # The smallest and the largest campaigns stay open to the end, to be measured against each other.
        ends: dict[int, Campaign] = {}
        for size in sizes:
            cached, state = cached_campaign(size, cache, progress)
            if args.build_only:
                continue
            this_size = contextlib.ExitStack()
            tmp = this_size.enter_context(tempfile.TemporaryDirectory(prefix="scale-bench-"))
            db = working_copy(cached, Path(tmp))
            campaign = open_campaign(str(db), state)
            this_size.callback(campaign.app.close)
            progress(f"refolding the read models with this code, then measuring at {size:,} events on SQLite\n")
            rebuild_now(campaign)
            raw = RawSqlite(db, Path(tmp) / "raw.db")
            try:
                results[size] = columns[f"{size:,} SQLite"] = measure(
                    campaign, raw, str(db), args.rounds, args.heavy_rounds, args.rss
                )
            finally:
                raw.close()
                if size in (sizes[0], sizes[-1]):
                    ends[size] = campaign
                    kept.enter_context(this_size)  # closed at the end
            progress(json.dumps({size: results[size]}) + "\n")  # each as it is done: a long run can be cut short
            if args.pg and size in pg_sizes:
                with postgres_copy(db, args.pg, progress) as url:
                    campaign = open_campaign(url, state)
                    pg_raw = RawPostgres(url)
                    try:
                        progress(f"measuring at {size:,} events on PostgreSQL\n")
                        columns[f"{size:,} PostgreSQL"] = measure(
                            campaign, pg_raw, url, args.rounds, args.heavy_rounds, args.rss
                        )
                    finally:
                        campaign.app.close()
                        pg_raw.close()
                    progress(json.dumps({f"{size} pg": columns[f"{size:,} PostgreSQL"]}) + "\n")
            if size not in ends:
                this_size.close()
        if len(ends) == 2:
            progress("measuring the largest size against the smallest, round by round\n")
            across = across_sizes(ends[sizes[0]], ends[sizes[-1]], args.rounds, args.heavy_rounds)
    if args.build_only:
        return 0
    met = targets(results, across)
    if args.json:
        print(json.dumps({"sizes": sizes, "results": columns, "across_sizes": across, "targets_met": met}, indent=2))
    else:
        report(columns, met, across)
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
