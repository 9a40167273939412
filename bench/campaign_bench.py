"""What a long campaign costs to keep: projections, point-in-time views, verification and rule re-evaluation.

    .venv/bin/python bench/campaign_bench.py [--battles 30] [--units 3] [--json]

Plays a GURPS Mass Combat campaign on a fresh SQLite file (before every battle each side recruits back to
``--units`` serving units; after it, ten days of rest and a month's end with pay), then times, side by side
in this run:

* read       — every event of the campaign read back and decoded (the floor every other line is compared to);
* fold       — the campaign state folded from the log in memory, as `rebuild` and `--at` do;
* rebuild    — every projection dropped and refolded in one transaction (`campaign rebuild`);
* at         — the state as it stood half-way, from the nearest snapshot (`campaign status --at SEQ`);
* verify     — hash chain, schemas and every seeded roll re-derived from the revealed seed (`campaign verify
               --no-rules`);
* rules      — every command re-run in a sandbox on its recorded dice and compared (`campaign verify`).

Ratios are the operation's time over `read`'s: how many reads of the whole log each costs. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from campaign.bootstrap import bootstrap, projectors
from campaign.commands import fold_for
from campaign.executor import Ledger
from campaign.logging import configure_logging
from campaign.rulesets.mass_combat import calendar_commands as mct
from campaign.rulesets.mass_combat import commands as mcc
from campaign.rulesets.mass_combat.commands import parse_setup
from campaign.rulesets.mass_combat.plugin import PLUGIN
from campaign.timeline import Timeline
from events.registry import registry
from events.timeline import effective
from events.verify import verify_events
from projections.campaign_state import rebuild
from projections.state.campaigns import CampaignInfo


def best_of(repeat: int, fn: Callable[[], Any]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def play(ledger: Ledger, battles: int, units: int, progress: Callable[[str], None]) -> tuple[CampaignInfo, int]:
    """A campaign of ``battles`` battles; returns its info and how many units were raised."""
    ledger.create_campaign("Bench", "mass-combat", seed=hashlib.sha256(b"campaign bench").digest())

    def info() -> CampaignInfo:
        return ledger.resolve("Bench")

    for side in ("Blue", "Red"):
        ledger.execute(info(), mct.Funds(side=side, amount=10**9, reason="war chest"))
    kit = {"Blue": {"troop_type": "MI", "armour": "medium"}, "Red": {"troop_type": "LI", "armour": "light"}}
    raised = 0
    for n in range(battles):
        state, _ = ledger.in_force(info(), PLUGIN)
        fielded: dict[str, list[dict[str, str]]] = {}
        for side in ("Blue", "Red"):
            fielded[side] = [
                {"unit": u.name} for u in state.units() if u.side == side and not u.disbanded and u.fit > 0
            ]
            while len(fielded[side]) < units:  # the side recruits back to strength between battles
                raised += 1
                name = f"{side} {raised}"
                ledger.execute(info(), mcc.Raise(unit_name=name, side=side, profile={"men": 300, **kit[side]}))
                fielded[side].append({"unit": name})
        setup = {
            "name": f"Battle {n + 1}",
            "sides": [
                {"name": side, "commander": {"strategy": 13}, "units": fielded[side]} for side in ("Blue", "Red")
            ],
        }
        ledger.execute(info(), mcc.Battle(setup=parse_setup(setup)))
        ledger.execute(info(), mct.Days(days=10, activity="rest"))
        ledger.execute(info(), mct.MonthEnd(pay_pct={"Blue": 100, "Red": 100}))
        progress(f"\r  played {n + 1}/{battles} rounds, {info().last_seq:,} events")
    progress("\n")
    return info(), raised


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=30)
    parser.add_argument("--units", type=int, default=3, help="units raised on each side")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timed operation; the best counts")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    quiet = args.json
    configure_logging(0)  # warnings only: the per-command log lines would drown the table

    def progress(text: str) -> None:
        if not quiet:
            print(text, end="", file=sys.stderr, flush=True)

    path = Path(tempfile.mkdtemp(prefix="campaign-bench-")) / "campaign.db"
    counter = itertools.count(1)  # fixed ids and seed: every run plays the same campaign
    app = bootstrap(str(path), actor="bench", new_id=lambda: f"bench{next(counter):06d}")
    ledger = app.ledger
    started = time.perf_counter()
    info, raised = play(ledger, args.battles, args.units, progress)
    played = time.perf_counter() - started
    ledger.reveal(info)  # past rolls become checkable: verify re-derives them
    info = ledger.resolve("Bench")
    store, fold = ledger.store, fold_for(info.ruleset)
    assert fold is not None
    events = list(store.read(info.campaign_id))
    half = info.last_seq // 2

    def verify_log() -> Any:  # read as `campaign verify` reads: the time includes the read
        return verify_events(info.campaign_id, store.read(info.campaign_id), registry)

    steps: list[tuple[str, str, Callable[[], Any]]] = [
        ("read", "read and decode the log", lambda: list(store.read(info.campaign_id))),
        ("fold", "fold the state in memory", lambda: fold.fold(effective(store.read(info.campaign_id)))),
        ("rebuild", "rebuild every projection", lambda: rebuild(app.engine, store, projectors())),
        ("at", f"state at seq {half} (snapshot + tail)", lambda: ledger.states.get(info, at_seq=half)),
        ("verify", "verify chain, schemas, dice", verify_log),
        ("rules", "re-evaluate every rule", lambda: Timeline(ledger).reevaluate(info)),
    ]
    results: dict[str, float] = {}
    for i, (key, label, fn) in enumerate(steps, 1):
        progress(f"[{i}/{len(steps)}] {label} …\n")
        results[key] = best_of(args.repeat, fn)

    report = verify_events(info.campaign_id, events, registry)
    drift = Timeline(ledger).reevaluate(info)
    app.close()
    summary = {
        "events": len(events),
        "battles": args.battles,
        "units_raised": raised,
        "played_seconds": round(played, 3),
        "verified": report.ok,
        "drift": len(drift),
        "seconds": {key: round(value, 4) for key, value in results.items()},
        "ratio_to_read": {key: round(value / results["read"], 2) for key, value in results.items() if key != "read"},
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0 if report.ok and not drift else 1
    print(f"\nMass Combat campaign: {len(events):,} events, {args.battles} battles, {raised} units raised,", end=" ")
    print(f"played in {played:.1f} s")
    print(f"verify ok: {report.ok}; rules drift: {len(drift)}\n")
    print(f"{'operation':<42}{'seconds':>10}{'events/s':>12}{'× read':>9}")
    for key, label, _ in steps:
        seconds = results[key]
        ratio = "" if key == "read" else f"{seconds / results['read']:8.1f}×"
        print(f"{label:<42}{seconds:>10.4f}{len(events) / seconds:>12,.0f}{ratio:>9}")
    return 0 if report.ok and not drift else 1


if __name__ == "__main__":
    raise SystemExit(main())
