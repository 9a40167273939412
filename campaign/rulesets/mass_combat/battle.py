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

from campaign.rulesets.decision import Decision
from campaign.rulesets.mass_combat.pcs import resolve_pc
from campaign.rulesets.mass_combat.profile import UnitProfile
from campaign.rulesets.mass_combat.quality import base_morale, leadership_modifier
from campaign.rulesets.mass_combat.setup import BattleSetup, Side
from campaign.rulesets.mass_combat.strength import morale_adjusted_ts, troop_strength
from campaign.rulesets.mass_combat.tables import Tables
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
    strike_rows: int = 0
    healing_rows: int = 0
    nowhere_to_go: bool = False
    blocked: int = 0
    """Enemy Extraordinary Force points this unit's own side blocks (defence spells)."""


@dataclass
class SideRun:
    setup: Side
    units: list[UnitRun]
    strategy_mods: dict[str, int] = field(default_factory=dict)
    base_strategy: int = 0
    ts: int = 0
    margin: int = 0
    roll: int = 0
    catastrophe_bonus: int = 0
    """Added to this side's catastrophe roll by enemy Extraordinary Force."""
    army_defence: int = 0

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
            unit, base, base + unit.campaign_morale, dict(u.morale_mods), ts, ts, nowhere_to_go=u.nowhere_to_go
        )
        runs.append(run)
    if len({r.unit.unit_id for r in runs}) != len(runs):
        raise InvalidInputError(f"a unit is listed twice for {side.name}")
    return SideRun(side, runs, base_strategy=side.commander.strategy)


def _catastrophe(tables: Tables, me: SideRun, enemies: Sequence[SideRun], dice: Dice) -> Decision:
    bonus = me.catastrophe_bonus
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
    persist: list[dict[str, object]] = []
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
        for enemy in enemies:
            for u in enemy.units:
                u.ts = u.ts * (100 + pct) // 100
        effects.append(f"enemy TS +{pct}%")
    commander_lost = result >= 15  # 15–18: a leader wounded or killed: lasts until a clear victory (§2.11)
    if tables.has(f"{prefix}.morale_all") and tables.number(f"{prefix}.morale_all"):
        for u in me.units:
            u.morale += tables.number(f"{prefix}.morale_all")
        if commander_lost:
            persist.append({"side": me.name, "value": tables.number(f"{prefix}.morale_all")})
        effects.append(f"Morale {tables.number(f'{prefix}.morale_all'):+d} for every unit")
    if tables.has(f"{prefix}.morale_unit") or tables.has(f"{prefix}.defection"):
        target = _major_unit(tables, me)
        if tables.has(f"{prefix}.morale_unit"):
            target.morale += tables.number(f"{prefix}.morale_unit")
            if commander_lost:
                persist.append({"unit_id": target.unit.unit_id, "value": tables.number(f"{prefix}.morale_unit")})
            effects.append(f"{target.unit.name} Morale {tables.number(f'{prefix}.morale_unit'):+d}")
        if tables.has(f"{prefix}.defection"):
            me.units.remove(target)
            persist.append({"defected": target.unit.unit_id})
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
        {"side": me.name, "enemy_es_bonus": bonus},
        {"result": result, "effects": effects, "persist": persist},
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


