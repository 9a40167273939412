"""Grimdark Future's commands (seed 004): each a typed value with its pure decision.

A battle's wounds, melees and Shaken units end with it; its end rolls every casualty, counts each unit's XP
(and level-ups), and pays the mission rewards, which carry on through the campaign.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, ClassVar

from pydantic import Field

from campaign.rulesets.battles import DisbandUnit, being_fought, between_battles, deploying, on_table, started
from campaign.rulesets.command import Command, Phase, Situation
from campaign.rulesets.common import HouseRule as BaseHouseRule
from campaign.rulesets.common import MusterUnit, TransferMen, find_unit, new_unit, same_name, side_named
from campaign.rulesets.decision import Decision, decision_events
from campaign.rulesets.grimdark import RULESET
from campaign.rulesets.grimdark import rules as gf
from campaign.rulesets.grimdark.carried import carried_facts, carried_traits
from campaign.rulesets.grimdark.edit import Edit, check_profile
from campaign.rulesets.grimdark.profile import UnitProfile
from campaign.rulesets.grimdark.state import BattleState, CampaignState, RosterUnit
from campaign.rulesets.grimdark.tables import Tables
from campaign.rulesets.inputs import (
    ARGUMENT,
    UNTYPED,
    Called,
    EnemyUnit,
    NewBattle,
    OwnSide,
    OwnUnit,
    ProfileOf,
    SideName,
    TargetUnit,
    Typed,
    UnitName,
)
from events.errors import InvalidInputError, Words
from events.families.battle import BattleEnded, KillCredited, TurnBegan, UnitDeployed, UnitRemoved
from events.families.career import TraitGained, XpGained
from events.families.economy import FundsChanged, UnitDisbanded
from events.recorded import JsonValue, whole
from events.registry import Event

CASUALTY_REASONS = ("destroyed", "routed")

At = Situation[CampaignState, Tables]


class GfCommand(Command[CampaignState, Tables]):
    """A Grimdark Future command."""


def current_battle(state: CampaignState) -> BattleState:
    """The battle being fought; a clear refusal if there is none."""
    return being_fought(state, RULESET.prefix)


def fighting(state: CampaignState, name: str) -> gf.Unit:
    """A unit on the table in the battle being fought, as the rules read it."""
    battle, unit = on_table(state, name, RULESET.prefix)
    joined_to = battle.units[unit.unit_id].joined_to
    if joined_to is not None:
        host = state.roster[joined_to].name
        raise InvalidInputError.saying(
            "{unit} has joined {host}: its wounds, melees and tests are those of {host}", unit=unit.name, host=host
        )
    return state.in_battle(battle, unit.unit_id)


def ruled(state: CampaignState, battle: BattleState, decisions: Sequence[Decision]) -> list[Event]:
    """A rule's decisions on the battle being fought, with what they bring about (a joined hero shares its
    unit's fate), each as a ``rules.applied`` record followed by its facts."""
    return decision_events(_with_joined(state, battle, decisions), battle.battle_id, RULESET)


def checked_profile(
    state: CampaignState, tables: Tables, name: str, side: str, profile: dict[str, JsonValue]
) -> UnitProfile:
    checked = new_unit(state, name, side, UnitProfile, profile, "Grimdark Future")
    check_profile(tables, checked)
    return checked


# -- roster ----------------------------------------------------------------------------------------


class Muster(MusterUnit[CampaignState, Tables]):
    """Add a unit to the army sheet (a unit of a campaign begun elsewhere with its XP and traits).

    Its models, Quality, Tough, Fearless, hero or not, and its points (its cost as its sheet has it)."""

    name: ClassVar[str] = "gf.muster"

    side: Annotated[OwnSide, Field(description="The army it belongs to.")]
    profile: Annotated[dict[str, JsonValue], ProfileOf(UnitProfile, "Grimdark Future")]
    xp: int = Field(default=0, ge=0, le=10_000, description="XP it brings from a campaign begun elsewhere.")
    traits: Annotated[tuple[str, ...], Typed(names=("--trait",))] = Field(
        default=(), max_length=30, description="A trait it has already (Agile, Toughened …)."
    )

    def decide(self, s: At) -> list[Event]:
        side = self.side_in(s.state)
        profile = checked_profile(s.state, s.tables, self.unit_name, side, self.profile)
        traits = carried_traits(s.tables, self.unit_name, self.traits)
        mustered = self.mustered(s, profile)
        carried = carried_facts(mustered.unit_id, self.xp or None, traits, "brought to the campaign")
        return [mustered, *carried]


