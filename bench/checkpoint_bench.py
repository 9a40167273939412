"""What the server's checkpoint after each write costs a command, paired round by round.

    .venv/bin/python bench/checkpoint_bench.py [--commands 200] [--rounds 7] [--json]

A server on SQLite copies each write from the WAL into the database file as soon as it is committed
(``SqlEventStore.checkpoint_each_write``), so a ``cp campaign.db`` while it runs holds everything it acknowledged.
Two ledgers on two fresh SQLite files (WAL, synchronous=FULL, as the program runs) each run the same seeded
``ledger.roll`` commands, one transaction each: one with the checkpoint, one without. Each round runs both, in
alternating order; a figure is the median over rounds of the per-round figures. Wall time counts here, not only
CPU: the checkpoint's cost is mostly the database file's own sync.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from campaign.bootstrap import App, bootstrap
from campaign.logging import configure_logging
from events.sql import SqlEventStore


def opened(folder: Path, name: str, checkpoint: bool) -> App:
    app = bootstrap(str(folder / f"{name}.db"), actor="bench")
    app.ledger.create_campaign(name, "grimdark", seed=b"b" * 32)
    store = app.ledger.store
    assert isinstance(store, SqlEventStore)
    store.checkpoint_each_write = checkpoint
    return app


def run(app: App, name: str, commands: int, start: int) -> tuple[float, float]:
    """CPU and wall seconds of ``commands`` rolls, one command (one transaction) each."""
    cpu, clock = time.process_time(), time.perf_counter()
    for i in range(commands):
        info = app.ledger.resolve(name)
        app.ledger.roll(info, "d6", f"roll {start + i}")
    return time.process_time() - cpu, time.perf_counter() - clock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commands", type=int, default=200, help="commands per contender per round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    configure_logging(0)  # warnings only: the per-command log lines would drown the figures
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        apps = {"without": opened(folder, "without", False), "with": opened(folder, "with", True)}
        rows: dict[str, list[tuple[float, float]]] = {"without": [], "with": []}
        for r in range(args.rounds):
            order = ["without", "with"] if r % 2 == 0 else ["with", "without"]
            for name in order:
                rows[name].append(run(apps[name], name, args.commands, r * args.commands))
        wal_left = {name: (folder / f"{name}.db-wal").stat().st_size for name in apps}
        for app in apps.values():
            app.close()
    n = args.commands
    per = {
        name: {
            "cpu_ms": statistics.median(c for c, _ in got) / n * 1000,
            "wall_ms": statistics.median(w for _, w in got) / n * 1000,
        }
        for name, got in rows.items()
    }
    paired = {
        "added_wall_ms": statistics.median(
            (w1 - w0) / n * 1000 for (_, w0), (_, w1) in zip(*rows.values(), strict=True)
        ),
        "added_cpu_ms": statistics.median(
            (c1 - c0) / n * 1000 for (c0, _), (c1, _) in zip(*rows.values(), strict=True)
        ),
        "wall_ratio": statistics.median(w1 / w0 for (_, w0), (_, w1) in zip(*rows.values(), strict=True)),
        "cpu_ratio": statistics.median(c1 / c0 for (c0, _), (c1, _) in zip(*rows.values(), strict=True)),
    }
    if args.json:
        print(orjson.dumps({"per_command": per, "paired": paired, "wal_bytes_left": wal_left}).decode())
        return
    print(f"{args.rounds} rounds of {n} commands each (one transaction a command), medians:")
    for name, figures in per.items():
        print(f"  {name:8} checkpoint: {figures['cpu_ms']:.2f} ms CPU, {figures['wall_ms']:.2f} ms wall per command")
    print(
        f"  the checkpoint adds {paired['added_wall_ms']:.2f} ms wall ({paired['wall_ratio']:.2f}×) and "
        f"{paired['added_cpu_ms']:.2f} ms CPU ({paired['cpu_ratio']:.2f}×) per command (paired)"
    )
    print(f"  WAL left behind: {wal_left['without']:,} bytes without, {wal_left['with']:,} bytes with")


if __name__ == "__main__":
    main()
