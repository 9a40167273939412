"""GURPS Mass Combat's commands (seed 002): each a typed value with its pure decision."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Annotated, ClassVar, Literal

from pydantic import Field, ValidationError

from campaign.rulesets.command import Command, EnteredBy, Situation
from campaign.rulesets.common import HouseRule as BaseHouseRule
from campaign.rulesets.common import (
    check_new_battle,
    check_officers_apart,
    check_transfer,
    find_unit,
    known_side,
    new_unit,
)
from campaign.rulesets.decision import Decision, decision_events
from campaign.rulesets.inputs import (
    ARGUMENT,
    UNTYPED,
    BattleName,
    Name,
    NewUnit,
    OwnSide,
    OwnUnit,
    ProfileOf,
    Typed,
    said_problems,
)
from campaign.rulesets.mass_combat import RULESET
from campaign.rulesets.mass_combat import battle as mc_battle
from campaign.rulesets.mass_combat import state as mc_state
from campaign.rulesets.mass_combat.economy import (
    recruitment_cost,
)
from campaign.rulesets.mass_combat.edit import Edit
from campaign.rulesets.mass_combat.lasting import lasting_effects
from campaign.rulesets.mass_combat.profile import Quality, UnitProfile, check_manned
from campaign.rulesets.mass_combat.quality import (
    commander_skill,
    experience_rows,
    experience_words,
    needs_reroll,
    quality_from_roll,
    quality_step_down,
    settle_experience,
    trained_quality,
    training,
)
from campaign.rulesets.mass_combat.setup import BattleSetup
from campaign.rulesets.mass_combat.strength import troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from events.dice import Dice, ReplayDice, Roll, parse
from events.envelope import RecordedEvent
from events.errors import InvalidInputError, Term, Words
from events.families.battle import BattleStarted
from events.families.career import CasualtiesTaken
from events.families.dice import DiceRolled
from events.families.economy import FundsChanged, MoraleModifierSet, TroopsRecruited, UnitDisbanded
from events.families.roster import MenTransferred, UnitMustered, UnitProfileChanged, UnitQualityChanged
from events.recorded import JsonValue, obj, text, whole
from events.registry import Event, registry

At = Situation[mc_state.CampaignState, Tables]


class McCommand(Command[mc_state.CampaignState, Tables]):
    """A Mass Combat command."""


def afford(state: mc_state.CampaignState, side: str, amount: int, what: str | Words) -> None:
    """Refuse spending ``amount`` that ``side``'s treasury does not hold; ``what`` says what it pays for."""
    balance = state.treasury.get(side, 0)
    if amount > balance:
        raise InvalidInputError.saying(
            "the treasury of {side} holds ${balance:,}; it cannot cover {what} (${amount:,})",
            side=side,
            balance=balance,
            what=what,
            amount=amount,
        )


def parse_setup(data: Mapping[str, object]) -> BattleSetup:
    try:
        return BattleSetup.model_validate(data)
    except ValidationError as exc:
        raise InvalidInputError.saying(
            "not a valid battle set-up: {problems}", problems=said_problems(exc.errors(), Words("battle"))
        ) from None


def _roll_quality(
    tables: Tables, dice: Dice, purpose: str, *, new_unit: bool, replacements: int, side: str
) -> tuple[str, list[Roll]]:
    """The 3d quality table (§2.3), rerolling Veterans and Elite for a new unit or more than 10 recruits."""
    rolls: list[Roll] = []
    while True:
        roll = dice.roll(parse("3d"), purpose, side=side)
        rolls.append(roll)
        quality = quality_from_roll(tables, roll.total)
        if not needs_reroll(tables, quality, new_unit=new_unit, replacements=replacements):
            return quality, rolls


