"""Logs of today's program replay exactly: imported, verified with every rule re-run, and exported again byte for
byte. ``tests/fixtures/logs_r3_today`` holds the four demo campaigns as the third edition's rules record them (its
README says how they were made); a program that decides or records one of their commands differently without a
new ruleset version fails here, where an older log would only get a note."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs_r3_today"


@pytest.mark.parametrize("ruleset", ["fighting-spirit", "disorder", "mass-combat", "grimdark"])
def test_a_log_of_todays_rules_verifies_with_nothing_decided_differently_and_exports_byte_for_byte(
    tmp_path: Path, ruleset: str
) -> None:
    recorded = FIXTURES / f"{ruleset}.jsonl"
    cli = Cli(str(tmp_path / "today.db"))
    cli("import", str(recorded))
    [report] = cli.json("verify")
    assert report["ok"] is True and report["failures"] == [], report
    assert report["rules_changed_since"] == [], "today's rules decide a command of today's log differently"
    assert report["rolls_rederived"] > 0  # its seeded dice were derived again from the revealed or held seed
    again = tmp_path / "again.jsonl"
    cli("export", "--with-secrets", "-o", str(again))
    assert again.read_bytes() == recorded.read_bytes()