class Disband(DisbandUnit[CampaignState, Tables]):
    """Take a unit off the army sheet between matches."""

    name: ClassVar[str] = "gf.disband"

    reason: str = Field(default="sold", min_length=1, max_length=200)


class Buy(MusterUnit[CampaignState, Tables]):
    """Buy a unit with the army's campaign points (no army may exceed the lowest by more than 250 pts).

    RULES.md §4.2."""

    name: ClassVar[str] = "gf.buy"

    side: Annotated[OwnSide, Field(description="The army that pays with its campaign points.")]
    profile: Annotated[dict[str, JsonValue], ProfileOf(UnitProfile, "Grimdark Future")]

    def decide(self, s: At) -> list[Event]:
        state, tables = s.state, s.tables
        side = self.side_in(state)
        checked = checked_profile(state, tables, self.unit_name, side, self.profile)
        held = state.treasury.get(side, 0)
        if checked.points > held:
            raise InvalidInputError.saying(
                "{side} has {held} campaign points: {unit} costs {points}",
                side=side,
                held=held,
                unit=self.unit_name,
                points=checked.points,
            )
        values = state.army_values()
        problem = gf.army_cap_problem(tables, values, side, values.get(side, 0) + checked.points)
        if problem:
            raise InvalidInputError.saying(problem.template, **problem.params)
        return [
            self.mustered(s, checked),
            FundsChanged(side=side, amount=-checked.points, reason=f"bought {self.unit_name}"),
        ]


class Sell(GfCommand):
    """Sell a unit between matches: its points go back to the army's campaign points.

    As the tables refund them."""

    name: ClassVar[str] = "gf.sell"
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]

    def decide(self, s: At) -> list[Event]:
        unit = find_unit(s.state, self.unit_name)
        between_battles(s.state, unit, Words("end the battle first"))
        refund = unit.points * s.tables.army.sell_refund_pct // 100
        return [
            UnitDisbanded(unit_id=unit.unit_id, reason="sold"),
            FundsChanged(side=unit.side, amount=refund, reason=f"sold {unit.name}"),
        ]


class Transfer(TransferMen[CampaignState, Tables]):
    """Every ruleset's roster has a transfer; Grimdark Future's refuses it."""

    name: ClassVar[str] = "gf.transfer"
    listed: ClassVar[bool] = False

    men: int = Field(ge=1, le=1_000_000)

    def decide(self, s: At) -> list[Event]:
        raise InvalidInputError.saying("Grimdark Future units do not trade models: buy, sell or disband units instead")


class HouseRule(BaseHouseRule[CampaignState, Tables]):
    name: ClassVar[str] = "gf.house_rule"
    ruleset_name: ClassVar[str] = RULESET.name

    path: Annotated[str, ARGUMENT] = Field(
        min_length=1, max_length=200, description="Table path, as the tables name it, e.g. rewards.loser_points."
    )


# -- battles ---------------------------------------------------------------------------------------


