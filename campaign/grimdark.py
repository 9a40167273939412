"""Commands of the Grimdark Future ruleset (seed 004): load the campaign's state, run a pure rule with the
campaign's dice, append the rule application and the facts it caused.

A battle's wounds, melees and Shaken units end with it; its end rolls every casualty, counts each unit's XP
(and level-ups), and pays the mission rewards, which carry on through the campaign.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campaign.commands import command
from campaign.ledger import TableEntry
from campaign.ruleset_service import TableBattles, decision_events
from campaign.rulesets import RULESETS
from campaign.rulesets.decision import Decision
from campaign.rulesets.grimdark import rules as gf
from campaign.rulesets.grimdark.profile import UnitProfile
from campaign.rulesets.grimdark.state import BattleState, CampaignState, RosterUnit
from campaign.rulesets.grimdark.tables import Tables
from campaign.rulesets.tables import Value
from events.dice import Dice
from events.errors import InvalidInputError
from events.families.battle import BattleEnded, BattleStarted, KillCredited, TurnBegan, UnitDeployed, UnitRemoved
from events.families.career import TraitGained, XpGained
from events.families.economy import FundsChanged, UnitDisbanded
from events.families.roster import UnitMustered
from events.registry import Event, JsonValue
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

RULESET = RULESETS["grimdark"]
CASUALTY_REASONS = ("destroyed", "routed")


class Grimdark(TableBattles):
    ruleset = RULESET
    cli = "gf"

    tables_type = Tables

    def state(self, info: CampaignInfo, at_seq: int | None = None) -> tuple[CampaignState, Tables]:
        """The campaign as it stands (or stood at ``at_seq``), and the tables in force then."""
        state, tables = self._in_force(info, at_seq)
        return state, tables

    def fighting(self, state: CampaignState, name: str) -> gf.Unit:
        battle = self.current_battle(state)
        unit = self.unit(state, name)
        if unit.unit_id not in battle.units:
            raise InvalidInputError(f"{unit.name} is not in the battle {battle.name!r}")
        here = battle.units[unit.unit_id]
        if here.removed:
            raise InvalidInputError(f"{unit.name} is no longer on the table ({here.removed})")
        if here.joined_to is not None:
            host = state.roster[here.joined_to].name
            raise InvalidInputError(f"{unit.name} has joined {host}: its wounds, melees and tests are {host}'s")
        return state.in_battle(battle, unit.unit_id)

    def _consequences(self, state: Any, battle: Any, decisions: Sequence[Decision]) -> Sequence[Decision]:
        return _with_joined(state, battle, decisions)

    # -- roster ----------------------------------------------------------------------------------------

    def _checked_profile(
        self, state: CampaignState, tables: Tables, name: str, side: str, profile: Mapping[str, object]
    ) -> UnitProfile:
        checked = self._new_unit(state, name, side, UnitProfile, profile, "Grimdark Future")
        if checked.hero and checked.models != 1:
            raise InvalidInputError("a hero is a single model")
        if checked.skill_set is not None:
            if not checked.hero:
                raise InvalidInputError("only a hero has a skill set")
            if checked.skill_set not in tables.skill_sets:
                raise InvalidInputError(
                    f"unknown skill set {checked.skill_set!r}: choose one of {', '.join(tables.skill_sets)}"
                )
        return checked

    @command("gf.muster")
    def muster(
        self, info: CampaignInfo, name: str, side: str, profile: dict[str, object], command_id: str | None = None
    ) -> AppendResult:
        """A unit joins the army sheet: models, Quality, Tough, Fearless, hero or not, and its points."""
        state, tables = self.state(info)
        checked = self._checked_profile(state, tables, name, side, profile)
        event = UnitMustered(
            unit_id=self.ledger.new_id(), name=name, side=side, profile=checked.model_dump(mode="json")
        )
        return self._facts(info, "gf.muster", [event], command_id)

    @command("gf.disband")
    def disband(self, info: CampaignInfo, unit_name: str, reason: str, command_id: str | None = None) -> AppendResult:
        state, _ = self.state(info)
        unit = self.unit(state, unit_name)
        if state.active_battle is not None and unit.unit_id in state.battles[state.active_battle].units:
            raise InvalidInputError(f"{unit.name} is in the battle being fought: end the battle first")
        return self._facts(info, "gf.disband", [UnitDisbanded(unit_id=unit.unit_id, reason=reason)], command_id)

    @command("gf.buy")
    def buy(
        self, info: CampaignInfo, name: str, side: str, profile: dict[str, object], command_id: str | None = None
    ) -> AppendResult:
        """A unit bought with the side's campaign points (§4.2); no army may grow past the lowest + 250 pts."""
        state, tables = self.state(info)
        checked = self._checked_profile(state, tables, name, side, profile)
        held = state.treasury.get(side, 0)
        if checked.points > held:
            raise InvalidInputError(f"{side} has {held} campaign points: {name} costs {checked.points}")
        values = state.army_values()
        problem = gf.army_cap_problem(tables, values, side, values.get(side, 0) + checked.points)
        if problem:
            raise InvalidInputError(problem)
        unit_id = self.ledger.new_id()
        events: list[Event] = [
            UnitMustered(unit_id=unit_id, name=name, side=side, profile=checked.model_dump(mode="json")),
            FundsChanged(side=side, amount=-checked.points, reason=f"bought {name}"),
        ]
        return self._facts(info, "gf.buy", events, command_id)

    @command("gf.sell")
    def sell(self, info: CampaignInfo, unit_name: str, command_id: str | None = None) -> AppendResult:
        """A unit sold between matches: off the army sheet, its points (as the tables refund them) back."""
        state, tables = self.state(info)
        unit = self.unit(state, unit_name)
        if state.active_battle is not None and unit.unit_id in state.battles[state.active_battle].units:
            raise InvalidInputError(f"{unit.name} is in the battle being fought: end the battle first")
        refund = unit.points * tables.number("army.sell_refund_pct") // 100
        events: list[Event] = [
            UnitDisbanded(unit_id=unit.unit_id, reason="sold"),
            FundsChanged(side=unit.side, amount=refund, reason=f"sold {unit.name}"),
        ]
        return self._facts(info, "gf.sell", events, command_id)

    def transfer(
        self, info: CampaignInfo, from_unit: str, to_unit: str, men: int, command_id: str | None = None
    ) -> AppendResult:
        raise InvalidInputError("Grimdark Future units do not trade models: buy, sell or disband units instead")

    @command("gf.house_rule")
    def house_rule(
        self, info: CampaignInfo, path: str, value: Value, note: str = "", command_id: str | None = None
    ) -> AppendResult:
        return self._house_rule(info, path, value, note, "gf.house_rule", command_id)

    # -- battles ---------------------------------------------------------------------------------------

    @command("gf.battle_start")
    def start_battle(
        self,
        info: CampaignInfo,
        name: str,
        units: Sequence[str],
        joins: Mapping[str, str] | None = None,
        special: bool = False,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """A match begins with the units listed. ``joins`` (JOINER → UNIT) puts a hero into a unit of its side
        (+1 to its starting size), or combines two like units into one (their models summed; RULES.md O11).
        With ``special``, each side rolls its special objective (§4.2)."""
        state, tables = self.state(info)
        if state.active_battle is not None:
            raise InvalidInputError(f"the battle {state.battles[state.active_battle].name!r} is still being fought")
        if not name.strip():
            raise InvalidInputError("a battle needs a name")
        deployed: list[RosterUnit] = []
        for unit_name in units:
            unit = self.unit(state, unit_name)
            if unit in deployed:
                raise InvalidInputError(f"{unit.name} is deployed twice")
            deployed.append(unit)
        sides = tuple(dict.fromkeys(u.side for u in deployed))
        if len(sides) < 2:
            raise InvalidInputError("a battle needs units of two sides at least")
        joined: dict[str, str] = {}
        for joiner_name, unit_name in (joins or {}).items():
            joiner, unit = self.unit(state, joiner_name), self.unit(state, unit_name)
            if joiner not in deployed or unit not in deployed:
                raise InvalidInputError(f"{joiner.name} and {unit.name} must both be deployed to join")
            if joiner == unit or unit.profile.hero:
                raise InvalidInputError(f"{joiner.name} cannot join {unit.name}: join a hero or a like unit to a unit")
            if joiner.side != unit.side:
                raise InvalidInputError(f"{joiner.name} fights for {joiner.side}, {unit.name} for {unit.side}")
            if not joiner.profile.hero and (joiner.profile.quality, joiner.tough) != (unit.profile.quality, unit.tough):
                raise InvalidInputError(f"only like units combine: {joiner.name} and {unit.name} differ")
            if unit.unit_id in joined or joiner.unit_id in joined.values():
                raise InvalidInputError(f"{joiner.name} into {unit.name}: a unit joins once, into a unit not joined")
            if any(state.roster[j].profile.hero == joiner.profile.hero for j, t in joined.items() if t == unit.unit_id):
                raise InvalidInputError(f"{unit.name} already has a {'hero' if joiner.profile.hero else 'twin'}")
            joined[joiner.unit_id] = unit.unit_id
        battle_id = self.ledger.new_id()
        events: list[Event] = [
            BattleStarted(battle_id=battle_id, name=name, sides=sides, settings={side: {} for side in sides})
        ]
        hero_adds = tables.number("morale.joined_hero_adds")
        for u in deployed:
            joiners = [state.roster[j] for j, t in joined.items() if t == u.unit_id]
            twins = sum(j.profile.models for j in joiners if not j.profile.hero)
            start = u.profile.models + twins + sum(hero_adds for j in joiners if j.profile.hero)
            state_: dict[str, JsonValue] = {"start_size": start, "tough": u.tough, "quality": u.profile.quality}
            if u.unit_id in joined:
                state_["joined_to"] = joined[u.unit_id]
            events.append(
                UnitDeployed(
                    battle_id=battle_id, unit_id=u.unit_id, side=u.side, men=u.profile.models + twins, state=state_
                )
            )
        if not special:
            return self._facts(info, "gf.battle_start", events, command_id)

        def run(dice: Dice) -> list[Event]:
            rolled = gf.special_objectives(tables, sides, dice)
            return [*events, *decision_events([rolled], battle_id, RULESET)]

        return self.ledger.run(info, "gf.battle_start", run, table=table, command_id=command_id)

    @command("gf.round")
    def next_round(self, info: CampaignInfo, command_id: str | None = None) -> AppendResult:
        battle = self.current_battle(self.state(info)[0])
        return self._facts(info, "gf.round", [TurnBegan(battle_id=battle.battle_id, turn=battle.round + 1)], command_id)

    @command("gf.shoot")
    def shoot(
        self,
        info: CampaignInfo,
        unit_name: str,
        wounds: int,
        by: str | None = None,
        models_lost: int | None = None,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """Wounds taken in an activation (not a melee): at its end, a unit at half strength tests (§4.1 A)."""

        def decide(state: CampaignState, tables: Tables, battle: BattleState, dice: Dice) -> list[Decision]:
            target = self.fighting(state, unit_name)
            shooter = self.fighting(state, by) if by is not None else None
            if shooter is not None and shooter.side == target.side:
                raise InvalidInputError(f"{shooter.name} and {target.name} fight for the same side")
            return gf.shot(tables, target, dice, battle.battle_id, wounds=wounds, by=shooter, models_lost=models_lost)

        return self._rule(info, "gf.shoot", decide, table, command_id)

    @command("gf.melee")
    def melee(
        self,
        info: CampaignInfo,
        a: str,
        b: str,
        wounds_by_a: int,
        wounds_by_b: int,
        a_lost: int | None = None,
        b_lost: int | None = None,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """A melee: each side's unblocked wounds; the side that caused fewer tests (§4.1 B)."""

        def decide(state: CampaignState, tables: Tables, battle: BattleState, dice: Dice) -> list[Decision]:
            first, second = self.fighting(state, a), self.fighting(state, b)
            return gf.melee(
                tables,
                first,
                second,
                dice,
                battle.battle_id,
                wounds_by_a=wounds_by_a,
                wounds_by_b=wounds_by_b,
                a_lost=a_lost,
                b_lost=b_lost,
            )

        return self._rule(info, "gf.melee", decide, table, command_id)

    @command("gf.recover")
    def recover(self, info: CampaignInfo, unit_name: str, command_id: str | None = None) -> AppendResult:
        """A Shaken unit spends its activation idle and stops being Shaken."""

        def decide(state: CampaignState, _t: Tables, battle: BattleState, _d: Dice) -> list[Decision]:
            return [gf.recover(self.fighting(state, unit_name), battle.battle_id)]

        return self._rule(info, "gf.recover", decide, None, command_id)

    @command("gf.remove")
    def remove(
        self, info: CampaignInfo, unit_name: str, reason: str, by: str | None = None, command_id: str | None = None
    ) -> AppendResult:
        """A unit leaves the table: destroyed or routed (a casualty, who did it credited), or another reason."""
        if not reason.strip():
            raise InvalidInputError("say why the unit is removed (destroyed, routed, or another reason)")

        def decide(state: CampaignState, _t: Tables, battle: BattleState, _d: Dice) -> list[Decision]:
            unit = self.fighting(state, unit_name)
            killer = self.fighting(state, by) if by is not None else None
            facts: list[Event] = [UnitRemoved(battle_id=battle.battle_id, unit_id=unit.unit_id, reason=reason)]
            if killer is not None:
                if killer.side == unit.side:
                    raise InvalidInputError(f"{killer.name} and {unit.name} fight for the same side")
                facts.append(
                    KillCredited(
                        battle_id=battle.battle_id,
                        unit_id=killer.unit_id,
                        victim_id=unit.unit_id,
                        victim_hero=unit.hero,
                    )
                )
            text = f"{unit.name} is removed: {reason}" + (f" (by {killer.name})" if killer else "")
            return [
                Decision(
                    "unit_removed", "§4.1", unit.unit_id, {"reason": reason}, {"removed": True}, text, tuple(facts)
                )
            ]

        return self._rule(info, "gf.remove", decide, None, command_id)

    @command("gf.battle_end")
    def end_battle(
        self,
        info: CampaignInfo,
        winner: str | None,
        special_achieved: Sequence[str] = (),
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """The match ends (§4.2): casualty rolls, XP and level-ups, mission rewards and the special objectives
        achieved (``special_achieved``: the sides); Shaken ends with it."""

        def decide(state: CampaignState, tables: Tables, battle: BattleState, dice: Dice) -> list[Decision]:
            if winner is not None and winner not in battle.sides:
                raise InvalidInputError(f"{winner!r} is not a side of this battle ({', '.join(battle.sides)})")
            for side in special_achieved:
                if side not in battle.special:
                    raise InvalidInputError(f"{side!r} had no special objective in this battle")
            decisions: list[Decision] = []
            for unit_id in battle.order:  # as deployed: the casualty and trait dice go in this order
                in_battle, roster = battle.units[unit_id], state.roster[unit_id]
                unit = state.in_battle(battle, unit_id)
                is_casualty = (in_battle.removed or "").startswith(CASUALTY_REASONS)
                gained = 0
                if is_casualty:
                    roll = gf.casualty(tables, unit, dice, battle.battle_id, had=roster.traits)
                    decisions.append(roll)
                    if roll.outcome["result"] == "dead":
                        continue
                    gained += sum(f.xp for f in roll.facts if isinstance(f, XpGained))
                victims = dict(in_battle.kills)
                both = sum(1 for victim, hero in victims.items() if hero and battle.units[victim].joined_to in victims)
                xp = gf.experience(
                    tables,
                    battle.battle_id,
                    unit,
                    casualty=is_casualty,
                    kills=list(victims.values()),
                    hero_and_unit=both,
                )
                if xp is not None:
                    decisions.append(xp)
                    gained += int(xp.outcome["xp"])
                had = roster.traits + tuple(
                    f.trait for d in decisions if d.unit_id == unit_id for f in d.facts if isinstance(f, TraitGained)
                )
                level = gf.level_up(
                    tables,
                    unit,
                    dice,
                    xp_before=roster.xp,
                    xp_after=roster.xp + gained,
                    had=had,
                    skill_set=roster.profile.skill_set,
                )
                if level is not None:
                    decisions.append(level)
            decisions.append(gf.rewards(tables, battle.battle_id, battle.sides, winner))
            decisions.extend(
                gf.special_bonus(tables, side, battle.special[side]) for side in dict.fromkeys(special_achieved)
            )
            result = "draw" if winner is None else f"won by {winner}"
            decisions.append(
                Decision(
                    "battle_end",
                    "§4.2",
                    None,
                    {"winner": winner},
                    {"result": result},
                    f"{battle.name} ends: {result}; Shaken ends with it",
                    (BattleEnded(battle_id=battle.battle_id, result=result, winner=winner),),
                )
            )
            return decisions

        return self._rule(info, "gf.battle_end", decide, table, command_id)


def _with_joined(state: CampaignState, battle: BattleState, decisions: Sequence[Decision]) -> list[Decision]:
    """A hero joined to a unit, or a unit combined with it, shares its fate: when it is destroyed or routed."""
    out = list(decisions)
    for d in decisions:
        for fact in d.facts:
            if not isinstance(fact, UnitRemoved):
                continue
            for joiner_id in battle.order:
                joiner = battle.units[joiner_id]
                if joiner.joined_to != fact.unit_id or joiner.removed is not None:
                    continue
                killer = next(
                    (f.unit_id for f in d.facts if isinstance(f, KillCredited) and f.victim_id == fact.unit_id), None
                )
                facts: list[Event] = [UnitRemoved(battle_id=battle.battle_id, unit_id=joiner_id, reason=fact.reason)]
                if killer is not None:
                    hero = state.roster[joiner_id].profile.hero
                    facts.append(
                        KillCredited(battle_id=battle.battle_id, unit_id=killer, victim_id=joiner_id, victim_hero=hero)
                    )
                name = state.roster[joiner_id].name
                out.append(
                    Decision(
                        "shares_fate",
                        "§4.1",
                        joiner_id,
                        {"joined_to": fact.unit_id},
                        {"removed": fact.reason},
                        f"{name}, joined to {state.roster[fact.unit_id].name}, shares its fate: {fact.reason}",
                        tuple(facts),
                    )
                )
    return out
