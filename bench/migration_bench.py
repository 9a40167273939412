"""What migration 0011 costs a database written before it: it refolds the campaigns' states,
snapshots and summary rows from the log, once, at the first command after the upgrade. Paired round by round
with ``campaign rebuild`` on a copy of the same file (which refolds every projection), in CPU time and peak
RSS of each child process.

    .venv/bin/python bench/migration_bench.py [--size 100000] [--rounds 3] [--cache DIR]

The campaign is the scale benchmark's (``bench/scale_build.py``: one Mass Combat campaign played through the
executor, cached). A copy set back to revision 0010 runs ``campaign list`` (the migration, then a list of one
line); another copy runs ``campaign rebuild``. Nothing is asserted: the figures are for people.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
from pathlib import Path

from scale_bench import child
from scale_build import cached_campaign, default_cache, working_copy

from campaign.logging import configure_logging


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=100000, help="the campaign's events")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cache", help="folder of the campaigns played once and reused")
    args = parser.parse_args()
    configure_logging(0)  # the campaign played for it logs nothing
    cached, _ = cached_campaign(args.size, Path(args.cache) if args.cache else default_cache(), sys.stderr.write)
    migrated, rebuilt = [], []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            old = working_copy(cached, Path(a))
            with sqlite3.connect(old) as conn:
                conn.execute("UPDATE alembic_version SET version_num = '0010'")
            migrated.append(child(str(old), "list"))
            rebuilt.append(child(str(working_copy(cached, Path(b))), "rebuild"))
    for name, runs in (("migration 0011 (+ list)", migrated), ("rebuild", rebuilt)):
        cpu = [r["cpu_s"] for r in runs]
        rss = [r["rss_mib"] for r in runs]
        print(f"{name:24} CPU {min(cpu):.2f}–{max(cpu):.2f} s (median {statistics.median(cpu):.2f}), "
              f"peak RSS {min(rss):.0f}–{max(rss):.0f} MiB")  # fmt: skip
    ratios = [m["cpu_s"] / r["cpu_s"] for m, r in zip(migrated, rebuilt, strict=True)]
    print(f"migration / rebuild, paired: {min(ratios):.2f}–{max(ratios):.2f}× CPU at {args.size:,} events")
    return 0


if __name__ == "__main__":
    sys.exit(main())
