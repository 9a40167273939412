"""What shares of entropy cost a seeded roll: rolls in a campaign whose current seed has no shares
against rolls in one whose seed has three, paired round by round, in CPU time, on one SQLite file (or
``--pg URL``). A roll with shares reads the held shares (one indexed query) and makes one more HMAC.

    .venv/bin/python bench/entropy_bench.py --rolls 200 --rounds 7 [--json]
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import tempfile
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import median_ratio, timed
from campaign.bootstrap import bootstrap
from campaign.logging import configure_logging


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rolls", type=int, default=200, help="rolls per campaign per round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--pg", help="a PostgreSQL URL instead of a SQLite file (its tables must be empty)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    configure_logging(0)  # warnings only: a log line per roll would drown the result
    with tempfile.TemporaryDirectory() as tmp:
        app = bootstrap(args.pg or str(Path(tmp) / "entropy.db"), actor="bench")
        ledger = app.ledger
        ledger.create_campaign("Plain", "grimdark")
        ledger.create_campaign("Mixed", "grimdark")
        for who in ("gina", "pat", "olive"):
            other = copy.copy(ledger)
            other.actor = who
            other.commit_share(ledger.resolve("Mixed"), f"{who}'s share of entropy")

        def rolls(name: str) -> None:
            for _ in range(args.rolls):
                ledger.roll(ledger.resolve(name), "2d6", "bench")

        plain: list[float] = []
        mixed: list[float] = []
        for round_ in range(args.rounds):
            order = ("Plain", "Mixed") if round_ % 2 == 0 else ("Mixed", "Plain")
            for name in order:
                (plain if name == "Plain" else mixed).append(timed(lambda name=name: rolls(name)) / args.rolls)
        app.close()
    result = {
        "rolls_per_round": args.rolls,
        "rounds": args.rounds,
        "plain_ms": round(statistics.median(plain) * 1000, 3),
        "mixed_ms": round(statistics.median(mixed) * 1000, 3),
        "mixed_over_plain": round(median_ratio(mixed, plain), 3),
    }
    if args.json:
        print(orjson.dumps(result).decode())
    else:
        print(
            f"seeded roll, CPU ms (median of {args.rounds} paired rounds of {args.rolls}): no shares "
            f"{result['plain_ms']}, three shares {result['mixed_ms']}; ratio {result['mixed_over_plain']}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
