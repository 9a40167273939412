"""A Mass Combat battle day, resolved in order (RULES.md §2.8–§2.12).

Dice are rolled in this order, which is the order table dice are entered in: each side's catastrophe
(3d, a reroll for a lucky commander whose roll hurts, and the army Morale roll on a 13); each side's
Strategy roll (3d); each unit's Morale roll where the result table calls for one (3d, sides in order);
each side's casualty roll (4d), then 1d for each routed unit; then for each PC: Survival (3d) and its
damage dice, Glory (3d) and its duration and promotion rolls, and a second Survival roll on the losing side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from campaign.rules.decision import Decision
from campaign.rules.mass_combat.pcs import resolve_pc
from campaign.rules.mass_combat.profile import UnitProfile
from campaign.rules.mass_combat.quality import base_morale, leadership_modifier
from campaign.rules.mass_combat.setup import BattleSetup, Side
from campaign.rules.mass_combat.strength import morale_adjusted_ts, troop_strength
from campaign.rules.mass_combat.tables import Tables
from events.dice import Dice, Roll, die, parse
from events.errors import InvalidInputError
from events.families.battle import BattleEnded
from events.families.career import CasualtiesTaken, UnitFate
from events.registry import Event

THREE_D = parse("3d")
FOUR_D = parse("4d")


@dataclass(frozen=True)
class ArmyUnit:
    """A roster unit as it marches into the battle."""

    unit_id: str
    name: str
    side: str
    profile: UnitProfile
    campaign_morale: int = 0
    """Persistent Morale modifiers carried by the campaign (pay, loot, same enemy this year, …)."""


@dataclass
class UnitRun:
    unit: ArmyUnit
    base: int
    morale: int
    roll_mods: dict[str, int]
    ts_before: int
    ts: int
    fate: str = "holds"
    strike: int = 0
    healing: int = 0
    nowhere_to_go: bool = False


@dataclass
class SideRun:
    setup: Side
    units: list[UnitRun]
    strategy_mods: dict[str, int] = field(default_factory=dict)
    base_strategy: int = 0
    ts: int = 0
    margin: int = 0
    roll: int = 0

    @property
    def name(self) -> str:
        return self.setup.name


def _find(units: Sequence[UnitRun], name: str) -> UnitRun:
    for u in units:
        if u.unit.name == name:
            return u
    raise InvalidInputError(f"{name!r} is not in that army")


def _muster(tables: Tables, side: Side, roster: Mapping[str, ArmyUnit]) -> SideRun:
    runs = []
    for u in side.units:
        unit = roster.get(u.unit)
        if unit is None:
            raise InvalidInputError(f"unknown unit {u.unit!r}")
        if unit.side != side.name:
            raise InvalidInputError(f"{unit.name} fights for {unit.side!r}, not {side.name!r}")
        p = unit.profile
        base = base_morale(tables, p.quality, irregular=p.irregular) + leadership_modifier(tables, p.leader_leadership)
        ts = troop_strength(tables, p).total
        run = UnitRun(
            unit,
            base,
            base + unit.campaign_morale + u.morale_es,
            dict(u.morale_mods),
            ts,
            ts,
            strike=u.strike,
            healing=u.healing,
            nowhere_to_go=u.nowhere_to_go,
        )
        runs.append(run)
    if len({r.unit.unit_id for r in runs}) != len(runs):
        raise InvalidInputError(f"a unit is listed twice for {side.name}")
    return SideRun(side, runs, base_strategy=side.commander.strategy)


def _catastrophe(tables: Tables, me: SideRun, enemy: SideRun, dice: Dice) -> Decision:
    bonus = enemy.setup.es_on_enemy_catastrophe // tables.number("catastrophe.rules.es_per_point")
    roll = dice.roll(THREE_D, f"catastrophe roll, {me.name}")
    rolls: list[Roll] = [roll]
    result = min(18, roll.total + bonus)
    notes = [f"3d rolled {roll.total}" + (f" + {bonus} (enemy Extraordinary Force)" if bonus else "")]
    none_to = tables.number("catastrophe.table.none_to")
    if result > none_to and me.setup.commander.luck:
        again = dice.roll(THREE_D, f"catastrophe reroll (Luck), {me.name}")
        rolls.append(again)
        result = min(result, 18, again.total + bonus)
        notes.append(f"Luck reroll {again.total} → {result}")
    effects: list[str] = []
    if result <= none_to:
        effects.append("no catastrophe")
    prefix = f"catastrophe.effects.{result}"
    if tables.has(f"{prefix}.strategy") and tables.number(f"{prefix}.strategy"):
        me.strategy_mods[f"catastrophe {result}"] = tables.number(f"{prefix}.strategy")
        effects.append(f"Strategy {tables.number(f'{prefix}.strategy'):+d}")
    if tables.has(f"{prefix}.halve_strategy"):
        me.base_strategy = -(-me.base_strategy // 2)
        effects.append(f"army commander killed: base Strategy halved to {me.base_strategy}")
    if tables.has(f"{prefix}.enemy_ts_pct"):
        pct = tables.number(f"{prefix}.enemy_ts_pct")
        for u in enemy.units:
            u.ts = u.ts * (100 + pct) // 100
        effects.append(f"enemy TS +{pct}%")
    if tables.has(f"{prefix}.morale_all") and tables.number(f"{prefix}.morale_all"):
        for u in me.units:
            u.morale += tables.number(f"{prefix}.morale_all")
        effects.append(f"Morale {tables.number(f'{prefix}.morale_all'):+d} for every unit")
    if tables.has(f"{prefix}.morale_unit") or tables.has(f"{prefix}.defection"):
        target = _major_unit(tables, me)
        if tables.has(f"{prefix}.morale_unit"):
            target.morale += tables.number(f"{prefix}.morale_unit")
            effects.append(f"{target.unit.name} Morale {tables.number(f'{prefix}.morale_unit'):+d}")
        if tables.has(f"{prefix}.defection"):
            me.units.remove(target)
            effects.append(f"{target.unit.name} defects with its troops")
    if tables.has(f"{prefix}.atrocity"):
        average = sum(u.morale for u in me.units) // max(1, len(me.units))
        anger = dice.roll(THREE_D, f"army Morale roll after an enemy atrocity, {me.name}")
        rolls.append(anger)
        change = 1 if anger.total <= average else -1
        for u in me.units:
            u.morale += change
        effects.append(f"atrocity: army Morale roll {anger.total} vs {average} → Morale {change:+d} for every unit")
    return Decision(
        "catastrophe",
        "§2.8",
        None,
        {"side": me.name, "enemy_es_points": enemy.setup.es_on_enemy_catastrophe},
        {"result": result, "effects": effects},
        f"{me.name} catastrophe: {'; '.join(notes)} → {result}: {'; '.join(effects)}",
        (),
        tuple(rolls),
    )


def _major_unit(tables: Tables, side: SideRun) -> UnitRun:
    if side.setup.catastrophe_unit:
        return _find(side.units, side.setup.catastrophe_unit)
    total = sum(u.ts for u in side.units) or 1
    pct = tables.number("catastrophe.rules.major_unit_ts_pct")
    majors = [u for u in side.units if u.ts * 100 >= total * pct] or side.units
    return max(majors, key=lambda u: (u.ts, u.unit.name))


def _apply_morale_ts(tables: Tables, sides: Sequence[SideRun], enabled: bool) -> None:
    for side in sides:
        for u in side.units:
            if enabled:
                u.ts = morale_adjusted_ts(tables, u.ts, u.morale, u.base)
        side.ts = sum(u.ts for u in side.units)


def _category_ts(side: SideRun, category: str) -> tuple[int, int]:
    real = sum(u.ts for u in side.units if category in u.unit.profile.special_categories())
    neutral = sum(u.ts for u in side.units if f"neutralizes:{category}" in u.unit.profile.categories)
    return real, neutral


def _strategy_modifiers(tables: Tables, setup: BattleSetup, a: SideRun, b: SideRun) -> None:
    strong, weak = (a, b) if a.ts >= b.ts else (b, a)
    if weak.ts > 0 and strong.ts > weak.ts:
        ratio_pm = strong.ts * 1000 // weak.ts
        bonus = tables.step_bonus("ts_ratio.steps", ratio_pm)
        if strong.setup.tl - weak.setup.tl >= tables.number("ts_ratio.tl_lead_for_beyond_cap") and ratio_pm >= 20000:
            bonus += (ratio_pm // 10000 - 1) * tables.number("ts_ratio.beyond_cap_per_ten")
        if bonus:
            strong.strategy_mods[f"TS {strong.ts}:{weak.ts} = {ratio_pm / 1000:.2f}"] = bonus
    if a.setup.tl != b.setup.tl:
        ahead, behind = (a, b) if a.setup.tl > b.setup.tl else (b, a)
        diff = ahead.setup.tl - behind.setup.tl
        ahead.strategy_mods[f"TL {ahead.setup.tl} vs {behind.setup.tl}"] = diff + tables.number(
            "tl.bonus_over_difference"
        )
    high_tl = max(a.setup.tl, b.setup.tl)
    categories = ["artillery", "armour", "air"] if high_tl >= 6 else (["artillery"] if setup.siege else ["cavalry"])
    if high_tl < 6:
        categories.append("missile")
    for category in categories:
        (ra, na), (rb, nb) = _category_ts(a, category), _category_ts(b, category)
        # Neutralizing troops count for the side with fewer real specials.
        if ra < rb:
            ra += na
        elif rb < ra:
            rb += nb
        if ra == rb:
            continue
        more, _less = (a, b) if ra > rb else (b, a)
        hi, lo = max(ra, rb), min(ra, rb)
        ratio_pm = hi * 1000 // lo if lo else tables.number("special.none_counts_as")
        bonus = tables.step_bonus("special.steps", ratio_pm)
        if bonus:
            label = f"{category} {hi}:{lo}" if lo else f"{category}: the enemy has none"
            more.strategy_mods[label] = bonus
    for side in (a, b):
        s = side.setup
        for name, value in s.circumstances.items():
            side.strategy_mods[name.replace("_", " ")] = value
        for name, value in (("battle plan", s.plan), ("recon", s.recon), ("diviner", s.diviner), ("GM", s.misc)):
            if value:
                side.strategy_mods[name] = value
        if s.role == "defender":
            for name, value in s.defensive.items():
                starred = name.startswith("*")
                side.strategy_mods[f"position {name.lstrip('*')}"] = value - (
                    2 if starred and setup.attacker_has_artillery_or_sappers else 0
                )


def _effective_skill(side: SideRun, tables: Tables) -> tuple[int, str]:
    men = sum(u.unit.profile.men for u in side.units)
    commander = side.setup.commander
    if men < tables.number("results.tactics_under_men") and commander.tactics is not None:
        return commander.tactics, "Tactics"
    return side.base_strategy, "Strategy"


def _contest(tables: Tables, a: SideRun, b: SideRun, dice: Dice) -> Decision:
    parts = []
    for side in (a, b):
        skill, which = _effective_skill(side, tables)
        total = sum(side.strategy_mods.values())
        effective = skill + total
        roll = dice.roll(THREE_D, f"{which} roll, {side.name}")
        side.roll, side.margin = roll.total, effective - roll.total
        mods = ", ".join(f"{k} {v:+d}" for k, v in side.strategy_mods.items()) or "none"
        parts.append(
            f"{side.name}: {which} {skill} {total:+d} ({mods}) = {effective}, rolled {roll.total} → margin "
            f"{side.margin:+d}"
        )
    diff = a.margin - b.margin
    return Decision(
        "strategy_contest",
        "§2.10–2.11",
        None,
        {
            "modifiers": {a.name: dict(a.strategy_mods), b.name: dict(b.strategy_mods)},
            "ts": {a.name: a.ts, b.name: b.ts},
        },
        {"margins": {a.name: a.margin, b.name: b.margin}, "difference": diff},
        "Quick Contest — " + "; ".join(parts) + f"; difference {abs(diff)} to {a.name if diff >= 0 else b.name}",
        (),
        (),
    )


@dataclass(frozen=True)
class Outcome:
    table: str
    key: str
    winner: SideRun | None
    loser: SideRun | None
    w: int


def _result(tables: Tables, setup: BattleSetup, a: SideRun, b: SideRun) -> Outcome:
    diff = a.margin - b.margin
    w = abs(diff)
    if setup.kind == "open_field":
        key = tables.band("results.open_field", w)
        if w == 0 or key == "no_clear_winner":
            return Outcome("A", key, a if diff > 0 else b if diff < 0 else None, None, w)
        winner, loser = (a, b) if diff > 0 else (b, a)
        return Outcome("A", key, winner, loser, w)
    attacker, defender = (a, b) if a.setup.role == "attacker" else (b, a)
    attacker_diff = attacker.margin - defender.margin
    if attacker_diff > 0:
        return Outcome("C", tables.band("results.attacker_wins", w), attacker, defender, w)
    return Outcome("B", tables.band("results.defender_wins", w), defender, attacker, w)


def _morale_roll(dice: Dice, u: UnitRun, penalty: int, extra: int = 0) -> tuple[Roll, int, str]:
    mods = sum(u.roll_mods.values()) + penalty + extra
    target = u.morale + mods
    roll = dice.roll(THREE_D, f"Morale roll, {u.unit.name}")
    detail = f"Morale {u.morale}" + "".join(f" {k.replace('_', ' ')} {v:+d}" for k, v in u.roll_mods.items())
    if penalty:
        detail += f" result {penalty:+d}"
    if extra:
        detail += f" nowhere to go {extra:+d}"
    return roll, target - roll.total, f"{detail} = {target}, rolled {roll.total}"


def _morale_phase(tables: Tables, outcome: Outcome, sides: Sequence[SideRun], dice: Dice) -> list[Decision]:
    decisions: list[Decision] = []
    fail_rout = tables.number("results.retreat_fail_by")
    nowhere = tables.number("results.nowhere_to_go_bonus")

    def roll_unit(u: UnitRun, penalty: int, on_pass: str, on_fail: str, *, retreat_needs_room: bool = False) -> bool:
        roll, margin, detail = _morale_roll(dice, u, penalty)
        fate = on_pass if margin >= 0 else on_fail
        if outcome.key == "no_clear_winner" and margin < 0:
            fate = "retreats" if -margin < fail_rout else "routs"
        extra_rolls = [roll]
        if fate == "retreats" and u.nowhere_to_go and retreat_needs_room:
            again, m2, d2 = _morale_roll(dice, u, penalty, nowhere)
            extra_rolls.append(again)
            fate = "holds" if m2 >= 0 else "surrenders"
            detail += f"; nowhere to retreat: {d2} → {fate}"
        u.fate = fate
        decisions.append(
            Decision(
                "unit_morale",
                "§2.11",
                u.unit.unit_id,
                {"morale": u.morale, "modifiers": dict(u.roll_mods), "penalty": penalty},
                {"margin": margin, "fate": fate},
                f"{u.unit.name}: {detail} → {'made' if margin >= 0 else 'failed'} by {abs(margin)} → {fate}",
                (),
                tuple(extra_rolls),
            )
        )
        return margin >= 0

    key, loser = outcome.key, outcome.loser
    if key == "no_clear_winner":
        for side in sides:
            for u in side.units:
                roll_unit(u, 0, "holds", "retreats")
    elif outcome.table == "A" and loser is not None:
        penalty = {"minor_victory": 0, "victory_morale_2": -2, "victory_morale_4": -4}.get(key)
        for u in loser.units:
            if penalty is None:
                u.fate = "routs"
            else:
                roll_unit(u, penalty, "retreats", "routs")
        if penalty is None:
            decisions.append(
                Decision(
                    "unit_morale",
                    "§2.11",
                    None,
                    {},
                    {"fate": "routs"},
                    f"overwhelming victory: every unit of {loser.name} routs",
                )
            )
    elif loser is not None and key in ("attacker_holds_half", "attacker_holds_half_2", "defender_holds_half"):
        penalty = -2 if key.endswith("_2") else 0
        passed = [roll_unit(u, penalty, "holds", "fails") for u in loser.units]
        holds = sum(passed) * 2 >= len(passed)
        for u in loser.units:
            u.fate = "holds" if holds else "retreats"
        if not holds and key == "defender_holds_half":
            for u in loser.units:
                if u.nowhere_to_go:
                    roll_unit(u, nowhere, "holds", "surrenders")
        decisions.append(
            Decision(
                "army_morale",
                "§2.11",
                None,
                {"passed": sum(passed), "units": len(passed)},
                {"holds": holds},
                f"{sum(passed)} of {len(passed)} units of {loser.name} pass: the "
                f"army {'holds' if holds else 'retreats in good order'}",
            )
        )
    elif loser is not None and key in (
        "attacker_breaks",
        "attacker_breaks_2",
        "position_taken",
        "position_taken_captured",
    ):
        penalty = -2 if key in ("attacker_breaks_2", "position_taken_captured") else 0
        for u in loser.units:
            roll_unit(u, penalty, "retreats", "routs", retreat_needs_room=key.startswith("position"))
    return decisions


def casualty_offset(tables: Tables, row: int) -> int:
    """The casualty table's modifier to 4d on a row: round((30 − 10·r) / 3) by default (§2.12, [INF])."""
    r = max(tables.number("casualties.row_min"), min(tables.number("casualties.row_max"), row))
    numerator = 2 * (tables.number("casualties.offset_base") + tables.number("casualties.offset_per_row") * r)
    divisor = 2 * tables.number("casualties.offset_divisor")
    return (numerator + tables.number("casualties.offset_divisor")) // divisor


