"""Hand-made mutation testing of the rules: does the suite notice when a rule is wrong?

Each mutant changes one thing: a comparison in a ruleset's rule code flipped (``<`` ↔ ``<=``, ``>`` ↔ ``>=``,
``==`` ↔ ``!=``), or one number of a ``tables.toml`` moved by one (a flag flipped). Each runs the ruleset's
tests on a copy of the source tree (the working tree is never touched); a mutant is *killed* when a test fails. The
tests of a mutant run in a child forked from this process, which has imported pytest, hypothesis and the other
third-party modules once, and stop at the first failure (``-x``): about half the time a fresh interpreter takes.

    .venv/bin/python scripts/mutation.py [--ruleset grimdark ...] [--sample 40 --seed 1] [--e2e] [--list] [--json]

``--sample N`` draws N mutants *per ruleset* (seeded by ``--seed``); ``--shard K/N`` runs every Nth mutant
from the Kth, so that a whole population can be split over processes (one per core); ``--list`` prints them and
the test files each ruleset's mutants run against, without running anything.

Prints the count killed, the kill rate and every survivor (file:line and the change), which is where a test
from RULES.md's words is missing.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tokenize
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _built_in() -> dict[str, Any]:
    """The installed rulesets whose packages are this checkout's (``campaign/rulesets/<folder>``), by folder: what
    each one's plug-in says to mutate (its ``mutation``) is read from it."""
    from campaign.rulesets import RULESETS as INSTALLED

    return {
        r.package.rpartition(".")[2]: r.mutation
        for r in INSTALLED.values()
        if r.package.startswith("campaign.rulesets.")
    }


PLUGINS = _built_in()
RULESETS = tuple(PLUGINS)
RULE_FILES = {name: m.modules for name, m in PLUGINS.items()}
"""The modules of each ruleset that hold its rules (its plug-in's ``mutation.modules``: fighting_spirit's fatigue
and veterancy live in its state, mass_combat's pay and recovery Morale tests in its calendar commands)."""
NOT_RULES = frozenset(
    {
        "__init__.py",
        "plugin.py",
        "profile.py",
        "fold.py",
        "tables.py",
        "commands.py",
        "battle_commands.py",
        "setup.py",
        "runs.py",
        "state.py",
    }
)
"""Modules that hold no rule (the wiring, the fold, the checks of a command's input): a module in neither
list is reported by ``--list`` so that a rule split off into a new module is not left unmutated."""
FLIP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
TESTS = {name: m.tests or (f"*{name}*",) for name, m in PLUGINS.items()}
"""The test files (under tests/acceptance and tests/unit) that speak of each ruleset's rules (its plug-in's
``mutation.tests``; and, for every ruleset, those of the tables: ``COMMON``)."""
COMMON = ("*errata_tables*",)
E2E = {name: m.cli_tests for name, m in PLUGINS.items()}
"""With ``--e2e``, the CLI tests of the ruleset too (slower: each starts the program)."""
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
    for name in RULE_FILES[ruleset]:
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


def test_files(ruleset: str, tree: Path, e2e: bool = False) -> list[str]:
    """The test files run against a mutant of ``ruleset`` (relative to ``tree``)."""
    found = {
        str(f.relative_to(tree))
        for d in ("acceptance", "unit")
        for p in (*TESTS[ruleset], *COMMON)
        for f in (tree / "tests" / d).glob(f"test_{p}.py")
    }
    if e2e:
        found |= {str(f.relative_to(tree)) for p in E2E[ruleset] for f in (tree / "tests" / "e2e").glob(f"test_{p}.py")}
    return sorted(found)


def unlisted(ruleset: str) -> list[str]:
    """Modules of ``ruleset`` that are neither mutated nor known to hold no rule."""
    folder = ROOT / "campaign" / "rulesets" / ruleset
    known = set(RULE_FILES[ruleset]) | NOT_RULES
    return sorted(p.name for p in folder.glob("*.py") if p.name not in known)


PRELOADED = (
    "_pytest.assertion",
    "_pytest.python",
    "hypothesis",
    "hypothesis.strategies",
    "sqlalchemy",
    "pydantic",
    "structlog",
    "typer",
    "rich.console",
    "fastapi",
    "alembic.command",
)
"""Third-party modules imported once by this process, before it forks a child per mutant: a child starts with them
loaded instead of spending most of its time importing them (the project's own modules are imported by each child
from the mutated copy, never by this process)."""


def preload() -> None:
    for name in PRELOADED:
        try:
            importlib.import_module(name)
        except ImportError:  # a child imports what it needs anyway
            continue
    try:  # the pytest plugins that setuptools entry points load on every start (schemathesis' is the slowest)
        import schemathesis  # noqa: F401

        importlib.import_module("schemathesis.pytest")
    except ImportError:
        pass


