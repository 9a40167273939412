"""What every ruleset's commands share: the campaign must run that ruleset, and house rules on its tables."""

from __future__ import annotations

from typing import Any, ClassVar

from campaign.ledger import Ledger
from campaign.rules.tables import Sourced, Value, check_override
from campaign.rulesets import RulesetInfo
from events.errors import InvalidInputError
from events.families.rules import TableOverridden
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo


class RulesetService:
    ruleset: ClassVar[RulesetInfo]

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def check(self, info: CampaignInfo) -> None:
        if info.ruleset != self.ruleset.name:
            raise InvalidInputError(f"campaign {info.name!r} runs {info.ruleset}, not {self.ruleset.name}")

    def state(self, info: CampaignInfo, at_seq: int | None = None) -> tuple[Any, Any]:
        raise NotImplementedError

    def _house_rule(
        self, info: CampaignInfo, path: str, value: Value, note: str, command: str, command_id: str | None
    ) -> AppendResult:
        """Replace one table value from now on: an event, so a replay uses the tables in force at each point."""
        _, tables = self.state(info)
        values: dict[str, Sourced] = dict(tables.values)
        check_override(values, path, value)
        event = TableOverridden(
            ruleset=self.ruleset.name, path=path, value=value, source=f"HOUSE RULE by {self.ledger.actor}", note=note
        )
        return self.ledger.run(info, command, lambda _dice: [event], command_id=command_id)

    @staticmethod
    def _check_transfer(giver: Any, receiver: Any, men: int, available: int, what: str) -> None:
        """What every ruleset asks of a transfer of ``men`` from ``giver`` (``available`` of ``what``)."""
        if men <= 0:
            raise InvalidInputError("transfer at least one man")
        if giver.unit_id == receiver.unit_id:
            raise InvalidInputError("a unit cannot transfer men to itself")
        if giver.side != receiver.side:
            raise InvalidInputError(f"{giver.name} fights for {giver.side} and {receiver.name} for {receiver.side}")
        if men > available:
            raise InvalidInputError(f"{giver.name} has {available} {what}; it cannot transfer {men}")
