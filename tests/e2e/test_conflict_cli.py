"""A conflict (another writer appended first): the command line runs the command again on the new head a few
times itself; when it still conflicts, exit 4 with a message naming the campaign, nothing recorded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from campaign.cli.output import CONFLICT_ATTEMPTS
from events.errors import ConcurrencyError
from events.sql import SqlEventStore
from tests.e2e.test_cli import Cli


def conflicting(times: int, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the next ``times`` appends meet another writer (the store's own error, raised under its lock)."""
    real = SqlEventStore.append
    calls: list[int] = []

    def append(self: SqlEventStore, campaign_id: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) <= times:
            with self._locked_write(campaign_id):
                raise ConcurrencyError(f"campaign {campaign_id} is at seq 99, not 2: re-read and retry")
        return real(self, campaign_id, *args, **kwargs)

    monkeypatch.setattr(SqlEventStore, "append", append)
    return calls


def test_a_conflict_is_retried_by_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli = Cli(str(tmp_path / "c.db"))
    cli("new", "Hill", "--ruleset", "fighting-spirit")
    calls = conflicting(CONFLICT_ATTEMPTS - 1, monkeypatch)
    cli("roll", "d6", "-p", "after two conflicts")
    assert len(calls) == CONFLICT_ATTEMPTS and cli.events() == 3  # one roll recorded, once


def test_a_lasting_conflict_exits_4_naming_the_campaign(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli = Cli(str(tmp_path / "c.db"))
    cli("new", "Hill", "--ruleset", "fighting-spirit")
    calls = conflicting(CONFLICT_ATTEMPTS, monkeypatch)
    result = cli("roll", "d6", "-p", "never", code=4)
    assert "campaign 'Hill' was being written by someone else" in result.stderr
    assert f"tried {CONFLICT_ATTEMPTS} times" in result.stderr
    assert len(calls) == CONFLICT_ATTEMPTS and cli.events() == 1