def _spells(tables: Tables, sides: Sequence[SideRun]) -> list[Decision]:
    """Extraordinary Force (§2.13): each side's spells, less what the targets' own defence blocks."""
    per_point = tables.number("extraordinary.ts_per_point")
    every_unit = {u.unit.name: (side, u) for side in sides for u in side.units}
    for side in sides:
        for spell in side.setup.spells:
            if spell.kind != "defence":
                continue
            if spell.target is None:
                side.army_defence += spell.points // 2
            else:
                owner, unit = every_unit.get(spell.target, (None, None))
                if unit is None or owner is not side:
                    raise InvalidInputError(f"{side.name} can only shield its own units, not {spell.target!r}")
                unit.blocked += spell.points
    decisions: list[Decision] = []
    for side in sides:
        lines = []
        for spell in side.setup.spells:
            if spell.kind == "defence":
                lines.append(f"defence {spell.points} on {spell.target or 'the whole army'}")
                continue
            if spell.kind == "recon":
                gain = spell.points // 3
                side.strategy_mods["recon (Extraordinary Force)"] = (
                    side.strategy_mods.get("recon (Extraordinary Force)", 0) + gain
                )
                lines.append(f"recon {spell.points} points → Strategy +{gain}")
                continue
            if spell.kind == "catastrophe":
                enemies = [s for s in sides if s is not side]
                target = (
                    next((s for s in enemies if s.name == spell.target), None)
                    if spell.target
                    else (enemies[0] if len(enemies) == 1 else None)
                )
                if target is None:
                    raise InvalidInputError("with several enemies, a catastrophe spell names the side it curses")
                blocked = min(spell.points, target.army_defence * 2)
                target.army_defence -= blocked // 2
                bonus = (spell.points - blocked) // tables.number("catastrophe.rules.es_per_point")
                target.catastrophe_bonus += bonus
                lines.append(f"{spell.points} points on {target.name}'s catastrophe roll → +{bonus}")
                continue
            owner, unit = every_unit.get(spell.target or "", (None, None))
            if unit is None or owner is None:
                raise InvalidInputError(f"no unit {spell.target!r} in this battle")
            points = spell.points
            if owner is not side:
                stopped = min(points, unit.blocked)
                unit.blocked -= stopped
                points -= stopped
            effect = points * per_point // max(unit.ts, 1)
            if spell.kind == "morale":
                unit.morale += effect * spell.direction
                lines.append(f"Morale {effect * spell.direction:+d} on {unit.unit.name} (TS {unit.ts})")
            elif spell.kind == "strike":
                unit.strike_rows += effect
                lines.append(f"Strike on {unit.unit.name}: {effect} row(s) up")
            else:
                unit.healing_rows += effect
                lines.append(f"Healing on {unit.unit.name}: {effect} row(s) down")
        if side.setup.spells:
            decisions.append(
                Decision(
                    "extraordinary_force",
                    "§2.13",
                    None,
                    {"side": side.name, "es": side.setup.es},
                    {"spent": sum(sp.points for sp in side.setup.spells)},
                    f"{side.name} spends Extraordinary Force: " + "; ".join(lines),
                )
            )
    return decisions


def _apply_morale_ts(tables: Tables, sides: Sequence[SideRun], enabled: bool) -> None:
    for side in sides:
        for u in side.units:
            if enabled:
                u.ts = morale_adjusted_ts(tables, u.ts, u.morale, u.base)
        side.ts = sum(u.ts for u in side.units)


def _category_ts(sides: Sequence[SideRun], category: str) -> tuple[int, int]:
    real = sum(u.ts for side in sides for u in side.units if category in u.unit.profile.special_categories())
    neutral = sum(u.ts for side in sides for u in side.units if f"neutralizes:{category}" in u.unit.profile.categories)
    return real, neutral


