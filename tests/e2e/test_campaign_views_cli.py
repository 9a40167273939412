"""The read commands between battles: status, unit, battles, treasury, career, --at, rebuild."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "views.db"))
    c("demo")
    return c


def test_status_unit_battles_treasury_and_career(cli: Cli) -> None:
    status = cli.json("status", "-c", "Demo mass-combat")
    assert status["ruleset"] == "mass-combat" and len(status["battles"]) == 2
    assert {u["name"] for u in status["units"]} >= {"Caliburn's gang", "Militia archers", "Desert riders"}
    unit = cli.json("unit", "Caliburn's gang", "-c", "Demo mass-combat")
    assert unit["unit"]["battles"] >= 1 and any(h["type"] == "battle.casualties_taken" for h in unit["history"])
    battles = cli.json("battles", "-c", "Demo fighting-spirit")
    assert [b["name"] for b in battles] == ["Patrol at Hill 203", "Hill 203, battle 2", "Hill 203, battle 3"]
    treasury = cli.json("treasury", "-c", "Demo mass-combat")
    assert set(treasury["treasury"]) == {"Megalos", "Al-Wazif"}
    assert any(o["side"] == "Al-Wazif" for o in treasury["owed"])  # Al-Wazif missed a payday
    career = cli.json("career", "Caliburn", "-c", "Demo mass-combat")
    assert len(career["battles"]) == 2 and career["damage"] > 0
    human = cli("status", "-c", "Demo fighting-spirit").stdout
    assert "fatigue" in human and "Keno 3rd Squad" in human


def test_at_shows_the_campaign_as_it_was_and_rebuild_changes_nothing(cli: Cli) -> None:
    early = cli.json("status", "-c", "Demo fighting-spirit", "--at", "6")
    assert early["battles"] == [] and all(u["battles"] == 0 for u in early["units"])
    before = cli.json("status", "-c", "Demo mass-combat")
    assert cli.json("rebuild")["events"] > 200
    assert cli.json("status", "-c", "Demo mass-combat") == before
    cli("status", "-c", "Demo mass-combat", "--at", "99999", code=2)
    assert cli.json("status", "-c", "Demo grimdark")["ruleset"] == "grimdark"
    cli("career", "Nobody", "-c", "Demo mass-combat", code=2)
