"""The five-grade ruleset's commands (seed 000) on the roster, between battles and around a battle: each a typed
value with its pure decision. The morale rules played during a battle are in ``battle_commands``."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from campaign.rulesets.battles import DisbandUnit, being_fought, between_battles, started
from campaign.rulesets.battles import NextTurn as BaseNextTurn
from campaign.rulesets.command import Command, Phase, Situation
from campaign.rulesets.common import (
    EditUnit,
    MusterUnit,
    TransferMen,
    check_transfer,
    find_unit,
    known_side,
    new_unit,
    side_named,
)
from campaign.rulesets.common import HouseRule as BaseHouseRule
from campaign.rulesets.fighting_spirit import RULESET, start
from campaign.rulesets.fighting_spirit.profile import UnitProfile
from campaign.rulesets.fighting_spirit.state import BattleState, CampaignState
from campaign.rulesets.fighting_spirit.tables import MOTIVATIONS, Tables
from campaign.rulesets.inputs import (
    ARGUMENT,
    Called,
    NewBattle,
    OwnSide,
    OwnUnit,
    ProfileOf,
    SideName,
    Typed,
    UnitName,
    terms_listed,
)
from events.errors import InvalidInputError, Words
from events.families.battle import BattleEnded, UnitDeployed, WoundedAbandoned, WoundedChecked
from events.families.calendar import DaysPassed, MonthEnded, SideCondition
from events.families.economy import FundsChanged, PaySettled, TroopsRecruited
from events.families.roster import MenTransferred
from events.recorded import JsonValue
from events.registry import Event

MEN = 10_000
"""More men than any unit holds (a profile's size is at most 500; recruits and transfers add to it)."""
MONEY = 1_000_000_000_000
Activity = Literal["rest", "march", "forced_march", "front"]
Motivation = Literal["low", "medium", "high"]
Fatigue = Literal["fresh", "tired", "exhausted"]

At = Situation[CampaignState, Tables]


class FsCommand(Command[CampaignState, Tables]):
    """A five-grade command."""


class Deployment(BaseModel):
    """A unit on the table at a battle's start: its fatigue (→ its starting grade) and its position."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    unit: UnitName
    fatigue: Fatigue | None = None
    """fresh, tired or exhausted; None takes what the campaign record gives (RULES.md §5)."""
    in_cover: bool = False
    prone: bool = False
    start_grade: str | None = Field(default=None, max_length=20)
    """A scenario's start grade for this unit (R2-3), instead of its side's fatigue."""

    @classmethod
    def from_line(cls, line: str) -> dict[str, JsonValue]:
        """A deployment as typed on one line: ``UNIT[=FATIGUE][,cover][,prone][,start:GRADE]`` (UNIT alone, or
        ``UNIT=cover``: the fatigue the campaign record gives, §5)."""
        name, _, rest = (line if "=" in line else f"{line}=").rpartition("=")
        given = [p.strip() for p in rest.split(",") if p.strip()]
        if not name.strip():
            raise InvalidInputError.saying(
                "{line!r} does not name a unit: UNIT[=FATIGUE][,cover][,prone][,start:GRADE]", line=line
            )
        typed_fatigue = bool(given) and given[0] not in ("cover", "prone") and not given[0].startswith("start:")
        fatigue, parts = (given[0], given[1:]) if typed_fatigue else (None, given)
        starts = [p.removeprefix("start:") for p in parts if p.startswith("start:")]
        flags = {p for p in parts if not p.startswith("start:")}
        if flags - {"cover", "prone"}:
            raise InvalidInputError.saying(
                "{unit}: unknown flags: {flags}", unit=name.strip(), flags=", ".join(sorted(flags - {"cover", "prone"}))
            )
        return {
            "unit": name.strip(),
            "fatigue": fatigue,
            "in_cover": "cover" in flags,
            "prone": "prone" in flags,
            "start_grade": starts[0] if starts else None,
        }


def current_battle(state: CampaignState) -> BattleState:
    """The battle being fought; a clear refusal if there is none."""
    return being_fought(state, RULESET.prefix)


def _campaign_side(state: CampaignState, side: str) -> None:
    if side not in {u.side for u in state.roster.values()}:
        raise InvalidInputError.saying("no unit of this campaign fights for {side}", side=side)


# -- roster ----------------------------------------------------------------------------------------


class Muster(MusterUnit[CampaignState, Tables]):
    """Add a unit to the roster with its five-grade profile.

    Under its superior in the chain of command, if it has one."""

    name: ClassVar[str] = "fs.muster"

    side: Annotated[OwnSide, Field(description="The side it fights for.")]
    profile: Annotated[dict[str, JsonValue], ProfileOf(UnitProfile, "five-grade")]
    reports_to: UnitName | None = Field(default=None, description="Its superior in the chain of command.")

    def decide(self, s: At) -> list[Event]:
        state = s.state
        checked = new_unit(state, self.unit_name, self.side, UnitProfile, self.profile, "five-grade")
        parent = None
        if self.reports_to is not None:
            parent = find_unit(state, self.reports_to)
            if parent.side != self.side_in(state):
                raise InvalidInputError.saying(
                    "{unit} is on side {side!r}, not {other!r}", unit=parent.name, side=parent.side, other=self.side
                )
        return [self.mustered(s, checked, parent.unit_id if parent else None)]


class Recruit(FsCommand):
    """Replacements join a unit between battles (with no battles behind them).

    Its experience is re-averaged (§5)."""

    name: ClassVar[str] = "fs.recruit"
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]
    men: int = Field(ge=1, le=MEN)

    def decide(self, s: At) -> list[Event]:
        unit = find_unit(s.state, self.unit_name)
        between_battles(s.state, unit, Words("recruits join between battles"))
        return [TroopsRecruited(unit_id=unit.unit_id, men=self.men, quality="recruit", experience=0, cost=0)]


class Transfer(TransferMen[CampaignState, Tables]):
    """Men move from one unit to another of the same side between battles (experience re-averaged)."""

    name: ClassVar[str] = "fs.transfer"

    men: int = Field(ge=-MEN, le=MEN, description="How many men move.")
    """Its sign is checked by the decision, in the words every ruleset's transfer uses."""

    def decide(self, s: At) -> list[Event]:
        state = s.state
        giver, receiver = find_unit(state, self.from_unit), find_unit(state, self.to_unit)
        record = state.records[giver.unit_id]
        check_transfer(giver, receiver, self.men, record.men, "men")
        for u in (giver, receiver):
            between_battles(state, u, Words("men move between battles"))
        return [
            MenTransferred(
                from_unit_id=giver.unit_id, to_unit_id=receiver.unit_id, men=self.men, experience=record.experience
            )
        ]


class Disband(DisbandUnit[CampaignState, Tables]):
    """Disband a unit between battles: it is paid no more and fights no more.

    Its record stays."""

    name: ClassVar[str] = "fs.disband"

    reason: str = Field(default="disbanded", max_length=200)


class HouseRule(BaseHouseRule[CampaignState, Tables]):
    name: ClassVar[str] = "fs.house_rule"
    ruleset_name: ClassVar[str] = RULESET.name

    path: Annotated[str, ARGUMENT] = Field(
        min_length=1,
        max_length=200,
        description="Table path, as the tables name it, e.g. threats.unverified_casualty.low.",
    )


class Edit(EditUnit[CampaignState, Tables]):
    name: ClassVar[str] = "fs.edit"
    profile_model: ClassVar[type[BaseModel] | None] = UnitProfile


# -- a battle's course -------------------------------------------------------------------------------


class StartBattle(FsCommand):
    """Start a battle: each side's motivation, each unit's fatigue (→ its starting grade).

    And each unit's position (in cover, prone)."""

    name: ClassVar[str] = "fs.battle_start"
    phase: ClassVar[Phase] = Phase.BETWEEN
    rolls: ClassVar[bool] = False

    battle_name: Annotated[NewBattle, ARGUMENT] = Field(alias="name")
    motivation: Annotated[
        dict[SideName, Annotated[Motivation, Called("motivation")]], Typed(names=("--side",), form="SIDE=MOTIVATION")
    ] = Field(max_length=20, description="Each side's motivation (low, medium, high).")
    deployments: Annotated[
        tuple[Deployment, ...], Typed(names=("--unit",), form="UNIT[=FATIGUE][,cover][,prone][,start:GRADE]")
    ] = Field(
        max_length=500,
        description="Each unit deployed: the fatigue the campaign record gives unless another is given (one fatigue "
        "per side), in cover or prone, and a scenario's start grade.",
    )
    scenario: str = Field(default="", max_length=500)

    def decide(self, s: At) -> list[Event]:
        state, tables = s.state, s.tables
        if state.active_battle is not None:
            raise InvalidInputError.saying(
                "the battle {battle!r} is still being fought", battle=state.battles[state.active_battle].name
            )
        if not self.motivation:
            raise InvalidInputError.saying("a battle needs its sides, each with a motivation (e.g. --side Keno=low)")
        for side, level in self.motivation.items():
            if level not in MOTIVATIONS:
                raise InvalidInputError.saying(
                    "motivation of {side} must be one of {levels}, not {level!r}",
                    side=side,
                    levels=terms_listed("fighting-spirit", "motivation", MOTIVATIONS),
                    level=level,
                )
        if not self.deployments:
            raise InvalidInputError.saying("a battle needs units: --unit NAME=FATIGUE")
        # each side as the campaign spells it ("keno" is Keno), a side named twice so refused
        sides = {known_side(state, side): level for side, level in self.motivation.items()}
        if len(sides) < len(self.motivation):
            raise InvalidInputError.saying("a side is named twice (--side NAME=MOTIVATION once for each)")
        motivation: dict[str, dict[str, JsonValue]] = {side: {"motivation": m} for side, m in sides.items()}
        begun = started(s, self.battle_name, tuple(sides), motivation, self.scenario)
        battle_id = begun.battle_id
        events: list[Event] = [begun]
        campaign_sides = {u.side for u in state.roster.values()}
        strangers = sorted(set(sides) - campaign_sides)
        if strangers:
            raise InvalidInputError.saying("no unit of this campaign fights for {side}", side=", ".join(strangers))
        units = [find_unit(state, d.unit) for d in self.deployments]
        records = [state.fatigue(u.unit_id, tables) for u in units]
        stated = (d.fatigue for d in self.deployments)
        fatigues = start.side_fatigues(
            tables, [start.Deployed(*row) for row in zip(units, stated, records, strict=True)]
        )
        seen: set[str] = set()
        for d, unit in zip(self.deployments, units, strict=True):
            if unit.side not in sides:
                raise InvalidInputError.saying(
                    "{unit} fights for {side!r}, which is not a side of this battle", unit=unit.name, side=unit.side
                )
            if unit.unit_id in seen:
                raise InvalidInputError.saying("{unit} is deployed twice", unit=unit.name)
            seen.add(unit.unit_id)
            fatigue = fatigues[unit.unit_id]
            grade = start.start_grade(tables, unit, fatigue, d.start_grade)
            record = state.records.get(unit.unit_id)
            men = record.men if record is not None else unit.profile.size
            if men <= 0:
                raise InvalidInputError.saying("{unit} has no men left to deploy", unit=unit.name)
            events.append(
                UnitDeployed(
                    battle_id=battle_id,
                    unit_id=unit.unit_id,
                    side=unit.side,
                    men=men,
                    state={"fatigue": fatigue, "start_grade": grade, "in_cover": d.in_cover, "prone": d.prone},
                )
            )
        return events


class EndBattle(FsCommand):
    """End the battle being fought."""

    name: ClassVar[str] = "fs.battle_end"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    result: str = Field(max_length=500, description="What happened, e.g. 'Keno held the hill'.")
    winner: SideName | None = None

    def decide(self, s: At) -> list[Event]:
        battle = current_battle(s.state)
        winner = side_named(battle.sides, self.winner) if self.winner is not None else None
        return [BattleEnded(battle_id=battle.battle_id, result=self.result, winner=winner)]


class NextTurn(BaseNextTurn[CampaignState, Tables]):
    """Begin the next turn (each unit's one activation; failed actions may be tried again; rally and psi actions
    are counted afresh)."""

    name: ClassVar[str] = "fs.turn"
    phase: ClassVar[Phase] = Phase.BATTLE
    ruleset_prefix: ClassVar[str] = RULESET.prefix


class Activate(FsCommand):
    """A unit's one activation in the turn (R3-1)."""

    name: ClassVar[str] = "fs.activate"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]

    def decide(self, s: At) -> list[Event]:
        battle = current_battle(s.state)
        from campaign.rulesets.fighting_spirit.rules import activation

        return [activation(s.tables, battle, find_unit(s.state, self.unit_name))]


