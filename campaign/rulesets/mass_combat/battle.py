"""A Mass Combat battle day, resolved in order (RULES.md §2.8–§2.12).

Dice are rolled in this order, which is the order table dice are entered in: each side's catastrophe
(3d, a reroll for a lucky commander whose roll hurts; then a die drawing the unit it falls on at 14, 15 or 17
when the GM names none, and each unit's Morale roll on a 13); for each PC: Survival (3d) and its damage dice,
Glory (3d) and its duration, promotion or high command's reaction rolls; each side's Strategy roll (3d); each
unit's Morale roll where the result table calls for one (3d, sides in order); each side's casualty roll (4d),
then 1d for each routed unit; then a second Survival roll for each PC who makes one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from campaign.rulesets.common import did_you_mean
from campaign.rulesets.decision import Decision
from campaign.rulesets.mass_combat.aftermath import (
    Outcome,
    casualties,
    casualty_offset,
    morale_phase,
    next_day_morale,
    result_of,
    side_row,
)
from campaign.rulesets.mass_combat.extraordinary import spend_force
from campaign.rulesets.mass_combat.pcs import first_rolls, second_roll
from campaign.rulesets.mass_combat.position import position
from campaign.rulesets.mass_combat.quality import base_morale, exempt_from_morale, leadership_modifier
from campaign.rulesets.mass_combat.runs import ArmyUnit, SideRun, UnitRun, find_unit
from campaign.rulesets.mass_combat.setup import BattleSetup, PcInBattle, Side
from campaign.rulesets.mass_combat.strength import morale_adjusted_ts, troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from events.dice import Dice, Roll, die, parse
from events.errors import InvalidInputError
from events.families.battle import BattleEnded
from events.recorded import JsonValue

__all__ = ["ArmyUnit", "casualty_offset", "resolve_battle"]

THREE_D = parse("3d")
FOUR_D = parse("4d")


def _muster(tables: Tables, side: Side, roster: Mapping[str, ArmyUnit]) -> SideRun:
    runs = []
    for u in side.units:
        unit = roster.get(u.unit)
        if unit is None:
            raise InvalidInputError.saying(
                "unknown unit {name!r}{hint}", name=u.unit, hint=did_you_mean(u.unit, roster)
            )
        if unit.side != side.name:
            raise InvalidInputError.saying(
                "{unit} fights for {side!r}, not {other!r}", unit=unit.name, side=unit.side, other=side.name
            )
        p = unit.profile
        base = base_morale(tables, p.quality, irregular=p.irregular) + leadership_modifier(tables, p.leader_leadership)
        ts = troop_strength(tables, p).total
        exempt = exempt_from_morale(tables, p)
        run = UnitRun(
            unit,
            base,
            base + (0 if exempt else unit.campaign_morale),
            dict(u.morale_mods),
            ts,
            ts,
            nowhere_to_go=u.nowhere_to_go,
            exempt=exempt,
        )
        runs.append(run)
    if len({r.unit.unit_id for r in runs}) != len(runs):
        raise InvalidInputError.saying("a unit is listed twice for {side}", side=side.name)
    return SideRun(side, runs, base_strategy=side.commander.strategy)


def _picked_pc(result: int, me: SideRun, target: UnitRun | None, pcs: Sequence[PcInBattle]) -> PcInBattle | None:
    """The PC a catastrophe 17 or 18 falls on (R2-14): the leader of the unit picked, or the army's commander."""
    for pc in pcs:
        if pc.side != me.name:
            continue
        if result == 17 and target is not None and pc.leads == "unit" and pc.unit == target.unit.name:
            return pc
        if result == 18 and pc.leads == "army":
            return pc
    return None


