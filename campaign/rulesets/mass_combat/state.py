"""The Mass Combat campaign state folded from the log: roster, treasuries, calendar, pay and Morale.

Pure: ``apply(state, event, tables)`` applies recorded facts. Experience after a battle and the end of
time-limited Morale modifiers need the tables in force, which the caller passes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from campaign.rulesets.mass_combat.aftermath import is_clear_victory
from campaign.rulesets.mass_combat.economy import PayState, after_unpaid_days, arrears_applied, current_penalty
from campaign.rulesets.mass_combat.profile import UnitProfile
from campaign.rulesets.mass_combat.quality import battle_experience, exempt_from_morale, quality_for_experience
from campaign.rulesets.mass_combat.tables import Tables
from campaign.rulesets.state import Calendar, Enlisted, in_order, roster_fact, unit_named
from campaign.rulesets.tables import Override, Sourced, apply_overrides
from events.envelope import RecordedEvent
from events.recorded import JsonObject, maybe_text, text, texts, whole

RULESET = "mass-combat"


@dataclass(frozen=True)
class Modifier:
    name: str
    value: int
    until: str
    since_day: int


@dataclass(frozen=True)
class Unit(Enlisted):
    profile: UnitProfile
    """``profile.men`` is the men alive; ``wounded`` of them are out until they return."""
    wounded: int = 0
    original_men: int = 0
    fought_in: tuple[str, ...] = ()
    pay: PayState = field(default_factory=PayState)
    bonus_morale: int = 0
    bonus_month: int = -1
    modifiers: Mapping[str, Modifier] = field(default_factory=dict)
    disbanded: str | None = None

    @property
    def fit(self) -> int:
        return self.profile.men - self.wounded


@dataclass(frozen=True)
class BattleRecord:
    battle_id: str
    name: str
    sides: tuple[str, ...]
    day: int
    result: str | None = None
    winner: str | None = None
    number: int = 0
    fallen: tuple[tuple[str, int, int], ...] = ()
    """Each casualty report of the battle: (unit id, dead, wounded), what the loot of the field counts."""
    fates: Mapping[str, str] = field(default_factory=dict)
    """Each unit's fate in it (``routs``…)."""
    looted: bool = False


@dataclass(frozen=True)
class Career:
    """A player character's career (§2.9): battles, wounds, Reputation (temporary ones expire), rank."""

    pc: str
    battles: tuple[str, ...] = ()
    damage: int = 0
    temporary_reputation: tuple[tuple[int, int], ...] = ()
    """(change, the campaign day it expires)."""
    permanent_reputation: int = 0
    rank: int = 0
    reactions: tuple[str, ...] = ()


