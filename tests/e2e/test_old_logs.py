"""Logs written by an earlier program stay usable: imported, verified (rules re-run included) and amended.

``tests/fixtures/logs_2026_12_01`` holds the four demo campaigns as exported by main on 2026-12-01, before
commands became typed, versioned models (issue 10). Their ``timeline.command_issued`` events hold the inputs
under the old service methods' parameter names and no command version: the command upcasters must read them.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.e2e.test_cli import Cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs_2026_12_01"
RULESETS = ("disorder", "fighting-spirit", "grimdark", "mass-combat")


def _issued(path: Path) -> list[dict[str, object]]:
    rows = [orjson.loads(line) for line in path.read_bytes().splitlines()[1:]]
    return [r for r in rows if r["type"] == "timeline.command_issued"]


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(str(tmp_path / "old.db"))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_old_log_imports_and_verifies_with_its_rules_re_run(cli: Cli, ruleset: str) -> None:
    cli("import", str(FIXTURES / f"{ruleset}.jsonl"))
    [report] = cli.json("verify")
    assert report["ok"] is True, report
    assert report["events"] > 70


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_old_logs_first_command_amends_unchanged_and_every_later_command_re_runs(cli: Cli, ruleset: str) -> None:
    path = FIXTURES / f"{ruleset}.jsonl"
    cli("import", str(path))
    before = cli.events()
    rows = [orjson.loads(line) for line in path.read_bytes().splitlines()[1:]]
    first = next(r for r in rows if r["type"] == "timeline.command_issued" and r["payload"]["args"])
    payload = first["payload"]
    assert isinstance(payload, dict)
    args = payload["args"]
    assert isinstance(args, dict)
    key, value = next((k, v) for k, v in args.items() if isinstance(v, str))
    report = cli.json("amend", str(first["seq"]), "--set", f"{key}={value}")
    assert report["stopped_at"] is None, report
    assert report["changed"] == [] or all(c["before"] == c["after"] for c in report["changed"])
    assert cli.events() > before
    assert cli.json("verify")[0]["ok"] is True
