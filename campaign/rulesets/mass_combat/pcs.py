"""Player characters in a mass battle (§2.9, §2.12): Battle skill, Survival and damage, Glory, promotion."""

from __future__ import annotations

import re
from dataclasses import dataclass

from campaign.rulesets.decision import Decision
from campaign.rulesets.mass_combat.setup import PcInBattle
from campaign.rulesets.mass_combat.tables import Tables
from events.dice import Dice, DiceSpec, Roll, parse
from events.errors import InvalidInputError
from events.families.career import PcWounded, PromotionRolled, ReputationChanged
from events.registry import Event

THREE_D = parse("3d")


def battle_skill(tables: Tables, pc: PcInBattle) -> int:
    """floor((Tactics [default IQ−6] + weapon) / 2) + 2 for Combat Reflexes + 1 for Danger Sense."""
    tactics = pc.tactics if pc.tactics is not None else pc.iq - tables.number("pc.tactics_default_iq_minus")
    skill = (tactics + pc.weapon) // 2
    if pc.combat_reflexes:
        skill += tables.number("pc.combat_reflexes")
    if pc.danger_sense:
        skill += tables.number("pc.danger_sense")
    return skill


def survival_target(tables: Tables, battle: int, risk: int, mods: int = 0) -> int:
    """min(16, Battle + Risk + mods): the modifiers apply before the cap (§2.9)."""
    return min(tables.number("pc.survival_cap"), battle + risk + mods)


def glory_target(tables: Tables, battle: int, risk: int) -> int:
    target = battle - risk
    return min(tables.number("pc.survival_cap"), target) if tables.value("glory.cap_at_16") else target


def is_critical_success(roll: int, target: int) -> bool:
    return roll <= 4 or (roll == 5 and target >= 15) or (roll == 6 and target >= 16)


def is_critical_failure(roll: int, target: int) -> bool:
    return roll == 18 or (roll == 17 and target <= 15) or roll - target >= 10


def survival_column(tables: Tables, roll: int, target: int) -> str:
    """The Survival table's row; a 3 or 4 is a critical success whatever the target: unhurt (R2-22)."""
    margin = target - roll
    if roll <= tables.number("survival.critical_success_at_most"):
        return "unhurt"
    if is_critical_failure(roll, target) or -margin >= tables.number("survival.column_d_failed_by"):
        return "D"
    if margin >= tables.number("survival.unhurt_made_by"):
        return "unhurt"
    if margin >= tables.number("survival.one_hit_made_by"):
        return "one_hit"
    failed = -margin
    if failed >= tables.number("survival.column_c_failed_by"):
        return "C"
    if failed >= tables.number("survival.column_b_failed_by"):
        return "B"
    if failed >= tables.number("survival.column_a_failed_by"):
        return "A"
    return "two_hits"  # made exactly (a band below column A's low end widens the row above it)


_SEVERITY = ("unhurt", "one_hit", "two_hits", "A", "B", "C", "D")
_ARMOUR = re.compile(r"DR(?:/([1-9][0-9]*))?")


def damage_dice(tables: Tables, column: str, tl: int) -> tuple[int, DiceSpec, str]:
    """(wounds, dice per wound, armour rule) for a damage column at a tech level, from the damage table in force."""
    cell = column.lower()
    wounds = tables.number(f"damage.wounds.{cell}")
    dice = parse(str(tables.value(f"damage.tl{tl}.{cell}")))
    return wounds, dice, armour_rule(str(tables.value(f"damage.tl{tl}.armour")))


def check_damage_value(path: str, value: object) -> None:
    """Refuse a house rule on the damage table that the table could not use: dice that are not dice, armour that
    is not DR or DR/n, fewer than one wound."""
    if path.startswith("damage.wounds.") and (not isinstance(value, int) or value < 1):
        raise InvalidInputError(f"{path}: a damage column gives at least one wound, not {value!r}")
    if path.startswith("damage.tl"):
        if path.endswith(".armour"):
            armour_rule(str(value))
        else:
            parse(str(value))


def armour_rule(text: str) -> str:
    """``text`` if it says how DR counts ("DR", or "DR/n" for a fraction of it); a clear refusal if not."""
    if _ARMOUR.fullmatch(text) is None:
        raise InvalidInputError(f"armour {text!r}: write DR for the whole of it, or DR/2, DR/5, … for a fraction")
    return text


def effective_dr(dr: int, rule: str) -> int:
    return dr if rule == "DR" else dr // int(rule.split("/")[1])