@dataclass(frozen=True)
class CampaignState:
    roster: Mapping[str, Unit] = field(default_factory=dict)
    overrides: tuple[Override, ...] = ()
    battles: Mapping[str, BattleRecord] = field(default_factory=dict)
    open_battle: str | None = None
    treasury: Mapping[str, int] = field(default_factory=dict)
    day: int = 0
    month: int = 0
    side_modifiers: Mapping[str, Mapping[str, Modifier]] = field(default_factory=dict)
    careers: Mapping[str, Career] = field(default_factory=dict)
    calendar: Calendar = field(default_factory=Calendar)
    """Each side's own days (RULES.md §5): ``day`` is its campaign day."""

    def reputation(self, pc: str) -> int:
        """Reputation now: permanent, plus the temporary changes that have not expired by today."""
        career = self.careers.get(pc)
        if career is None:
            return 0
        return career.permanent_reputation + sum(c for c, until in career.temporary_reputation if until > self.day)

    def units(self) -> list[Unit]:
        return in_order(self.roster)

    def unit_by_name(self, name: str) -> Unit | None:
        return unit_named(self.roster, name)

    def battle_named(self, name: str) -> BattleRecord | None:
        """A battle by its id, its name or its number (the latest of that name)."""
        if name in self.battles:
            return self.battles[name]
        found = [b for b in self.battles.values() if b.name.casefold() == name.strip().casefold()]
        if not found and name.strip().isdigit():
            found = [b for b in self.battles.values() if b.number == int(name)]
        return max(found, key=lambda b: b.number) if found else None

    def campaign_morale(self, unit: Unit, tables: Tables, enemies: set[str]) -> int:
        """Persistent Morale the campaign gives a unit now: arrears, bonus pay, conscription, modifiers.

        A modifier named ``vs SIDE: …`` counts only in a battle against that side.
        """
        if exempt_from_morale(tables, unit.profile):
            return 0  # R2-26: no Morale modifier touches troops not subject to Morale
        total = 0
        if unit.bonus_month == self.month:
            total += unit.bonus_morale
        if unit.profile.conscript:
            paid = unit.pay.missed_streak == 0
            total += tables.economy.conscript_paid if paid else tables.economy.conscript_unpaid
        mods = [*unit.modifiers.values(), *self.side_modifiers.get(unit.side, {}).values()]
        for m in mods:
            if m.name.startswith("vs ") and m.name[3:].split(":")[0] not in enemies:
                continue
            if m.until == "next_day" and self.day > m.since_day + 1:
                continue  # R2-18: lapsed at the end of the next day
            total += m.value
        penalty = current_penalty(tables, unit.pay, self.day)
        return total - arrears_applied(tables, unit.profile, penalty, total)


def _joined(unit: Unit, men: int, experience: int, tables: Tables) -> Unit:
    """Men join a unit (recruits, or a transfer): experience re-averaged, quality following it (§2.3)."""
    total = unit.profile.men + men
    averaged = (unit.profile.men * unit.profile.experience + men * experience) // max(1, total)
    quality = quality_for_experience(tables, averaged)
    profile = unit.profile.model_copy(update={"men": total, "experience": averaged, "quality": quality})
    return replace(unit, profile=profile, original_men=unit.original_men + men)


def _set_unit(state: CampaignState, unit: Unit) -> CampaignState:
    roster = dict(state.roster)
    roster[unit.unit_id] = unit
    return replace(state, roster=roster)


def _expire(mods: Mapping[str, Modifier], until: str) -> dict[str, Modifier]:
    return {k: m for k, m in mods.items() if m.until != until}


