"""How long a person waits for the `campaign` command: its start-up, against the libraries it cannot avoid.

    .venv/bin/python bench/cli_latency.py [--repeat 7] [--json] [--causes] [--every-ruleset]

Runs, side by side in this run, each as a fresh process, and takes the best CPU time (user + system, from the
kernel's accounting of the child) of ``--repeat`` runs:

* floor  — ``python -c "import sqlalchemy, pydantic"``: the libraries any command that reads a campaign needs;
* help   — ``campaign --help``;
* status — ``campaign status`` on a small Fighting Spirit campaign (a SQLite file made here first);
* rule   — ``campaign fs rest 1``: a rule command (fatigue after a day's rest, RULES.md §5) that appends;
* with ``--every-ruleset``, a rule command of each ruleset that rolls a die, on a small campaign of its own
  (``fs attack``, ``mc rest``, ``dis hit``, ``gf shoot``: README's walkthroughs), held to rule's target.

Every run reads compiled bytecode, as an installed program does (pip compiles it at install): the bytecode
goes to a cache in a temporary folder (``PYTHONPYCACHEPREFIX``), filled by an untimed first round, so neither
a checkout kept free of ``__pycache__`` (``PYTHONDONTWRITEBYTECODE``) nor the first run's compiling is timed
— it was, before, for the campaign code and not for the floor's libraries, whose bytecode was installed.

``--causes`` also says where a command's time goes: a ladder of programs, each a fresh process doing what the
one before did and one thing more (the collector, Typer, pydantic's model machinery, the event types, …, the whole
command), timed the same way; each rung's cost is its time less the rung below's (differences of best times:
read them to a few milliseconds). It also times the least a ``status`` can cost on these libraries (``BOUND``:
Typer, one SQLAlchemy query, a pydantic state, a Rich table, and none of the program's code), beside the rest.

The ``campaign`` command turns Python's cyclic garbage collector off through its start-up and back on when the
command's own work begins, with what start-up made frozen (``gc.freeze``: never walked again, at exit either):
about a quarter of a command's CPU time was the collector walking the hundreds of thousands of objects that
importing Typer, pydantic's models and SQLAlchemy's dialect makes and keeps. The ladder's first rung times that
alone on the floor's imports, and its rungs and ``BOUND`` run so too. The floor is the bare import, as before.

Ratios are each command's time over the floor's. Targets: help ≤ 1.0×, status and rule ≤ 1.6×.
Exit status 1 when a target is missed (a result, not a failure of the benchmark). The `campaign` code run is
the one this Python imports: with an editable install (``scripts/setup``), its own checkout — PYTHONPATH does
not override an editable install's finder, so measure another checkout with its own virtualenv.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

FLOOR = [sys.executable, "-c", "import sqlalchemy, pydantic"]
CAMPAIGN = [sys.executable, "-c", "import sys; from campaign.cli.main import main; sys.argv[0] = 'campaign'; main()"]
TARGETS = {"help": 1.0, "status": 1.6, "rule": 1.6}
RUNG = "import sqlalchemy, pydantic"
FIRST_MODEL = "\n".join(
    [
        "from pydantic import BaseModel, ConfigDict",
        "class M(BaseModel):",
        "    model_config = ConfigDict(defer_build=True)",
        "    x: int",
    ]
)
GC_OFF = "import gc\ngc.disable()"
LADDER = [  # (cause, what the rung adds to the program of the import rung below; None: the whole command)
    ("the cyclic collector off through start-up (as `campaign` runs)", f"{GC_OFF}\n{RUNG}"),
    ("Typer: the command line", "import typer"),
    ("pydantic's model machinery (the first model class)", FIRST_MODEL),
    ("the event log's envelope and store interface", "import events"),
    ("SQLite: engine, dialect, a first query", "sqlalchemy.create_engine(URL).connect().exec_driver_sql('select 1')"),
    (
        "bootstrap, the campaign directory, the read models",
        "import campaign.bootstrap, projections.campaign_directory, projections.summaries",
    ),
    ("the CLI's modules (main, session, output, views)", "import campaign.cli.main, campaign.cli.campaign_views"),
    ("status: running it (parse, open, read the read models, load Rich, print its table)", None),
    (
        "the executor, the store, the ruleset's state and fold",
        "import campaign.executor, events.sql, projections.campaign_state, campaign.rulesets.fighting_spirit.fold",
    ),
    (
        "the ruleset's command models and its CLI",
        "import campaign.rulesets.fighting_spirit.plugin, campaign.cli.fighting_spirit",
    ),
    ("fs rest 1: running it (parse, open, decide, append, print)", None),
]
"""Where ``status`` and a rule command spend their time; a rung of None is the whole command."""

BOUND = """
import gc
gc.disable()  # through start-up, as `campaign` runs (campaign.cli.main)
from dataclasses import dataclass, field
from typing import Annotated, Literal