def _casualties(
    tables: Tables, setup: BattleSetup, outcome: Outcome, sides: Sequence[SideRun], battle_id: str, dice: Dice
) -> list[Decision]:
    decisions: list[Decision] = []
    a, b = sides
    diff = a.margin - b.margin
    per_point = tables.number("extraordinary.ts_per_point")
    for side in sides:
        row = diff if side is a else -diff
        roll = dice.roll(FOUR_D, f"casualty roll, {side.name}")
        side_rolls: list[Roll] = [roll]
        lines = []
        facts: list[Event] = []
        for u in side.units:
            shifts: dict[str, int] = {}
            if side.setup.role == "defender":
                starred = sum(v for k, v in side.setup.defensive.items() if k.startswith("*"))
                if starred:
                    shifts["fortification"] = starred
            armour = u.unit.profile.casualty_armour()
            if armour != "none":
                shifts[f"{armour} armour"] = tables.number(f"casualties.armour_{armour}")
            if u.fate == "routs":
                rout = dice.roll(die(6), f"rout row shift, {u.unit.name}")
                side_rolls.append(rout)
                shifts["routed (1d)"] = -rout.total
            if side.setup.intensity:
                shifts["intensity"] = -side.setup.intensity
            strength = max(u.ts_before, 1)
            strike = u.strike * per_point // strength if u.strike else 0
            heal = u.healing * per_point // strength if u.healing else 0
            if strike - heal:
                shifts["strike/healing"] = heal - strike
            unit_row = row + sum(shifts.values())
            pct = max(0, min(100, roll.total + casualty_offset(tables, unit_row)))
            men = u.unit.profile.men
            lost = -(-men * pct // 100)
            dead = lost // tables.number("casualties.dead_divisor")
            wounded = lost - dead
            after = troop_strength(tables, u.unit.profile, men=men - dead).total
            if setup.morale_ts:
                after = morale_adjusted_ts(tables, after, u.morale, u.base)
            u.ts = after
            shown = ", ".join(f"{k} {v:+d}" for k, v in shifts.items())
            lines.append(
                f"{u.unit.name} row {unit_row:+d}{f' ({shown})' if shown else ''} → {pct}%: {dead} dead, "
                f"{wounded} wounded"
            )
            facts.append(
                CasualtiesTaken(battle_id=battle_id, unit_id=u.unit.unit_id, percent=pct, dead=dead, wounded=wounded)
            )
            facts.append(UnitFate(battle_id=battle_id, unit_id=u.unit.unit_id, fate=u.fate))
        side.ts = sum(u.ts for u in side.units)
        decisions.append(
            Decision(
                "casualties",
                "§2.12",
                None,
                {"side": side.name, "row": row},
                {
                    "roll": roll.total,
                    "base_percent": max(0, roll.total + casualty_offset(tables, row)),
                    "ts_after": side.ts,
                },
                f"{side.name} casualties on row {row:+d}: 4d rolled {roll.total} → "
                f"{roll.total + casualty_offset(tables, row)}% before unit shifts; "
                + "; ".join(lines)
                + f"; TS after the battle {side.ts}",
                tuple(facts),
                tuple(side_rolls),
            )
        )
    return decisions


def resolve_battle(
    tables: Tables, setup: BattleSetup, roster: Mapping[str, ArmyUnit], battle_id: str, dice: Dice
) -> list[Decision]:
    """Resolve one battle day from the set-up; every step is a Decision, in the order rolled."""
    a, b = (_muster(tables, s, roster) for s in setup.sides)
    if not a.units or not b.units:
        raise InvalidInputError("each side needs at least one unit")
    names = {pc.side for pc in setup.pcs} - {a.name, b.name}
    if names:
        raise InvalidInputError(f"PCs on unknown side(s): {', '.join(sorted(names))}")
    for pc in setup.pcs:
        pc_side = a if pc.side == a.name else b
        if pc.unit is not None:
            _find(pc_side.units, pc.unit)
        if not tables.number("pc.risk_min") <= pc.risk <= tables.number("pc.risk_max"):
            raise InvalidInputError(f"{pc.name}'s Risk {pc.risk} is outside −6…+6")
    decisions = [_catastrophe(tables, a, b, dice), _catastrophe(tables, b, a, dice)]
    _apply_morale_ts(tables, (a, b), setup.morale_ts)
    _strategy_modifiers(tables, setup, a, b)
    decisions.append(_contest(tables, a, b, dice))
    outcome = _result(tables, setup, a, b)
    label = {"A": "Table A (open field)", "B": "Table B (defender wins)", "C": "Table C (attacker wins)"}[outcome.table]
    decisions.append(
        Decision(
            "result",
            "§2.11",
            None,
            {"table": outcome.table, "w": outcome.w},
            {"result": outcome.key, "winner": outcome.winner.name if outcome.winner else None},
            f"{label}, W = {outcome.w}: {outcome.key.replace('_', ' ')}"
            + (f"; {outcome.winner.name} has the better of it" if outcome.winner else ""),
        )
    )
    decisions += _morale_phase(tables, outcome, (a, b), dice)
    decisions += _casualties(tables, setup, outcome, (a, b), battle_id, dice)
    for pc in setup.pcs:
        mine = a if pc.side == a.name else b
        unit = _find(mine.units, pc.unit) if pc.unit else None
        losing = outcome.loser is mine
        defending = mine.setup.role == "defender"
        decisions += resolve_pc(
            tables,
            pc,
            battle_id,
            dice,
            tl=mine.setup.tl,
            losing=losing,
            contest_difference=outcome.w,
            defensive_bonus=sum(mine.setup.defensive.values()) if defending else 0,
            unit_routed=unit is not None and unit.fate in ("routs", "surrenders"),
        )
    winner = outcome.winner.name if outcome.winner and outcome.key != "no_clear_winner" else None
    decisions.append(
        Decision(
            "battle_end",
            "§2.11",
            None,
            {},
            {"result": outcome.key, "ts": {a.name: a.ts, b.name: b.ts}},
            f"{setup.name}, day {setup.day}: {outcome.key.replace('_', ' ')}; "
            f"TS after: {a.name} {a.ts}, {b.name} {b.ts}",
            (BattleEnded(battle_id=battle_id, result=outcome.key, winner=winner),),
        )
    )
    return decisions