class StartBattle(GfCommand):
    """Start a match with the units listed (their starting size is set now).

    ``joins`` (JOINER → UNIT) puts a hero into a unit of its side (+1 to its starting size), or combines two
    like units into one (their models summed; RULES.md O11). With ``special``, each side rolls its special
    objective (§4.2)."""

    name: ClassVar[str] = "gf.battle_start"
    phase: ClassVar[Phase] = Phase.BETWEEN
    rolls_with: ClassVar[str | None] = "special"
    schema_version: ClassVar[int] = 2

    battle_name: Annotated[NewBattle, ARGUMENT] = Field(alias="name")
    units: Annotated[tuple[UnitName, ...], Typed(names=("--unit",))] = Field(
        min_length=1, max_length=200, description="A unit on the table."
    )
    joins: Annotated[
        dict[Annotated[UnitName, Called("joining unit")], Annotated[UnitName, Called("joins unit")]],
        Typed(names=("--join",), form="JOINER=UNIT"),
    ] = Field(default_factory=dict, description="A hero joins a unit, or a like unit combines.")
    """Each joining unit (a hero, or a like unit) → the unit it joins."""
    special: bool = Field(default=False, description="Each side rolls a special objective.")
    hero_is_model: Annotated[bool, UNTYPED] = True
    """R2-32: a joined hero is one of its unit's models. A battle recorded before (version 1) keeps the first
    edition's reading, so that its later commands re-run as they were recorded."""

    def decide(self, s: At) -> list[Event]:
        state, tables = s.state, s.tables
        deployed, sides = deploying(state, self.battle_name, self.units)
        joined: dict[str, str] = {}
        for joiner_name, unit_name in planned_joins(state, deployed, self.joins):
            joiner, unit = find_unit(state, joiner_name), find_unit(state, unit_name)
            if joiner not in deployed or unit not in deployed:
                raise InvalidInputError.saying(
                    "{joiner} and {unit} must both be deployed to join", joiner=joiner.name, unit=unit.name
                )
            if joiner == unit or unit.profile.hero:
                raise InvalidInputError.saying(
                    "{joiner} cannot join {unit}: join a hero or a like unit to a unit",
                    joiner=joiner.name,
                    unit=unit.name,
                )
            if joiner.side != unit.side:
                raise InvalidInputError.saying(
                    "{joiner} fights for {side}, {unit} for {other}",
                    joiner=joiner.name,
                    side=joiner.side,
                    unit=unit.name,
                    other=unit.side,
                )
            if not joiner.profile.hero and (joiner.profile.quality, joiner.tough) != (unit.profile.quality, unit.tough):
                raise InvalidInputError.saying(
                    "only like units combine: {joiner} and {unit} differ", joiner=joiner.name, unit=unit.name
                )
            if unit.unit_id in joined or joiner.unit_id in joined.values():
                raise InvalidInputError.saying(
                    "{joiner} into {unit}: a unit joins once, into a unit not joined",
                    joiner=joiner.name,
                    unit=unit.name,
                )
            if any(state.roster[j].profile.hero == joiner.profile.hero for j, t in joined.items() if t == unit.unit_id):
                if joiner.profile.hero:
                    raise InvalidInputError.saying("{unit} already has a hero", unit=unit.name)
                raise InvalidInputError.saying("{unit} already has a twin", unit=unit.name)
            joined[joiner.unit_id] = unit.unit_id
        begun = started(s, self.battle_name, sides, {side: {} for side in sides})
        battle_id = begun.battle_id
        events: list[Event] = [begun]
        hero_adds = tables.morale.joined_hero_adds
        for u in deployed:
            joiners = [state.roster[j] for j, t in joined.items() if t == u.unit_id]
            twins = sum(j.profile.models for j in joiners if not j.profile.hero)
            start = u.profile.models + twins + sum(hero_adds for j in joiners if j.profile.hero)
            state_: dict[str, JsonValue] = {"start_size": start, "tough": u.tough, "quality": u.profile.quality}
            if u.unit_id in joined:
                state_["joined_to"] = joined[u.unit_id]
            if self.hero_is_model and any(j.profile.hero for j in joiners):
                state_["hero_is_model"] = True
            events.append(
                UnitDeployed(
                    battle_id=battle_id, unit_id=u.unit_id, side=u.side, men=u.profile.models + twins, state=state_
                )
            )
        if not self.special:
            return events
        rolled = gf.special_objectives(tables, sides, s.dice)
        return [*events, *decision_events([rolled], battle_id, RULESET)]


def planned_joins(
    state: CampaignState, deployed: Sequence[RosterUnit], joins: Mapping[str, str]
) -> list[tuple[str, str]]:
    """The joins of a battle's start: those given (JOINER → UNIT), and each deployed unit's standing join (a
    hero attached to its unit in the army list) when both are deployed and the joiner was given none."""
    planned = [
        (u.name, state.roster[u.joins].name)
        for u in deployed
        if u.joins is not None
        and any(t.unit_id == u.joins for t in deployed)
        and not any(same_name(u.name, given) for given in joins)
    ]
    return [*planned, *joins.items()]


class NextRound(GfCommand):
    """Begin the next turn (a round, in Grimdark's words)."""

    name: ClassVar[str] = "gf.round"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    def decide(self, s: At) -> list[Event]:
        battle = current_battle(s.state)
        return [TurnBegan(battle_id=battle.battle_id, turn=battle.round + 1)]