class Wounded(FsCommand):
    """Check unverified casualties, or record that the unit abandoned its wounded."""

    name: ClassVar[str] = "fs.wounded"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]
    checked: int | None = Field(default=None, ge=0, le=MEN, description="Wounded checked by a Reorganise action.")
    abandoned: bool = Field(default=False, description="The unit withdrew without its wounded.")

    def decide(self, s: At) -> list[Event]:
        battle = current_battle(s.state)
        unit = find_unit(s.state, self.unit_name)
        from campaign.rulesets.fighting_spirit.rules import active_unit, may_act

        us = active_unit(battle, unit)
        if self.abandoned == (self.checked is not None):
            raise InvalidInputError.saying("say either --checked N (a Reorganise action) or --abandoned")
        if self.checked is not None:
            may_act(s.tables, battle, unit, us, ("reorganise",), Words("check its wounded"))  # R3-2, R3-3
            if not 0 < self.checked <= us.unverified:
                raise InvalidInputError.counting(
                    "{unit} has {n} unverified casualty; cannot check {checked}",
                    "{unit} has {n} unverified casualties; cannot check {checked}",
                    unit=unit.name,
                    n=us.unverified,
                    checked=self.checked,
                )
            return [WoundedChecked(battle_id=battle.battle_id, unit_id=unit.unit_id, count=self.checked)]
        return [WoundedAbandoned(battle_id=battle.battle_id, unit_id=unit.unit_id)]