def _survival(
    tables: Tables,
    pc: PcInBattle,
    battle_id: str,
    dice: Dice,
    *,
    target: int,
    tl: int,
    label: str,
) -> Decision:
    roll = dice.roll(THREE_D, f"{label}, {pc.name}", side=pc.side)
    rolls: list[Roll] = [roll]
    column = survival_column(tables, roll.total, target)
    luck = ""
    if column != "unhurt" and pc.luck and tables.flag("pc.luck_rerolls_survival"):
        again = dice.roll(THREE_D, f"{label} again (Luck), {pc.name}", side=pc.side)
        rolls.append(again)
        other = survival_column(tables, again.total, target)
        luck = f" (Luck: rolled again {again.total} → {other.replace('_', ' ')}"
        if (_SEVERITY.index(other), again.total) < (_SEVERITY.index(column), roll.total):  # the better result
            roll, column = again, other
            luck += ", kept)"
        else:
            luck += ", the first kept)"
    facts: list[Event] = []
    if column in ("unhurt",):
        text = "unhurt"
    elif column in ("one_hit", "two_hits"):
        hits = 1 if column == "one_hit" else 2
        facts.append(PcWounded(battle_id=battle_id, pc=pc.name, damage=hits, wounds=(hits,)))
        text = (
            f"{hits} hit{'s' if hits > 1 else ''}: {hits} point{'s' if hits > 1 else ''} of damage, as the Survival "
            "table gives it (no damage roll, no DR)"
        )
    else:
        wounds, spec, rule = damage_dice(tables, column, tl)
        armour = effective_dr(pc.dr, rule)
        each = []
        for i in range(wounds):
            hit = dice.roll(spec, f"damage, column {column}, wound {i + 1}, {pc.name}", side=pc.side)
            rolls.append(hit)
            each.append(max(0, hit.total - armour))
        facts.append(PcWounded(battle_id=battle_id, pc=pc.name, damage=sum(each), wounds=tuple(each)))
        text = (
            f"column {column} at TL{tl}: {wounds} × ({spec.notation} − {rule} {armour}) = "
            f"{' + '.join(map(str, each))} = {sum(each)} damage"
        )
    margin = target - roll.total
    return Decision(
        "survival",
        "§2.9",
        None,
        {"pc": pc.name, "target": target, "risk": pc.risk, "dr": pc.dr, "tl": tl},
        {"margin": margin, "column": column},
        f"{pc.name} {label}: {target}, rolled {roll.total} → "
        f"{'made' if margin >= 0 else 'failed'} by {abs(margin)}{luck}: {text}",
        tuple(facts),
        tuple(rolls),
    )


def _glory(tables: Tables, pc: PcInBattle, battle_id: str, dice: Dice, target: int) -> Decision:
    roll = dice.roll(THREE_D, f"Glory roll, {pc.name}", side=pc.side)
    rolls: list[Roll] = [roll]
    margin = target - roll.total
    facts: list[Event] = []
    crit_s, crit_f = is_critical_success(roll.total, target), is_critical_failure(roll.total, target)

    def months(spec: str, minimum: int) -> int:
        r = dice.roll(parse(spec.split("-", maxsplit=1)[0]), f"Reputation duration, {pc.name}", side=pc.side)
        rolls.append(r)
        return max(minimum, r.total - (int(spec.split("-")[1]) if "-" in spec else 0))

    promotion = False
    # C-7: a roll made by 10 or more without a critical reads as ``glory.made_10_counts_as``: "made_7" (the 7–9
    # row, the default) or "critical".
    ten_as_critical = margin >= 10 and tables.value("glory.made_10_counts_as") == "critical"
    if crit_s or ten_as_critical:
        temp = months("1d", 1)
        facts.append(
            ReputationChanged(
                battle_id=battle_id, pc=pc.name, change=tables.number("glory.crit_rep_temporary"), months=temp
            )
        )
        facts.append(
            ReputationChanged(
                battle_id=battle_id, pc=pc.name, change=tables.number("glory.crit_rep_permanent"), months=0
            )
        )
        verdict, row, promotion = "critical success: Reputation +2 for a while and +1 for ever", 0, True
    elif margin >= 7:
        m = months("1d-2", 1)
        facts.append(
            ReputationChanged(battle_id=battle_id, pc=pc.name, change=tables.number("glory.made_7_rep"), months=m)
        )
        verdict, row, promotion = f"made by {margin}: Reputation +1 for {m} months", 1, True
    elif margin >= 4:
        verdict, row, promotion = f"made by {margin}: noticed by high command", 2, True
    elif margin >= 0:
        verdict, row = f"made by {margin}: fought competently", 3
    elif margin >= -3 and not crit_f:
        verdict, row = f"failed by {-margin}: fought adequately", 4
    elif margin >= -6 and not crit_f:
        m = months("1d-2", 1)
        facts.append(
            ReputationChanged(battle_id=battle_id, pc=pc.name, change=tables.number("glory.failed_4_rep"), months=m)
        )
        verdict, row = f"failed by {-margin}: Reputation −1 for {m} months; high command may demote", 5
    else:
        m = months("1d", 1)
        facts.append(
            ReputationChanged(battle_id=battle_id, pc=pc.name, change=tables.number("glory.failed_7_rep"), months=m)
        )
        verdict, row = f"failed by {-margin}: Reputation −2 for {m} months; called a coward by a peer", 6
    strategy = glory_strategy(tables, row, pc.leads)
    if promotion:
        reputation = sum(getattr(f, "change", 0) for f in facts)
        reaction_roll = dice.roll(THREE_D, f"promotion reaction roll, {pc.name}", side=pc.side)
        rolls.append(reaction_roll)
        reaction = tables.band("reaction.bands", reaction_roll.total + reputation)
        rank = 1 if reaction in ("very_good", "excellent") else 0
        facts.append(PromotionRolled(battle_id=battle_id, pc=pc.name, reaction=reaction, rank_change=rank))
        verdict += (
            f"; promotion roll {reaction_roll.total} + Reputation {reputation} → {reaction.replace('_', ' ')}"
            + (": +1 Rank" if rank else "")
        )
    return Decision(
        "glory",
        "§2.9",
        None,
        {"pc": pc.name, "target": target, "risk": pc.risk},
        {"margin": margin, "strategy_mod": strategy, "promotion": promotion},
        f"{pc.name} Glory roll: {target}, rolled {roll.total} → {verdict}",
        tuple(facts),
        tuple(rolls),
    )


