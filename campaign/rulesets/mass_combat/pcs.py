"""Player characters in a mass battle (§2.9, §2.12): Battle skill, Survival and damage, Glory, promotion."""

from __future__ import annotations

from dataclasses import dataclass

from campaign.rulesets.decision import Decision
from campaign.rulesets.mass_combat.setup import PcInBattle
from campaign.rulesets.mass_combat.tables import ARMOUR, Tables
from campaign.rulesets.tables import pick
from events.dice import Dice, DiceSpec, Roll, parse
from events.errors import InvalidInputError
from events.families.career import PcWounded, PromotionRolled, ReputationChanged
from events.recorded import JsonValue, whole
from events.registry import Event

THREE_D = parse("3d")


def battle_skill(tables: Tables, pc: PcInBattle) -> int:
    """floor((Tactics [default IQ−6] + weapon) / 2) + 2 for Combat Reflexes + 1 for Danger Sense."""
    tactics = pc.tactics if pc.tactics is not None else pc.iq - tables.pc.tactics_default_iq_minus
    skill = (tactics + pc.weapon) // 2
    if pc.combat_reflexes:
        skill += tables.pc.combat_reflexes
    if pc.danger_sense:
        skill += tables.pc.danger_sense
    return skill


def survival_target(tables: Tables, battle: int, risk: int, mods: int = 0) -> int:
    """min(16, Battle + Risk + mods): the modifiers apply before the cap (§2.9)."""
    return min(tables.pc.survival_cap, battle + risk + mods)


def glory_target(tables: Tables, battle: int, risk: int) -> int:
    target = battle - risk
    return min(tables.pc.survival_cap, target) if tables.glory.cap_at_16 else target


def is_critical_failure(roll: int, target: int) -> bool:
    return roll == 18 or (roll == 17 and target <= 15) or roll - target >= 10


def survival_column(tables: Tables, roll: int, target: int) -> str:
    """The Survival table's row; a 3 or 4 is a critical success whatever the target: unhurt (R2-22)."""
    margin = target - roll
    if roll <= tables.survival.critical_success_at_most:
        return "unhurt"
    if is_critical_failure(roll, target) or -margin >= tables.survival.column_d_failed_by:
        return "D"
    if margin >= tables.survival.unhurt_made_by:
        return "unhurt"
    if margin >= tables.survival.one_hit_made_by:
        return "one_hit"
    failed = -margin
    if failed >= tables.survival.column_c_failed_by:
        return "C"
    if failed >= tables.survival.column_b_failed_by:
        return "B"
    if failed >= tables.survival.column_a_failed_by:
        return "A"
    return "two_hits"  # made exactly (a band below column A's low end widens the row above it)


_SEVERITY = ("unhurt", "one_hit", "two_hits", "A", "B", "C", "D")


def damage_dice(tables: Tables, column: str, tl: int) -> tuple[int, DiceSpec, str]:
    """(wounds, dice per wound, armour rule) for a damage column at a tech level, from the damage table in force."""
    cell = column.lower()
    wounds = pick(tables.damage.wounds, cell, "damage.wounds")
    row = pick(tables.damage.rows, f"tl{tl}", "damage")
    by_column = {"a": row.a, "b": row.b, "c": row.c, "d": row.d}
    dice = parse(pick(by_column, cell, f"damage.tl{tl}"))
    return wounds, dice, armour_rule(row.armour)


