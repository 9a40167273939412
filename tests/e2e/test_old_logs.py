"""Logs written by an earlier program stay usable: imported, verified (rules re-run included) and amended.

``tests/fixtures/logs_2026_12_01`` holds the four demo campaigns as exported by main on 2026-12-01, before
commands became typed, versioned models. Their ``timeline.command_issued`` events hold the inputs
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
    return [r for r in rows if r.get("type") == "timeline.command_issued"]


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
def test_an_old_logs_first_command_amends_and_every_later_command_is_re_run_or_shown_dropped(
    cli: Cli, ruleset: str
) -> None:
    """Amending an old log re-runs every later command under today's rules. A command the second edition of the
    rules decides differently may no longer apply, or roll dice it never rolled: it is shown before anything is
    appended (a fate that hangs on dice not rolled yet as such), and skipped only with --yes; the campaign verifies
    after either way."""
    path = FIXTURES / f"{ruleset}.jsonl"
    cli("import", str(path))
    before = cli.events()
    issued = _issued(path)
    first = next(r for r in issued if r["payload"]["args"])  # type: ignore[index]
    payload = first["payload"]
    assert isinstance(payload, dict)
    key, value = next((k, v) for k, v in payload["args"].items() if isinstance(v, str))
    preview = cli.json("amend", str(first["seq"]), "--set", f"{key}={value}", "--dry-run")
    assert cli.events() == before, "a dry run appends nothing"
    later = [r for r in issued if int(str(r["seq"])) > int(str(first["seq"]))]
    assert len(preview["fates"]) >= len(later) - 1, preview  # each later command's fate (a rewind's group aside)
    report = cli.json("amend", str(first["seq"]), "--set", f"{key}={value}", "--yes")
    unknown = {f["seq"] for f in preview["fates"] if f["fate"] == "depends on the new dice"}
    assert {d["seq"] for d in report["dropped"]} - unknown == {d["seq"] for d in preview["dropped"]} - unknown
    assert cli.events() > before
    assert all(c["before"] == c["after"] for c in report["changed"][:1]), "the amended command itself is unchanged"
    [verified] = cli.json("verify")
    assert verified["ok"] is True, verified