def glory_strategy(tables: Tables, row: int, leads: str) -> int:
    """Modifier E (R2-13): the Glory row's Strategy modifier for a PC who leads a unit; for the army's commander a
    bonus 1 larger and a penalty 1 smaller (0 stays 0); nothing for a PC who leads nothing."""
    value = int(tables.value("glory.strategy_unit_leader")[row])
    if leads == "army":
        shift = tables.number("glory.army_leader_shift")
        return value + shift if value > 0 else min(0, value + shift) if value < 0 else 0
    return value if leads == "unit" else 0


@dataclass(frozen=True)
class FirstRolls:
    """A PC's Battle skill, first Survival roll and Glory roll, made before the Strategy modifiers (R2-13)."""

    decisions: list[Decision]
    strategy: int
    """His Glory's modifier E to his side's Strategy (0 unless he leads)."""
    knocked_out: bool
    """He leads, and the first Survival roll's damage reached what the GM set as unconscious or dead (R2-14)."""
    died: bool = False
    """He leads, and the damage reached what the GM set as dead: the loss of a commander (R2-14, R2-10)."""
    dead: bool = False
    """The damage reached what the GM set as dead, whatever he leads: he makes no second Survival roll (§2.9 names
    Glory as the one roll made "even for a dead PC")."""


def first_rolls(tables: Tables, pc: PcInBattle, battle_id: str, dice: Dice, *, tl: int) -> FirstRolls:
    battle = battle_skill(tables, pc)
    survival = survival_target(tables, battle, pc.risk, pc.other_survival_mods)
    glory = glory_target(tables, battle, pc.risk)
    first = _survival(tables, pc, battle_id, dice, target=survival, tl=tl, label="Survival roll")
    damage = sum(int(getattr(f, "damage", 0)) for f in first.facts)
    dead = pc.dead_at is not None and damage >= pc.dead_at
    died = pc.leads != "nothing" and dead
    knocked_out = died or (pc.leads != "nothing" and pc.unconscious_at is not None and damage >= pc.unconscious_at)
    glory_roll = _glory(tables, pc, battle_id, dice, glory)
    out = [
        Decision(
            "battle_skill",
            "§2.9",
            None,
            {"pc": pc.name},
            {"battle": battle, "survival": survival, "glory": glory},
            f"{pc.name}: Battle {battle}; Risk {pc.risk:+d} → Survival {survival}, Glory {glory}",
        ),
        first,
        glory_roll,
    ]
    strategy = 0 if knocked_out else int(glory_roll.outcome["strategy_mod"])
    return FirstRolls(out, strategy, knocked_out, died, dead)


def second_roll(
    tables: Tables,
    pc: PcInBattle,
    battle_id: str,
    dice: Dice,
    *,
    tl: int,
    losing: bool,
    contest_difference: int,
    defensive_bonus: int,
    unit_routed: bool,
) -> list[Decision]:
    """The second Survival roll (§2.12, R2-22): every PC of the losing side, and any PC whose unit routed or was
    wiped out; −1 per full 3 points of difference only for the losers; −2 for a routed or wiped-out unit."""
    routed = unit_routed and tables.flag("pc.second_roll_when_unit_routs")
    if not losing and not routed:
        return []
    mods = defensive_bonus
    if losing:
        mods -= contest_difference // tables.number("pc.second_roll_per_margin")
    if unit_routed:
        mods += tables.number("pc.second_roll_routed")
    battle = battle_skill(tables, pc)
    second = survival_target(tables, battle, pc.risk, pc.other_survival_mods + mods)
    why = "losing side" if losing else "his unit routed or was wiped out"
    return [_survival(tables, pc, battle_id, dice, target=second, tl=tl, label=f"second Survival roll ({why})")]
