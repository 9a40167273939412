"""A five-grade campaign on the in-memory fake, driven through the public service with table dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from campaign.executor import Ledger, TableEntry
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.commands import Deployment
from campaign.rulesets.fighting_spirit.plugin import PLUGIN as FIGHTING_SPIRIT
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo
from tests.conftest import Backend, make_ledger


class FsTable:
    """The game master's side of the table: muster, start a battle, record what happens."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        ledger.create_campaign("Otlok Front", "fighting-spirit")

    @property
    def info(self) -> CampaignInfo:
        return self.ledger.resolve("Otlok Front")

    def muster(self, name: str, side: str = "Keno", reports_to: str | None = None, **profile: Any) -> None:
        self.ledger.execute(self.info, fs.Muster.build(name=name, side=side, profile=profile, reports_to=reports_to))

    def battle(self, motivation: dict[str, str], *deployments: Deployment) -> None:
        self.ledger.execute(
            self.info, fs.StartBattle.build(name="Hill 203", motivation=motivation, deployments=list(deployments))
        )

    def grade(self, name: str) -> str:
        state, _ = self.ledger.in_force(self.info, FIGHTING_SPIRIT)
        battle = state.battles[state.active_battle or ""]
        return battle.units[state.unit_by_name(name).unit_id].grade  # type: ignore[union-attr]

    def unit_state(self, name: str) -> Any:
        state, _ = self.ledger.in_force(self.info, FIGHTING_SPIRIT)
        battle = state.battles[state.active_battle or ""]
        return battle.units[state.unit_by_name(name).unit_id]  # type: ignore[union-attr]

    def log_length(self) -> int:
        return len(list(self.ledger.store.read(self.info.campaign_id)))


def applied(result: AppendResult) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in result.events if e.type == "rules.applied"]


def dice(*faces: int) -> TableEntry:
    return TableEntry(tuple(faces))


@pytest.fixture
def table() -> FsTable:
    return FsTable(make_ledger(Backend("memory")))


def deploy(*specs: tuple[str, str]) -> Sequence[Deployment]:
    return [Deployment(unit=name, fatigue=fatigue) for name, fatigue in specs]
