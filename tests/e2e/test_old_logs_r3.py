"""Logs recorded under the second edition's five-grade and disorder rules verify under the third (RULES.md R3-1 …
R3-13): each command the third edition decides differently is a note, never drift, and verify exits 0.

``tests/fixtures/logs_r3_fs_dis`` was exported by the code before the third edition (fighting-spirit 0.2, disorder
0.2.1); its README has the commands that made it, each beside the clause it exercises.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs_r3_fs_dis"

DECIDED_DIFFERENTLY = {
    "fighting-spirit-r3": [
        (30, "fs.activate"),  # R3-1: Tens' second activation in turn 1
        (37, "fs.react"),  # R3-2: the panicking U went prone
        (47, "fs.panic"),  # R3-2: U's second panic test in one activation
        (55, "fs.react"),  # R3-3: the Routed unit went prone
        (59, "fs.react"),  # R3-3: the Broken unit went prone in cover
        (63, "fs.position"),  # R3-3: … and got up without a move
        (65, "fs.position"),  # R3-3: … and went prone again
        (67, "fs.attack"),  # R3-4: the Green unit's first fire called for no panic test
        (72, "fs.panic"),  # R3-4: a fired_on test after the recorded fire
        (82, "fs.attack"),  # R3-5: 6 lost of 10, 4 left: "more lost than remain" over the battle
        (91, "fs.last_stand_end"),  # R3-6: an exhausted side's unit left No step back at Steady, above its start
        (103, "fs.attack"),  # R3-7: Bravo, diluted to 2 battles a man, is Green (d6): the d8 recorded no longer fits
    ],
    "disorder-r3": [
        (17, "dis.check"),  # R3-9: friend_removed with no unit removed
        (26, "dis.rally"),  # R3-11: a second rally in the same turn
        (35, "dis.turn"),  # R3-10: a turn after the one in which the French fled
        (37, "dis.hit"),  # R3-10: a hit in it
    ],
}


@pytest.mark.parametrize(("log", "recorded_under"), [("fighting-spirit-r3", "0.2"), ("disorder-r3", "0.2.1")])
def test_a_second_edition_log_verifies_under_the_third_with_a_note_for_each_change(
    tmp_path: Path, log: str, recorded_under: str
) -> None:
    cli = Cli(str(tmp_path / "old.db"))
    cli("import", str(FIXTURES / f"{log}.jsonl"))
    [report] = cli.json("verify")
    assert report["ok"] is True, report
    changed = [(c["seq"], c["command"]) for c in report["rules_changed_since"]]
    assert changed == DECIDED_DIFFERENTLY[log]
    assert {c["recorded_under"] for c in report["rules_changed_since"]} == {recorded_under}
    said = " ".join(cli("verify").stdout.split())
    seq, command = DECIDED_DIFFERENTLY[log][0]
    words = command.replace(".", " ").replace("_", "-")
    assert f"note: #{seq} {words} was recorded under ruleset version {recorded_under}" in said
    assert "today's rules (RULES.md, third edition) decide it differently" in said
