"""Commands of GURPS Mass Combat: muster units, show their troop strength, resolve a battle day."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from campaign.commands import command
from campaign.ledger import TableEntry
from campaign.ruleset_service import RulesetService, decision_events, problems
from campaign.rulesets import RULESETS
from campaign.rulesets.decision import Decision
from campaign.rulesets.mass_combat import battle as mc_battle
from campaign.rulesets.mass_combat import state as mc_state
from campaign.rulesets.mass_combat.arrears import unpaid_day_rolls
from campaign.rulesets.mass_combat.economy import (
    monthly_pay,
    payday,
    recruitment_cost,
    stripped_value,
    upkeep,
    wounded_returning,
)
from campaign.rulesets.mass_combat.pcs import check_damage_value
from campaign.rulesets.mass_combat.profile import UnitProfile
from campaign.rulesets.mass_combat.quality import (
    base_morale,
    commander_skill,
    leadership_modifier,
    needs_reroll,
    quality_from_roll,
    quality_step_down,
    settle_experience,
    trained_quality,
)
from campaign.rulesets.mass_combat.setup import BattleSetup
from campaign.rulesets.mass_combat.strength import Strength, troop_strength
from campaign.rulesets.mass_combat.tables import QUALITIES, Tables
from campaign.rulesets.tables import Value, apply_overrides
from campaign.tables import base_values
from events.dice import Dice, ReplayDice, Roll, parse
from events.errors import InvalidInputError
from events.families.battle import BattleStarted
from events.families.calendar import DaysPassed, MonthEnded, WoundedReturned
from events.families.dice import DiceRolled
from events.families.economy import FundsChanged, MoraleModifierSet, PaySettled, TroopsRecruited, UnitDisbanded
from events.families.roster import MenTransferred, UnitMustered, UnitQualityChanged
from events.families.rules import RuleApplied
from events.registry import Event, registry
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

RULESET = RULESETS["mass-combat"]


def parse_setup(data: Mapping[str, Any]) -> BattleSetup:
    try:
        return BattleSetup.model_validate(data)
    except ValidationError as exc:
        raise InvalidInputError(f"not a valid battle set-up: {problems(exc, 'battle')}") from None


def _lasting_effects(decisions: Sequence[Decision], setup: BattleSetup, final_day: bool) -> list[Event]:
    """What outlives the battle (§2.11): a lost commander until a clear victory; the same enemy this year."""
    out: list[Event] = []
    for d in decisions:
        if d.rule not in ("catastrophe", "next_day_morale"):  # R2-18: the next-day −2 is recorded too
            continue
        for item in d.outcome.get("persist", []):
            if "defected" in item:  # the unit went over to the enemy: lost to its side for good
                out.append(UnitDisbanded(unit_id=str(item["defected"]), reason=f"defected at {setup.name}"))
                continue
            out.append(
                MoraleModifierSet(
                    name=f"{'commander lost' if d.rule == 'catastrophe' else 'the day after'} "
                    f"({setup.name}, day {setup.day})",
                    value=int(item["value"]),
                    unit_id=item.get("unit_id"),
                    side=item.get("side"),
                    until=str(item.get("until", "clear_victory")),
                )
            )
    end = next((d for d in decisions if d.rule == "battle_end"), None)
    winner = end.outcome.get("winner") if end is not None else None
    if final_day and winner:
        for side in setup.sides:
            if side.name == winner:
                for other in setup.sides:
                    if other.name != winner:
                        out.append(
                            MoraleModifierSet(
                                name=f"vs {other.name}: beat them this year", value=1, side=winner, until="year_end"
                            )
                        )
            else:
                out.append(
                    MoraleModifierSet(
                        name=f"vs {winner}: lost to them this year", value=-2, side=side.name, until="year_end"
                    )
                )
    return out


def _roll_quality(
    tables: Tables, dice: Dice, purpose: str, *, new_unit: bool, replacements: int
) -> tuple[str, list[Roll]]:
    """The 3d quality table (§2.3), rerolling Veterans and Elite for a new unit or more than 10 recruits."""
    rolls: list[Roll] = []
    while True:
        roll = dice.roll(parse("3d"), purpose)
        rolls.append(roll)
        quality = quality_from_roll(tables, roll.total)
        if not needs_reroll(tables, quality, new_unit=new_unit, replacements=replacements):
            return quality, rolls


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


class MassCombat(RulesetService):
    ruleset = RULESET

    tables_type = Tables

    def state(self, info: CampaignInfo, at_seq: int | None = None) -> tuple[mc_state.CampaignState, Tables]:
        """The campaign as it stands (or stood at ``at_seq``), and the tables in force then."""
        state, tables = self._in_force(info, at_seq)
        return state, tables

    @command("mc.muster")
    def muster(
        self, info: CampaignInfo, name: str, side: str, profile: Mapping[str, Any], command_id: str | None = None
    ) -> AppendResult:
        state, tables = self.state(info)
        profile = settle_experience(tables, profile)  # R2-12
        checked = self._new_unit(state, name, side, UnitProfile, profile, "Mass Combat")
        troop_strength(tables, checked)  # refuses unknown weapons before anything is appended
        event = UnitMustered(
            unit_id=self.ledger.new_id(), name=name, side=side, profile=checked.model_dump(mode="json")
        )
        return self._facts(info, "mc.muster", [event], command_id)

    def strength(self, info: CampaignInfo, name: str, *, full: bool = False) -> Strength:
        """A unit's TS now: its fit men (or, with ``full``, every man alive once the wounded return)."""
        state, tables = self.state(info)
        unit = self._unit(state, name, active=False)
        return troop_strength(tables, unit.profile, men=unit.profile.men if full else unit.fit)

    @command("mc.battle", setup=parse_setup)
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
        sides = {s.name for s in setup.sides}
        for listed in (u.unit for side in setup.sides for u in side.units):
            known = state.unit_by_name(listed)
            if known is not None and known.disbanded:
                raise InvalidInputError(f"{known.name} is no longer in service ({known.disbanded})")
            if known is not None and known.fit <= 0:
                raise InvalidInputError(f"{known.name} has no men fit to fight (its wounded have not returned)")
        roster: dict[str, mc_battle.ArmyUnit] = {}
        for unit in state.roster.values():
            if unit.fit <= 0 or unit.disbanded:
                continue
            fit = unit.profile.model_copy(update={"men": unit.fit})
            enemies = sides - {unit.side}
            roster[unit.name] = mc_battle.ArmyUnit(
                unit.unit_id, unit.name, unit.side, fit, state.campaign_morale(unit, tables, enemies)
            )

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
                *decision_events(decisions, battle_id, RULESET),
                *_lasting_effects(decisions, setup, final_day),
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

    # -- economy and time (§2.11–2.12) ----------------------------------------------------------------

    def _unit(self, state: mc_state.CampaignState, name: str, *, active: bool = True) -> mc_state.Unit:
        unit: mc_state.Unit = self.unit(state, name, active=active)
        return unit

    @staticmethod
    def _afford(state: mc_state.CampaignState, side: str, amount: int, what: str) -> None:
        balance = state.treasury.get(side, 0)
        if amount > balance:
            raise InvalidInputError(f"{side}'s treasury holds ${balance}; it cannot cover {what} (${amount})")

    @command("mc.funds")
    def funds(
        self, info: CampaignInfo, side: str, amount: int, reason: str, command_id: str | None = None
    ) -> AppendResult:
        """Money in (loot, ransom, a patron's purse) or out; a treasury never goes below nothing."""
        state, _ = self.state(info)
        if not reason.strip():
            raise InvalidInputError("say what the money is for")
        if amount < 0:
            self._afford(state, side, -amount, reason)
        event = FundsChanged(side=side, amount=amount, reason=reason)
        return self._facts(info, "mc.funds", [event], command_id)

    @command("mc.raise")
    def raise_unit(
        self,
        info: CampaignInfo,
        name: str,
        side: str,
        profile: Mapping[str, Any],
        *,
        pay: bool = True,
        random_quality: bool = False,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """Raise a new unit: its recruitment cost comes out of the side's treasury. With ``random_quality``
        the 3d quality table decides, rerolling Veterans and Elite (new units can't be raised as such)."""
        state, tables = self.state(info)
        profile = settle_experience(tables, profile)  # R2-12
        checked = self._new_unit(state, name, side, UnitProfile, profile, "Mass Combat")
        cost = recruitment_cost(tables, checked) * checked.men if pay else 0
        if pay:
            self._afford(state, side, cost, f"raising {name}")

        def decide(dice: Dice) -> list[Event]:
            final = checked
            events: list[Event] = []
            if random_quality:
                quality, rolls = _roll_quality(tables, dice, f"troop quality of {name}", new_unit=True, replacements=0)
                experience = tables.number(f"quality.{quality}.experience_from")
                final = checked.model_copy(update={"quality": quality, "experience": experience})
                events.append(
                    RuleApplied(
                        ruleset=RULESET.name,
                        ruleset_version=RULESET.version,
                        rule="troop_quality",
                        clause="RULES.md §2.3",
                        inputs={"unit": name},
                        dice=tuple(r.roll_index for r in rolls),
                        outcome={"quality": quality},
                        explanation=f"{name} quality: 3d rolled {', '.join(str(r.total) for r in rolls)} → {quality}"
                        + (" (Veterans and Elite rerolled for a new unit)" if len(rolls) > 1 else ""),
                    )
                )
            events.append(
                UnitMustered(unit_id=self.ledger.new_id(), name=name, side=side, profile=final.model_dump(mode="json"))
            )
            if cost:
                events.append(FundsChanged(side=side, amount=-cost, reason=f"raising {name}: {checked.men} men"))
            return events

        return self.ledger.run(info, "mc.raise", decide, table=table, command_id=command_id)

    @command("mc.recruit")
    def recruit(
        self,
        info: CampaignInfo,
        unit_name: str,
        men: int,
        quality: str | None = None,
        *,
        pay: bool = True,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """Replacements join a unit at their quality's lower bound of experience (the unit's is re-averaged).
        Without a quality, the 3d table decides, rerolling Veterans and Elite when more than 10 join."""
        state, tables = self.state(info)
        unit = self._unit(state, unit_name)
        if men <= 0:
            raise InvalidInputError("recruit at least one man")
        if quality is not None and quality not in QUALITIES:
            raise InvalidInputError(f"quality must be one of {', '.join(QUALITIES)}")
        cost = recruitment_cost(tables, unit.profile) * men if pay else 0
        if pay:
            self._afford(state, unit.side, cost, f"{men} recruits for {unit.name}")

        def decide(dice: Dice) -> list[Event]:
            chosen = quality
            events: list[Event] = []
            if chosen is None:
                chosen, rolls = _roll_quality(
                    tables, dice, f"quality of {men} recruits for {unit.name}", new_unit=False, replacements=men
                )
                events.append(
                    RuleApplied(
                        ruleset=RULESET.name,
                        ruleset_version=RULESET.version,
                        rule="troop_quality",
                        clause="RULES.md §2.3",
                        inputs={"unit": unit.name, "men": men},
                        dice=tuple(r.roll_index for r in rolls),
                        outcome={"quality": chosen},
                        explanation=f"{men} recruits for {unit.name}: 3d → {chosen}",
                    )
                )
            experience = tables.number(f"quality.{chosen}.experience_from")
            events.append(
                TroopsRecruited(unit_id=unit.unit_id, men=men, quality=chosen, experience=experience, cost=cost)
            )
            if cost:
                events.append(FundsChanged(side=unit.side, amount=-cost, reason=f"{men} recruits for {unit.name}"))
            return events

        return self.ledger.run(info, "mc.recruit", decide, table=table, command_id=command_id)

    @command("mc.month_end")
    def month_end(
        self,
        info: CampaignInfo,
        pay_pct: Mapping[str, int],
        *,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """The month ends: each side named pays upkeep and its units' pay at the given percentage (100 = in
        full, 150 or 200 = bonus pay, 0 = a missed payday, which costs Morale and calls for a Morale roll)."""
        state, tables = self.state(info)
        units = [u for u in state.units() if not u.disbanded and u.profile.men > 0]
        for side, pct in sorted(pay_pct.items()):  # a fixed order, however the mapping arrived
            mine = [u for u in units if u.side == side]
            if not mine:
                raise InvalidInputError(f"{side!r} has no units to pay")
            if pct < 0:
                raise InvalidInputError("pay cannot be negative")
            owed = sum(upkeep(tables, u.profile) + monthly_pay(tables, u.profile) * pct // 100 for u in mine)
            self._afford(state, side, owed, f"month {state.month} upkeep and pay")

        def decide(dice: Dice) -> list[Event]:
            events: list[Event] = []
            for side, pct in sorted(pay_pct.items()):  # a fixed order, however the mapping arrived
                spent = 0
                for u in (u for u in units if u.side == side):
                    charge = upkeep(tables, u.profile)
                    result = payday(tables, u.profile, u.pay, pct, day=state.day)
                    spent += charge + result.paid
                    events.append(
                        PaySettled(
                            unit_id=u.unit_id,
                            month=state.month,
                            due=result.due,
                            paid=result.paid,
                            penalty=result.state.penalty,
                            paid_streak=result.state.paid_streak,
                            bonus_morale=result.bonus_morale,
                            owed=result.state.owed,
                            unpaid_days=result.state.unpaid_days,
                        )
                    )
                    rolls = []
                    text = f"{u.name}: upkeep ${charge}; {result.explanation}"
                    outcome: dict[str, Any] = {"due": result.due, "paid": result.paid, "penalty": result.state.penalty}
                    if result.morale_roll_needed:
                        morale = (
                            base_morale(tables, u.profile.quality, irregular=u.profile.irregular)
                            + (leadership_modifier(tables, u.profile.leader_leadership))
                            + state.campaign_morale(replace(u, pay=result.state), tables, set())
                        )
                        roll = dice.roll(parse("3d"), f"Morale roll for missed pay, {u.name}")
                        rolls.append(roll)
                        made = roll.total <= morale
                        outcome["morale_roll"] = "made" if made else "failed"
                        text += f"; Morale roll {roll.total} vs {morale} → " + (
                            "the men grumble but stay" if made else "failed: trouble of the game master's choosing"
                        )
                    events.append(
                        RuleApplied(
                            ruleset=RULESET.name,
                            ruleset_version=RULESET.version,
                            rule="payday",
                            clause="RULES.md §2.11",
                            unit_id=u.unit_id,
                            inputs={"pay_pct": pct, "month": state.month},
                            dice=tuple(r.roll_index for r in rolls),
                            outcome=outcome,
                            explanation=text,
                        )
                    )
                if spent:
                    events.append(FundsChanged(side=side, amount=-spent, reason=f"month {state.month} upkeep and pay"))
            events.append(MonthEnded(month=state.month))
            return events

        return self.ledger.run(info, "mc.month_end", decide, table=table, command_id=command_id)

    @command("mc.pay")
    def pay(
        self,
        info: CampaignInfo,
        unit_name: str,
        pay_pct: int = 100,
        *,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """Pay one unit now (back pay, a bonus): a payday for that unit alone."""
        state, tables = self.state(info)
        unit = self._unit(state, unit_name)
        if pay_pct <= 0:
            raise InvalidInputError("paying a unit means paying it something: use month-end with 0 for a missed payday")
        result = payday(tables, unit.profile, unit.pay, pay_pct, day=state.day, on_payday=False)
        self._afford(state, unit.side, result.paid, f"paying {unit.name}")
        events: list[Event] = [
            PaySettled(
                unit_id=unit.unit_id,
                month=state.month,
                due=result.due,
                paid=result.paid,
                penalty=result.state.penalty,
                paid_streak=result.state.paid_streak,
                bonus_morale=result.bonus_morale,
                owed=result.state.owed,
                unpaid_days=result.state.unpaid_days,
            ),
            RuleApplied(
                ruleset=RULESET.name,
                ruleset_version=RULESET.version,
                rule="payday",
                clause="RULES.md §2.11",
                unit_id=unit.unit_id,
                inputs={"pay_pct": pay_pct, "month": state.month},
                outcome={"due": result.due, "paid": result.paid, "penalty": result.state.penalty},
                explanation=f"{unit.name}: {result.explanation}",
            ),
            FundsChanged(side=unit.side, amount=-result.paid, reason=f"pay for {unit.name}"),
        ]
        return self.ledger.run(info, "mc.pay", lambda _d: events, table=table, command_id=command_id)

    @command("mc.days")
    def pass_days(
        self,
        info: CampaignInfo,
        days: int,
        activity: str,
        *,
        side: str | None = None,
        magic_healing: bool = False,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """Days of rest or march: the wounded come back at (2+TL)% of the original unit a day of rest,
        2% a day of march, with 1d% more a day where magical healing is at hand."""
        state, tables = self.state(info)
        if days <= 0:
            raise InvalidInputError("time only moves forward: give a positive number of days")
        if activity not in ("rest", "march", "other"):
            raise InvalidInputError("days are spent in rest, march or other")
        units = [u for u in state.units() if not u.disbanded and u.wounded and (side is None or u.side == side)]

        def decide(dice: Dice) -> list[Event]:
            magic = dice.roll(parse("1d"), "magical healing rate (%)").total if magic_healing else 0
            events: list[Event] = [DaysPassed(days=days, activity=activity, side=side)]  # type: ignore[arg-type]
            for u in units:
                back = wounded_returning(
                    tables,
                    u.profile,
                    original_men=u.original_men,
                    wounded=u.wounded,
                    days=days,
                    activity=activity,
                    magic_pct=magic,
                )
                if back:
                    events.append(WoundedReturned(unit_id=u.unit_id, men=back))
            return events + decision_events(unpaid_day_rolls(tables, state, days, dice), None, RULESET)  # R2-19

        return self.ledger.run(info, "mc.days", decide, table=table, command_id=command_id)

    @command("mc.loot")
    def loot(self, info: CampaignInfo, battle_id: str, side: str, command_id: str | None = None) -> AppendResult:
        """Strip the enemy's fallen (§2.12): ⅓ of their raise cost, sold for 20%, halved for cavalry; the
        wounded too where the enemy routed. The side must have held the field."""
        state, tables = self.state(info)
        record = state.battles.get(battle_id)
        if record is None or record.result is None:
            raise InvalidInputError(f"no finished battle {battle_id!r}")
        if record.winner != side:
            raise InvalidInputError(f"{side} did not hold the field at {record.name}")
        events = list(self.ledger.store.read(info.campaign_id))
        fates = {
            e.payload["unit_id"]: e.payload["fate"]
            for e in events
            if e.type == "battle.unit_fate" and e.payload["battle_id"] == battle_id
        }
        total = 0
        for e in events:
            if e.type != "battle.casualties_taken" or e.payload["battle_id"] != battle_id:
                continue
            fallen = state.roster.get(e.payload["unit_id"])
            if fallen is None or fallen.side == side:
                continue
            men = e.payload["dead"] + (e.payload["wounded"] if fates.get(fallen.unit_id) == "routs" else 0)
            total += stripped_value(tables, fallen.profile, men)
        if any(e.type == "economy.funds_changed" and e.payload["reason"] == f"loot of {battle_id}" for e in events):
            raise InvalidInputError(f"the field of {record.name} has been stripped already")
        event = FundsChanged(side=side, amount=total, reason=f"loot of {battle_id}")
        return self._facts(info, "mc.loot", [event], command_id)

    @command("mc.morale")
    def morale_modifier(
        self,
        info: CampaignInfo,
        name: str,
        value: int,
        *,
        unit: str | None = None,
        side: str | None = None,
        until: str = "removed",
        command_id: str | None = None,
    ) -> AppendResult:
        """A persistent Morale modifier (hereditary enemy, home soil, spies, loot…); value 0 removes it."""
        state, _ = self.state(info)
        if (unit is None) == (side is None):
            raise InvalidInputError("a Morale modifier is for one unit (--unit) or a whole side (--side)")
        if until not in ("removed", "clear_victory", "year_end", "month_end"):
            raise InvalidInputError("until: removed, clear_victory, year_end or month_end")
        unit_id = self._unit(state, unit).unit_id if unit else None
        event = MoraleModifierSet(name=name, value=value, unit_id=unit_id, side=side, until=until)
        return self._facts(info, "mc.morale", [event], command_id)

    @command("mc.commander")
    def new_commander(
        self,
        info: CampaignInfo,
        unit_name: str,
        leadership: int | None = None,
        *,
        npc: bool = False,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """A new unit commander: quality drops one step (§2.3). An NPC's Leadership comes from the commander
        experience table (3d) when not given."""
        state, tables = self.state(info)
        unit = self._unit(state, unit_name)
        if leadership is not None and not 1 <= leadership <= 30:
            raise InvalidInputError("Leadership is a skill level from 1 to 30")

        def decide(dice: Dice) -> list[Event]:
            events: list[Event] = []
            skill = leadership
            if skill is None and npc:
                roll = dice.roll(parse("3d"), f"experience of {unit.name}'s new commander")
                level, skill = commander_skill(tables, roll.total)
                events.append(
                    RuleApplied(
                        ruleset=RULESET.name,
                        ruleset_version=RULESET.version,
                        rule="commander_experience",
                        clause="RULES.md §2.5",
                        unit_id=unit.unit_id,
                        inputs={},
                        dice=(roll.roll_index,),
                        outcome={"experience": level, "leadership": skill},
                        explanation=f"{unit.name}'s new commander: 3d {roll.total} → {level}, Leadership {skill}",
                    )
                )
            quality = quality_step_down(unit.profile.quality)
            events.append(
                UnitQualityChanged(
                    unit_id=unit.unit_id,
                    quality=quality,
                    experience=unit.profile.experience,
                    leader_leadership=skill,
                    reason=f"new commander: {unit.profile.quality} → {quality}",
                )
            )
            return events

        return self.ledger.run(info, "mc.commander", decide, table=table, command_id=command_id)

    @command("mc.train")
    def train(self, info: CampaignInfo, unit_name: str, months: int, command_id: str | None = None) -> AppendResult:
        state, tables = self.state(info)
        unit = self._unit(state, unit_name)
        if months <= 0:
            raise InvalidInputError("training takes a positive number of months")
        quality = trained_quality(tables, unit.profile.quality, months)
        if quality == unit.profile.quality:
            raise InvalidInputError(
                f"{unit.name} is {unit.profile.quality}: training alone makes troops no better than Green "
                f"(and takes {tables.number('training.green_months')} months)"
            )
        event = UnitQualityChanged(
            unit_id=unit.unit_id,
            quality=quality,
            experience=unit.profile.experience,
            reason=f"{months} months of training",
        )
        return self._facts(info, "mc.train", [event], command_id)

    @command("mc.treason")
    def treason(
        self, info: CampaignInfo, unit_name: str, *, table: TableEntry | None = None, command_id: str | None = None
    ) -> AppendResult:
        """Treason forces a Morale roll: failure −1 Morale, success +1, until a clear victory (§2.11)."""
        state, tables = self.state(info)
        unit = self._unit(state, unit_name)
        morale = (
            base_morale(tables, unit.profile.quality, irregular=unit.profile.irregular)
            + leadership_modifier(tables, unit.profile.leader_leadership)
            + state.campaign_morale(unit, tables, set())
        )

        def decide(dice: Dice) -> list[Event]:
            roll = dice.roll(parse("3d"), f"Morale roll after treason, {unit.name}")
            made = roll.total <= morale
            value = tables.number("treason.success" if made else "treason.fail")
            return [
                RuleApplied(
                    ruleset=RULESET.name,
                    ruleset_version=RULESET.version,
                    rule="treason",
                    clause="RULES.md §2.11",
                    unit_id=unit.unit_id,
                    inputs={"morale": morale},
                    dice=(roll.roll_index,),
                    outcome={"made": made, "modifier": value},
                    explanation=f"{unit.name} hears of treason: Morale {morale}, rolled {roll.total} → "
                    + ("angry and steadfast, +1" if made else "shaken, −1"),
                ),
                MoraleModifierSet(name="treason", value=value, unit_id=unit.unit_id, until="clear_victory"),
            ]

        return self.ledger.run(info, "mc.treason", decide, table=table, command_id=command_id)

    @command("mc.disband")
    def disband(self, info: CampaignInfo, unit_name: str, reason: str, command_id: str | None = None) -> AppendResult:
        state, _ = self.state(info)
        unit = self._unit(state, unit_name)
        event = UnitDisbanded(unit_id=unit.unit_id, reason=reason or "disbanded")
        return self._facts(info, "mc.disband", [event], command_id)

    @command("mc.transfer")
    def transfer(
        self, info: CampaignInfo, from_unit: str, to_unit: str, men: int, command_id: str | None = None
    ) -> AppendResult:
        """Fit men move to another unit of the same side and troop type; its experience is re-averaged."""
        state, _ = self.state(info)
        giver, receiver = self._unit(state, from_unit), self._unit(state, to_unit)
        self._check_transfer(giver, receiver, men, giver.fit, "fit men")
        if giver.profile.troop_type != receiver.profile.troop_type:
            raise InvalidInputError(
                f"{giver.name} are {giver.profile.troop_type or 'custom troops'} and {receiver.name} "
                f"{receiver.profile.troop_type or 'custom troops'}: men move only between units of one troop type"
            )
        event = MenTransferred(
            from_unit_id=giver.unit_id, to_unit_id=receiver.unit_id, men=men, experience=giver.profile.experience
        )
        return self._facts(info, "mc.transfer", [event], command_id)

    def _check_table_value(self, path: str, value: Value) -> None:
        super()._check_table_value(path, value)
        check_damage_value(path, value)

    @command("mc.house_rule")
    def house_rule(
        self, info: CampaignInfo, path: str, value: Value, note: str = "", command_id: str | None = None
    ) -> AppendResult:
        return self._house_rule(info, path, value, note, "mc.house_rule", command_id)