def armour_rule(text: str) -> str:
    """``text`` if it says how DR counts ("DR", or "DR/n" for a fraction of it); a clear refusal if not."""
    if ARMOUR.fullmatch(text) is None:
        raise InvalidInputError.saying(
            "armour {text!r}: write DR for the whole of it, or DR/2, DR/5, … for a fraction", text=text
        )
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
    # what the sentence states, as data (the ruleset's said.py); verify compares outcomes, never inputs
    said: dict[str, JsonValue] = {"label": label, "luck": None}
    if column != "unhurt" and pc.luck and tables.pc.luck_rerolls_survival:
        again = dice.roll(THREE_D, f"{label} again (Luck), {pc.name}", side=pc.side)
        rolls.append(again)
        other = survival_column(tables, again.total, target)
        luck = f" (Luck: rolled again {again.total} → {other.replace('_', ' ')}"
        kept = (_SEVERITY.index(other), again.total) < (_SEVERITY.index(column), roll.total)  # the better result
        said["luck"] = [again.total, other, kept]
        if kept:
            roll, column = again, other
            luck += ", kept)"
        else:
            luck += ", the first kept)"
    facts: list[Event] = []
    if column in ("unhurt",):
        text = "unhurt"
    elif column in ("one_hit", "two_hits"):
        hits = 1 if column == "one_hit" else 2
        said["hits"] = hits
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
        said |= {"wounds": wounds, "notation": spec.notation, "dr_rule": rule, "armour": armour, "each": list(each)}
        text = (
            f"column {column} at TL{tl}: {wounds} × ({spec.notation} − {rule} {armour}) = "
            f"{' + '.join(map(str, each))} = {sum(each)} damage"
        )
    margin = target - roll.total
    return Decision(
        "survival",
        "§2.9",
        None,
        {"pc": pc.name, "target": target, "risk": pc.risk, "dr": pc.dr, "tl": tl, "roll": roll.total, **said},
        {"margin": margin, "column": column},
        f"{pc.name} {label}: {target}, rolled {roll.total} → "
        f"{'made' if margin >= 0 else 'failed'} by {abs(margin)}{luck}: {text}",
        tuple(facts),
        tuple(rolls),
    )


GLORY_ROWS = ("critical", "made_7", "made_4", "made_0", "failed_1", "failed_4", "failed_7")
"""The Glory table's rows (§2.9), best first: a row's place is its index in ``glory.strategy_unit_leader``."""


def glory_row(tables: Tables, roll: int, target: int) -> str:
    """The Glory table's row for a 3d ``roll`` against ``target`` (Battle − Risk, not capped: C-7), R3-14 in its
    order: a critical failure (18; 17 up to target 15; 10 or more over the target) is the worst row whatever the
    margin; any other 17 is an automatic failure (``glory.automatic_failure_row``); then a critical success (up to
    4; 5 from target 15; 6 from target 16); else the margin's row, made by 10+ as ``glory.made_10_counts_as``."""
    fails = tables.glory.critical_failure
    if (
        roll >= fails.always_from
        or (roll == fails.also_on and target <= fails.also_up_to_target)
        or roll - target >= fails.over_target_by
    ):
        return "failed_7"
    if roll == fails.also_on:
        return str(tables.glory.automatic_failure_row)
    succeeds = tables.glory.critical_success
    if roll <= succeeds.always_up_to or any(
        roll == int(face) and target >= int(low) for face, low in succeeds.from_target
    ):
        return "critical"
    margin = target - roll
    if margin >= 10 and tables.glory.made_10_counts_as == "critical":
        return "critical"
    for row, low in (("made_7", 7), ("made_4", 4), ("made_0", 0), ("failed_1", -3), ("failed_4", -6)):
        if margin >= low:
            return row
    return "failed_7"