def _checked_profile(
    s: At, name: str, side: str, profile: Mapping[str, JsonValue], *, raised: bool
) -> tuple[UnitProfile, list[Decision]]:
    """A new unit's profile, its experience settled from its quality where not given (R2-12), its quality from its
    experience; with neither, its quality rolled on the 3d table, Veterans and Elite rolled again for a unit
    ``raised`` new (R3-23), and the record of that roll."""
    settled = settle_experience(s.tables, profile)
    if "quality" in settled or "experience" in settled:
        return new_unit(s.state, name, side, UnitProfile, settled, "Mass Combat"), []
    new_unit(s.state, name, side, UnitProfile, settled, "Mass Combat")  # refused before any die is rolled
    quality, rolls = _roll_quality(
        s.tables, s.dice, f"troop quality of {name}", new_unit=raised, replacements=0, side=side
    )
    settled |= {"quality": quality, "experience": s.tables.quality_row(quality).experience_from}
    rolled = ", ".join(str(r.total) for r in rolls)
    again = " (Veterans and Elite rerolled for a new unit)" if len(rolls) > 1 else ""
    text = f"{name}: neither a quality nor an experience given: 3d rolled {rolled} → {quality}{again} (R3-23)"
    return new_unit(s.state, name, side, UnitProfile, settled, "Mass Combat"), [
        _troop_quality({"unit": name}, quality, rolls, text)
    ]


def _troop_quality(inputs: Mapping[str, JsonValue], quality: str, rolls: Sequence[Roll], text: str) -> Decision:
    """The record of a quality rolled on the 3d table (§2.3)."""
    return Decision("troop_quality", "§2.3", None, inputs, {"quality": quality}, text, rolls=tuple(rolls))


def _army_json(unit: mc_battle.ArmyUnit) -> dict[str, JsonValue]:
    return {
        "unit_id": unit.unit_id,
        "name": unit.name,
        "side": unit.side,
        "profile": unit.profile.model_dump(mode="json"),
        "campaign_morale": unit.campaign_morale,
    }


