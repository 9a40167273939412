"""How long a person waits for the `campaign` command: its start-up, against the libraries it cannot avoid.

    .venv/bin/python bench/cli_latency.py [--repeat 7] [--json]

Runs, side by side in this run, each as a fresh process, and takes the best CPU time (user + system, from the
kernel's accounting of the child) of ``--repeat`` runs:

* floor  — ``python -c "import sqlalchemy, pydantic"``: the libraries any command that reads a campaign needs;
* help   — ``campaign --help``;
* status — ``campaign status`` on a small Fighting Spirit campaign (a SQLite file made here first);
* rule   — ``campaign fs rest 1``: a rule command (fatigue after a day's rest, RULES.md §5) that appends.

Ratios are each command's time over the floor's. Targets (issue 13): help ≤ 1.0×, status and rule ≤ 1.6×.
Exit status 1 when a target is missed (a result, not a failure of the benchmark). The `campaign` code run is
the one Python imports: set PYTHONPATH to a checkout to measure that checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

FLOOR = [sys.executable, "-c", "import sqlalchemy, pydantic"]
CAMPAIGN = [sys.executable, "-c", "import sys; from campaign.cli.main import main; sys.argv[0] = 'campaign'; main()"]
TARGETS = {"help": 1.0, "status": 1.6, "rule": 1.6}


def cpu_seconds(argv: list[str], env: dict[str, str]) -> float:
    """The CPU time (user + system) one run of ``argv`` took, as the kernel accounted it; it must succeed."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.stderr is not None
    errors = proc.stderr.read().decode()
    proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {errors}")
    return usage.ru_utime + usage.ru_stime


def prepare(db: Path, env: dict[str, str]) -> None:
    steps = [
        ["new", "Otlok Front", "--ruleset", "fighting-spirit", "--seed", "ab" * 32],
        ["fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7"],
        ["fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5"],
        ["fs", "march", "2"],
    ]
    for step in steps:
        subprocess.run([*CAMPAIGN, "--db", str(db), *step], env=env, check=True, capture_output=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7, help="runs of each command; the best counts")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    env = {**os.environ, "COLUMNS": "100", "CAMPAIGN_ACTOR": "bench"}
    env.pop("CAMPAIGN_DB", None)
    env.pop("CAMPAIGN", None)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        prepare(db, env)
        commands = {
            "floor": FLOOR,
            "help": [*CAMPAIGN, "--help"],
            "status": [*CAMPAIGN, "--db", str(db), "status"],
            "rule": [*CAMPAIGN, "--db", str(db), "fs", "rest", "1"],
        }
        best = {name: float("inf") for name in commands}
        for _ in range(max(1, args.repeat)):  # interleaved, so that a busy moment costs every command alike
            for name, argv in commands.items():
                best[name] = min(best[name], cpu_seconds(argv, env))
    ratios = {name: best[name] / best["floor"] for name in TARGETS}
    met = {name: ratios[name] <= target for name, target in TARGETS.items()}
    result = {
        "repeat": args.repeat,
        "cpu_s": {name: round(seconds, 4) for name, seconds in best.items()},
        "ratios": {name: round(ratio, 2) for name, ratio in ratios.items()},
        "targets": TARGETS,
        "targets_met": met,
    }
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        print(f"CPU time, best of {args.repeat} runs each (user + system):")
        print(f"  floor   python -c 'import sqlalchemy, pydantic'  {best['floor'] * 1000:7.1f} ms")
        for name, target in TARGETS.items():
            verdict = "met" if met[name] else "MISSED"
            print(
                f"  {name:<7} {'campaign ' + ' '.join(commands[name][3:]).replace(str(db), 'DB'):<34} "
                f"{best[name] * 1000:7.1f} ms  {ratios[name]:5.2f}× floor  (target ≤ {target}×: {verdict})"
            )
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
