"""GURPS Mass Combat's commands of money and time (§2.11–2.12): funds, month's end and pay, days of rest or
march, the loot of a field, treason. Each a typed value with its pure decision."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Annotated, ClassVar, Literal

from pydantic import Field

from campaign.rulesets.command import Command
from campaign.rulesets.common import did_you_mean, find_unit, known_side
from campaign.rulesets.decision import Decision, decision_events
from campaign.rulesets.inputs import ARGUMENT, BattleName, Called, OwnUnit, SideName, Typed
from campaign.rulesets.mass_combat import RULESET
from campaign.rulesets.mass_combat import state as mc_state
from campaign.rulesets.mass_combat.arrears import unpaid_day_rolls
from campaign.rulesets.mass_combat.commands import At, McCommand, afford
from campaign.rulesets.mass_combat.economy import (
    Payday,
    magic_healing_reaches,
    monthly_pay,
    payday,
    upkeep,
    wounded_returning,
)
from campaign.rulesets.mass_combat.lasting import loot
from campaign.rulesets.mass_combat.quality import base_morale, leadership_modifier
from campaign.rulesets.mass_combat.tables import Tables
from events.dice import Roll, parse
from events.errors import InvalidInputError, Words
from events.families.calendar import DaysPassed, MonthEnded, WoundedReturned
from events.families.economy import FundsChanged, MoraleModifierSet, PaySettled
from events.recorded import JsonValue
from events.registry import Event


def _payday(
    unit: mc_state.Unit,
    pct: int,
    month: int,
    result: Payday,
    text: str,
    rolls: tuple[Roll, ...] = (),
    *,
    upkeep: int | None = None,
    morale: int | None = None,
    **more: str,
) -> Decision:
    """A unit's payday (§2.11): the pay settled, then its record (the order every log holds). A bonus for next
    month already earned (bonus pay between paydays) stands unless this payday earns more."""
    pending = unit.bonus_morale if unit.bonus_month == month + 1 else 0
    settled = PaySettled(
        unit_id=unit.unit_id,
        month=month,
        due=result.due,
        paid=result.paid,
        penalty=result.state.penalty,
        paid_streak=result.state.paid_streak,
        bonus_morale=max(result.bonus_morale, pending),
        owed=result.state.owed,
        unpaid_days=result.state.unpaid_days,
    )
    outcome: dict[str, JsonValue] = {"due": result.due, "paid": result.paid, "penalty": result.state.penalty, **more}
    # what the sentence states besides (the ruleset's said.py): verify compares outcomes, never inputs
    said = {**result.said, "upkeep": upkeep, **({"morale": morale} if morale is not None else {})}
    inputs = {"pay_pct": pct, "month": month, **said}
    return Decision("payday", "§2.11", unit.unit_id, inputs, outcome, text, rolls=rolls, leading=(settled,))


class Funds(McCommand):
    """Money in (a purse, ransom, plunder) or out (negative); a treasury never goes below nothing."""

    name: ClassVar[str] = "mc.funds"
    rolls: ClassVar[bool] = False

    side: Annotated[SideName, ARGUMENT]
    amount: Annotated[int, ARGUMENT] = Field(ge=-1_000_000_000, le=1_000_000_000)
    reason: str = Field(max_length=200)

    def decide(self, s: At) -> list[Event]:
        side = known_side(s.state, self.side)  # as the campaign spells it
        if not self.reason.strip():
            raise InvalidInputError.saying("say what the money is for")
        if self.amount < 0:
            afford(s.state, side, -self.amount, self.reason)
        return [FundsChanged(side=side, amount=self.amount, reason=self.reason)]


class MonthEnd(McCommand):
    """End the month: upkeep and pay for each side named.

    Each side pays its units at the given percentage (100 = in full, 150 or 200 = bonus pay, 0 = a missed
    payday, which costs Morale and calls for a Morale roll)."""

    name: ClassVar[str] = "mc.month_end"

    pay_pct: Annotated[
        dict[SideName, Annotated[int, Called("percent paid")]], Typed(names=("--pay",), form="SIDE=PERCENT")
    ] = Field(description="The percent of its pay each side gets: 100 in full, 150/200 bonus, 0 missed.")

    def decide(self, s: At) -> list[Event]:
        state, tables = s.state, s.tables
        units = [u for u in state.units() if not u.disbanded and u.profile.men > 0]
        for side, pct in sorted(self.pay_pct.items()):  # a fixed order, however the mapping arrived
            mine = [u for u in units if u.side == side]
            if not mine:
                raise InvalidInputError.saying("{side!r} has no units to pay", side=side)
            if pct < 0:
                raise InvalidInputError.saying("pay cannot be negative")
            owed = sum(upkeep(tables, u.profile) + monthly_pay(tables, u.profile) * pct // 100 for u in mine)
            # words only: the month counted from 1
            afford(state, side, owed, Words("month {month}'s upkeep and pay", month=state.month + 1))

        events: list[Event] = []
        for side, pct in sorted(self.pay_pct.items()):  # a fixed order, however the mapping arrived
            spent = 0
            decided: list[Decision] = []
            for u in (u for u in units if u.side == side):
                charge = upkeep(tables, u.profile)
                result = payday(tables, u.profile, u.pay, pct, day=state.day)
                spent += charge + result.paid
                text = f"{u.name}: upkeep ${charge}; {result.explanation}"
                if not result.morale_roll_needed:
                    decided.append(_payday(u, pct, state.month, result, text, upkeep=charge))
                    continue
                morale = (
                    base_morale(tables, u.profile.quality, irregular=u.profile.irregular)
                    + (leadership_modifier(tables, u.profile.leader_leadership))
                    + state.campaign_morale(replace(u, pay=result.state), tables, set())
                )
                roll = s.dice.roll(parse("3d"), f"Morale roll for missed pay, {u.name}", side=u.side)
                made = roll.total <= morale
                text += f"; Morale roll {roll.total} vs {morale} → " + (
                    "the men grumble but stay" if made else "failed: trouble of the game master's choosing"
                )
                roll_outcome = "made" if made else "failed"
                decided.append(
                    _payday(
                        u,
                        pct,
                        state.month,
                        result,
                        text,
                        (roll,),
                        upkeep=charge,
                        morale=morale,
                        morale_roll=roll_outcome,
                    )
                )
            events.extend(decision_events(decided, None, RULESET))
            if spent:
                # Recorded text, counted from 0 as logs since the first hold it: changed, the same command re-run
                # on its dice (verify, amend) would record other words than it did. Read "month 0" as the first.
                events.append(FundsChanged(side=side, amount=-spent, reason=f"month {state.month} upkeep and pay"))
        events.append(MonthEnded(month=state.month))
        return events


class Pay(McCommand):
    """Pay one unit now (back pay, or a bonus).

    A payday for that unit alone."""

    name: ClassVar[str] = "mc.pay"
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]
    pay_pct: Annotated[int, Typed(names=("--pct",))] = Field(default=100, ge=-1_000_000_000, le=1_000_000_000)

    def decide(self, s: At) -> list[Event]:
        state, pay_pct = s.state, self.pay_pct
        unit = find_unit(state, self.unit_name)
        if pay_pct <= 0:
            raise InvalidInputError.saying(
                "paying a unit means paying it something: use month-end with 0 for a missed payday"
            )
        result = payday(s.tables, unit.profile, unit.pay, pay_pct, day=state.day, on_payday=False)
        afford(state, unit.side, result.paid, Words("paying {unit}", unit=unit.name))
        paid = _payday(unit, pay_pct, state.month, result, f"{unit.name}: {result.explanation}")
        return [
            *decision_events([paid], None, RULESET),
            FundsChanged(side=unit.side, amount=-result.paid, reason=f"pay for {unit.name}"),
        ]


class Days(McCommand):
    """Days of rest or march: the wounded come back at (2+TL)% of the original unit a day of rest,
    2% a day of march, with 1d% more a day where magical healing is at hand."""

    name: ClassVar[str] = "mc.days"

    days: Annotated[int, ARGUMENT] = Field(ge=-1_000_000_000, le=1_000_000_000)
    activity: Annotated[
        Literal["rest", "march", "other"],
        Typed(
            each=True,
            only=("rest", "march"),
            help="Days of {}: the wounded come back ((2+TL)% a day of rest, 2% of march).",
        ),
    ]
    side: SideName | None = None
    magic_healing: bool = Field(default=False, description="Healers at hand: +1d% a day.")
    healers: int | None = Field(default=None, ge=0, le=1_000_000, description="How many: 1 per 10 wounded.")
    """The healers at hand: the magic reaches the wounded only with one per ``healing.magic_healers_per_wounded``."""

    def decide(self, s: At) -> list[Event]:
        days = self.days
        activity = self.activity
        side = self.side
        magic_healing = self.magic_healing
        dice = s.dice
        state, tables = s.state, s.tables
        if days <= 0:
            raise InvalidInputError.saying("time only moves forward: give a positive number of days")
        if activity not in ("rest", "march", "other"):
            raise InvalidInputError.saying("days are spent in rest, march or other")
        units = [u for u in state.units() if not u.disbanded and u.wounded and (side is None or u.side == side)]

        magic_healing = magic_healing and magic_healing_reaches(tables, self.healers, sum(u.wounded for u in units))
        magic = dice.roll(parse("1d"), "magical healing rate (%)", side=side).total if magic_healing else 0
        events: list[Event] = [DaysPassed(days=days, activity=activity, side=side)]
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


class Loot(McCommand):
    """Strip the enemy's fallen after a battle (⅓ of their cost, sold for 20%, halved for cavalry).

    RULES.md §2.12: ⅓ of their raise cost, sold for 20%; the wounded too where the enemy routed. The side
    must have held the field; a field is stripped once."""

    name: ClassVar[str] = "mc.loot"
    schema_version: ClassVar[int] = 2
    records_since: ClassVar[Mapping[str, int]] = MappingProxyType({"loot": 2})
    rolls: ClassVar[bool] = False

    battle_id: Annotated[BattleName, ARGUMENT, Field(description="The battle: its name or number.")]
    side: SideName = Field(description="The side that held the field.")

    def decide(self, s: At) -> list[Event]:
        state, tables = s.state, s.tables
        record = state.battle_named(self.battle_id)
        if record is None or record.result is None:
            hint = did_you_mean(self.battle_id, [b.name for b in state.battles.values() if b.result is not None])
            raise InvalidInputError.saying(
                "no finished battle {battle!r} (a name or a number){hint}", battle=self.battle_id, hint=hint
            )
        if record.winner != self.side:
            raise InvalidInputError.saying(
                "{side} did not hold the field at {battle}", side=self.side, battle=record.name
            )
        if record.looted:
            raise InvalidInputError.saying("the field of {battle} has been stripped already", battle=record.name)
        return decision_events([loot(tables, state, record, self.side)], record.battle_id, RULESET)


class Treason(McCommand):
    """Treason forces a Morale roll: failure −1, success +1, until a clear victory.

    RULES.md §2.11."""

    name: ClassVar[str] = "mc.treason"

    unit_name: Annotated[OwnUnit, ARGUMENT]

    def decide(self, s: At) -> list[Event]:
        state, tables = s.state, s.tables
        unit = find_unit(state, self.unit_name)
        morale = (
            base_morale(tables, unit.profile.quality, irregular=unit.profile.irregular)
            + leadership_modifier(tables, unit.profile.leader_leadership)
            + state.campaign_morale(unit, tables, set())
        )

        roll = s.dice.roll(parse("3d"), f"Morale roll after treason, {unit.name}", side=unit.side)
        made = roll.total <= morale
        value = tables.treason.success if made else tables.treason.fail
        treason = Decision(
            "treason",
            "§2.11",
            unit.unit_id,
            {"morale": morale},
            {"made": made, "modifier": value},
            f"{unit.name} hears of treason: Morale {morale}, rolled {roll.total} → "
            + ("angry and steadfast, +1" if made else "shaken, −1"),
            (MoraleModifierSet(name="treason", value=value, unit_id=unit.unit_id, until="clear_victory"),),
            (roll,),
        )
        return decision_events([treason], None, RULESET)


COMMANDS: tuple[type[Command[mc_state.CampaignState, Tables]], ...] = (Funds, MonthEnd, Pay, Days, Loot, Treason)