def _catastrophe(  # noqa: C901, PLR0912, PLR0915 (RULES.md's steps, in its order)
    tables: Tables, me: SideRun, enemies: Sequence[SideRun], dice: Dice, pcs: Sequence[PcInBattle] = ()
) -> Decision:
    """§2.8 with R2-10 and R2-14: only a leader who really died (17, 18) leaves a penalty that outlasts the battle;
    a side-wide part is recorded on each unit present, unless the tables say it reaches later units too."""
    bonus = me.catastrophe_bonus
    roll = dice.roll(THREE_D, f"catastrophe roll, {me.name}", side=me.name)
    rolls: list[Roll] = [roll]
    result = min(18, roll.total + bonus)
    notes = [f"3d rolled {roll.total}" + (f" + {bonus} (enemy Extraordinary Force)" if bonus else "")]
    none_to = tables.catastrophe.table.none_to
    if result > none_to and me.setup.commander.luck:
        again = dice.roll(THREE_D, f"catastrophe reroll (Luck), {me.name}", side=me.name)
        rolls.append(again)
        result = min(result, 18, again.total + bonus)
        notes.append(f"Luck reroll {again.total} → {result}")
        luck: JsonValue = again.total
    else:
        luck = None
    effects: list[str] = []
    # each effect as data, beside its words (the ruleset's said.py); verify compares outcomes, never inputs
    said: list[JsonValue] = []
    if result <= none_to:
        effects.append("no catastrophe")
        said.append(["none"])
    row = tables.catastrophe_effect(result)

    def on(effect: str) -> bool:  # a flag effect (defection, atrocity, halved Strategy) a house rule may turn off
        return bool(
            {"defection": row.defection, "atrocity": row.atrocity, "halve_strategy": row.halve_strategy}[effect]
        )

    target = _major_unit(tables, me, dice, rolls) if row.morale_unit is not None or result == 17 else None
    defector = _defector(tables, me, dice, rolls, pcs) if on("defection") else None
    picked = _picked_pc(result, me, target, pcs)
    if picked is not None:
        effects.append(f"{picked.name} (a PC) is wounded and unconscious, not killed: no further rolls for him")
        said.append(["pc_out", picked.name])
    lasting = result in tables.catastrophe.rules.lasting and picked is None
    lasting_mods: dict[str, int] = {}
    side_wide: list[JsonValue] = []
    if row.strategy:
        me.strategy_mods[f"catastrophe {result}"] = row.strategy
        effects.append(f"Strategy {row.strategy:+d}")
        said.append(["strategy", row.strategy])
    if on("halve_strategy"):
        me.base_strategy = -(-me.base_strategy // 2)
        effects.append(f"army commander out: base Strategy halved to {me.base_strategy}")
        said.append(["halved", me.base_strategy])
    if row.enemy_ts_pct is not None:
        pct = row.enemy_ts_pct
        for enemy in enemies:
            for u in enemy.units:
                u.ts = u.ts * (100 + pct) // 100
        effects.append(f"enemy TS +{pct}%")
        said.append(["enemy_ts", pct])
    if row.morale_all:
        value = row.morale_all
        for u in me.units:
            if not u.exempt:
                u.morale += value
                if lasting and not tables.catastrophe.rules.lasting_reaches_later_units:
                    lasting_mods[u.unit.unit_id] = lasting_mods.get(u.unit.unit_id, 0) + value
        if lasting and tables.catastrophe.rules.lasting_reaches_later_units:
            side_wide.append({"side": me.name, "value": value})
        effects.append(f"Morale {value:+d} for every unit")
        said.append(["morale_all", value])
    persist: list[JsonValue] = []
    if target is not None and row.morale_unit is not None and not target.exempt:
        value = row.morale_unit
        target.morale += value
        if lasting:
            lasting_mods[target.unit.unit_id] = lasting_mods.get(target.unit.unit_id, 0) + value
        effects.append(f"{target.unit.name} Morale {value:+d}")
        said.append(["morale_unit", target.unit.name, value])
    if on("defection") and defector is None:
        effects.append("no unit can defect (the army commander's own and the PCs' are loyal)")
        said.append(["no_defector"])
    elif defector is not None:
        me.units.remove(defector)
        if tables.catastrophe.rules.defection_goes == "to_enemy" and enemies:
            joined = enemies[0]  # with several enemies, the first the set-up lists [INF]
            joined.units.append(defector)
            persist.append({"went_over": defector.unit.unit_id, "to": joined.name})
            effects.append(f"{defector.unit.name} goes over to {joined.name} with its troops (TS {defector.ts})")
            said.append(["went_over", defector.unit.name, joined.name, defector.ts])
        else:
            persist.append({"defected": defector.unit.unit_id})
            effects.append(f"{defector.unit.name} defects with its troops")
            said.append(["defected", defector.unit.name])
    persist += [{"unit_id": unit_id, "value": value} for unit_id, value in lasting_mods.items() if value]
    persist += side_wide
    if lasting and (lasting_mods or side_wide):
        effects.append("the Morale loss lasts until a clear victory")
        said.append(["lasting"])
    atrocity: dict[str, int] = {}
    if on("atrocity"):
        effects.append(_atrocity(tables, me, dice, rolls, atrocity, said))
    return Decision(
        "catastrophe",
        "§2.8",
        None,
        {"side": me.name, "enemy_es_bonus": bonus, "roll": roll.total, "luck": luck, "said": said},
        {
            "result": result,
            "effects": list(effects),
            "persist": persist,
            "knocked_out_pc": picked.name if picked is not None else "",
            **({"atrocity": dict(atrocity)} if atrocity else {}),
        },
        f"{me.name} catastrophe: {'; '.join(notes)} → {result}: {'; '.join(effects)}",
        (),
        tuple(rolls),
    )


def _atrocity(
    tables: Tables, me: SideRun, dice: Dice, rolls: list[Roll], changes: dict[str, int], said: list[JsonValue]
) -> str:
    """Catastrophe 13 (R3-16): every unit subject to Morale rolls 3d against its Morale now; made → +1, failed →
    −1, on that unit, for this battle. ``catastrophe.rules.atrocity_roll`` "army_average" (C-14) makes one roll
    against the units' average Morale, rounded down, its result on every unit. ``changes`` gets each unit's."""
    subject = [u for u in me.units if not u.exempt]
    if tables.catastrophe.rules.atrocity_roll == "army_average":
        average = sum(u.morale for u in subject) // max(1, len(subject))
        anger = dice.roll(THREE_D, f"army Morale roll after an enemy atrocity, {me.name}", side=me.name)
        rolls.append(anger)
        change = 1 if anger.total <= average else -1
        for u in subject:
            u.morale += change
            changes[u.unit.name] = change
        said.append(["atrocity_army", anger.total, average, change])
        return f"atrocity: army Morale roll {anger.total} vs {average} → Morale {change:+d} for every unit"
    parts = []
    each: list[JsonValue] = []
    for u in subject:
        anger = dice.roll(THREE_D, f"Morale roll after an enemy atrocity, {u.unit.name}", side=u.unit.side)
        rolls.append(anger)
        change = 1 if anger.total <= u.morale else -1
        parts.append(f"{u.unit.name} Morale {u.morale}, rolled {anger.total} → {change:+d}")
        each.append([u.unit.name, u.morale, anger.total, change])
        u.morale += change
        changes[u.unit.name] = change
    said.append(["atrocity_each", each])
    return "atrocity: each unit rolls its Morale: " + ("; ".join(parts) or "none is subject to Morale")


DRAW_DICE = (6, 8, 10, 12, 20, 100)
"""The dice a unit is drawn with (R3-18): the smallest with as many faces as there are candidates."""


def _drawn(dice: Dice, candidates: Sequence[UnitRun], purpose: str, rolls: list[Roll], side: str) -> UnitRun:
    """One of ``candidates`` by a die (R3-18): 1d6, a result above their number rolled again; result k is the
    k-th. More than six (a defection, R3-17, draws among every unit) take the smallest die that has enough faces
    [INF]."""
    if len(candidates) == 1:
        return candidates[0]
    sides = next((d for d in DRAW_DICE if d >= len(candidates)), None)
    if sides is None:
        raise InvalidInputError.saying(
            "{count} units to draw from: name the one the catastrophe falls on (catastrophe_unit)",
            count=len(candidates),
        )
    while True:
        drawn = dice.roll(die(sides), purpose, side=side)
        rolls.append(drawn)
        if drawn.total <= len(candidates):
            return candidates[drawn.total - 1]


def _major_unit(tables: Tables, side: SideRun, dice: Dice, rolls: list[Roll]) -> UnitRun | None:
    """The major unit catastrophes 15 and 17 fall on (R3-18): the one the GM names; otherwise one of the units with
    at least ``catastrophe.rules.major_unit_ts_pct`` (20 %) of the side's TS, in the order the set-up lists them,
    drawn by a die; with none, ``catastrophe.rules.no_major_unit``: the largest (the first listed on a tie), or
    none. ``major_unit_pick`` "largest" always takes the largest major unit (the second edition's reading)."""
    if side.setup.catastrophe_unit:
        return find_unit(side.units, side.setup.catastrophe_unit)
    total = sum(u.ts for u in side.units)
    pct = tables.catastrophe.rules.major_unit_ts_pct
    majors = [u for u in side.units if u.ts * 100 >= total * pct]
    if tables.catastrophe.rules.major_unit_pick == "largest":
        return max(majors or side.units, key=lambda u: (u.ts, u.unit.name))
    if not majors:
        if tables.catastrophe.rules.no_major_unit == "none" or not side.units:
            return None
        return max(side.units, key=lambda u: (u.ts, -side.units.index(u)))
    return _drawn(dice, majors, f"which major unit, {side.name}", rolls, side.name)


def _defector(
    tables: Tables, side: SideRun, dice: Dice, rolls: list[Roll], pcs: Sequence[PcInBattle]
) -> UnitRun | None:
    """The unit that defects at catastrophe 14 (R3-17): the one the GM names; otherwise one drawn by R3-18's die
    among all the side's units but the army commander's own and those PCs lead (a PC's loyalty is his player's)."""
    if side.setup.catastrophe_unit:
        return find_unit(side.units, side.setup.catastrophe_unit)
    loyal = {side.setup.commander.unit} | {
        pc.unit for pc in pcs if pc.side == side.name and pc.leads != "nothing" and pc.unit is not None
    }
    candidates = [u for u in side.units if u.unit.name not in loyal]
    if not candidates:
        return None
    return _drawn(dice, candidates, f"which unit defects, {side.name}", rolls, side.name)


def _apply_morale_ts(tables: Tables, sides: Sequence[SideRun], enabled: bool) -> None:
    for side in sides:
        for u in side.units:
            if enabled and not u.exempt:  # R2-26: §2.7 does not apply to troops not subject to Morale
                u.ts = morale_adjusted_ts(tables, u.ts, u.morale, u.base)
        side.ts = sum(u.ts for u in side.units)


def _category_ts(sides: Sequence[SideRun], category: str) -> tuple[int, int]:
    real = sum(u.ts for side in sides for u in side.units if category in u.unit.profile.special_categories())
    neutral = sum(u.ts for side in sides for u in side.units if f"neutralizes:{category}" in u.unit.profile.categories)
    return real, neutral


def _strategy_modifiers(tables: Tables, setup: BattleSetup, sides: Sequence[SideRun]) -> None:  # noqa: C901 (RULES.md's steps, in its order)
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
            bonus = tables.step_bonus(tables.ts_ratio.steps, ratio_pm)
            enemy_tl = max(s.setup.tl for s in others)
            if side.setup.tl - enemy_tl >= tables.ts_ratio.tl_lead_for_beyond_cap and ratio_pm >= 20000:
                bonus += (ratio_pm // 10000 - 1) * tables.ts_ratio.beyond_cap_per_ten
            if bonus:
                side.strategy_mods[f"TS {side.ts}:{enemy_ts} = {ratio_pm / 1000:.2f}"] = bonus
        enemy_tl = max(s.setup.tl for s in others)
        if side.setup.tl > enemy_tl:
            diff = side.setup.tl - enemy_tl
            side.strategy_mods[f"TL {side.setup.tl} vs {enemy_tl}"] = diff + tables.tl.bonus_over_difference
        for category in categories:
            (mine, my_neutral), (theirs, their_neutral) = _category_ts([side], category), _category_ts(others, category)
            # Neutralizing troops count for the side with fewer real specials.
            if mine < theirs:
                mine += my_neutral
            elif theirs < mine:
                theirs += their_neutral
            if mine <= theirs:
                continue
            ratio_pm = mine * 1000 // theirs if theirs else tables.special.none_counts_as
            bonus = tables.step_bonus(tables.special.steps, ratio_pm)
            if bonus:
                side.strategy_mods[f"{category} {mine}:{theirs}" if theirs else f"{category}: the enemy has none"] = (
                    bonus
                )
        s = side.setup
        for name, value in s.circumstances.items():
            if name != "home_soil":  # home soil is weighed against a fortification (R2-17)
                side.strategy_mods[name.replace("_", " ")] = value
        for name, value in (("battle plan", s.plan), ("recon", s.recon), ("diviner", s.diviner), ("GM", s.misc)):
            if value:
                side.strategy_mods[name] = value
        held = position(tables, s, enemy_artillery_or_sappers=setup.attacker_has_artillery_or_sappers)
        side.strategy_mods.update(held.strategy)


def _effective_skill(tables: Tables, side: SideRun, sides: Sequence[SideRun]) -> tuple[int, str]:
    """Tactics instead of Strategy when the whole battle has fewer than 200 men (R2-15): every side's men at the
    contest, after defections, the crews of crewed objects included; ``results.tactics_counts`` "side" counts each
    side's own instead."""
    counted = sides if tables.results.tactics_counts == "battle" else [side]
    men = sum(u.unit.profile.all_men for s in counted for u in s.units)
    commander = side.setup.commander
    if men < tables.results.tactics_under_men and commander.tactics is not None:
        return commander.tactics, "Tactics"
    return side.base_strategy, "Strategy"


def _contest(tables: Tables, sides: Sequence[SideRun], dice: Dice) -> Decision:
    parts = []
    rolls: list[Roll] = []
    effective: dict[str, int] = {s.name: 0 for s in sides}
    # what the sentence states, step by step, as data (the ruleset's said.py); verify compares outcomes, never inputs
    steps: list[JsonValue] = []
    for side in sides:
        if not side.units:
            # Every unit defected: an army with no troops cannot contest the field [INF].
            side.margin = -100
            parts.append(f"{side.name} has no troops left and cannot fight")
            steps.append(["no_troops", side.name])
            continue
        skill, which = _effective_skill(tables, side, sides)
        total = sum(side.strategy_mods.values())
        effective[side.name] = skill + total
        roll = dice.roll(THREE_D, f"{which} roll, {side.name}", side=side.name)
        rolls.append(roll)
        side.roll, side.margin = roll.total, effective[side.name] - roll.total
        mods = ", ".join(f"{k} {v:+d}" for k, v in side.strategy_mods.items()) or "none"
        listed: list[JsonValue] = [[k, v] for k, v in side.strategy_mods.items()]  # in order: the log sorts a mapping
        steps.append(["roll", side.name, which, skill, total, effective[side.name], roll.total, side.margin, listed])
        parts.append(
            f"{side.name}: {which} {skill} {total:+d} ({mods}) = {effective[side.name]}, rolled {roll.total} "
            f"→ margin {side.margin:+d}"
        )
    best = max(s.margin for s in sides)
    for side in sides:
        # A commander with Luck may have the contest rerolled (§2.11); he keeps the better roll.
        if side.units and side.setup.commander.luck and side.margin < best:
            again = dice.roll(THREE_D, f"Luck reroll of the contest, {side.name}", side=side.name)
            rolls.append(again)
            margin = effective[side.name] - again.total
            parts.append(f"{side.name} uses Luck: rolled {again.total} → margin {margin:+d}")
            steps.append(["luck", side.name, again.total, margin])
            side.margin = max(side.margin, margin)
    ranked = sorted(sides, key=lambda s: -s.margin)
    diff = ranked[0].margin - ranked[1].margin
    return Decision(
        "strategy_contest",
        "§2.10–2.11",
        None,
        {
            "modifiers": {s.name: dict(s.strategy_mods) for s in sides},
            "ts": {s.name: s.ts for s in sides},
            "steps": steps,
            "leader": ranked[0].name,
        },
        {"margins": {s.name: s.margin for s in sides}, "difference": diff},
        "Quick Contest — "
        + "; ".join(parts)
        + (f"; difference {diff} to {ranked[0].name}" if diff else "; difference 0: the margins are equal"),
        (),
        tuple(rolls),
    )


def _pcs_first(
    tables: Tables,
    setup: BattleSetup,
    sides: Sequence[SideRun],
    knocked: set[str],
    battle_id: str,
    dice: Dice,
    dead: set[str],
    reputations: Mapping[str, int],
) -> list[Decision]:
    """Step 4 of R2-13: each PC's first Survival and Glory rolls, then modifier E (his Glory, if he leads) or, for a
    leader knocked out, the Strategy effect of catastrophe 17 (a unit leader) or 18 (the army's) (R2-14). The PCs
    the GM rules dead from that roll's damage are added to ``dead``: they roll no second Survival (§2.9)."""
    by_name = {side.name: side for side in sides}
    decisions: list[Decision] = []
    for pc in setup.pcs:
        if pc.name in knocked:
            continue  # a catastrophe 17 or 18 fell on him: no Survival or Glory roll this battle (R2-14)
        side = by_name[pc.side]
        rolls = first_rolls(tables, pc, battle_id, dice, tl=side.setup.tl, reputation=reputations.get(pc.name, 0))
        decisions += rolls.decisions
        if rolls.dead:
            dead.add(pc.name)
        if rolls.knocked_out:
            as_ = tables.pc.knocked_out_unit_leader_as if pc.leads == "unit" else tables.pc.knocked_out_army_leader_as
            taken = tables.catastrophe_effect(as_)
            if taken.halve_strategy:
                side.base_strategy = -(-side.base_strategy // 2)
            elif taken.strategy is not None:
                side.strategy_mods[f"{pc.name} knocked out"] = taken.strategy
            if rolls.died:
                decisions.append(_leader_lost(tables, side, pc, as_))
        elif rolls.strategy:
            side.strategy_mods[f"Glory of {pc.name}"] = (
                side.strategy_mods.get(f"Glory of {pc.name}", 0) + rolls.strategy
            )
    return decisions


def _leader_lost(tables: Tables, side: SideRun, pc: PcInBattle, as_: int) -> Decision:
    """R2-14: a PC leader who died is a lost commander, so the Morale loss of the catastrophe his side takes (17 for
    a unit's leader, 18 for the army's) lasts until a clear victory (R2-10), on his unit or on every unit present.
    In this battle only the Strategy roll is affected ("his final Strategy roll"): the loss counts from its end."""
    row = tables.catastrophe_effect(as_)
    lasting = as_ in tables.catastrophe.rules.lasting
    parts: dict[str, int] = {}
    persist: list[JsonValue] = []
    shown: list[str] = []
    if lasting and row.morale_all:
        value = row.morale_all
        if tables.catastrophe.rules.lasting_reaches_later_units:
            persist.append({"side": side.name, "value": value})
            shown.append(f"every unit of {side.name} {value:+d}")
        else:
            parts.update({u.unit.unit_id: value for u in side.units if not u.exempt})
    his = next((u for u in side.units if u.unit.name == pc.unit), None) if pc.leads == "unit" else None
    if lasting and his is not None and not his.exempt and row.morale_unit is not None:
        parts[his.unit.unit_id] = parts.get(his.unit.unit_id, 0) + row.morale_unit
    for u in side.units:
        if parts.get(u.unit.unit_id):
            persist.append({"unit_id": u.unit.unit_id, "value": parts[u.unit.unit_id]})
            shown.append(f"{u.unit.name} {parts[u.unit.unit_id]:+d}")
    return Decision(
        "leader_lost",
        "§2.9, R2-14",
        None,
        {"pc": pc.name, "leads": pc.leads, "as_catastrophe": as_},
        {"persist": persist},
        f"{pc.name}, who led {'the army' if pc.leads == 'army' else pc.unit}, died: a lost commander; "
        + (f"Morale {', '.join(shown)} from the battle's end until a clear victory" if shown else "nothing lasts"),
    )


def _pcs_second(
    tables: Tables,
    setup: BattleSetup,
    outcome: Outcome,
    sides: Sequence[SideRun],
    knocked: set[str],
    battle_id: str,
    dice: Dice,
) -> list[Decision]:
    by_name = {side.name: side for side in sides}
    decisions: list[Decision] = []
    for pc in setup.pcs:
        if pc.name in knocked:
            continue  # picked by a catastrophe 17 or 18 (R2-14), or ruled dead by his first roll (§2.9)
        mine = by_name[pc.side]
        # The PC's unit may have defected in a catastrophe; he fights on without it.
        unit = next((u for u in mine.units if u.unit.name == pc.unit), None) if pc.unit else None
        held = position(tables, mine.setup, enemy_artillery_or_sappers=setup.attacker_has_artillery_or_sappers)
        rolled = second_roll(
            tables,
            pc,
            battle_id,
            dice,
            tl=mine.setup.tl,
            losing=outcome.lost(mine),
            contest_difference=abs(side_row(outcome, mine)),
            defensive_bonus=held.defensive_bonus,
            # R3-19: a unit that surrendered did not rout: no −2 for it, unless casualties took every man
            unit_routed=unit is not None and (unit.fate == "routs" or unit.wiped_out),
        )
        if unit is not None and unit.fate == "surrenders":
            rolled = [
                replace(
                    d,
                    explanation=d.explanation + f"; {unit.unit.name} surrendered: if he lives, {pc.name} is "
                    "a prisoner unless the GM rules otherwise",
                    inputs={**d.inputs, "surrendered": unit.unit.name},
                )
                for d in rolled
            ]
        decisions += rolled
    return decisions


def _band(table: Sequence[tuple[int, str]], key: str) -> list[int | None]:
    """The band of W of ``key`` in the result table ``table``: ``[low, high]``, ``[low, None]`` for the last,
    ``[]`` for a key not in it."""
    bands = sorted((int(low), str(k)) for low, k in table)
    for i, (low, k) in enumerate(bands):
        if k == key:
            return [low, bands[i + 1][0] - 1] if i + 1 < len(bands) else [low, None]
    return []


def _band_words(band: Sequence[int | None]) -> str:
    """'W 0–3' for a band of W ('W 17+' for the last)."""
    if not band:
        return "W"
    return f"W {band[0]}–{band[1]}" if band[1] is not None else f"W {band[0]}+"


def _result_words(tables: Tables, outcome: Outcome) -> str:
    """The result in words (§2.11): with no clear winner nobody has the better of it; a tie in an assault goes to
    the defender, since Table B begins at W 0 and Table C at W 1."""
    label = {"A": "Table A (open field)", "B": "Table B (defender wins)", "C": "Table C (attacker wins)"}[outcome.table]
    head = f"{label}, W = {outcome.w}: {outcome.key.replace('_', ' ')}"
    if not outcome.decided:
        band = _band_words(_band(tables.results.open_field, outcome.key))
        gap = (
            "the margins are equal"
            if outcome.w == 0
            else f"{outcome.winner.name}'s margin is higher by {outcome.w}, too little to count"
        )
        text = (
            f"{head} ({band} of Table A): {gap}; neither side has the better of it, and every unit of both sides "
            "rolls Morale"
        )
    else:
        text = f"{head}; {outcome.winner.name} has the better of it" + (" (a clear victory)" if outcome.clear else "")
        if outcome.table == "B" and outcome.w == 0:
            text += ": the margins are equal, and a tie goes to the defender (Table B begins at W 0, Table C at W 1)"
    return text + "".join(f"; against {d.side.name} (W {d.w}): {d.key.replace('_', ' ')}" for d in outcome.defeats[1:])


def resolve_battle(
    tables: Tables,
    setup: BattleSetup,
    roster: Mapping[str, ArmyUnit],
    battle_id: str,
    dice: Dice,
    *,
    reputations: Mapping[str, int] | None = None,
) -> list[Decision]:
    """Resolve one battle day from the set-up in the order of R2-13; every step is a Decision, in the order rolled.
    ``reputations``: each PC's Reputation before the battle (none: 0), which high command's reaction rolls read."""
    sides = [_muster(tables, s, roster) for s in setup.sides]
    if any(not side.units for side in sides):
        raise InvalidInputError.saying("each side needs at least one unit")
    by_name = {side.name: side for side in sides}
    unknown = {pc.side for pc in setup.pcs} - set(by_name)
    if unknown:
        raise InvalidInputError.saying("PCs on unknown side(s): {sides}", sides=", ".join(sorted(unknown)))
    for pc in setup.pcs:
        if pc.unit is not None:
            find_unit(by_name[pc.side].units, pc.unit)
        if not tables.pc.risk_min <= pc.risk <= tables.pc.risk_max:
            low, high = (format(n, "+").replace("-", "−") for n in (tables.pc.risk_min, tables.pc.risk_max))
            raise InvalidInputError.saying(  # the rules' −6…+6, signed
                "{pc}: a Risk of {risk} is outside {low}…{high}", pc=pc.name, risk=pc.risk, low=low, high=high
            )
    decisions = spend_force(tables, sides)
    decisions += [_catastrophe(tables, side, [s for s in sides if s is not side], dice, setup.pcs) for side in sides]
    knocked = {str(d.outcome["knocked_out_pc"]) for d in decisions if d.rule == "catastrophe"} - {""}
    dead: set[str] = set()
    decisions += _pcs_first(tables, setup, sides, knocked, battle_id, dice, dead, reputations or {})
    _apply_morale_ts(tables, sides, setup.morale_ts)
    _strategy_modifiers(tables, setup, sides)
    decisions.append(_contest(tables, sides, dice))
    outcome = result_of(tables, setup, sides)
    decisions.append(
        Decision(
            "result",
            "§2.11",
            None,
            # what the sentence states besides (the ruleset's said.py); verify compares outcomes, never inputs
            {
                "table": outcome.table,
                "w": outcome.w,
                "band": list(_band(tables.results.open_field, outcome.key)),
                "defeats": [[d.side.name, d.w, d.key] for d in outcome.defeats[1:]],
            },
            {"result": outcome.key, "winner": outcome.winner.name, "clear_victory": "yes" if outcome.clear else "no"},
            _result_words(tables, outcome),
        )
    )
    decisions += morale_phase(tables, outcome, dice)
    next_day = next_day_morale(tables, outcome)
    if next_day is not None:
        decisions.append(next_day)
    decisions += casualties(tables, setup, outcome, sides, battle_id, dice)
    decisions += _pcs_second(tables, setup, outcome, sides, knocked | dead, battle_id, dice)
    winner = outcome.winner.name if outcome.decided else None
    ts_text = ", ".join(f"{s.name} {s.ts}" for s in sides)
    decisions.append(
        Decision(
            "battle_end",
            "§2.11",
            None,
            # what the sentence states, the sides in its order (the ruleset's said.py)
            {"battle": setup.name, "day": setup.day, "sides": [s.name for s in sides]},
            {"result": outcome.key, "winner": winner, "ts": {s.name: s.ts for s in sides}},
            f"{setup.name}, day {setup.day}: {outcome.key.replace('_', ' ')}; TS after: {ts_text}",
            (BattleEnded(battle_id=battle_id, result=outcome.key, winner=winner),),
        )
    )
    return decisions