class Position(FsCommand):
    """Record a move into or out of cover, or going prone where no test is needed."""

    name: ClassVar[str] = "fs.position"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]
    prone: Annotated[bool | None, Typed(names=("--prone/--standing",))] = None
    in_cover: Annotated[bool | None, Typed(names=("--cover/--open",))] = None

    def decide(self, s: At) -> list[Event]:
        battle = current_battle(s.state)
        unit = find_unit(s.state, self.unit_name)
        from campaign.rulesets.fighting_spirit.pressure import position

        return [position(s.tables, battle, unit, prone=self.prone, in_cover=self.in_cover)]


# -- the campaign between battles (RULES.md §5) ------------------------------------------------------


class PassDays(FsCommand):
    """Days at rest, on the march (forced or not) or at the front: fatigue follows from them."""

    name: ClassVar[str] = "fs.days"
    phase: ClassVar[Phase] = Phase.BETWEEN
    rolls: ClassVar[bool] = False

    days: Annotated[int, ARGUMENT] = Field(ge=-36_500, le=36_500)
    """Its sign is checked by the decision, in the rules' words."""
    activity: Annotated[Activity, Typed(each=True, help="Days of {}: fatigue follows from the campaign record (§5).")]
    side: SideName | None = None

    def decide(self, s: At) -> list[Event]:
        if self.days <= 0:
            raise InvalidInputError.saying("time only moves forward: give a positive number of days")
        if s.state.active_battle is not None:
            raise InvalidInputError.saying("a battle is being fought: end it before days pass")
        if self.side is not None:
            _campaign_side(s.state, self.side)
        return [DaysPassed(days=self.days, activity=self.activity, side=self.side)]


