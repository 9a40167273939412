"""A short campaign played as a person plays it: a shell in a real pseudo-terminal, commands typed one at a time,
dice asked for with ``--dice ask`` and typed in (a wrong face first), and what the screen shows checked."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

PROMPT = "campaign-test$ "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def screen(text: str) -> str:
    """What a person reads: colours and carriage returns left out."""
    return ANSI.sub("", text)


class Terminal:
    def __init__(self, folder: Path) -> None:
        bin_dir = str(Path(sys.executable).parent)
        env = {**os.environ, "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}", "PS1": PROMPT, "TERM": "xterm"}
        env.pop("CAMPAIGN_DB", None)
        env.pop("CAMPAIGN", None)
        self.child = pexpect.spawn(
            "bash",
            ["--norc", "--noprofile"],
            cwd=str(folder),
            env=env,
            encoding="utf-8",
            timeout=60,
            dimensions=(50, 160),
        )
        self.child.expect_exact(PROMPT)

    def type(self, line: str) -> str:
        """Type a command and wait for the shell's prompt again; what the command showed."""
        self.child.sendline(line)
        self.child.expect_exact(PROMPT)
        return screen(str(self.child.before)).split("\n", 1)[-1]  # the echoed command line left out

    def status(self) -> int:
        return int(self.type("echo $?").strip())

    def close(self) -> None:
        self.child.sendline("exit")
        self.child.expect(pexpect.EOF)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    t = Terminal(tmp_path)
    yield t
    t.close()


def test_a_short_campaign_at_a_terminal_with_dice_asked_for(terminal: Terminal, tmp_path: Path) -> None:
    t = terminal
    assert "Otlok Front" in t.type("campaign new 'Otlok Front' --ruleset fighting-spirit")
    t.type("campaign fs muster 'Company HQ' --side Steel --quality veteran --lv 2 --size 5 --radio")
    t.type("campaign fs muster 'Keno 3rd Squad' --side Keno --quality regular --lv 2 --size 7")
    started = t.type(
        "campaign fs battle-start 'Hill 203' --side Keno=low --side Steel=medium "
        "--unit 'Keno 3rd Squad=fresh' --unit 'Company HQ=tired'"
    )
    assert "Hill 203" in started and t.status() == 0

    counted = t.type("campaign fs attack 'Keno 3rd Squad' --killed 2 --wounded 2 --dice count")
    assert "needs 1 die: 1 d8" in counted and "1. d8 for morale test of Keno 3rd Squad" in counted

    # The attack with the die asked for: a face the d8 does not have is asked for again.
    t.child.sendline("campaign fs attack 'Keno 3rd Squad' --killed 2 --wounded 2 --dice ask")
    t.child.expect_exact("Morale test of Keno 3rd Squad: d8?")
    t.child.sendline("9")
    t.child.expect_exact("'9' is not a face of a d8: type a number from 1 to 8")
    t.child.expect_exact("Morale test of Keno 3rd Squad: d8?")
    t.child.sendline("6")
    t.child.expect_exact(PROMPT)
    shown = screen(str(t.child.before))
    assert "d8 for “morale test of Keno 3rd Squad”: 6 (table dice entered by" in shown
    assert "LV 2 + threat 6" in shown and "d8 rolled 6" in shown and "confident → steady" in shown
    assert t.status() == 0

    # Stopped half-way (Ctrl-D at the prompt): nothing recorded, said so, exit 2.
    before = t.type("campaign log --json | grep -c '\"seq\"'")
    t.child.sendline("campaign fs attack 'Keno 3rd Squad' --leader-hit --dice ask")
    t.child.expect_exact("Morale test of Keno 3rd Squad: d8?")
    t.child.sendeof()
    t.child.expect_exact(PROMPT)
    assert "stopped before every die was entered: nothing was recorded" in screen(str(t.child.before))
    assert t.status() == 2
    assert t.type("campaign log --json | grep -c '\"seq\"'") == before

    # Off a terminal (dice piped in), --dice ask is refused in words.
    piped = t.type("echo 3 | campaign fs attack 'Keno 3rd Squad' --leader-hit --dice ask")
    assert "--dice ask asks for each die on a terminal, and this input is not one" in piped
    assert t.status() == 2

    # The leader hit, typed in, then taken back.
    t.child.sendline("campaign fs attack 'Keno 3rd Squad' --leader-hit --dice ask")
    t.child.expect_exact("Morale test of Keno 3rd Squad: d8?")
    t.child.sendline("3")
    t.child.expect_exact(PROMPT)
    assert "steady → broken" in screen(str(t.child.before))
    assert t.status() == 0
    undone = t.type("campaign undo")
    assert "undo" in undone.lower() and t.status() == 0

    # The chart shows the grade the squad is at now (steady: the leader hit was undone).
    chart = t.type("campaign chart morale 'Keno 3rd Squad'")
    squad = next(line for line in chart.splitlines() if "Keno 3rd Squad" in line)
    assert "█▆" in squad and "confident" in squad and "steady" in squad and "broken" not in squad
    drawn = t.type("campaign chart morale -o morale.svg")
    assert "drawn to morale.svg" in drawn and (tmp_path / "morale.svg").read_bytes().startswith(b"<?xml")
