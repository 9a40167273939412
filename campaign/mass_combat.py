"""Commands of GURPS Mass Combat: muster units, show their troop strength, resolve a battle day."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from campaign.fighting_spirit import decision_events
from campaign.ledger import Ledger, TableEntry
from campaign.rules.mass_combat import battle as mc_battle
from campaign.rules.mass_combat import state as mc_state
from campaign.rules.mass_combat.profile import UnitProfile
from campaign.rules.mass_combat.setup import BattleSetup
from campaign.rules.mass_combat.strength import Strength, troop_strength
from campaign.rules.mass_combat.tables import Tables
from campaign.rules.tables import Value, apply_overrides, check_override
from campaign.rulesets import RULESETS
from campaign.tables import base_values
from events.dice import Dice, ReplayDice
from events.errors import InvalidInputError
from events.families.battle import BattleStarted
from events.families.dice import DiceRolled
from events.families.roster import UnitMustered
from events.families.rules import RuleApplied, TableOverridden
from events.registry import Event, registry
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

RULESET = RULESETS["mass-combat"]


def _problems(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'battle'}: {e['msg']}" for e in exc.errors())


def parse_setup(data: Mapping[str, Any]) -> BattleSetup:
    try:
        return BattleSetup.model_validate(data)
    except ValidationError as exc:
        raise InvalidInputError(f"not a valid battle set-up: {_problems(exc)}") from None


def _army_json(unit: mc_battle.ArmyUnit) -> dict[str, Any]:
    return {
        "unit_id": unit.unit_id,
        "name": unit.name,
        "side": unit.side,
        "profile": unit.profile.model_dump(mode="json"),
        "campaign_morale": unit.campaign_morale,
    }


def _army_from_json(data: Mapping[str, Any]) -> mc_battle.ArmyUnit:
    return mc_battle.ArmyUnit(
        data["unit_id"],
        data["name"],
        data["side"],
        UnitProfile.model_validate(data["profile"]),
        int(data["campaign_morale"]),
    )


class MassCombat:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def check(self, info: CampaignInfo) -> None:
        if info.ruleset != RULESET.name:
            raise InvalidInputError(f"campaign {info.name!r} runs {info.ruleset}, not {RULESET.name}")

    def state(self, info: CampaignInfo) -> tuple[mc_state.CampaignState, Tables]:
        self.check(info)
        base = base_values("mass_combat")
        state = mc_state.fold(self.ledger.store.read(info.campaign_id), base)
        return state, Tables(apply_overrides(base, state.overrides))

    def muster(
        self, info: CampaignInfo, name: str, side: str, profile: Mapping[str, Any], command_id: str | None = None
    ) -> AppendResult:
        state, tables = self.state(info)
        if not name.strip() or not side.strip():
            raise InvalidInputError("a unit needs a name and a side")
        if state.unit_by_name(name) is not None:
            raise InvalidInputError(f"a unit named {name!r} is already on the roster")
        try:
            checked = UnitProfile.model_validate(profile)
        except ValidationError as exc:
            raise InvalidInputError(f"not a Mass Combat unit profile: {_problems(exc)}") from None
        troop_strength(tables, checked)  # refuses unknown weapons before anything is appended
        event = UnitMustered(
            unit_id=self.ledger.new_id(), name=name, side=side, profile=checked.model_dump(mode="json")
        )
        return self.ledger.run(info, "mc.muster", lambda _d: [event], command_id=command_id)

    def strength(self, info: CampaignInfo, name: str, *, full: bool = False) -> Strength:
        """A unit's TS now: its fit men (or, with ``full``, every man alive once the wounded return)."""
        state, tables = self.state(info)
        unit = state.unit_by_name(name)
        if unit is None:
            raise InvalidInputError(f"unknown unit {name!r}")
        return troop_strength(tables, unit.profile, men=unit.profile.men if full else unit.fit)

    def battle(
        self,
        info: CampaignInfo,
        setup: BattleSetup,
        *,
        battle_id: str | None = None,
        final_day: bool = True,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """Resolve one battle day. A battle over several days passes the first day's ``battle_id`` again."""
        state, tables = self.state(info)
        if battle_id is None:
            if state.open_battle is not None:
                raise InvalidInputError("a battle is still being fought over several days: continue it with its id")
            battle_id = self.ledger.new_id()
        elif battle_id != state.open_battle:
            raise InvalidInputError(f"no battle {battle_id!r} is being fought")
        roster: dict[str, mc_battle.ArmyUnit] = {}
        for unit in state.roster.values():
            if unit.fit <= 0:
                continue
            fit = unit.profile.model_copy(update={"men": unit.fit})
            roster[unit.name] = mc_battle.ArmyUnit(unit.unit_id, unit.name, unit.side, fit)

        def decide(dice: Dice) -> list[Event]:
            started = BattleStarted(
                battle_id=battle_id,
                name=setup.name,
                scenario=f"day {setup.day}",
                sides=tuple(s.name for s in setup.sides),
                settings={s.name: {"role": s.role, "strategy": s.commander.strategy, "tl": s.tl} for s in setup.sides},
            )
            decisions = mc_battle.resolve_battle(tables, setup, roster, battle_id, dice)
            # The whole set-up goes in the log: any battle day can be re-run on its recorded dice.
            record = RuleApplied(
                ruleset=RULESET.name,
                ruleset_version=RULESET.version,
                rule="battle_day",
                clause="RULES.md §2.8–2.12",
                battle_id=battle_id,
                inputs={
                    "setup": setup.model_dump(mode="json"),
                    "final_day": final_day,
                    "roster": {n: _army_json(u) for n, u in roster.items()},
                },
                outcome={"decisions": len(decisions)},
                explanation=f"{setup.name}, day {setup.day}: {len(decisions)} steps resolved",
            )
            events = [
                started,
                record,
                *decision_events(decisions, battle_id, ruleset=RULESET.name, version=RULESET.version),
            ]
            if not final_day:
                events = [
                    e.model_copy(update={"result": "continues", "winner": None})
                    if e.event_name == "battle.ended"
                    else e
                    for e in events
                ]
            return events

        return self.ledger.run(info, "mc.battle", decide, table=table, command_id=command_id)

    def reevaluate(self, info: CampaignInfo, battle_seq: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Re-run the battle day recorded at ``battle_seq`` on its own dice, with the tables in force then.

        Returns (recorded, recomputed) outcomes of every step; equal unless the engine changed since.
        """
        self.check(info)
        events = list(self.ledger.store.read(info.campaign_id))
        record = next((e for e in events if e.seq == battle_seq), None)
        if record is None or record.payload.get("rule") != "battle_day":
            raise InvalidInputError(f"event {battle_seq} is not a recorded battle day")
        before = [e for e in events if e.seq < battle_seq]
        command = [e for e in events if e.meta.get("command_id") == record.meta.get("command_id")]
        base = base_values("mass_combat")
        state = mc_state.fold(before, base)
        tables = Tables(apply_overrides(base, state.overrides))
        inputs = record.payload["inputs"]
        setup = parse_setup(inputs["setup"])
        roster = {n: _army_from_json(u) for n, u in inputs["roster"].items()}
        rolled = [registry.decode(e) for e in command if e.type == "dice.rolled"]
        dice = ReplayDice([r for r in rolled if isinstance(r, DiceRolled)])
        decisions = mc_battle.resolve_battle(tables, setup, roster, str(record.payload["battle_id"]), dice)
        recomputed = [{"rule": d.rule, "outcome": dict(d.outcome)} for d in decisions]
        recorded = [
            {"rule": e.payload["rule"], "outcome": dict(e.payload["outcome"])}
            for e in command
            if e.type == "rules.applied" and e.payload["rule"] != "battle_day"
        ]
        return recorded, recomputed

    def house_rule(
        self, info: CampaignInfo, path: str, value: Value, note: str = "", command_id: str | None = None
    ) -> AppendResult:
        _, tables = self.state(info)
        check_override(tables.values, path, value)
        event = TableOverridden(
            ruleset=RULESET.name, path=path, value=value, source=f"HOUSE RULE by {self.ledger.actor}", note=note
        )
        return self.ledger.run(info, "mc.house_rule", lambda _d: [event], command_id=command_id)