def apply(state: CampaignState, event: RecordedEvent, tables: Tables) -> CampaignState:  # noqa: C901, PLR0911, PLR0912, PLR0915 (one case per event type)
    # Read as the JSON it is recorded as: each value is narrowed to what the fact holds (cheap, unlike a model).
    p: JsonObject = event.payload
    kind = event.type
    unit_id = p.get("unit_id")
    unit = state.roster.get(unit_id) if isinstance(unit_id, str) else None
    if kind == "roster.unit_mustered":
        profile = UnitProfile.model_validate(p["profile"])
        return _set_unit(
            state, Unit(text(p["unit_id"]), text(p["name"]), text(p["side"]), profile, original_men=profile.men)
        )
    if kind == "roster.unit_quality_changed" and unit is not None:
        update: dict[str, str | int] = {"quality": text(p["quality"]), "experience": whole(p["experience"])}
        if p.get("leader_leadership") is not None:
            update["leader_leadership"] = whole(p["leader_leadership"])
        return _set_unit(state, replace(unit, profile=unit.profile.model_copy(update=update)))
    if (alike := roster_fact(state, kind, p, RULESET)) is not None:
        return alike
    if kind == "roster.unit_went_over" and unit is not None:  # R3-17: a defector belongs to the enemy now
        return _set_unit(state, replace(unit, side=text(p["side"])))
    if kind == "economy.funds_changed":
        treasury = dict(state.treasury)
        side, reason = text(p["side"]), text(p["reason"])
        treasury[side] = treasury.get(side, 0) + whole(p["amount"])
        looted = state.battles.get(reason.removeprefix("loot of ")) if reason.startswith("loot of ") else None
        if looted is not None:
            return replace(
                state, treasury=treasury, battles={**state.battles, looted.battle_id: replace(looted, looted=True)}
            )
        return replace(state, treasury=treasury)
    if kind == "economy.troops_recruited" and unit is not None:
        return _set_unit(state, _joined(unit, whole(p["men"]), whole(p["experience"]), tables))
    if kind == "roster.men_transferred":
        giver, receiver = state.roster.get(text(p["from_unit_id"])), state.roster.get(text(p["to_unit_id"]))
        if giver is None or receiver is None:
            return state
        moved = whole(p["men"])
        men = giver.profile.men - moved
        # The men who left no longer count in the strength the giver's wounded return against.
        original = max(men, giver.original_men - moved)
        giver = replace(giver, profile=giver.profile.model_copy(update={"men": men}), original_men=original)
        return _set_unit(_set_unit(state, giver), _joined(receiver, moved, whole(p["experience"]), tables))
    if kind == "economy.pay_settled" and unit is not None:
        missed = 0 if whole(p["paid"]) >= whole(p["due"]) else unit.pay.missed_streak + 1
        pay = PayState(
            whole(p["penalty"]),
            whole(p["paid_streak"]),
            missed,
            whole(p.get("owed", 0)),
            whole(p.get("unpaid_days", 0)),
            state.day,
        )
        bonus = whole(p["bonus_morale"])
        return _set_unit(state, replace(unit, pay=pay, bonus_morale=bonus, bonus_month=whole(p["month"]) + 1))
    if kind == "morale.modifier_set":
        mod = Modifier(text(p["name"]), whole(p["value"]), text(p["until"]), state.day)
        if p.get("unit_id") and unit is not None:
            mods = dict(unit.modifiers)
            if mod.value == 0:
                mods.pop(mod.name, None)
            else:
                mods[mod.name] = mod
            return _set_unit(state, replace(unit, modifiers=mods))
        if p.get("side"):
            sides = {k: dict(v) for k, v in state.side_modifiers.items()}
            side_mods = sides.setdefault(text(p["side"]), {})
            if mod.value == 0:
                side_mods.pop(mod.name, None)
            else:
                side_mods[mod.name] = mod
            return replace(state, side_modifiers=sides)
        return state
    if kind.startswith("career."):
        pc, battle_id = text(p["pc"]), text(p["battle_id"])
        career = state.careers.get(pc, Career(pc))
        fought = career.battles if battle_id in career.battles else (*career.battles, battle_id)
        if kind == "career.pc_wounded":
            career = replace(career, damage=career.damage + whole(p["damage"]), battles=fought)
        elif kind == "career.reputation_changed":
            months, change = whole(p["months"]), whole(p["change"])
            if months == 0:
                career = replace(career, permanent_reputation=career.permanent_reputation + change)
            else:
                until = state.day + months * tables.economy.month_days
                career = replace(career, temporary_reputation=(*career.temporary_reputation, (change, until)))
        elif kind == "career.promotion_rolled":
            career = replace(
                career,
                rank=career.rank + whole(p["rank_change"]),
                reactions=(*career.reactions, text(p["reaction"])),
            )
        careers = dict(state.careers)
        careers[pc] = career
        return replace(state, careers=careers)
    if kind == "calendar.days_passed":
        days = whole(p["days"])
        calendar = state.calendar.passed(days, maybe_text(p.get("side")))
        day = calendar.day
        state = replace(state, calendar=calendar)
        if any(u.pay.owed > 0 for u in state.roster.values()):  # R2-19 (c): each day that ends with pay owed
            owing = {
                k: u if u.disbanded else replace(u, pay=after_unpaid_days(tables, u.pay, days))
                for k, u in state.roster.items()
            }
            state = replace(state, roster=owing)
        year = tables.economy.year_days
        if day // year != state.day // year:  # a new year: "the same enemy this year" is forgotten
            roster = {k: replace(u, modifiers=_expire(u.modifiers, "year_end")) for k, u in state.roster.items()}
            sides = {k: _expire(v, "year_end") for k, v in state.side_modifiers.items()}
            return replace(state, day=day, roster=roster, side_modifiers=sides)
        return replace(state, day=day)
    if kind == "calendar.wounded_returned" and unit is not None:
        return _set_unit(state, replace(unit, wounded=max(0, unit.wounded - whole(p["men"]))))
    if kind == "calendar.month_ended":
        roster = {k: replace(u, modifiers=_expire(u.modifiers, "month_end")) for k, u in state.roster.items()}
        return replace(state, month=whole(p["month"]) + 1, roster=roster)
    if kind == "battle.started":
        battle_id, fighting = text(p["battle_id"]), tuple(texts(p["sides"]))
        first_day = battle_id not in state.battles
        battles = dict(state.battles)
        if first_day:
            battles[battle_id] = BattleRecord(
                battle_id, text(p["name"]), fighting, state.day, number=len(state.battles) + 1
            )
        calendar = state.calendar.fought(fighting)
        return replace(state, open_battle=battle_id, battles=battles, calendar=calendar)
    if kind == "battle.unit_fate" and p["battle_id"] in state.battles:
        fated = state.battles[text(p["battle_id"])]
        fates = {**fated.fates, text(p["unit_id"]): text(p["fate"])}
        return replace(state, battles={**state.battles, fated.battle_id: replace(fated, fates=fates)})
    if kind == "battle.casualties_taken" and unit is not None:
        battle_id, dead, wounded = text(p["battle_id"]), whole(p["dead"]), whole(p["wounded"])
        struck = state.battles.get(battle_id)
        if struck is not None:
            fallen = (*struck.fallen, (unit.unit_id, dead, wounded))
            state = replace(state, battles={**state.battles, struck.battle_id: replace(struck, fallen=fallen)})
        men = max(0, unit.profile.men - dead)
        fought = unit.fought_in if battle_id in unit.fought_in else (*unit.fought_in, battle_id)
        profile = unit.profile.model_copy(update={"men": men})
        return _set_unit(
            state, replace(unit, profile=profile, wounded=min(men, unit.wounded + wounded), fought_in=fought)
        )
    if kind == "battle.ended":
        battle_id = text(p["battle_id"])
        record = state.battles.get(battle_id)
        if record is None or p.get("result") == "continues":
            return state
        result, winner = text(p["result"]), maybe_text(p.get("winner"))
        battles = dict(state.battles)
        battles[record.battle_id] = replace(record, result=result, winner=winner)
        roster = dict(state.roster)
        clear = winner is not None and is_clear_victory(tables, result)  # R2-10, R2-11
        for u in state.roster.values():
            was_there = battle_id in u.fought_in
            avenged = clear and u.side == winner
            if not (was_there or avenged):
                continue
            # A lost commander is avenged by the army's clear victory, on each of its units, whether or not the
            # unit fought in it (R2-10: "until the army wins").
            mods = _expire(dict(u.modifiers), "clear_victory") if avenged else dict(u.modifiers)
            profile = u.profile
            if was_there:  # one more battle of experience for every man who fought in it (§2.3)
                experience, quality = battle_experience(tables, u.profile)
                profile = u.profile.model_copy(update={"experience": experience, "quality": quality})
            roster[u.unit_id] = replace(u, profile=profile, modifiers=mods)
        return replace(state, roster=roster, battles=battles, open_battle=None)
    return state


def fold(events: Iterable[RecordedEvent], base: Mapping[str, Sourced]) -> CampaignState:
    state = CampaignState()
    tables = Tables.of(dict(base))
    for event in events:
        if event.type == "rules.table_overridden":
            state = apply(state, event, tables)
            tables = Tables.of(apply_overrides(base, state.overrides))
            continue
        state = apply(state, event, tables)
    return state
