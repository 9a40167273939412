"""Which of the project's modules one rule command runs code in, and how often it crosses between them.

Plays a small Grimdark Future match on a temporary SQLite database through the command line (in process), then
traces one more `campaign gf shoot …` (warm: its modules already imported) with ``sys.setprofile`` and prints
the project's modules the call runs code in, in the order first entered, and the number of crossings between
modules. The target: the main path visits at most 8 of them, each once; the previous design visited 29 with
59 crossings (``campaign fs attack``).

    .venv/bin/python bench/command_path.py [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from typer.testing import CliRunner

from campaign.cli.main import app

PROJECT = ("campaign", "events", "projections")


def _stack(frame: FrameType | None) -> list[str]:
    out: list[str] = []
    while frame is not None:
        module = _module(frame)
        if module is not None:
            out.append(f"{module}.{frame.f_code.co_name}")
        frame = frame.f_back
    return out[::-1]


def _module(frame: FrameType) -> str | None:
    name = frame.f_globals.get("__name__", "")
    return name if isinstance(name, str) and name.split(".")[0] in PROJECT else None


def trace(args: list[str], db: str, leaf: str) -> tuple[list[tuple[str, str]], int, list[str]]:
    """The (module, function) calls made while the command's own function ``leaf`` runs, the crossings between
    modules, and the project's frames on the stack when the first rule function is entered (outermost first)."""
    runner = CliRunner()
    calls: list[tuple[str, str]] = []
    rule_stack: list[str] = []
    inside = 0
    # The command's own function makes its Command; cli.common's ``run`` (what Typer calls) runs it: trace both.
    leaves = {leaf, "run"}

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        nonlocal inside
        module = _module(frame)
        if module is None:
            return
        if event == "call":
            if frame.f_code.co_name in leaves and module.startswith("campaign.cli."):
                inside += 1
            if inside:
                calls.append((module, frame.f_code.co_name))
                if module.endswith(".rules") and not frame.f_code.co_name.startswith("_") and not rule_stack:
                    rule_stack.extend(_stack(frame))
        elif event == "return" and inside and frame.f_code.co_name in leaves and module.startswith("campaign.cli."):
            inside -= 1

    sys.setprofile(profile)
    try:
        result = runner.invoke(app, ["--db", db, *args])
    finally:
        sys.setprofile(None)
    if result.exit_code != 0:
        raise SystemExit(f"the traced command failed: {result.output}")
    crossings = sum(1 for a, b in itertools.pairwise(calls) if a[0] != b[0])
    return calls, crossings, rule_stack


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "path.db")
        runner = CliRunner()
        for args in (
            ["new", "Path", "--ruleset", "grimdark"],
            ["gf", "muster", "A", "--side", "X", "--models", "10", "--quality", "4", "--points", "100"],
            ["gf", "muster", "B", "--side", "Y", "--models", "10", "--quality", "4", "--points", "100"],
            ["gf", "battle-start", "Field", "--unit", "A", "--unit", "B"],
            ["gf", "shoot", "A", "--wounds", "1", "--by", "B"],
        ):
            out = runner.invoke(app, ["--db", db, *args])
            assert out.exit_code == 0, out.output
        calls, crossings, rule_stack = trace(["gf", "shoot", "A", "--wounds", "4", "--by", "B"], db, "shoot")
    entered = list(dict.fromkeys(m for m, _ in calls))
    # The main path: the modules between the command line and the rule (entry point, executor, the ruleset's
    # command, rules and fold); the store, dice and projections below them are the log's own machinery.
    main_path = [m for m in entered if not m.startswith(("events.", "projections."))]
    modules_to_rule = list(dict.fromkeys(f.rsplit(".", 1)[0] for f in rule_stack))
    if options.json:
        print(
            json.dumps(
                {
                    "modules": entered,
                    "main_path": main_path,
                    "crossings": crossings,
                    "stack_to_rule": rule_stack,
                    "modules_to_rule": modules_to_rule,
                }
            )
        )
        return 0
    print(f"from the command line to the rule: {len(modules_to_rule)} modules, each once: " + " → ".join(rule_stack))
    print(
        f"all it touches, `campaign gf shoot`: code in {len(entered)} of the project's modules, "
        f"{crossings} crossings between them"
    )
    print(f"main path (campaign.*): {len(main_path)} modules: " + ", ".join(main_path))
    print("below it (the log, its dice and projections): " + ", ".join(m for m in entered if m not in main_path))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