class Condition(FsCommand):
    """A side runs out of supplies or is encircled (its units are exhausted), or no longer."""

    name: ClassVar[str] = "fs.condition"
    rolls: ClassVar[bool] = False

    side: Annotated[SideName, ARGUMENT]
    condition: Annotated[Literal["no_supplies", "encircled"], ARGUMENT, Field(description="no_supplies or encircled")]
    active: Annotated[bool, Typed(names=("--on/--off",))] = True

    def decide(self, s: At) -> list[Event]:
        _campaign_side(s.state, self.side)
        return [SideCondition(side=self.side, condition=self.condition, active=self.active)]


class Funds(FsCommand):
    """Money in or out of a side's treasury (optional pay rules).

    A treasury never goes below nothing."""

    name: ClassVar[str] = "fs.funds"
    rolls: ClassVar[bool] = False

    side: Annotated[SideName, ARGUMENT]
    amount: Annotated[int, ARGUMENT] = Field(ge=-MONEY, le=MONEY)
    reason: str = Field(max_length=200)

    def decide(self, s: At) -> list[Event]:
        # a side of the campaign (its units' or a treasury's), letter case aside; a misspelt one opened a treasury
        sides = {u.side for u in s.state.roster.values()} | set(s.state.treasury)
        side = side_named(sides, self.side, Words("a side of this campaign")) if sides else self.side.strip()
        held = s.state.treasury.get(side, 0)
        if self.amount < 0 and held < -self.amount:
            raise InvalidInputError.saying(
                "the treasury of {side} holds {held}; it cannot pay {pay}", side=side, held=held, pay=-self.amount
            )
        return [FundsChanged(side=side, amount=self.amount, reason=self.reason)]


