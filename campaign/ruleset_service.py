"""What every ruleset's commands share: the campaign must run that ruleset, and house rules on its tables."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ValidationError

from campaign.executor import Ledger, TableEntry
from campaign.rulesets import RulesetInfo
from campaign.rulesets.decision import Decision
from campaign.rulesets.tables import RuleTables, Value, apply_overrides, check_override
from campaign.tables import base_values
from events.dice import Dice, parse
from events.errors import InvalidInputError
from events.families.rules import RuleApplied, TableOverridden
from events.registry import Event
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

M = TypeVar("M", bound=BaseModel)


def problems(exc: ValidationError, whole: str) -> str:
    """A pydantic error as one line for a person: each bad field by its path (``whole`` for the whole)."""
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or whole}: {e['msg']}" for e in exc.errors())


def decision_events(decisions: Sequence[Decision], battle_id: str | None, ruleset: RulesetInfo) -> list[Event]:
    """Each decision as a ``rules.applied`` event followed by the facts it caused."""
    out: list[Event] = []
    for d in decisions:
        out.append(
            RuleApplied(
                ruleset=ruleset.name,
                ruleset_version=ruleset.version,
                rule=d.rule,
                clause=f"RULES.md {d.clause}",
                battle_id=battle_id,
                unit_id=d.unit_id,
                inputs=dict(d.inputs),
                dice=tuple(r.roll_index for r in d.rolls),
                outcome=dict(d.outcome),
                explanation=d.explanation,
            )
        )
        out.extend(d.facts)
    return out


class RulesetService:
    ruleset: ClassVar[RulesetInfo]

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def check(self, info: CampaignInfo) -> None:
        if info.ruleset != self.ruleset.name:
            raise InvalidInputError(f"campaign {info.name!r} runs {info.ruleset}, not {self.ruleset.name}")

    tables_type: ClassVar[type[RuleTables]]
    """The ruleset's typed view of its tables (``Tables``)."""

    def state(self, info: CampaignInfo, at_seq: int | None = None) -> tuple[Any, Any]:
        """The campaign as it stands (or stood at ``at_seq``), and the tables in force then."""
        return self._in_force(info, at_seq)

    def _in_force(self, info: CampaignInfo, at_seq: int | None) -> tuple[Any, Any]:
        self.check(info)
        state = self.ledger.states.get(info, at_seq)
        return state, self.tables_type(apply_overrides(base_values(self.ruleset.package), state.overrides))

    def _facts(self, info: CampaignInfo, name: str, events: Sequence[Event], command_id: str | None) -> AppendResult:
        """Append facts that no dice decide (a muster, a turn), recorded as command ``name``."""
        return self.ledger.run(info, name, lambda _dice: list(events), command_id=command_id)

    @staticmethod
    def unit(state: Any, name: str, *, active: bool = True) -> Any:
        """The roster unit of that name (or id); with ``active``, a disbanded one is refused."""
        found = state.unit_by_name(name)
        if found is None:
            known = ", ".join(sorted(u.name for u in state.roster.values())) or "none yet"
            raise InvalidInputError(f"unknown unit {name!r} (units: {known})")
        if active and found.disbanded:
            raise InvalidInputError(f"{found.name} was disbanded ({found.disbanded})")
        return found

    # Every ruleset's roster offers these two; the command line registers them once for all (cli.common).
    def transfer(
        self, info: CampaignInfo, from_unit: str, to_unit: str, men: int, command_id: str | None = None
    ) -> AppendResult:
        raise NotImplementedError

    def disband(self, info: CampaignInfo, unit_name: str, reason: str, command_id: str | None = None) -> AppendResult:
        raise NotImplementedError

    def house_rule(
        self, info: CampaignInfo, path: str, value: Value, note: str = "", command_id: str | None = None
    ) -> AppendResult:
        """Each ruleset records it under its own command name, through :meth:`_house_rule`."""
        raise NotImplementedError

    def _house_rule(
        self, info: CampaignInfo, path: str, value: Value, note: str, command: str, command_id: str | None
    ) -> AppendResult:
        """Replace one table value from now on: an event, so a replay uses the tables in force at each point."""
        _, tables = self.state(info)
        check_override(tables.values, path, value)
        self._check_table_value(path, value)
        event = TableOverridden(
            ruleset=self.ruleset.name, path=path, value=value, source=f"HOUSE RULE by {self.ledger.actor}", note=note
        )
        return self._facts(info, command, [event], command_id)

    def _check_table_value(self, path: str, value: Value) -> None:
        """A house-rule value's check beyond its kind: here, for every ruleset, that a ``….dice`` value is dice;
        a ruleset adds its own (calling this one)."""
        if path.endswith(".dice"):
            parse(str(value))

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

    @staticmethod
    def _new_unit(state: Any, name: str, side: str, model: type[M], profile: Mapping[str, Any], what: str) -> M:
        """A unit about to join the roster: a name and a side, a name not taken, and a valid ``what`` profile."""
        if not name.strip() or not side.strip():
            raise InvalidInputError("a unit needs a name and a side")
        if state.unit_by_name(name) is not None:
            raise InvalidInputError(f"a unit named {name!r} is already on the roster")
        try:
            return model.model_validate(profile)
        except ValidationError as exc:
            raise InvalidInputError(f"not a {what} unit profile: {problems(exc, 'profile')}") from None


class TableBattles(RulesetService):
    """A ruleset whose battles are played command by command at the table (every ruleset but Mass Combat, which
    resolves a battle day in one): one battle in progress at a time, and rules run on it with the campaign's dice."""

    cli: ClassVar[str]
    """Its command group (``campaign fs …``), for the messages that point there."""

    def current_battle(self, state: Any) -> Any:
        """The battle being fought; a clear refusal if there is none."""
        if state.active_battle is None:
            raise InvalidInputError(f"no battle is being fought: start one with `campaign {self.cli} battle-start`")
        return state.battles[state.active_battle]

    def _rule(
        self,
        info: CampaignInfo,
        name: str,
        decide: Callable[[Any, Any, Any, Dice], Sequence[Decision]],
        table: TableEntry | None,
        command_id: str | None,
    ) -> AppendResult:
        """Run ``decide`` on the battle being fought with the campaign's dice (or the table's); append what it
        decided, each decision followed by its facts, as command ``name``."""
        state, tables = self.state(info)
        battle = self.current_battle(state)

        def run(dice: Dice) -> list[Event]:
            decisions = self._consequences(state, battle, decide(state, tables, battle, dice))
            return decision_events(decisions, battle.battle_id, self.ruleset)

        return self.ledger.run(info, name, run, table=table, command_id=command_id)

    def _consequences(self, state: Any, battle: Any, decisions: Sequence[Decision]) -> Sequence[Decision]:
        """What the decisions bring about beyond themselves (a ruleset may add to them); none by default."""
        return decisions