def _glory(  # noqa: PLR0915 (RULES.md's steps, in its order, each said and recorded)
    tables: Tables, pc: PcInBattle, battle_id: str, dice: Dice, target: int, *, reputation: int = 0, dead: bool = False
) -> Decision:
    """The Glory roll (§2.9, R3-14) and what high command makes of it: a promotion roll from made by 4, a reaction
    roll that may mean demotion from ``glory.demotion_roll_from`` for a living PC (R3-15), each read on the
    reaction table with 3d + his Reputation after this battle's change (``reputation`` is his before it)."""
    roll = dice.roll(THREE_D, f"Glory roll, {pc.name}", side=pc.side)
    rolls: list[Roll] = [roll]
    margin = target - roll.total
    facts: list[Event] = []
    row_name = glory_row(tables, roll.total, target)

    def months(spec: str, minimum: int) -> int:
        r = dice.roll(parse(spec.split("-", maxsplit=1)[0]), f"Reputation duration, {pc.name}", side=pc.side)
        rolls.append(r)
        lasting = max(minimum, r.total - (int(spec.split("-")[1]) if "-" in spec else 0))
        record["months"] = lasting
        return lasting

    said = f"made by {margin}" if margin >= 0 else f"failed by {-margin}"
    # what the sentence states, as data (the ruleset's said.py); verify compares outcomes, never inputs
    record: dict[str, JsonValue] = {"roll": roll.total, "row": row_name, "read_as": "margin", "months": None}
    if roll.total == tables.glory.critical_failure.also_on and row_name != "failed_7":
        said = f"{roll.total}, an automatic failure, read as the smallest failure"
        record["read_as"] = "automatic_failure"
    elif row_name == "failed_7" and margin > -7:
        said = f"{roll.total}: a critical failure, whatever the margin"
        record["read_as"] = "critical_failure"
    if row_name == "critical":
        temp = months("1d", 1)
        facts.append(
            ReputationChanged(battle_id=battle_id, pc=pc.name, change=tables.glory.crit_rep_temporary, months=temp)
        )
        facts.append(
            ReputationChanged(battle_id=battle_id, pc=pc.name, change=tables.glory.crit_rep_permanent, months=0)
        )
        verdict = "critical success: Reputation +2 for a while and +1 for ever"
    elif row_name == "made_7":
        m = months("1d-2", 1)
        facts.append(ReputationChanged(battle_id=battle_id, pc=pc.name, change=tables.glory.made_7_rep, months=m))
        verdict = f"{said}: Reputation +1 for {m} months"
    elif row_name == "made_4":
        verdict = f"{said}: noticed by high command"
    elif row_name == "made_0":
        verdict = f"{said}: fought competently"
    elif row_name == "failed_1":
        verdict = f"{said}: fought adequately"
    elif row_name == "failed_4":
        m = months("1d-2", 1)
        facts.append(ReputationChanged(battle_id=battle_id, pc=pc.name, change=tables.glory.failed_4_rep, months=m))
        verdict = f"{said}: Reputation −1 for {m} months"
    else:
        m = months("1d", 1)
        facts.append(ReputationChanged(battle_id=battle_id, pc=pc.name, change=tables.glory.failed_7_rep, months=m))
        verdict = f"{said}: Reputation −2 for {m} months; called a coward by a peer"
    row = GLORY_ROWS.index(row_name)
    strategy = glory_strategy(tables, row, pc.leads)
    promotion = row <= GLORY_ROWS.index("made_4")
    now = reputation + sum(getattr(f, "change", 0) for f in facts)
    outcome: dict[str, JsonValue] = {"margin": margin, "strategy_mod": strategy, "promotion": promotion}
    demotion_from = GLORY_ROWS.index(str(tables.glory.demotion_roll_from))
    if promotion:
        reaction_roll = dice.roll(THREE_D, f"promotion reaction roll, {pc.name}", side=pc.side)
        rolls.append(reaction_roll)
        reaction = tables.band(tables.reaction.bands, reaction_roll.total + now)
        rank = 1 if reaction in ("very_good", "excellent") else 0
        facts.append(PromotionRolled(battle_id=battle_id, pc=pc.name, reaction=reaction, rank_change=rank))
        record["reaction"] = ["promotion", reaction_roll.total, now, reaction, rank]
        verdict += f"; promotion roll {reaction_roll.total} + Reputation {now} → {reaction.replace('_', ' ')}" + (
            ": +1 Rank" if rank else ""
        )
    elif row >= demotion_from and dead:
        verdict += "; he died: high command makes no reaction roll"
        record["reaction"] = ["dead"]
    elif row >= demotion_from:
        reaction_roll = dice.roll(THREE_D, f"high command's reaction roll, {pc.name}", side=pc.side)
        rolls.append(reaction_roll)
        reaction = tables.band(tables.reaction.bands, reaction_roll.total + now)
        worst = [str(label) for _, label in sorted(tables.reaction.bands, key=lambda b: int(b[0]))]
        demotion = worst.index(reaction) <= worst.index(str(tables.glory.demotion_at_most))
        outcome |= {"reaction": reaction, "possible_demotion": demotion}
        record["reaction"] = ["high_command", reaction_roll.total, now, reaction, int(demotion)]
        verdict += f"; high command's reaction roll {reaction_roll.total} + Reputation {now} → " + (
            f"{reaction.replace('_', ' ')}: possible demotion, for the GM to decide"
            if demotion
            else f"{reaction.replace('_', ' ')}: nothing comes of it"
        )
    return Decision(
        "glory",
        "§2.9",
        None,
        {"pc": pc.name, "target": target, "risk": pc.risk, **record},
        outcome,
        f"{pc.name} Glory roll: {target}, rolled {roll.total} → {verdict}",
        tuple(facts),
        tuple(rolls),
    )