def _strategy_modifiers(tables: Tables, setup: BattleSetup, sides: Sequence[SideRun]) -> None:
    """Each side against its opponents; with several, their average TS (the seed's several-opponents rule)."""
    high_tl = max(s.setup.tl for s in sides)
    categories = ["artillery", "armour", "air"] if high_tl >= 6 else (["artillery"] if setup.siege else ["cavalry"])
    if high_tl < 6:
        categories.append("missile")
    for side in sides:
        others = [s for s in sides if s is not side]
        enemy_ts = sum(s.ts for s in others) // len(others)
        if enemy_ts > 0 and side.ts > enemy_ts:
            ratio_pm = side.ts * 1000 // enemy_ts
            bonus = tables.step_bonus("ts_ratio.steps", ratio_pm)
            enemy_tl = max(s.setup.tl for s in others)
            if side.setup.tl - enemy_tl >= tables.number("ts_ratio.tl_lead_for_beyond_cap") and ratio_pm >= 20000:
                bonus += (ratio_pm // 10000 - 1) * tables.number("ts_ratio.beyond_cap_per_ten")
            if bonus:
                side.strategy_mods[f"TS {side.ts}:{enemy_ts} = {ratio_pm / 1000:.2f}"] = bonus
        enemy_tl = max(s.setup.tl for s in others)
        if side.setup.tl > enemy_tl:
            diff = side.setup.tl - enemy_tl
            side.strategy_mods[f"TL {side.setup.tl} vs {enemy_tl}"] = diff + tables.number("tl.bonus_over_difference")
        for category in categories:
            (mine, my_neutral), (theirs, their_neutral) = _category_ts([side], category), _category_ts(others, category)
            # Neutralizing troops count for the side with fewer real specials.
            if mine < theirs:
                mine += my_neutral
            elif theirs < mine:
                theirs += their_neutral
            if mine <= theirs:
                continue
            ratio_pm = mine * 1000 // theirs if theirs else tables.number("special.none_counts_as")
            bonus = tables.step_bonus("special.steps", ratio_pm)
            if bonus:
                side.strategy_mods[f"{category} {mine}:{theirs}" if theirs else f"{category}: the enemy has none"] = (
                    bonus
                )
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


def _contest(tables: Tables, sides: Sequence[SideRun], dice: Dice) -> Decision:
    parts = []
    rolls: list[Roll] = []
    effective: dict[str, int] = {s.name: 0 for s in sides}
    for side in sides:
        if not side.units:
            # Every unit defected: an army with no troops cannot contest the field [INF].
            side.margin = -100
            parts.append(f"{side.name} has no troops left and cannot fight")
            continue
        skill, which = _effective_skill(side, tables)
        total = sum(side.strategy_mods.values())
        effective[side.name] = skill + total
        roll = dice.roll(THREE_D, f"{which} roll, {side.name}")
        rolls.append(roll)
        side.roll, side.margin = roll.total, effective[side.name] - roll.total
        mods = ", ".join(f"{k} {v:+d}" for k, v in side.strategy_mods.items()) or "none"
        parts.append(
            f"{side.name}: {which} {skill} {total:+d} ({mods}) = {effective[side.name]}, rolled {roll.total} "
            f"→ margin {side.margin:+d}"
        )
    best = max(s.margin for s in sides)
    for side in sides:
        # A commander with Luck may have the contest rerolled (§2.11); he keeps the better roll.
        if side.units and side.setup.commander.luck and side.margin < best:
            again = dice.roll(THREE_D, f"Luck reroll of the contest, {side.name}")
            rolls.append(again)
            margin = effective[side.name] - again.total
            parts.append(f"{side.name} uses Luck: rolled {again.total} → margin {margin:+d}")
            side.margin = max(side.margin, margin)
    ranked = sorted(sides, key=lambda s: -s.margin)
    diff = ranked[0].margin - ranked[1].margin
    return Decision(
        "strategy_contest",
        "§2.10–2.11",
        None,
        {"modifiers": {s.name: dict(s.strategy_mods) for s in sides}, "ts": {s.name: s.ts for s in sides}},
        {"margins": {s.name: s.margin for s in sides}, "difference": diff},
        "Quick Contest — " + "; ".join(parts) + f"; difference {diff} to {ranked[0].name}",
        (),
        tuple(rolls),
    )


@dataclass(frozen=True)
class Defeat:
    side: SideRun
    w: int
    key: str


@dataclass(frozen=True)
class Outcome:
    table: str
    winner: SideRun
    defeats: tuple[Defeat, ...]

    @property
    def w(self) -> int:
        return min(d.w for d in self.defeats)

    @property
    def key(self) -> str:
        return min(self.defeats, key=lambda d: d.w).key

    @property
    def clear(self) -> bool:
        return self.key not in ("no_clear_winner",)

    def lost(self, side: SideRun) -> bool:
        return any(d.side is side and d.key != "no_clear_winner" for d in self.defeats)


def _result(tables: Tables, setup: BattleSetup, sides: Sequence[SideRun]) -> Outcome:
    ranked = sorted(sides, key=lambda s: -s.margin)
    winner = ranked[0]
    if setup.kind == "open_field":
        defeats = tuple(
            Defeat(s, winner.margin - s.margin, tables.band("results.open_field", winner.margin - s.margin))
            for s in ranked[1:]
        )
        return Outcome("A", winner, defeats)
    attacker = next(s for s in sides if s.setup.role == "attacker")
    defender = next(s for s in sides if s.setup.role == "defender")
    w = abs(attacker.margin - defender.margin)
    if attacker.margin > defender.margin:
        return Outcome("C", attacker, (Defeat(defender, w, tables.band("results.attacker_wins", w)),))
    return Outcome("B", defender, (Defeat(attacker, w, tables.band("results.defender_wins", w)),))


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


def _morale_phase(tables: Tables, outcome: Outcome, dice: Dice) -> list[Decision]:
    decisions: list[Decision] = []
    fail_rout = tables.number("results.retreat_fail_by")
    nowhere = tables.number("results.nowhere_to_go_bonus")

    def roll_unit(u: UnitRun, key: str, penalty: int, on_pass: str, on_fail: str, *, needs_room: bool = False) -> bool:
        roll, margin, detail = _morale_roll(dice, u, penalty)
        fate = on_pass if margin >= 0 else on_fail
        if key == "no_clear_winner" and margin < 0:
            fate = "retreats" if -margin < fail_rout else "routs"
        extra_rolls = [roll]
        if fate == "retreats" and u.nowhere_to_go and needs_room:
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

    if any(d.key == "no_clear_winner" for d in outcome.defeats):
        for u in outcome.winner.units:
            roll_unit(u, "no_clear_winner", 0, "holds", "retreats")
    for defeat in outcome.defeats:
        loser, key = defeat.side, defeat.key
        if key == "no_clear_winner":
            for u in loser.units:
                roll_unit(u, key, 0, "holds", "retreats")
        elif outcome.table == "A":
            penalty = {"minor_victory": 0, "victory_morale_2": -2, "victory_morale_4": -4}.get(key)
            if penalty is None:
                for u in loser.units:
                    u.fate = "routs"
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
            else:
                for u in loser.units:
                    roll_unit(u, key, penalty, "retreats", "routs")
        elif key in ("attacker_holds_half", "attacker_holds_half_2", "defender_holds_half"):
            penalty = -2 if key.endswith("_2") else 0
            passed = [roll_unit(u, key, penalty, "holds", "fails") for u in loser.units]
            holds = sum(passed) * 2 >= len(passed)
            for u in loser.units:
                u.fate = "holds" if holds else "retreats"
            if not holds and key == "defender_holds_half":
                for u in loser.units:
                    if u.nowhere_to_go:
                        roll_unit(u, key, nowhere, "holds", "surrenders")
            decisions.append(
                Decision(
                    "army_morale",
                    "§2.11",
                    None,
                    {"passed": sum(passed), "units": len(passed)},
                    {"holds": holds},
                    f"{sum(passed)} of {len(passed)} units of {loser.name} pass: the army "
                    f"{'holds' if holds else 'retreats in good order'}",
                )
            )
        elif key in ("attacker_breaks", "attacker_breaks_2", "position_taken", "position_taken_captured"):
            penalty = -2 if key in ("attacker_breaks_2", "position_taken_captured") else 0
            for u in loser.units:
                roll_unit(u, key, penalty, "retreats", "routs", needs_room=key.startswith("position"))
    return decisions


def casualty_offset(tables: Tables, row: int) -> int:
    """The casualty table's modifier to 4d on a row: round((30 − 10·r) / 3) by default (§2.12, [INF])."""
    r = max(tables.number("casualties.row_min"), min(tables.number("casualties.row_max"), row))
    numerator = 2 * (tables.number("casualties.offset_base") + tables.number("casualties.offset_per_row") * r)
    divisor = 2 * tables.number("casualties.offset_divisor")
    return (numerator + tables.number("casualties.offset_divisor")) // divisor


def _side_row(outcome: Outcome, side: SideRun) -> int:
    """+W for the winner (against the closest loser), −W for each loser."""
    if side is outcome.winner:
        return outcome.w
    return -next(d.w for d in outcome.defeats if d.side is side)


def _captured_artillery(outcome: Outcome, lost: Mapping[str, dict[str, int]]) -> str:
    """Lost artillery goes to the victor; after a draw each side keeps half of its own, the rest is destroyed."""
    notes = []
    for side_name, items in lost.items():
        for item, count in items.items():
            if not count:
                continue
            if outcome.clear and side_name != outcome.winner.name:
                notes.append(f"{outcome.winner.name} captures {count} {item.replace('_', ' ')} of {side_name}")
            elif not outcome.clear:
                notes.append(
                    f"{side_name} keeps {count // 2} of {count} lost {item.replace('_', ' ')}, the rest is destroyed"
                )
    return "; ".join(notes)


def _casualties(
    tables: Tables, setup: BattleSetup, outcome: Outcome, sides: Sequence[SideRun], battle_id: str, dice: Dice
) -> list[Decision]:
    decisions: list[Decision] = []
    lost_artillery: dict[str, dict[str, int]] = {}
    for side in sides:
        row = _side_row(outcome, side)
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
            if u.healing_rows - u.strike_rows:
                shifts["strike/healing"] = u.healing_rows - u.strike_rows
            unit_row = row + sum(shifts.values())
            pct = max(0, min(100, roll.total + casualty_offset(tables, unit_row)))
            men = u.unit.profile.men
            lost = -(-men * pct // 100)
            dead = lost // tables.number("casualties.dead_divisor")
            wounded = lost - dead
            for item, count in u.unit.profile.special.items():
                if "artillery" in item or "siege" in item or "ballista" in item:
                    lost_artillery.setdefault(side.name, {})[item] = count * pct // 100
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
        base_pct = max(0, min(100, roll.total + casualty_offset(tables, row)))
        decisions.append(
            Decision(
                "casualties",
                "§2.12",
                None,
                {"side": side.name, "row": row},
                {"roll": roll.total, "base_percent": base_pct, "ts_after": side.ts},
                f"{side.name} casualties on row {row:+d}: 4d rolled {roll.total} → {base_pct}% before unit shifts; "
                + "; ".join(lines)
                + f"; TS after the battle {side.ts}",
                tuple(facts),
                tuple(side_rolls),
            )
        )
    captured = _captured_artillery(outcome, lost_artillery)
    if captured:
        decisions.append(Decision("artillery", "§2.12", None, {}, {"lost": lost_artillery}, captured))
    return decisions


def resolve_battle(
    tables: Tables, setup: BattleSetup, roster: Mapping[str, ArmyUnit], battle_id: str, dice: Dice
) -> list[Decision]:
    """Resolve one battle day from the set-up; every step is a Decision, in the order rolled."""
    sides = [_muster(tables, s, roster) for s in setup.sides]
    if any(not side.units for side in sides):
        raise InvalidInputError("each side needs at least one unit")
    by_name = {side.name: side for side in sides}
    unknown = {pc.side for pc in setup.pcs} - set(by_name)
    if unknown:
        raise InvalidInputError(f"PCs on unknown side(s): {', '.join(sorted(unknown))}")
    for pc in setup.pcs:
        if pc.unit is not None:
            _find(by_name[pc.side].units, pc.unit)
        if not tables.number("pc.risk_min") <= pc.risk <= tables.number("pc.risk_max"):
            raise InvalidInputError(f"{pc.name}'s Risk {pc.risk} is outside −6…+6")
    decisions = _spells(tables, sides)
    decisions += [_catastrophe(tables, side, [s for s in sides if s is not side], dice) for side in sides]
    _apply_morale_ts(tables, sides, setup.morale_ts)
    _strategy_modifiers(tables, setup, sides)
    decisions.append(_contest(tables, sides, dice))
    outcome = _result(tables, setup, sides)
    label = {"A": "Table A (open field)", "B": "Table B (defender wins)", "C": "Table C (attacker wins)"}[outcome.table]
    decisions.append(
        Decision(
            "result",
            "§2.11",
            None,
            {"table": outcome.table, "w": outcome.w},
            {"result": outcome.key, "winner": outcome.winner.name},
            f"{label}, W = {outcome.w}: {outcome.key.replace('_', ' ')}; {outcome.winner.name} has the better of it"
            + "".join(f"; against {d.side.name} (W {d.w}): {d.key.replace('_', ' ')}" for d in outcome.defeats[1:]),
        )
    )
    decisions += _morale_phase(tables, outcome, dice)
    decisions += _casualties(tables, setup, outcome, sides, battle_id, dice)
    for pc in setup.pcs:
        mine = by_name[pc.side]
        # The PC's unit may have defected in a catastrophe; he fights on without it.
        unit = next((u for u in mine.units if u.unit.name == pc.unit), None) if pc.unit else None
        defending = mine.setup.role == "defender"
        decisions += resolve_pc(
            tables,
            pc,
            battle_id,
            dice,
            tl=mine.setup.tl,
            losing=outcome.lost(mine),
            contest_difference=abs(_side_row(outcome, mine)),
            defensive_bonus=sum(mine.setup.defensive.values()) if defending else 0,
            unit_routed=unit is not None and unit.fate in ("routs", "surrenders"),
        )
    winner = outcome.winner.name if outcome.clear else None
    ts_text = ", ".join(f"{s.name} {s.ts}" for s in sides)
    decisions.append(
        Decision(
            "battle_end",
            "§2.11",
            None,
            {},
            {"result": outcome.key, "winner": winner, "ts": {s.name: s.ts for s in sides}},
            f"{setup.name}, day {setup.day}: {outcome.key.replace('_', ' ')}; TS after: {ts_text}",
            (BattleEnded(battle_id=battle_id, result=outcome.key, winner=winner),),
        )
    )
    return decisions