class Shoot(GfCommand):
    """Wounds outside melee; at half strength the unit tests at the end of the activation (Shaken on a fail).

    RULES.md §4.1 A. ``by``, the unit that shot, is in its own activation: a Shaken unit may not shoot (R3-25), a
    unit activates once a round (R3-26)."""

    name: ClassVar[str] = "gf.shoot"
    phase: ClassVar[Phase] = Phase.BATTLE

    unit_name: Annotated[OwnUnit, ARGUMENT]
    wounds: int = Field(ge=0, le=10_000, description="Unblocked wounds it took in this activation.")
    by: EnemyUnit | None = Field(
        default=None, description="The unit that shot, in its activation (for XP); not a Shaken unit."
    )
    """Its activation is spent and it is credited: another side's unit is that side's or the GM's to name."""
    models_lost: int | None = Field(
        default=None, ge=0, le=10_000, description="Models killed, when the wounds were allocated otherwise."
    )

    def decide(self, s: At) -> list[Event]:
        battle = current_battle(s.state)
        target = fighting(s.state, self.unit_name)
        shooter = fighting(s.state, self.by) if self.by is not None else None
        if shooter is not None and shooter.side == target.side:
            raise InvalidInputError.saying(
                "{unit} and {other} fight for the same side", unit=shooter.name, other=target.name
            )
        began = gf.acting(s.tables, battle, shooter, "shooting") if shooter is not None else []
        decided = gf.shot(
            s.tables, target, s.dice, battle.battle_id, wounds=self.wounds, by=shooter, models_lost=self.models_lost
        )
        return ruled(s.state, battle, [*began, *decided])


class Melee(GfCommand):
    """A melee: the side that caused fewer unblocked wounds tests; a fail at half strength Routs.

    RULES.md §4.1 B. Both units are acted on: the wounds each deals set what happens to the other. ``charger``, A
    or B, is the unit whose activation it is: a Shaken unit may not charge, only strike back (R3-25)."""

    name: ClassVar[str] = "gf.melee"
    phase: ClassVar[Phase] = Phase.BATTLE

    # The titles are what the page labels these inputs (their recorded names, a and b, are no words); the
    # descriptions are the help of both the page and the command line.
    a: Annotated[TargetUnit, ARGUMENT] = Field(title="unit A", description="One of the two units in the melee (A).")
    b: Annotated[TargetUnit, ARGUMENT] = Field(title="unit B", description="The other unit in the melee (B).")
    wounds_by_a: Annotated[int, Typed(names=("--a-wounds",))] = Field(
        ge=0, le=10_000, title="wounds caused by unit A", description="Unblocked wounds unit A caused."
    )
    wounds_by_b: Annotated[int, Typed(names=("--b-wounds",))] = Field(
        ge=0, le=10_000, title="wounds caused by unit B", description="Unblocked wounds unit B caused."
    )
    a_lost: int | None = Field(
        default=None,
        ge=0,
        le=10_000,
        title="models unit A lost",
        description="Models unit A lost, if the wounds were allocated otherwise.",
    )
    b_lost: int | None = Field(
        default=None,
        ge=0,
        le=10_000,
        title="models unit B lost",
        description="Models unit B lost, if the wounds were allocated otherwise.",
    )
    charger: TargetUnit | None = Field(
        default=None,
        title="the unit that charged",
        description="Unit A or B, in its activation (a Shaken unit may not charge); the other strikes back.",
    )

    def decide(self, s: At) -> list[Event]:
        battle = current_battle(s.state)
        first, second = fighting(s.state, self.a), fighting(s.state, self.b)
        began: list[Decision] = []
        if self.charger is not None:
            charging = next((u for u in (first, second) if same_name(u.name, self.charger)), None)
            if charging is None:
                raise InvalidInputError.saying(
                    "the charger is one of the two in the melee, {unit} or {other}", unit=first.name, other=second.name
                )
            began = gf.acting(s.tables, battle, charging, "charging")
        decided = gf.melee(s.tables, first, second, s.dice, battle.battle_id, **self.keywords("a", "b", "charger"))
        return ruled(s.state, battle, [*began, *decided])


class Recover(GfCommand):
    """A Shaken unit's next activation, spent idle: it is no longer Shaken (not in a round it has activated in).

    It stops being Shaken at that activation's end (R3-26)."""

    name: ClassVar[str] = "gf.recover"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]

    def decide(self, s: At) -> list[Event]:
        battle = current_battle(s.state)
        unit = fighting(s.state, self.unit_name)
        return ruled(s.state, battle, gf.recovery(s.tables, battle, unit))


