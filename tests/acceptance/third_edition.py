"""A campaign of seed 000 or 001 on the in-memory store, played through the command models and the one executor
(the path the CLI and the server take), for the tests of RULES.md's third-edition errata (R3-1 … R3-13)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.executor import Ledger, TableEntry
from campaign.rulesets.command import Command, Ruleset
from events.errors import InvalidInputError
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo
from tests.conftest import Backend, make_ledger


class Table:
    """The game master at the table: commands by their model and inputs, with the table's dice."""

    def __init__(self, ruleset: str, plugin: Ruleset[Any, Any]) -> None:
        self.ledger: Ledger = make_ledger(Backend("memory"))
        self.ledger.create_campaign("Third edition", ruleset)
        self.plugin = plugin

    @property
    def info(self) -> CampaignInfo:
        return self.ledger.resolve("Third edition")

    def run(self, model: type[Command[Any, Any]], *faces: int, **inputs: Any) -> AppendResult:
        table = TableEntry(tuple(faces)) if faces else None
        return self.ledger.execute(self.info, model.build(**inputs), table=table)

    def rules(self, model: type[Command[Any, Any]], *faces: int, **inputs: Any) -> list[dict[str, Any]]:
        """The rule applications the command recorded (``rules.applied`` payloads), in order."""
        return applied(self.run(model, *faces, **inputs))

    def refused(self, model: type[Command[Any, Any]], match: str, *faces: int, **inputs: Any) -> str:
        """The command is refused in words matching ``match``, and nothing is appended (no die rolled)."""
        before = self.log_length()
        with pytest.raises(InvalidInputError, match=match) as refusal:
            self.run(model, *faces, **inputs)
        assert self.log_length() == before, "a refused command appended something"
        return str(refusal.value)

    def state(self) -> Any:
        return self.ledger.in_force(self.info, self.plugin)[0]

    def battle(self) -> Any:
        state = self.state()
        return state.battles[state.active_battle or max(state.battles, key=lambda b: state.battles[b].number)]

    def unit_id(self, name: str) -> str:
        found = self.state().unit_by_name(name)
        assert found is not None, name
        return str(found.unit_id)

    def on_table(self, name: str) -> Any:
        return self.battle().units[self.unit_id(name)]

    def log_length(self) -> int:
        return len(list(self.ledger.store.read(self.info.campaign_id)))


def applied(result: AppendResult, rule: str | None = None) -> list[dict[str, Any]]:
    return [
        dict(e.payload)
        for e in result.events
        if e.type == "rules.applied" and (rule is None or e.payload["rule"] == rule)
    ]


def facts(result: AppendResult, kind: str) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in result.events if e.type == kind]