class MonthEnd(FsCommand):
    """The month ends (the first month-end ends month 1); each side named pays its men (optional pay rules).

    The 002 pay rules switched on (§5): wages per man; a missed payday is owed."""

    name: ClassVar[str] = "fs.month_end"
    rolls: ClassVar[bool] = False

    pay_pct: Annotated[
        dict[SideName, Annotated[int, Field(ge=0, le=1_000), Called("percent paid")]],
        Typed(names=("--pay",), form="SIDE=PERCENT"),
    ] = Field(
        default_factory=dict,
        max_length=20,
        description="The percent of its pay each side gets (100 in full, 0 missed).",
    )

    def decide(self, s: At) -> list[Event]:
        state, tables = s.state, s.tables
        wage = int(tables.campaign.pay.monthly_per_man)
        events: list[Event] = []
        for side, pct in sorted(self.pay_pct.items()):  # a fixed order, however the mapping arrived
            units = [
                u for u in state.units() if u.side == side and not u.disbanded and state.records[u.unit_id].men > 0
            ]
            if not units:
                raise InvalidInputError.saying("no unit of this campaign fights for {side}", side=side)
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
                raise InvalidInputError.saying(
                    "the treasury of {side} holds {held}; the pay is {pay}",
                    side=side,
                    held=state.treasury.get(side, 0),
                    pay=total,
                )
            if total:
                events.append(FundsChanged(side=side, amount=-total, reason=f"pay, month {state.month}"))
        events.append(MonthEnded(month=state.month))
        return events


COMMANDS: tuple[type[Command[CampaignState, Tables]], ...] = (
    Muster,
    Recruit,
    Transfer,
    Disband,
    HouseRule,
    Edit,
    StartBattle,
    EndBattle,
    NextTurn,
    Activate,
    Wounded,
    Position,
    PassDays,
    Condition,
    Funds,
    MonthEnd,
)