class Activate(GfCommand):
    """A unit's activation with nothing else to record (it holds, advances or rushes); once a round.

    A unit activates once a round (R3-26). Not a Shaken unit's: that one is spent idle, and `recover` records it
    (R3-25)."""

    name: ClassVar[str] = "gf.activate"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]

    def decide(self, s: At) -> list[Event]:
        battle = current_battle(s.state)
        unit = fighting(s.state, self.unit_name)
        if unit.shaken:
            raise InvalidInputError.saying(
                "{unit} is Shaken: it neither holds, moves nor shoots; its next activation is spent idle, and it "
                "recovers at its end (`gf recover {unit}`)",
                unit=unit.name,
            )
        if battle.activating(unit.unit_id):
            raise InvalidInputError.saying("{unit} is activating already: its activation goes on", unit=unit.name)
        return ruled(s.state, battle, [gf.activation(s.tables, battle, unit, "holds, advances or rushes")])


class Remove(GfCommand):
    """Remove a unit from the table (destroyed or routed makes it a casualty).

    Who did it is credited."""

    name: ClassVar[str] = "gf.remove"
    phase: ClassVar[Phase] = Phase.BATTLE
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]
    reason: str = Field(max_length=200, description="destroyed, routed, or another reason.")
    by: EnemyUnit | None = Field(default=None, description="The unit that destroyed or routed it (for XP).")
    """Credited with the kill (its XP): another side's unit is that side's or the GM's to name."""

    def decide(self, s: At) -> list[Event]:
        if not self.reason.strip():
            raise InvalidInputError.saying("say why the unit is removed (destroyed, routed, or another reason)")
        battle = current_battle(s.state)
        unit = fighting(s.state, self.unit_name)
        killer = fighting(s.state, self.by) if self.by is not None else None
        facts: list[Event] = [UnitRemoved(battle_id=battle.battle_id, unit_id=unit.unit_id, reason=self.reason)]
        if killer is not None:
            if killer.side == unit.side:
                raise InvalidInputError.saying(
                    "{unit} and {other} fight for the same side", unit=killer.name, other=unit.name
                )
            facts.append(
                KillCredited(
                    battle_id=battle.battle_id, unit_id=killer.unit_id, victim_id=unit.unit_id, victim_hero=unit.hero
                )
            )
        text = f"{unit.name} is removed: {self.reason}" + (f" (by {killer.name})" if killer else "")
        decision = Decision(
            "unit_removed",
            "§4.1",
            unit.unit_id,
            {"reason": self.reason, "by": killer.unit_id if killer else None},
            {"removed": True},
            text,
            tuple(facts),
        )
        return ruled(s.state, battle, [decision])


class EndBattle(GfCommand):
    """End the match: casualty rolls, XP and level-ups, mission rewards (VP and campaign points).

    RULES.md §4.2; and the special objectives achieved (``special_achieved``: the sides). Shaken ends with it."""

    name: ClassVar[str] = "gf.battle_end"
    phase: ClassVar[Phase] = Phase.BATTLE

    winner: SideName | None = Field(default=None, description="The winning army; leave out for a draw.")
    special_achieved: tuple[SideName, ...] = Field(
        default=(), description="A side that achieved its special objective."
    )

    def decide(self, s: At) -> list[Event]:
        state, tables, dice = s.state, s.tables, s.dice
        battle = current_battle(state)
        winner = side_named(battle.sides, self.winner) if self.winner is not None else None
        for side in self.special_achieved:
            if side not in battle.special:
                raise InvalidInputError.saying("{side!r} had no special objective in this battle", side=side)
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
                gained += whole(xp.outcome["xp"])
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
            gf.special_bonus(tables, side, battle.special[side]) for side in dict.fromkeys(self.special_achieved)
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
        return ruled(state, battle, decisions)


COMMANDS: tuple[type[Command[CampaignState, Tables]], ...] = (
    Muster,
    Disband,
    Buy,
    Sell,
    Transfer,
    HouseRule,
    Edit,
    StartBattle,
    NextRound,
    Shoot,
    Melee,
    Recover,
    Activate,
    Remove,
    EndBattle,
)


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
