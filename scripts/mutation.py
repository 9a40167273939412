"""Hand-made mutation testing of the rules (issue 12): does the suite notice when a rule is wrong?

Each mutant changes one thing: a comparison in a ruleset's rule code flipped (``<`` ↔ ``<=``, ``>`` ↔ ``>=``,
``==`` ↔ ``!=``), or one number of a ``tables.toml`` moved by one (a flag flipped). Each runs the ruleset's
tests on a copy of the source tree (the working tree is never touched); a mutant is *killed* when a test fails.

    .venv/bin/python scripts/mutation.py [--ruleset grimdark] [--sample 100 --seed 1] [--json]

Prints the count killed, the kill rate and every survivor (file:line and the change), which is where a test
from RULES.md's words is missing.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ("fighting_spirit", "disorder", "mass_combat", "grimdark")
RULE_FILES = (
    "rules.py",
    "pressure.py",
    "battle.py",
    "economy.py",
    "pcs.py",
    "quality.py",
    "strength.py",
    "lasting.py",
    "units.py",
    "start.py",
)
FLIP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
TESTS = {
    "fighting_spirit": ("*fighting_spirit*", "*five_grade*"),
    "disorder": ("*disorder*", "*newer_rulesets*"),
    "mass_combat": ("*mass_combat*", "*one_command_path*"),
    "grimdark": ("*grimdark*", "*newer_rulesets*"),
}
"""The test files (under tests/acceptance and tests/unit) that speak of each ruleset's rules (and, for every
ruleset, those of the errata and the thresholds: ``COMMON``)."""
COMMON = ("*errata*", "*r2_*", "*boundar*", "*threshold*", "*second_edition*")
VALUE = re.compile(r"(\bvalue\s*=\s*)(-?\d+|true|false)\b")


@dataclass(frozen=True)
class Mutant:
    ruleset: str
    path: str
    line: int
    start: int
    end: int
    before: str
    after: str

    def where(self) -> str:
        return f"{self.path}:{self.line} {self.before!r} → {self.after!r}"


def comparison_mutants(ruleset: str) -> list[Mutant]:
    out: list[Mutant] = []
    folder = ROOT / "campaign" / "rulesets" / ruleset
    for name in RULE_FILES:
        path = folder / name
        if not path.is_file():
            continue
        text = path.read_text("utf-8")
        offsets = [0]
        for line in text.splitlines(keepends=True):
            offsets.append(offsets[-1] + len(line))
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.OP and token.string in FLIP:
                start = offsets[token.start[0] - 1] + token.start[1]
                rel = str(path.relative_to(ROOT))
                out.append(
                    Mutant(
                        ruleset, rel, token.start[0], start, start + len(token.string), token.string, FLIP[token.string]
                    )
                )
    return out


def table_mutants(ruleset: str) -> list[Mutant]:
    path = ROOT / "campaign" / "rulesets" / ruleset / "tables.toml"
    text = path.read_text("utf-8")
    out: list[Mutant] = []
    for match in VALUE.finditer(text):
        raw = match.group(2)
        after = {"true": "false", "false": "true"}.get(raw) or str(int(raw) + 1)
        line = text.count("\n", 0, match.start()) + 1
        out.append(Mutant(ruleset, str(path.relative_to(ROOT)), line, match.start(2), match.end(2), raw, after))
    return out


def run(mutant: Mutant, copy: Path, timeout: float) -> bool:
    """True when the ruleset's tests fail on the mutant (it is killed)."""
    target = copy / mutant.path
    original = target.read_text("utf-8")
    target.write_text(original[: mutant.start] + mutant.after + original[mutant.end :], "utf-8")
    try:
        files = sorted(
            {
                str(f.relative_to(copy))
                for d in ("acceptance", "unit")
                for p in (*TESTS[mutant.ruleset], *COMMON)
                for f in (copy / "tests" / d).glob(f"test_{p}.py")
            }
        )
        done = subprocess.run(  # noqa: S603 (our own interpreter and test files)
            [
                sys.executable,
                "-m",
                "pytest",
                "-x",
                "-q",
                "-p",
                "no:cacheprovider",
                *files,
            ],
            cwd=copy,
            capture_output=True,
            timeout=timeout,
            check=False,
            env={**os.environ, "PYTHONPATH": str(copy)},
        )
        return done.returncode != 0
    except subprocess.TimeoutExpired:
        return True  # a mutant that makes the tests loop is noticed
    finally:
        target.write_text(original, "utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", choices=RULESETS, action="append")
    parser.add_argument("--sample", type=int, help="run this many mutants, drawn at random (--seed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    chosen = options.ruleset or list(RULESETS)
    mutants = [m for r in chosen for m in (*comparison_mutants(r), *table_mutants(r))]
    if options.sample is not None and options.sample < len(mutants):
        mutants = random.Random(options.seed).sample(mutants, options.sample)
    survivors: list[Mutant] = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "tree"
        copy.mkdir()
        for part in ("campaign", "events", "projections", "tests", "alembic", "pyproject.toml", "alembic.ini"):
            source = ROOT / part
            (shutil.copytree if source.is_dir() else shutil.copy)(source, copy / part)
        for n, mutant in enumerate(mutants, start=1):
            if not run(mutant, copy, options.timeout):
                survivors.append(mutant)
            if not options.json:
                print(f"\r  {n}/{len(mutants)} mutants, {len(survivors)} survived", end="", file=sys.stderr)
    killed = len(mutants) - len(survivors)
    rate = killed / len(mutants) if mutants else 1.0
    if options.json:
        print(
            json.dumps(
                {"mutants": len(mutants), "killed": killed, "rate": rate, "survivors": [m.where() for m in survivors]}
            )
        )
    else:
        print(f"\n{killed} of {len(mutants)} mutants killed ({rate:.0%}) in {time.monotonic() - started:.0f} s")
        for m in survivors:
            print(f"  survived: {m.where()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
