"""A rule command's state loaded once: what one command costs in a process that wrote the campaign last
(the inline writer holds the state) and in one that did not (every CLI command, or two processes taking turns),
and how many times each reads the campaign's state row and decodes it, in CPU time.

    .venv/bin/python bench/state_once_bench.py [--size 10000] [--rounds 31] [--cache DIR] [--json]

The campaign is the scale benchmark's (``bench/scale_build.py``), copied from its cache to a temporary file: the
cache is never written. Two apps open the copy, each with its own ids: "turns" runs a ``funds`` rule command on
each in turn, so each one's command starts from what the other stored; "same process" runs them on one app.
Nothing is asserted: the figures are for people.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scale_build import Campaign, Ids, cached_campaign, default_cache, working_copy
from sqlalchemy import event
from timing import timed as cpu

from campaign.bootstrap import bootstrap
from campaign.logging import configure_logging
from projections.fold import RulesetFold


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--cache", help="the scale benchmark's cache folder (default: ~/.cache/…)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    configure_logging(0)
    cached, state = cached_campaign(args.size, Path(args.cache) if args.cache else default_cache(), lambda _: None)
    counts: Counter[str] = Counter()
    decode = RulesetFold.decode

    def counted(self: RulesetFold[Any], data: bytes) -> Any:
        counts["decodes"] += 1
        return decode(self, data)

    with tempfile.TemporaryDirectory(prefix="state-once-") as tmp:
        db = str(working_copy(cached, Path(tmp)))
        a = Campaign(bootstrap(db, actor="bench", new_id=Ids(state["ids"])), Ids(0), state["turn"])
        b = Campaign(bootstrap(db, actor="bench", new_id=Ids(state["ids"] + 10**7)), Ids(0), state["turn"])
        try:

            def reads(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
                if statement.lstrip().upper().startswith("SELECT") and "campaign_state.state" in statement:
                    counts["reads"] += 1

            for app in (a.app, b.app):
                event.listen(app.engine, "before_cursor_execute", reads)
            RulesetFold.decode = counted  # type: ignore[method-assign]
            turns, same = [], []
            turn_counts, same_counts = Counter[str](), Counter[str]()
            a.rule_command(a.info())
            for _ in range(args.rounds):
                counts.clear()
                turns.append(cpu(lambda: b.rule_command(b.info())))  # a wrote last
                turn_counts += counts
                counts.clear()
                same.append(cpu(lambda: b.rule_command(b.info())))  # b wrote last
                same_counts += counts
                a.rule_command(a.info())  # a's turn: b's next command starts from what a stored
        finally:
            RulesetFold.decode = decode  # type: ignore[method-assign]
            a.app.close()
            b.app.close()
    n = args.rounds
    results = {
        label: {"ms": statistics.median(times) * 1e3, "reads": seen["reads"] / n, "decodes": seen["decodes"] / n}
        for label, times, seen in (("other_wrote_last", turns, turn_counts), ("same_process", same, same_counts))
    }
    if args.json:
        print(json.dumps({"size": args.size, "rounds": n, "results": results}, indent=2))
        return 0
    print(f"rule command at {args.size:,} events, median of {n} rounds, ms CPU; state row reads, decodes each")
    for key, label in (("other_wrote_last", "another process wrote last"), ("same_process", "same process")):
        r = results[key]
        print(f"  {label:28} {r['ms']:6.3f}   {r['reads']:.0f}, {r['decodes']:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
