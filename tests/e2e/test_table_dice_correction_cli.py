"""At the table they argue about dice ("that was a 4, not a 3") and fix the mistake: `campaign amend SEQ --dice
FACES --reason TEXT` as a new user types it, and what `log`, `audit --roll` and `verify` then say; and `reroll
--help`'s promise that audit and verify list every reroll.

By hand (RULES.md §0.2, §0.4, §0.5): Company HQ, Veteran (d10), LV 2, 5 men, Medium motivation, fresh
(Confident). 1 killed, 4 left: casualties from fire at Medium, threat 1; target 2 + 1 = 3. A d10 of 3 is not
above 3 and 2·3 > 3: −1 grade (Confident → Steady); a 4 is above 3: no change."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "table.db"))
    c("new", "Otlok Front", "--ruleset", "fighting-spirit")
    c("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5", "--radio")
    c("fs", "battle-start", "Hill 204", "--side", "Steel=medium", "--unit", "Company HQ=fresh")
    return c


def _attack(cli: Cli, *more: str) -> int:
    return int(cli.json("fs", "attack", "Company HQ", "--killed", "1", *more)["events"][0]["seq"])


def _flat(output: str) -> str:
    """A table's text as one line of words: its cells' wrapped lines joined, its borders left out."""
    return " ".join(output.replace("│", " ").split())


def _grade(cli: Cli) -> str:
    [unit] = cli.json("fs", "battle-status")["units"]
    return str(unit["grade"])


def test_a_misread_table_die_is_corrected_on_the_record(cli: Cli) -> None:
    seq = _attack(cli, "--dice", "3")
    assert _grade(cli) == "steady"
    # Re-entering it is refused (the 3 stays on the table), and before this change so was amending it.
    preview = _flat(
        cli("amend", str(seq), "--dice", "4", "--reason", "the table agreed it showed a 4", "--dry-run").output
    )
    assert "would amend" in preview and "corrected: 3 → 4" in preview and "d10 rolled 4 → passes" in preview
    assert _grade(cli) == "steady", "a dry run appends nothing"
    done = cli.json("amend", str(seq), "--dice", "4", "--reason", "the table agreed it showed a 4", "--yes")
    assert done["corrected"][0]["faces_before"] == [3] and done["corrected"][0]["faces"] == [4]
    assert _grade(cli) == "confident"

    log = _flat(cli("log").output)
    assert "corrected from 3 to 4" in log and "the table agreed it showed a 4" in log and "by tester" in log
    audit = _flat(cli("audit", "--roll", "0").output)
    assert "corrected from 3 to 4" in audit and "by tester" in audit and "the table agreed it showed a 4" in audit
    verify = _flat(cli("verify").output)
    assert verify.startswith("ok ") and "flagged #" in verify and "table dice corrected: roll 0 (d10)" in verify
    [report] = cli.json("verify")
    [flag] = [f for f in report["flags"] if f["check"] == "table dice corrected"]
    assert "entered as 3, corrected to 4" in flag["message"] and "by tester" in flag["message"]


def test_refusals_are_in_words_and_append_nothing(cli: Cli) -> None:
    table = _attack(cli, "--dice", "3")
    seeded = _attack(cli)  # the campaign's own dice
    head = cli.events()
    for args, words in [
        ([str(table), "--dice", "4"], "needs a reason"),
        ([str(seeded), "--dice", "4", "--reason", "misread"], "a seeded roll cannot be changed"),
        (["2", "--dice", "4", "--reason", "misread"], "rolled no dice"),
        ([str(table), "--dice", "11", "--reason", "misread"], "11 is not a face of a d10"),
        ([str(table), "--dice", "four", "--reason", "misread"], "is not a die face"),
        ([str(table), "--dice", "4,2", "--reason", "misread"], "not used"),
        ([str(table)], "say what to amend"),
    ]:
        result = cli("amend", *args, code=2)
        assert words in result.output and "Traceback" not in result.output, (args, result.output)
    assert cli.events() == head


def test_audit_and_verify_list_every_reroll(cli: Cli) -> None:
    _attack(cli, "--dice", "3")
    cli("undo")
    cli("reroll", "--reason", "the die fell off the table")
    audit = _flat(cli("audit", "--roll", "0").output)
    assert "taken off the table by a reroll" in audit and "the die fell off the table" in audit
    [report] = cli.json("verify")
    [flag] = [f for f in report["flags"] if f["check"] == "reroll"]
    assert "roll 0" in flag["message"] and "by tester" in flag["message"]
    assert "the die fell off the table" in flag["message"] and report["ok"] is True
    assert "flagged #" in cli("verify").output
    assert "taken off the table by a reroll: the die fell off the table" in _flat(cli("log").output)