def glory_strategy(tables: Tables, row: int, leads: str) -> int:
    """Modifier E (R2-13): the Glory row's Strategy modifier for a PC who leads a unit; for the army's commander a
    bonus 1 larger and a penalty 1 smaller (0 stays 0); nothing for a PC who leads nothing."""
    value = int(tables.glory.strategy_unit_leader[row])
    if leads == "army":
        shift = tables.glory.army_leader_shift
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


def first_rolls(
    tables: Tables, pc: PcInBattle, battle_id: str, dice: Dice, *, tl: int, reputation: int = 0
) -> FirstRolls:
    """Step 4 of R2-13 for one PC; ``reputation`` is his Reputation before the battle (the reaction rolls read
    it with this battle's change, R3-15)."""
    battle = battle_skill(tables, pc)
    survival = survival_target(tables, battle, pc.risk, pc.other_survival_mods)
    glory = glory_target(tables, battle, pc.risk)
    first = _survival(tables, pc, battle_id, dice, target=survival, tl=tl, label="Survival roll")
    damage = sum(int(getattr(f, "damage", 0)) for f in first.facts)
    dead = pc.dead_at is not None and damage >= pc.dead_at
    died = pc.leads != "nothing" and dead
    knocked_out = died or (pc.leads != "nothing" and pc.unconscious_at is not None and damage >= pc.unconscious_at)
    glory_roll = _glory(tables, pc, battle_id, dice, glory, reputation=reputation, dead=dead)
    out = [
        Decision(
            "battle_skill",
            "§2.9",
            None,
            {"pc": pc.name, "risk": pc.risk},
            {"battle": battle, "survival": survival, "glory": glory},
            f"{pc.name}: Battle {battle}; Risk {pc.risk:+d} → Survival {survival}, Glory {glory}",
        ),
        first,
        glory_roll,
    ]
    strategy = 0 if knocked_out else whole(glory_roll.outcome["strategy_mod"])
    return FirstRolls(out, strategy, knocked_out, died, dead)


def second_roll(  # noqa: PLR0913 (the command's inputs, by keyword)
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
    routed = unit_routed and tables.pc.second_roll_when_unit_routs
    if not losing and not routed:
        return []
    mods = defensive_bonus
    if losing:
        mods -= contest_difference // tables.pc.second_roll_per_margin
    if unit_routed:
        mods += tables.pc.second_roll_routed
    battle = battle_skill(tables, pc)
    second = survival_target(tables, battle, pc.risk, pc.other_survival_mods + mods)
    why = "losing side" if losing else "his unit routed or was wiped out"
    return [_survival(tables, pc, battle_id, dice, target=second, tl=tl, label=f"second Survival roll ({why})")]