def replay_battle_day(
    tables: Tables, record: RecordedEvent, command: Sequence[RecordedEvent]
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Re-run the battle day recorded by ``record`` (its ``battle_day`` rule application) on the dice its command
    rolled (``command``: that command's events), with ``tables`` as they were in force then.

    Returns (recorded, recomputed) outcomes of every step; equal unless the engine changed since.
    """
    inputs = obj(record.payload["inputs"])
    roster = {
        n: mc_battle.ArmyUnit(
            text(u["unit_id"]),
            text(u["name"]),
            text(u["side"]),
            UnitProfile.model_validate(u["profile"]),
            whole(u["campaign_morale"]),
        )
        for n, u in ((n, obj(u)) for n, u in obj(inputs["roster"]).items())
    }
    rolled = [registry.decode(e) for e in command if e.type == "dice.rolled"]
    dice = ReplayDice([r for r in rolled if isinstance(r, DiceRolled)])
    setup = parse_setup(obj(inputs["setup"]))
    reputations = {str(k): whole(v) for k, v in obj(inputs.get("reputation", {})).items()}
    decisions = mc_battle.resolve_battle(
        tables, setup, roster, str(record.payload["battle_id"]), dice, reputations=reputations
    )
    recomputed: list[dict[str, object]] = [{"rule": d.rule, "outcome": dict(d.outcome)} for d in decisions]
    recorded: list[dict[str, object]] = [
        {"rule": e.payload["rule"], "outcome": dict(obj(e.payload["outcome"]))}
        for e in command
        if e.type == "rules.applied" and e.payload["rule"] not in ("battle_day", "same_enemy_this_year")
    ]
    return recorded, recomputed


Profile = Annotated[dict[str, JsonValue], ProfileOf(UnitProfile, "Mass Combat")]


class Muster(McCommand):
    """Add a unit to the roster (no cost: it was already serving; with neither a quality nor an experience, its
    quality is rolled on 3d). Raise pays for a new one.

    Rolled on the 3d table (R3-23)."""

    name: ClassVar[str] = "mc.muster"

    unit_name: Annotated[NewUnit, ARGUMENT] = Field(alias="name")
    side: OwnSide
    profile: Profile

    def decide(self, s: At) -> list[Event]:
        side = known_side(s.state, self.side)  # as the campaign spells it
        troop_strength(s.tables, _provisional(s, self.unit_name, side, self.profile))  # unknown weapons refused
        checked, decided = _checked_profile(s, self.unit_name, side, self.profile, raised=False)
        return [
            *decision_events(decided, None, RULESET),
            UnitMustered(unit_id=s.new_id(), name=self.unit_name, side=side, profile=checked.model_dump(mode="json")),
        ]


def _provisional(s: At, name: str, side: str, profile: Mapping[str, JsonValue]) -> UnitProfile:
    """The profile as checked before any quality is rolled (its weapons, men and name): Average if unstated."""
    settled = settle_experience(s.tables, profile)
    provisional = new_unit(s.state, name, side, UnitProfile, {"quality": "average", **settled}, "Mass Combat")
    check_manned(provisional)
    return provisional


class Battle(McCommand):
    """Resolve a battle day: catastrophes, the Strategy contest, Morale, casualties, PCs' Survival and Glory.

    A battle over several days passes the first day's ``battle_id`` again."""

    name: ClassVar[str] = "mc.battle"
    schema_version: ClassVar[int] = 2
    records_since: ClassVar[Mapping[str, int]] = MappingProxyType({"same_enemy_this_year": 2})

    setup: BattleSetup
    battle_id: Annotated[BattleName | None, Typed(names=("--continue",))] = Field(
        default=None, description="The battle (its name or number): another day of it."
    )
    final_day: Annotated[bool, Typed(names=("--more-days",), inverse=True)] = Field(
        default=True, description="The battle goes on tomorrow."
    )

    def decide(self, s: At) -> list[Event]:
        battle_id = self.battle_id
        state, tables = s.state, s.tables
        if battle_id is None:
            if state.open_battle is not None:
                raise InvalidInputError.saying(
                    "a battle is still being fought over several days: continue it with its id"
                )
            check_new_battle(self.setup.name, [b.name for b in state.battles.values()])
            battle_id = s.new_id()
        else:  # its id, or (as a person types it) its name or number
            going = state.battle_named(battle_id)
            if going is None or going.battle_id != state.open_battle:
                raise InvalidInputError.saying("no battle {battle!r} is being fought", battle=battle_id)
            battle_id = going.battle_id
        check_officers_apart(self, state.careers)
        sides = {s.name for s in self.setup.sides}
        for listed in (u.unit for side in self.setup.sides for u in side.units):
            known = state.unit_by_name(listed)
            if known is not None and known.disbanded:
                raise InvalidInputError.saying(
                    "{unit} is no longer in service ({reason})", unit=known.name, reason=known.disbanded
                )
            if known is not None and known.fit + known.profile.crew <= 0:  # a crew fights with its objects
                raise InvalidInputError.saying(
                    "{unit} has no men fit to fight (its wounded have not returned)", unit=known.name
                )
        roster: dict[str, mc_battle.ArmyUnit] = {}
        for unit in state.roster.values():
            if unit.fit + unit.profile.crew <= 0 or unit.disbanded:
                continue
            fit = unit.profile.model_copy(update={"men": unit.fit})
            enemies = sides - {unit.side}
            roster[unit.name] = mc_battle.ArmyUnit(
                unit.unit_id, unit.name, unit.side, fit, state.campaign_morale(unit, tables, enemies)
            )

        started = BattleStarted(
            battle_id=battle_id,
            name=self.setup.name,
            scenario=f"day {self.setup.day}",
            sides=tuple(s.name for s in self.setup.sides),
            settings={s.name: {"role": s.role, "strategy": s.commander.strategy, "tl": s.tl} for s in self.setup.sides},
        )
        # R3-15: high command's reaction rolls read each PC's Reputation with this battle's change
        reputations = {pc.name: state.reputation(pc.name) for pc in self.setup.pcs if state.reputation(pc.name)}
        decisions = mc_battle.resolve_battle(tables, self.setup, roster, battle_id, s.dice, reputations=reputations)
        if self.final_day:
            decisions = _with_experience(tables, state, battle_id, decisions)
        # The whole set-up goes in the log: any battle day can be re-run on its recorded dice.
        day = Decision(
            "battle_day",
            "§2.8–2.12",
            None,
            {
                "setup": self.setup.model_dump(mode="json"),
                "final_day": self.final_day,
                "roster": {n: _army_json(u) for n, u in roster.items()},
                **({"reputation": dict(reputations)} if reputations else {}),
            },
            {"decisions": len(decisions)},
            f"{self.setup.name}, day {self.setup.day}: {len(decisions)} steps resolved",
            leading=(started,),
        )
        events = [
            *decision_events([day, *decisions], battle_id, RULESET),
            *lasting_effects(tables, decisions, self.setup, self.final_day),
        ]
        if not self.final_day:
            events = [
                e.model_copy(update={"result": "continues", "winner": None}) if e.event_name == "battle.ended" else e
                for e in events
            ]
        return events


def _with_experience(
    tables: Tables, state: mc_state.CampaignState, battle_id: str, decisions: list[Decision]
) -> list[Decision]:
    """The battle's last line says what its end does to each unit that fought on any of its days (§2.3): one
    battle more of experience, and the quality (and base Morale) that follows. The words only: the fold does it."""
    fought = {f.unit_id for d in decisions for f in d.facts if isinstance(f, CasualtiesTaken)}
    fought |= {u.unit_id for u in state.roster.values() if battle_id in u.fought_in}
    rows = experience_rows(tables, [(u.name, u.profile) for u in state.roster.values() if u.unit_id in fought])
    words = experience_words(rows)
    # the rows, as the sentence states them (the ruleset's said.py); verify compares outcomes, never inputs
    said: dict[str, JsonValue] = {"experience_said": bool(words), "experience": list(rows)}
    return [
        replace(d, explanation=d.explanation + words, inputs={**d.inputs, **said}) if d.rule == "battle_end" else d
        for d in decisions
    ]


class Raise(McCommand):
    """Raise a new unit and pay its recruitment cost from the side's treasury.

    With ``random_quality`` the 3d quality table decides, rerolling Veterans and Elite (new units can't be
    raised as such)."""

    name: ClassVar[str] = "mc.raise"

    unit_name: Annotated[NewUnit, ARGUMENT] = Field(alias="name")
    side: OwnSide
    profile: Profile
    pay: Annotated[bool, UNTYPED] = True
    random_quality: bool = Field(default=False, description="Roll 3d on the quality table.")

    def decide(self, s: At) -> list[Event]:
        side = known_side(s.state, self.side)  # as the campaign spells it
        tables = s.tables
        provisional = _provisional(s, self.unit_name, side, self.profile)
        cost = recruitment_cost(tables, provisional) * provisional.men if self.pay else 0
        if self.pay:
            afford(s.state, side, cost, Words("raising {unit}", unit=self.unit_name))

        if self.random_quality:
            quality, rolls = _roll_quality(
                tables, s.dice, f"troop quality of {self.unit_name}", new_unit=True, replacements=0, side=side
            )
            experience = tables.quality_row(quality).experience_from
            final = provisional.model_copy(update={"quality": quality, "experience": experience})
            rolled = ", ".join(str(r.total) for r in rolls)
            rerolled = " (Veterans and Elite rerolled for a new unit)" if len(rolls) > 1 else ""
            text = f"{self.unit_name} quality: 3d rolled {rolled} → {quality}{rerolled}"
            decided = [_troop_quality({"unit": self.unit_name}, quality, rolls, text)]
        else:  # with neither a quality nor an experience, rolled all the same (R3-23)
            final, decided = _checked_profile(s, self.unit_name, side, self.profile, raised=True)
        events = [
            *decision_events(decided, None, RULESET),
            UnitMustered(unit_id=s.new_id(), name=self.unit_name, side=side, profile=final.model_dump(mode="json")),
        ]
        if cost:
            events.append(FundsChanged(side=side, amount=-cost, reason=f"raising {self.unit_name}: {final.men} men"))
        return events


class Recruit(McCommand):
    """Replacements join a unit (experience re-averaged; quality rolled when not given).

    At their quality's lower bound of experience. Without a quality, the 3d table decides, rerolling Veterans
    and Elite when more than 10 join."""

    name: ClassVar[str] = "mc.recruit"

    unit_name: Annotated[OwnUnit, ARGUMENT]
    men: int = Field(ge=-1_000_000_000, le=1_000_000_000, description="How many men join.")
    quality: Quality | None = None
    pay: Annotated[bool, Typed(names=("--free",), inverse=True)] = Field(
        default=True, description="Conscripts or volunteers: nothing is paid."
    )

    def decide(self, s: At) -> list[Event]:
        tables = s.tables
        unit = find_unit(s.state, self.unit_name)
        if self.men <= 0:
            raise InvalidInputError.saying("recruit at least one man")
        cost = recruitment_cost(tables, unit.profile) * self.men if self.pay else 0
        what = f"{self.men} recruits for {unit.name}"  # the log's reason: recorded in English
        if self.pay:
            afford(
                s.state,
                unit.side,
                cost,
                Words.counted("{n} recruit for {unit}", "{n} recruits for {unit}", n=self.men, unit=unit.name),
            )

        chosen: str | None = self.quality
        decided: list[Decision] = []
        if chosen is None:
            chosen, rolls = _roll_quality(
                tables, s.dice, f"quality of {what}", new_unit=False, replacements=self.men, side=unit.side
            )
            decided.append(
                _troop_quality({"unit": unit.name, "men": self.men}, chosen, rolls, f"{what}: 3d → {chosen}")
            )
        experience = tables.quality_row(chosen).experience_from
        joined = TroopsRecruited(unit_id=unit.unit_id, men=self.men, quality=chosen, experience=experience, cost=cost)
        paid = [FundsChanged(side=unit.side, amount=-cost, reason=what)] if cost else []
        return [*decision_events(decided, None, RULESET), joined, *paid]


MORALE_MODIFIER_MOST = 10
"""The largest persistent Morale modifier a ruling sets, either way (see ``Morale.value``)."""


class Morale(McCommand):
    """Set a persistent Morale modifier (0 removes it); 'vs SIDE: …' names count only against that side.

    A hereditary enemy, home soil, spies, loot…"""

    name: ClassVar[str] = "mc.morale"
    rolls: ClassVar[bool] = False
    # The game master's ruling (RULES.md §2.11: a hereditary enemy, spies known or executed, treason, loot): a
    # player who set its own would cancel a penalty the game master ruled (−2 for a known spy network) at will.
    entered_by: ClassVar[EnteredBy] = EnteredBy.GM

    label: Annotated[Name, ARGUMENT] = Field(alias="name")
    # §2.11's modifiers run −2…+2 and the largest lasting one the rules record is −5 (catastrophe 18, R2-10); the
    # rules give no bound for a ruling's own, so ±10 (twice that): more moves a 3d Morale roll (3–18) of any
    # unit's base from certain success to certain failure, which no ruling of the rules' kind does.
    value: Annotated[int, ARGUMENT] = Field(
        ge=-MORALE_MODIFIER_MOST,
        le=MORALE_MODIFIER_MOST,
        title="modifier",
        description="The Morale modifier, from -10 to +10 (0 removes it).",
    )
    unit: OwnUnit | None = None
    side: OwnSide | None = None
    until: Literal["removed", "clear_victory", "year_end", "month_end"] = Field(
        default="removed", description="removed, clear_victory, year_end, month_end"
    )

    def decide(self, s: At) -> list[Event]:
        if (self.unit is None) == (self.side is None):
            raise InvalidInputError.saying("a Morale modifier is for one unit (--unit) or a whole side (--side)")
        if self.until not in ("removed", "clear_victory", "year_end", "month_end"):
            raise InvalidInputError.saying("until: removed, clear_victory, year_end or month_end")
        unit_id = find_unit(s.state, self.unit).unit_id if self.unit else None
        return [MoraleModifierSet(name=self.label, value=self.value, unit_id=unit_id, side=self.side, until=self.until)]


class Commander(McCommand):
    """A new unit commander takes over: the unit's quality drops one step.

    RULES.md §2.3. An NPC's Leadership comes from the commander experience table (3d) when not given."""

    name: ClassVar[str] = "mc.commander"
    rolls_with: ClassVar[str | None] = "npc"

    unit_name: Annotated[OwnUnit, ARGUMENT]
    leadership: int | None = None
    npc: bool = Field(default=False, description="Roll the NPC's experience (3d) for his Leadership.")

    def decide(self, s: At) -> list[Event]:
        unit = find_unit(s.state, self.unit_name)
        if self.leadership is not None and not 1 <= self.leadership <= 30:
            raise InvalidInputError.saying("Leadership is a skill level from 1 to 30")

        decided: list[Decision] = []
        skill = self.leadership
        if skill is None and self.npc:
            roll = s.dice.roll(parse("3d"), f"experience of {unit.name}'s new commander", side=unit.side)
            level, skill = commander_skill(s.tables, roll.total)
            decided.append(
                Decision(
                    "commander_experience",
                    "§2.5",
                    unit.unit_id,
                    {},
                    {"experience": level, "leadership": skill},
                    f"{unit.name}'s new commander: 3d {roll.total} → {level}, Leadership {skill}",
                    rolls=(roll,),
                )
            )
        quality = quality_step_down(unit.profile.quality)
        changed = UnitQualityChanged(
            unit_id=unit.unit_id,
            quality=quality,
            experience=unit.profile.experience,
            leader_leadership=skill,
            reason=f"new commander: {unit.profile.quality} → {quality}",
        )
        return [*decision_events(decided, None, RULESET), changed]


class Train(McCommand):
    """Months of training: up to Green at most, never higher without combat.

    RULES.md §2.3, R3-21: six make untrained men Inexperienced troops, a year (counted from untrained) makes them
    Green; the months of every period add up, and no training makes troops better than Green."""

    name: ClassVar[str] = "mc.train"
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]
    months: Annotated[int, ARGUMENT] = Field(ge=-1_000_000_000, le=1_000_000_000)

    def decide(self, s: At) -> list[Event]:
        state, tables = s.state, s.tables
        unit = find_unit(state, self.unit_name)
        p = unit.profile
        if self.months <= 0:
            raise InvalidInputError.saying("training takes a positive number of months")
        if not tables.training.months_add_up:
            return self._alone(unit, tables)
        done = training(tables, unit.name, p, self.months)
        before, total, untrained, quality = done.before, done.months, done.untrained, done.quality
        to_inexperienced = tables.training.inexperienced_months
        to_green = tables.training.green_months
        status = "untrained" if untrained else "Green" if quality == "green" else "Inexperienced troops"
        text = (
            f"{unit.name}: {before} + {self.months} = {total} months of training → {status} "
            f"({to_inexperienced} months make untrained men Inexperienced troops, {to_green} make them Green)"
        )
        facts: list[Event] = [
            UnitProfileChanged(unit_id=unit.unit_id, profile={"untrained": untrained, "trained_months": total})
        ]
        if quality != p.quality:
            facts.append(
                UnitQualityChanged(
                    unit_id=unit.unit_id,
                    quality=quality,
                    experience=done.experience,
                    reason=f"{total} months of training",
                )
            )
        decision = Decision(
            "training",
            "§2.3",
            unit.unit_id,
            {"months": self.months, "before": before, "untrained": p.untrained},
            {"months": total, "quality": quality, "untrained": untrained},
            text,
            tuple(facts),
        )
        return decision_events([decision], None, RULESET)

    def _alone(self, unit: mc_state.Unit, tables: Tables) -> list[Event]:
        """``training.months_add_up`` false: each period counts alone (the second edition's program)."""
        was_untrained = unit.profile.untrained
        quality, untrained = trained_quality(tables, unit.profile.quality, self.months, untrained=was_untrained)
        if quality == unit.profile.quality and untrained == was_untrained:
            raise InvalidInputError.saying(
                "{unit} is {quality}: training alone makes troops no better than Green (untrained men need "
                "{inexperienced} months to be Inexperienced troops, {green} to be Green)",
                unit=unit.name,
                quality=Words("untrained") if was_untrained else Term(RULESET.name, "quality", unit.profile.quality),
                inexperienced=tables.training.inexperienced_months,
                green=tables.training.green_months,
            )
        events: list[Event] = [UnitProfileChanged(unit_id=unit.unit_id, profile={"untrained": False})] * was_untrained
        if quality != unit.profile.quality:
            reason = f"{self.months} months of training"
            events.append(
                UnitQualityChanged(
                    unit_id=unit.unit_id, quality=quality, experience=unit.profile.experience, reason=reason
                )
            )
        return events


class Disband(McCommand):
    """Disband a unit between battles: it is paid no more and fights no more."""

    name: ClassVar[str] = "mc.disband"
    rolls: ClassVar[bool] = False

    unit_name: Annotated[OwnUnit, ARGUMENT]
    reason: str = Field(default="disbanded", max_length=200)

    def decide(self, s: At) -> list[Event]:
        unit = find_unit(s.state, self.unit_name)
        return [UnitDisbanded(unit_id=unit.unit_id, reason=self.reason or "disbanded")]


class Transfer(McCommand):
    """Fit men move to a unit of the same side and troop type (experience re-averaged)."""

    name: ClassVar[str] = "mc.transfer"
    rolls: ClassVar[bool] = False

    from_unit: Annotated[OwnUnit, ARGUMENT]
    to_unit: Annotated[OwnUnit, ARGUMENT]
    men: int = Field(ge=-1_000_000_000, le=1_000_000_000, description="How many men move.")

    def decide(self, s: At) -> list[Event]:
        giver, receiver = find_unit(s.state, self.from_unit), find_unit(s.state, self.to_unit)
        check_transfer(giver, receiver, self.men, giver.fit, "fit men")
        if giver.profile.troop_type != receiver.profile.troop_type:
            custom = Words("custom troops")
            raise InvalidInputError.saying(
                "{giver} are {giver_type} and {receiver} {receiver_type}: men move only between units of one troop "
                "type",
                giver=giver.name,
                giver_type=giver.profile.troop_type or custom,
                receiver=receiver.name,
                receiver_type=receiver.profile.troop_type or custom,
            )
        return [
            MenTransferred(
                from_unit_id=giver.unit_id,
                to_unit_id=receiver.unit_id,
                men=self.men,
                experience=giver.profile.experience,
            )
        ]


class HouseRule(BaseHouseRule[mc_state.CampaignState, Tables]):
    name: ClassVar[str] = "mc.house_rule"
    ruleset_name: ClassVar[str] = RULESET.name

    path: Annotated[str, ARGUMENT] = Field(
        min_length=1, max_length=200, description="Table path, as the tables name it, e.g. casualties.offset_base."
    )


COMMANDS: tuple[type[Command[mc_state.CampaignState, Tables]], ...] = (
    Muster,
    Battle,
    Raise,
    Recruit,
    Morale,
    Commander,
    Train,
    Disband,
    Transfer,
    HouseRule,
    Edit,
)
