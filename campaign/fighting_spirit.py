"""Commands of the five-grade ruleset: load the campaign's state, run a pure rule with the campaign's dice,
append the rule application and the facts it caused."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from campaign.commands import command
from campaign.executor import TableEntry
from campaign.ruleset_service import TableBattles
from campaign.rulesets import RULESETS
from campaign.rulesets import fighting_spirit as fs
from campaign.rulesets.decision import Decision
from campaign.rulesets.fighting_spirit.profile import UnitProfile
from campaign.rulesets.fighting_spirit.state import BattleState, CampaignState
from campaign.rulesets.fighting_spirit.tables import MOTIVATIONS, Tables
from campaign.rulesets.tables import Value
from events.dice import Dice, die
from events.errors import InvalidInputError
from events.families.battle import (
    BattleEnded,
    BattleStarted,
    PositionChanged,
    TurnBegan,
    UnitActivated,
    UnitDeployed,
    WoundedAbandoned,
    WoundedChecked,
)
from events.families.calendar import DaysPassed, MonthEnded, SideCondition
from events.families.economy import FundsChanged, PaySettled, TroopsRecruited, UnitDisbanded
from events.families.roster import MenTransferred, UnitMustered
from events.registry import Event
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

RULESET = RULESETS["fighting-spirit"]


@dataclass(frozen=True)
class Deployment:
    unit: str
    fatigue: str | None = None
    """FRESH, TIRED or EXHAUSTED; None takes what the campaign record gives (RULES.md §5)."""
    in_cover: bool = False
    prone: bool = False


class FightingSpirit(TableBattles):
    ruleset = RULESET
    cli = "fs"

    # -- state ---------------------------------------------------------------------------------------

    tables_type = Tables

    def state(self, info: CampaignInfo, at_seq: int | None = None) -> tuple[CampaignState, Tables]:
        """The campaign as it stands (or stood at ``at_seq``), and the tables in force then."""
        state, tables = self._in_force(info, at_seq)
        return state, tables

    # -- roster and battles ----------------------------------------------------------------------------

    @command("fs.muster")
    def muster(
        self,
        info: CampaignInfo,
        name: str,
        side: str,
        profile: dict[str, object],
        reports_to: str | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        state, _ = self.state(info)
        checked = self._new_unit(state, name, side, UnitProfile, profile, "five-grade")
        parent = None
        if reports_to is not None:
            parent = self.unit(state, reports_to)
            if parent.side != side:
                raise InvalidInputError(f"{parent.name} is on side {parent.side!r}, not {side!r}")
        event = UnitMustered(
            unit_id=self.ledger.new_id(),
            name=name,
            side=side,
            profile=checked.model_dump(mode="json"),
            reports_to=parent.unit_id if parent else None,
        )
        return self._facts(info, "fs.muster", [event], command_id)

    @command("fs.battle_start", deployments=lambda ds: [Deployment(**d) for d in ds])
    def start_battle(
        self,
        info: CampaignInfo,
        name: str,
        motivation: dict[str, str],
        deployments: Sequence[Deployment],
        scenario: str = "",
        command_id: str | None = None,
    ) -> AppendResult:
        state, tables = self.state(info)
        if state.active_battle is not None:
            raise InvalidInputError(f"the battle {state.battles[state.active_battle].name!r} is still being fought")
        if not motivation:
            raise InvalidInputError("a battle needs its sides, each with a motivation (e.g. --side Keno=low)")
        for side, level in motivation.items():
            if level not in MOTIVATIONS:
                raise InvalidInputError(f"motivation of {side} must be one of {', '.join(MOTIVATIONS)}, not {level!r}")
        if not deployments:
            raise InvalidInputError("a battle needs units: --unit NAME=FATIGUE")
        battle_id = self.ledger.new_id()
        events: list[Event] = [
            BattleStarted(
                battle_id=battle_id,
                name=name,
                scenario=scenario,
                sides=tuple(motivation),
                settings={side: {"motivation": level} for side, level in motivation.items()},
            )
        ]
        campaign_sides = {u.side for u in state.roster.values()}
        strangers = sorted(set(motivation) - campaign_sides)
        if strangers:
            raise InvalidInputError(f"no unit of this campaign fights for {', '.join(strangers)}")
        seen: set[str] = set()
        for d in deployments:
            unit = self.unit(state, d.unit)
            if unit.side not in motivation:
                raise InvalidInputError(f"{unit.name} fights for {unit.side!r}, which is not a side of this battle")
            if unit.unit_id in seen:
                raise InvalidInputError(f"{unit.name} is deployed twice")
            seen.add(unit.unit_id)
            fatigue = d.fatigue or state.fatigue(unit.unit_id, tables)
            start = tables.start_grade(fatigue)
            record = state.records.get(unit.unit_id)
            men = record.men if record is not None else unit.profile.size
            if men <= 0:
                raise InvalidInputError(f"{unit.name} has no men left to deploy")
            events.append(
                UnitDeployed(
                    battle_id=battle_id,
                    unit_id=unit.unit_id,
                    side=unit.side,
                    men=men,
                    state={"fatigue": fatigue, "start_grade": start, "in_cover": d.in_cover, "prone": d.prone},
                )
            )
        return self._facts(info, "fs.battle_start", events, command_id)

    @command("fs.battle_end")
    def end_battle(
        self, info: CampaignInfo, result: str, winner: str | None, command_id: str | None = None
    ) -> AppendResult:
        state, _ = self.state(info)
        battle = self.current_battle(state)
        if winner is not None and winner not in battle.sides:
            raise InvalidInputError(f"{winner!r} is not a side of this battle ({', '.join(battle.sides)})")
        return self._facts(
            info, "fs.battle_end", [BattleEnded(battle_id=battle.battle_id, result=result, winner=winner)], command_id
        )

    @command("fs.turn")
    def next_turn(self, info: CampaignInfo, command_id: str | None = None) -> AppendResult:
        battle = self.current_battle(self.state(info)[0])
        return self._facts(info, "fs.turn", [TurnBegan(battle_id=battle.battle_id, turn=battle.turn + 1)], command_id)

    @command("fs.activate")
    def activate(self, info: CampaignInfo, unit_name: str, command_id: str | None = None) -> AppendResult:
        state, _ = self.state(info)
        battle = self.current_battle(state)
        unit = self.unit(state, unit_name)
        fs.active_unit(battle, unit)
        event = UnitActivated(battle_id=battle.battle_id, unit_id=unit.unit_id, turn=battle.turn)
        return self._facts(info, "fs.activate", [event], command_id)

    @command("fs.wounded")
    def wounded(
        self, info: CampaignInfo, unit_name: str, *, checked: int | None, abandoned: bool, command_id: str | None = None
    ) -> AppendResult:
        state, _ = self.state(info)
        battle = self.current_battle(state)
        unit = self.unit(state, unit_name)
        us = fs.active_unit(battle, unit)
        if abandoned == (checked is not None):
            raise InvalidInputError("say either --checked N (a Reorganise action) or --abandoned")
        if checked is not None:
            if not 0 < checked <= us.unverified:
                raise InvalidInputError(
                    f"{unit.name} has {us.unverified} unverified casualties; cannot check {checked}"
                )
            event: Event = WoundedChecked(battle_id=battle.battle_id, unit_id=unit.unit_id, count=checked)
        else:
            event = WoundedAbandoned(battle_id=battle.battle_id, unit_id=unit.unit_id)
        return self._facts(info, "fs.wounded", [event], command_id)

    @command("fs.position")
    def position(
        self,
        info: CampaignInfo,
        unit_name: str,
        *,
        prone: bool | None,
        in_cover: bool | None,
        command_id: str | None = None,
    ) -> AppendResult:
        state, _ = self.state(info)
        battle = self.current_battle(state)
        unit = self.unit(state, unit_name)
        fs.active_unit(battle, unit)
        if prone is None and in_cover is None:
            raise InvalidInputError("say what changed: --prone/--standing, --cover/--open")
        event = PositionChanged(battle_id=battle.battle_id, unit_id=unit.unit_id, prone=prone, in_cover=in_cover)
        return self._facts(info, "fs.position", [event], command_id)

    @command("fs.house_rule")
    def house_rule(
        self, info: CampaignInfo, path: str, value: Value, note: str = "", command_id: str | None = None
    ) -> AppendResult:
        return self._house_rule(info, path, value, note, "fs.house_rule", command_id)

    # -- the campaign between battles (RULES.md §5) ------------------------------------------------------

    @command("fs.days")
    def pass_days(
        self, info: CampaignInfo, days: int, activity: str, side: str | None = None, command_id: str | None = None
    ) -> AppendResult:
        """Days at rest, on the march (forced or not) or at the front: fatigue follows from them."""
        state, _ = self.state(info)
        if days <= 0:
            raise InvalidInputError("time only moves forward: give a positive number of days")
        if activity not in ("rest", "march", "forced_march", "front"):
            raise InvalidInputError("days are spent in rest, march, forced_march or front")
        if state.active_battle is not None:
            raise InvalidInputError("a battle is being fought: end it before days pass")
        if side is not None and side not in {u.side for u in state.roster.values()}:
            raise InvalidInputError(f"no unit of this campaign fights for {side}")
        event = DaysPassed(days=days, activity=activity, side=side)  # type: ignore[arg-type]
        return self._facts(info, "fs.days", [event], command_id)

    @command("fs.condition")
    def condition(
        self, info: CampaignInfo, side: str, condition: str, active: bool, command_id: str | None = None
    ) -> AppendResult:
        state, _ = self.state(info)
        if side not in {u.side for u in state.roster.values()}:
            raise InvalidInputError(f"no unit of this campaign fights for {side}")
        if condition not in ("no_supplies", "encircled"):
            raise InvalidInputError("a side's condition is no_supplies or encircled")
        event = SideCondition(side=side, condition=condition, active=active)  # type: ignore[arg-type]
        return self._facts(info, "fs.condition", [event], command_id)

    @command("fs.recruit")
    def recruit(self, info: CampaignInfo, unit_name: str, men: int, command_id: str | None = None) -> AppendResult:
        """Replacements join a unit with no battles behind them (its experience is re-averaged, §5)."""
        state, _ = self.state(info)
        unit = self.unit(state, unit_name)
        if men <= 0:
            raise InvalidInputError("recruit at least one man")
        if state.active_battle is not None and unit.unit_id in state.battles[state.active_battle].units:
            raise InvalidInputError(f"{unit.name} is in the battle being fought: recruits join between battles")
        event = TroopsRecruited(unit_id=unit.unit_id, men=men, quality="recruit", experience=0, cost=0)
        return self._facts(info, "fs.recruit", [event], command_id)

    @command("fs.transfer")
    def transfer(
        self, info: CampaignInfo, from_unit: str, to_unit: str, men: int, command_id: str | None = None
    ) -> AppendResult:
        """Men move to another unit of the same side between battles; its experience is re-averaged (§5)."""
        state, _ = self.state(info)
        giver, receiver = self.unit(state, from_unit), self.unit(state, to_unit)
        record = state.records[giver.unit_id]
        self._check_transfer(giver, receiver, men, record.men, "men")
        if state.active_battle is not None:
            fighting = state.battles[state.active_battle].units
            for u in (giver, receiver):
                if u.unit_id in fighting:
                    raise InvalidInputError(f"{u.name} is in the battle being fought: men move between battles")
        event = MenTransferred(
            from_unit_id=giver.unit_id, to_unit_id=receiver.unit_id, men=men, experience=record.experience
        )
        return self._facts(info, "fs.transfer", [event], command_id)

    @command("fs.disband")
    def disband(self, info: CampaignInfo, unit_name: str, reason: str, command_id: str | None = None) -> AppendResult:
        """A unit leaves the campaign between battles: it is paid no more and fights no more (its record stays)."""
        state, _ = self.state(info)
        unit = self.unit(state, unit_name)
        if state.active_battle is not None and unit.unit_id in state.battles[state.active_battle].units:
            raise InvalidInputError(f"{unit.name} is in the battle being fought: end the battle first")
        event = UnitDisbanded(unit_id=unit.unit_id, reason=reason or "disbanded")
        return self._facts(info, "fs.disband", [event], command_id)

    @command("fs.funds")
    def funds(
        self, info: CampaignInfo, side: str, amount: int, reason: str, command_id: str | None = None
    ) -> AppendResult:
        state, _ = self.state(info)
        if amount < 0 and state.treasury.get(side, 0) < -amount:
            raise InvalidInputError(f"{side}'s treasury holds {state.treasury.get(side, 0)}; it cannot pay {-amount}")
        return self._facts(info, "fs.funds", [FundsChanged(side=side, amount=amount, reason=reason)], command_id)

    @command("fs.month_end")
    def month_end(self, info: CampaignInfo, pay_pct: dict[str, int], command_id: str | None = None) -> AppendResult:
        """Optional pay (the 002 pay rules switched on, §5): wages per man; a missed payday is owed."""
        state, tables = self.state(info)
        wage = int(tables.value("campaign.pay.monthly_per_man"))
        events: list[Event] = []
        for side, pct in sorted(pay_pct.items()):  # a fixed order, however the mapping arrived
            if pct < 0:
                raise InvalidInputError("pay cannot be negative")
            units = [
                u for u in state.units() if u.side == side and not u.disbanded and state.records[u.unit_id].men > 0
            ]
            if not units:
                raise InvalidInputError(f"no unit of this campaign fights for {side}")
            total = 0
            for u in units:
                due = wage * state.records[u.unit_id].men
                paid = due * pct // 100
                total += paid
                events.append(
                    PaySettled(
                        unit_id=u.unit_id,
                        month=state.month,
                        due=due,
                        paid=paid,
                        penalty=0,
                        paid_streak=0,
                        bonus_morale=0,
                    )
                )
            if total > state.treasury.get(side, 0):
                raise InvalidInputError(f"{side}'s treasury holds {state.treasury.get(side, 0)}; the pay is {total}")
            if total:
                events.append(FundsChanged(side=side, amount=-total, reason=f"pay, month {state.month}"))
        events.append(MonthEnded(month=state.month))
        return self._facts(info, "fs.month_end", events, command_id)

    # -- rules ------------------------------------------------------------------------------------------

    @command("fs.attack")
    def attack(
        self,
        info: CampaignInfo,
        unit_name: str,
        *,
        killed: int,
        wounded: int,
        suppressing: bool = False,
        artillery: bool = False,
        leader_hit: bool = False,
        enemy_within: int | None = None,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        return self._rule(
            info,
            "fs.attack",
            lambda s, t, b, d: fs.attack(
                t,
                b,
                self.unit(s, unit_name),
                d,
                killed=killed,
                wounded=wounded,
                suppressing=suppressing,
                artillery=artillery,
                leader_hit=leader_hit,
                enemy_within=enemy_within,
            ),
            table,
            command_id,
        )

    @command("fs.morale")
    def morale(
        self,
        info: CampaignInfo,
        unit_name: str,
        rows: Sequence[str],
        *,
        enemy_within: int | None = None,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        if not rows:
            raise InvalidInputError("name the threat row(s) that call for the test, e.g. --threat leader_lost")
        return self._rule(
            info,
            "fs.morale",
            lambda s, t, b, d: [
                fs.morale_test(t, b, self.unit(s, unit_name), d, rows, enemy_within=enemy_within, cause="declared")
            ],
            table,
            command_id,
        )

    @command("fs.rally")
    def rally(
        self,
        info: CampaignInfo,
        unit_name: str,
        officer_name: str,
        *,
        distance: int,
        in_sight: bool,
        under_artillery: bool = False,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        return self._rule(
            info,
            "fs.rally",
            lambda s, t, b, d: [
                fs.rally(
                    s,
                    t,
                    b,
                    self.unit(s, officer_name),
                    self.unit(s, unit_name),
                    d,
                    distance=distance,
                    in_sight=in_sight,
                    under_artillery=under_artillery,
                )
            ],
            table,
            command_id,
        )

    @command("fs.react")
    def react(
        self,
        info: CampaignInfo,
        unit_name: str,
        action: str,
        *,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        return self._rule(
            info,
            "fs.react",
            lambda s, t, b, d: [fs.reaction_test(t, b, self.unit(s, unit_name), d, action)],
            table,
            command_id,
        )

    @command("fs.panic")
    def panic(
        self,
        info: CampaignInfo,
        unit_name: str,
        trigger: str | None,
        *,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        return self._rule(
            info,
            "fs.panic",
            lambda s, t, b, d: [fs.panic_test(t, b, self.unit(s, unit_name), d, trigger)],
            table,
            command_id,
        )

    @command("fs.last_stand")
    def last_stand(
        self,
        info: CampaignInfo,
        unit_name: str,
        *,
        friends_within_12: int,
        enemy_squads_in_sight: int,
        enemy_within: int | None = None,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        return self._rule(
            info,
            "fs.last_stand",
            lambda s, t, b, d: [
                fs.last_stand(
                    t,
                    b,
                    self.unit(s, unit_name),
                    d,
                    friends_within_12=friends_within_12,
                    enemy_squads_in_sight=enemy_squads_in_sight,
                    enemy_within=enemy_within,
                )
            ],
            table,
            command_id,
        )

    @command("fs.last_stand_end")
    def end_last_stand(
        self, info: CampaignInfo, unit_name: str, reason: str, command_id: str | None = None
    ) -> AppendResult:
        return self._rule(
            info,
            "fs.last_stand_end",
            lambda s, t, b, _d: [fs.end_last_stand(t, b, self.unit(s, unit_name), reason)],
            None,
            command_id,
        )

    @command("fs.surrender")
    def surrender(
        self, info: CampaignInfo, unit_name: str, enemy_within: int, command_id: str | None = None
    ) -> AppendResult:
        return self._rule(
            info,
            "fs.surrender",
            lambda s, t, b, _d: [fs.surrender_check(t, b, self.unit(s, unit_name), enemy_within)],
            None,
            command_id,
        )

    @command("fs.psi")
    def psi(
        self,
        info: CampaignInfo,
        psion_name: str,
        target_name: str,
        *,
        effect: str,
        distance: int,
        in_sight: bool,
        blast_choice: str = "grades",
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        return self._rule(
            info,
            "fs.psi",
            lambda s, t, b, d: fs.psi(
                s,
                t,
                b,
                self.unit(s, psion_name),
                self.unit(s, target_name),
                d,
                effect=effect,
                distance=distance,
                in_sight=in_sight,
                blast_choice=blast_choice,
            ),
            table,
            command_id,
        )

    @command("fs.defence")
    def defence(
        self, info: CampaignInfo, unit_name: str, *, table: TableEntry | None = None, command_id: str | None = None
    ) -> AppendResult:
        def decide(s: CampaignState, t: Tables, b: BattleState, d: Dice) -> list[Decision]:
            unit = self.unit(s, unit_name)
            fs.active_unit(b, unit)
            sides = fs.defence_die(t, unit)
            roll = d.roll(die(sides), f"defence of {unit.name} against aimed small arms")
            which = "psi die" if unit.profile.psi_rank is not None else "d4"
            return [
                Decision(
                    "defence",
                    "§0.10",
                    unit.unit_id,
                    {"die": sides},
                    {"roll": roll.total},
                    f"{unit.name} defends against aimed small arms with its {which} (d{sides}): rolled {roll.total}",
                    (),
                    (roll,),
                )
            ]

        return self._rule(info, "fs.defence", decide, table, command_id)