def run(mutant: Mutant, copy: Path, timeout: float, e2e: bool = False) -> bool:
    """True when the ruleset's tests fail on the mutant (it is killed).

    The tests run in a child forked from this process (their own interpreter state, the mutated copy first on
    its path), stopping at the first failure (``-x``): a killed mutant costs only the tests up to the one that
    notices it."""
    target = copy / mutant.path
    original = target.read_text("utf-8")
    target.write_text(original[: mutant.start] + mutant.after + original[mutant.end :], "utf-8")
    try:
        files = test_files(mutant.ruleset, copy, e2e)
        if not hasattr(os, "fork"):
            return run_in_subprocess(files, copy, timeout)
        pid = os.fork()
        if pid == 0:  # the child: run the tests and leave without running this process's clean-ups
            code = 1
            try:
                signal.alarm(max(1, int(timeout)))  # a mutant that makes the tests loop dies and is noticed
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.dup2(devnull, 2)
                os.chdir(copy)
                os.environ["PYTHONPATH"] = str(copy)
                sys.path.insert(0, str(copy))
                # no bytecode of a mutant is cached: a later mutant of the same size written in the same second
                # would otherwise be run as the earlier one
                sys.dont_write_bytecode = True
                import pytest

                # the preloaded plugins (hypothesis, anyio, schemathesis) cannot have their asserts rewritten:
                # pytest's warning of it is no test's failure
                quiet = ["-W", "ignore::pytest.PytestAssertRewriteWarning"]
                code = int(pytest.main(["-x", "-q", "-p", "no:cacheprovider", *quiet, *files]))
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        return not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0)
    finally:
        target.write_text(original, "utf-8")


def run_in_subprocess(files: list[str], copy: Path, timeout: float) -> bool:
    try:
        done = subprocess.run(  # noqa: S603 (our own interpreter and test files)
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *files],
            cwd=copy,
            capture_output=True,
            timeout=timeout,
            check=False,
            env={**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"},
        )
        return done.returncode != 0
    except subprocess.TimeoutExpired:
        return True  # a mutant that makes the tests loop is noticed


def main() -> int:  # noqa: C901, PLR0912 (one step per option of the script)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", choices=RULESETS, action="append")
    parser.add_argument("--sample", type=int, help="run this many mutants, drawn at random (--seed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--e2e", action="store_true", help="run the ruleset's CLI tests too (slower)")
    parser.add_argument("--list", action="store_true", help="print the mutants (and the tests) without running them")
    parser.add_argument(
        "--shard",
        metavar="K/N",
        help="run only every Nth mutant from the Kth (1-based): the whole population split over processes",
    )
    options = parser.parse_args()
    chosen = options.ruleset or list(RULESETS)
    mutants: list[Mutant] = []
    for ruleset in chosen:
        drawn = [*comparison_mutants(ruleset), *table_mutants(ruleset)]
        if options.sample is not None and options.sample < len(drawn):
            drawn = random.Random(options.seed).sample(drawn, options.sample)
        mutants.extend(drawn)
    if options.shard:
        k, n = (int(part) for part in options.shard.split("/"))
        if not 1 <= k <= n:
            parser.error("--shard K/N needs 1 <= K <= N")
        mutants = mutants[k - 1 :: n]
    if options.list:
        for ruleset in chosen:
            print(f"{ruleset}: tests {' '.join(test_files(ruleset, ROOT, options.e2e))}")
            for name in unlisted(ruleset):
                print(f"  not mutated and not known to be free of rules: {name}")
        for m in mutants:
            print(f"  {m.where()}")
        print(f"{len(mutants)} mutants")
        return 0
    survivors: list[Mutant] = []
    started = time.monotonic()
    preload()
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "tree"
        copy.mkdir()
        for part in ("campaign", "events", "projections", "tests", "alembic", "pyproject.toml", "alembic.ini"):
            source = ROOT / part
            (shutil.copytree if source.is_dir() else shutil.copy)(source, copy / part)
        for ruleset in chosen:  # the tests must pass on the tree as it is, or every mutant would count as killed
            m = next((m for m in mutants if m.ruleset == ruleset), None)
            if m is not None and run(replace(m, after=m.before), copy, options.timeout, options.e2e):
                print(f"{ruleset}: the tests fail without any mutant: fix them first", file=sys.stderr)
                return 1
        for n, mutant in enumerate(mutants, start=1):
            if not run(mutant, copy, options.timeout, options.e2e):
                survivors.append(mutant)
            # progress on stderr even with --json, whose answer is on stdout: a whole population runs for an hour
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
