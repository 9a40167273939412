"""The cyclic collector is off through a command's start-up and on for its work (``campaign.cli.main``: it walked
what importing Typer, pydantic's models and SQLAlchemy makes and keeps), so a long command (verify, rebuild,
serve) still frees what it throws away."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

PROGRAM = textwrap.dedent(
    """
    import gc, sys
    from campaign.cli import main as program

    seen = {}
    begins = program._collector_back_on

    def spy():
        seen["start-up"] = gc.isenabled()
        begins()
        seen["work"] = gc.isenabled()
        seen["frozen"] = gc.get_freeze_count()

    program._collector_back_on = spy
    sys.argv[:] = ["campaign", *sys.argv[1:]]
    try:
        program.main()
    except SystemExit as exit:
        code = exit.code
    print(seen.get("start-up"), seen.get("work"), seen.get("frozen", 0) > 10_000, gc.isenabled(), code or 0)
    """
)


def run(*argv: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROGRAM, *argv], capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1].split()


def test_off_through_start_up_and_on_with_start_up_frozen_when_the_work_begins(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    # while the command's work runs: start-up was collector-free, the work is not; start-up's objects are frozen
    assert run("--db", db, "new", "Otlok Front", "--ruleset", "fighting-spirit") == [
        "False",
        "True",
        "True",
        "True",
        "0",
    ]
    assert run("--db", db, "status") == ["False", "True", "True", "True", "0"]


def test_on_again_after_a_command_that_never_began_its_work(tmp_path: Path) -> None:
    # a usage error is refused before any command runs: the collector is on again all the same
    assert run("--db", str(tmp_path / "c.db"), "no-such-command") == ["None", "None", "False", "True", "2"]