import sqlalchemy
import typer
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

app = typer.Typer()


@app.callback()
def options(
    db: Annotated[str, typer.Option("--db")] = "campaign.db",
    actor: Annotated[str | None, typer.Option("--actor")] = None,
    verbose: Annotated[int, typer.Option("--verbose", "-v", count=True)] = 0,
    version: Annotated[bool, typer.Option("--version")] = False,
) -> None:
    global DB
    DB = db


class Profile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    quality: Literal["untrained", "green", "regular", "veteran", "elite"]
    size: int = Field(ge=1, le=500)


@dataclass(frozen=True)
class Unit:
    unit_id: str
    name: str
    side: str
    profile: Profile


@dataclass(frozen=True)
class State:
    day: int = 0
    roster: dict[str, Unit] = field(default_factory=dict)
    treasury: dict[str, int] = field(default_factory=dict)


@app.command()
def status(
    campaign: Annotated[str | None, typer.Option("--campaign", "-c")] = None,
    at: Annotated[int | None, typer.Option("--at")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    gc.freeze()  # the command's work begins, as in campaign.cli.main._collector_back_on
    gc.enable()
    engine = sqlalchemy.create_engine("sqlite:///" + DB)
    with engine.connect() as conn:
        rows = conn.execute(sqlalchemy.text("SELECT name, ruleset FROM campaigns")).all()
    unit = {"unit_id": "a", "name": "A", "side": "K", "profile": {"quality": "regular", "size": 7}}
    state = TypeAdapter(State).validate_python({"day": 2, "roster": {"a": unit}, "treasury": {"K": 100}})
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="Units")
    for column in ("name", "side", "quality", "men"):
        table.add_column(column)
    for unit in state.roster.values():
        table.add_row(unit.name, unit.side, unit.profile.quality, str(unit.profile.size))
    console = Console()
    console.print(f"[bold]{escape(rows[0][0])}[/] ({rows[0][1]}): day {state.day}")
    console.print(table)


app()
"""
"""The least a ``status`` can cost on these libraries, measured beside it under ``--causes``: a Typer command
with status's options that reads one row through SQLAlchemy's SQLite engine, validates a small state with
pydantic and prints a Rich table — none of the program's own code — with the cyclic collector off through its
start-up, as the program runs. What a command takes beyond it is the
program's; a target below it cannot be met without leaving one of these libraries off the command's path."""


def cpu_seconds(argv: list[str], env: dict[str, str], fresh: tuple[Path, Path] | None = None) -> float:
    """The CPU time (user + system) one run of ``argv`` took, as the kernel accounted it; it must succeed.
    ``fresh``: (a campaign, the file the command runs on), copied before the run (not timed)."""
    if fresh is not None:
        fresh_copy(*fresh)
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.stderr is not None
    errors = proc.stderr.read().decode()
    proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {errors}")
    return usage.ru_utime + usage.ru_stime


SEED = "ab" * 32
EVERY_RULESET: dict[str, tuple[list[str], str]] = {
    # name: (the campaign's set-up, the timed rule command: one that rolls a die, run on a fresh copy each time)
    "fs attack": (
        [
            f'new "Otlok Front" --ruleset fighting-spirit --seed {SEED}',
            'fs muster "Keno 3rd Squad" --side Keno --quality regular --lv 2 --size 7',
            'fs muster "Company HQ" --side Steel --quality veteran --lv 2 --size 5',
            'fs battle-start "Hill 203" --side Keno=low --side Steel=medium --unit "Keno 3rd Squad=fresh" '
            '--unit "Company HQ=tired,cover"',
        ],
        'fs attack "Keno 3rd Squad" --killed 1 --dice 6',
    ),
    "mc rest": (
        [
            f'new "Border War" --ruleset mass-combat --seed {SEED}',
            'mc funds Megalos 2000000 --reason "the city\'s war chest"',
            'mc muster "Caliburn\'s gang" --side Megalos --men 15 --armour light --irregular --troop-type LI '
            "--quality inexperienced --experience 0",
        ],
        "mc rest 1",
    ),
    "dis hit": (
        [
            f"new Peninsula --ruleset disorder --seed {SEED}",
            'dis muster "95th Rifles" --side British --models 10 --troops rifles --points 100',
            "dis muster Voltigeurs --side French --models 12 --troops light --points 90",
            'dis officer British "Lt Sharpe"',
            'dis officer French "Capitaine Dubois"',
            'dis battle-start Sabugal --unit "95th Rifles" --unit Voltigeurs',
        ],
        "dis hit Voltigeurs --lost 1 --dice 4,3",
    ),
    "gf shoot": (
        [
            f'new "Sector 7" --ruleset grimdark --seed {SEED}',
            'gf muster "Saurian Warriors" --side Saurians --models 10 --quality 4 --points 140',
            'gf muster "Robot Squad" --side Robots --models 5 --quality 4 --points 150',
            'gf battle-start Ruins --unit "Saurian Warriors" --unit "Robot Squad"',
        ],
        'gf shoot "Robot Squad" --wounds 3 --dice 2',
    ),
}
"""With ``--every-ruleset``: a rule command of each ruleset, each on a small campaign of its own (README's), timed
as ``rule`` is and held to its target."""


def fresh_copy(base: Path, db: Path) -> None:
    """``db`` made a copy of ``base`` again (through SQLite, so that what its log holds in WAL comes too)."""
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        path.unlink(missing_ok=True)
    with sqlite3.connect(base) as source, sqlite3.connect(db) as target:
        source.backup(target)
    source.close()
    target.close()


def prepare(db: Path, env: dict[str, str]) -> None:
    steps = [
        ["new", "Otlok Front", "--ruleset", "fighting-spirit", "--seed", SEED],
        ["fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7"],
        ["fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5"],
        ["fs", "march", "2"],
    ]
    for step in steps:
        subprocess.run([*CAMPAIGN, "--db", str(db), *step], env=env, check=True, capture_output=True)


def ladder(db: Path, commands: dict[str, list[str]]) -> list[tuple[str, list[str], bool]]:
    """Each rung's program: the import rungs below it and one thing more, or the whole command (not an import)."""
    code = [f"URL = {'sqlite:///' + str(db)!r}"]
    rungs = [("floor", FLOOR, True)]
    whole = iter([commands["status"], commands["rule"]])
    for cause, more in LADDER:
        if more is None:
            rungs.append((cause, next(whole), False))
        else:
            code.append(more)
            rungs.append((cause, [sys.executable, "-c", "\n".join(code)], True))
    return rungs


def causes(
    rungs: list[tuple[str, list[str], bool]], env: dict[str, str], repeat: int
) -> list[tuple[str, float, float]]:
    """(cause, what it adds in seconds, the rung's time) for each rung, best of ``repeat`` interleaved runs. A
    whole command adds to the imports below it; an import adds to the imports below it (not to a command)."""
    best = [float("inf")] * len(rungs)
    for _ in range(max(1, repeat)):
        for i, (_, argv, _) in enumerate(rungs):
            best[i] = min(best[i], cpu_seconds(argv, env))
    found, below = [], 0.0
    for (cause, _, imports), seconds in zip(rungs, best, strict=True):
        found.append((cause, seconds - below, seconds))
        if imports:  # the next rung builds on it
            below = seconds
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7, help="runs of each command; the best counts")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--causes", action="store_true", help="also the ladder of causes (see above)")
    parser.add_argument(
        "--every-ruleset", action="store_true", help="also a rule command of each ruleset (held to rule's target)"
    )
    args = parser.parse_args()
    env = {**os.environ, "COLUMNS": "100", "CAMPAIGN_ACTOR": "bench"}
    env.pop("CAMPAIGN_DB", None)
    env.pop("CAMPAIGN", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as tmp:
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "bytecode")
        db = Path(tmp) / "bench.db"
        prepare(db, env)
        commands = {
            "floor": FLOOR,
            "help": [*CAMPAIGN, "--help"],
            "status": [*CAMPAIGN, "--db", str(db), "status"],
            "rule": [*CAMPAIGN, "--db", str(db), "fs", "rest", "1"],
        }
        if args.causes:  # timed in the same rounds as the commands it bounds
            commands["bound"] = [sys.executable, "-c", BOUND, "--db", str(db), "status"]
        fresh: dict[str, tuple[Path, Path]] = {}
        for name, (steps, command) in EVERY_RULESET.items() if args.every_ruleset else ():
            base, copy = Path(tmp) / f"{name.split()[0]}-base.db", Path(tmp) / f"{name.split()[0]}.db"
            for step in steps:
                argv = [*CAMPAIGN, "--db", str(base), *shlex.split(step)]
                done = subprocess.run(argv, check=False, env=env, capture_output=True, text=True)
                if done.returncode != 0:
                    raise SystemExit(f"campaign {step} failed ({done.returncode}): {done.stderr}")
            commands[name], fresh[name] = [*CAMPAIGN, "--db", str(copy), *shlex.split(command)], (base, copy)
        for name, argv in commands.items():  # untimed: compiles the bytecode every timed run reads
            cpu_seconds(argv, env, fresh.get(name))
        best = {name: float("inf") for name in commands}
        for _ in range(max(1, args.repeat)):  # interleaved, so that a busy moment costs every command alike
            for name, argv in commands.items():
                best[name] = min(best[name], cpu_seconds(argv, env, fresh.get(name)))
        found = causes(ladder(db, commands), env, args.repeat) if args.causes else []
    targets = {**TARGETS, **dict.fromkeys(fresh, TARGETS["rule"])}
    ratios = {name: best[name] / best["floor"] for name in targets}
    met = {name: ratios[name] <= target for name, target in targets.items()}
    result = {
        "repeat": args.repeat,
        "cpu_s": {name: round(seconds, 4) for name, seconds in best.items() if name != "bound"},
        "ratios": {name: round(ratio, 2) for name, ratio in ratios.items()},
        "targets": targets,
        "targets_met": met,
    }
    if found:
        floor = found[0][2]
        result["bound"] = {"cpu_s": round(best["bound"], 4), "vs_floor": round(best["bound"] / best["floor"], 2)}
        result["causes"] = [  # in the ladder's order
            {"cause": cause, "adds_ms": round(adds * 1000, 1), "vs_floor": round(adds / floor, 2)}
            for cause, adds, _ in found
        ]
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        print(f"CPU time, best of {args.repeat} runs each (user + system):")
        shown = {"floor": "python -c " + shlex.quote(RUNG)} | {
            name: "campaign " + shlex.join(commands[name][3:]).replace(str(db), "DB").replace(tmp + "/", "")
            for name in targets
        }
        width = max(len(text) for text in shown.values())
        print(f"  {'floor':<9} {shown['floor']:<{width}} {best['floor'] * 1000:7.1f} ms")
        for name, target in targets.items():
            verdict = "met" if met[name] else "MISSED"
            print(
                f"  {name:<9} {shown[name]:<{width}} {best[name] * 1000:7.1f} ms  {ratios[name]:5.2f}× floor  "
                f"(target ≤ {target}×: {verdict})"
            )
        if found:
            print(f"\nWhere the time goes (best of {args.repeat}; each rung adds one cause; × floor):")
            for cause, adds, total in found:
                print(
                    f"  {cause:<58} {adds * 1000:+7.1f} ms  {adds / found[0][2]:+5.2f}×   (rung {total * 1000:6.1f} ms)"
                )
            print(
                "\nThe least a status costs on these libraries (Typer, a SQLAlchemy SQLite query, a pydantic state, a "
                f"Rich table; none of the program's code): {best['bound'] * 1000:.1f} ms, "
                f"{best['bound'] / best['floor']:.2f}× floor"
            )
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
