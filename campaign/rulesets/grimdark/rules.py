"""Grimdark Future morale (RULES.md §4.1) and campaign (§4.2) as pure functions: state and dice in, a
:class:`Decision` out. Numbers come from the tables in force, never from here.

A unit is at half strength when its models are at most half its starting size (a single model: when its wounds
reach half its Tough). Wounds in a unit of Tough(X) models pile onto one model until it dies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from campaign.rulesets.decision import Decision
from campaign.rulesets.grimdark.tables import Tables
from campaign.rulesets.grimdark.units import Unit, take_wounds

if TYPE_CHECKING:
    from campaign.rulesets.grimdark.state import BattleState
from events.dice import Dice, Roll, parse
from events.errors import InvalidInputError, Term, Words
from events.families.battle import KillCredited, UnitRemoved, VictoryPoints, WoundsTaken
from events.families.career import TraitGained, XpGained
from events.families.economy import FundsChanged, UnitDisbanded
from events.families.morale import ShakenChanged
from events.recorded import JsonValue
from events.registry import Event

__all__ = [
    "Unit",
    "acting",
    "activation",
    "army_cap_problem",
    "casualty",
    "experience",
    "level_up",
    "melee",
    "morale_test",
    "recover",
    "recovery",
    "rewards",
    "shot",
    "special_bonus",
    "special_objectives",
    "take_wounds",
    "underdog_points",
]


def _rolled(roll: Roll) -> str:
    return "+".join(map(str, roll.faces))


def _wound_facts(
    battle_id: str, before: Unit, after: Unit, wounds: int, lost: int, source: str, by: Unit | None
) -> list[Event]:
    facts: list[Event] = [
        WoundsTaken(
            battle_id=battle_id,
            unit_id=before.unit_id,
            wounds=wounds,
            models_lost=lost,
            source=source,
            by_unit_id=by.unit_id if by else None,
            carried=after.carried,
        )
    ]
    if after.hero_id is not None and after.hero_carried > before.hero_carried:  # R2-32: the hero's own wounds
        facts.append(
            WoundsTaken(
                battle_id=battle_id,
                unit_id=after.hero_id,
                wounds=after.hero_carried - before.hero_carried,
                models_lost=0 if after.hero_alive else 1,
                source=source,
                by_unit_id=by.unit_id if by else None,
                carried=after.hero_carried if after.hero_alive else 0,
            )
        )
    if after.destroyed:
        facts.append(UnitRemoved(battle_id=battle_id, unit_id=before.unit_id, reason="destroyed"))
        if by is not None:
            facts.append(
                KillCredited(battle_id=battle_id, unit_id=by.unit_id, victim_id=before.unit_id, victim_hero=before.hero)
            )
    return facts


def morale_test(
    tables: Tables, unit: Unit, dice: Dice, why: str, said: dict[str, JsonValue] | None = None
) -> tuple[bool, str, list[Roll]]:
    """§4.1: (passed, how, rolls). Shaken fails without a roll; Motivated passes its first; Fearless saves on 4+.
    ``said``, when given, takes which of these the test was (``how``) and the modifier, as its sentence states."""
    said = {} if said is None else said
    if unit.shaken and tables.morale.shaken_auto_fails:
        passed, how, rolls = False, "Shaken: fails without a roll", []
        said["how"] = "shaken"
        fearless_may = tables.morale.fearless_after_auto_fail
    elif not unit.tested and tables.first_test_passes(unit.traits):
        said["how"] = "motivated"
        return True, "Motivated: its first morale test this battle passes", []
    else:
        roll = dice.roll(parse(str(tables.test.dice)), f"morale test ({why}), {unit.name}", side=unit.side)
        rolls = [roll]
        face, mod = roll.total, tables.morale_modifier(unit.traits)
        said["modifier"] = mod
        if face == 6 and tables.test.natural_six_passes:
            passed, how = True, f"rolled {_rolled(roll)}: an unmodified 6 passes"
            said["how"] = "six"
        elif face == 1 and tables.test.natural_one_fails:
            passed, how = False, f"rolled {_rolled(roll)}: an unmodified 1 fails"
            said["how"] = "one"
        else:
            said["how"] = "quality"
            passed = face + mod >= unit.quality
            shown = f"{face}{mod:+d}" if mod else f"{face}"
            how = f"rolled {shown} against Quality {unit.quality}+: {'passes' if passed else 'fails'}"
        fearless_may = True
    every = unit.fearless if unit.every_model_fearless is None else unit.every_model_fearless
    fearless = every if tables.morale.fearless_needs_every_model else unit.fearless
    if not passed and fearless and fearless_may:  # R2-33: every model now in the unit, the hero included
        again = dice.roll(parse(str(tables.test.dice)), f"Fearless, {unit.name}", side=unit.side)
        rolls.append(again)
        passed = again.total >= tables.morale.fearless_passes_on
        how += f"; Fearless rolls {again.total}: " + ("passed after all" if passed else "still failed")
    return passed, how, rolls


def _test_decision(
    tables: Tables, unit: Unit, dice: Dice, battle_id: str, trigger: str, *, can_rout: bool, by: Unit | None
) -> Decision:
    said: dict[str, JsonValue] = {}
    passed, how, rolls = morale_test(tables, unit, dice, trigger, said)
    facts: list[Event] = []
    if passed:
        result = "passed"
    elif can_rout and unit.half:
        result = "routed"
        facts.append(UnitRemoved(battle_id=battle_id, unit_id=unit.unit_id, reason="routed"))
        if by is not None:
            facts.append(
                KillCredited(battle_id=battle_id, unit_id=by.unit_id, victim_id=unit.unit_id, victim_hero=unit.hero)
            )
    else:
        result = "shaken"
        if not unit.shaken:
            facts.append(ShakenChanged(battle_id=battle_id, unit_id=unit.unit_id, shaken=True, reason=trigger))
    outcome_text = {"passed": "holds", "routed": "at half strength: Routs, removed", "shaken": "Shaken"}[result]
    return Decision(
        "morale_test",
        "§4.1",
        unit.unit_id,
        {
            "trigger": trigger,
            "quality": unit.quality,
            "half": unit.half,
            "shaken": unit.shaken,
            "fearless": unit.fearless,
            "traits": list(unit.traits),
            **said,  # what the sentence states, for a view in the reader's language (the ruleset's said.py)
        },
        {"passed": passed, "result": result},
        f"{unit.name}, morale test ({trigger}): {how} → {outcome_text}",
        tuple(facts),
        tuple(rolls),
    )


def shot(
    tables: Tables,
    unit: Unit,
    dice: Dice,
    battle_id: str,
    *,
    wounds: int,
    by: Unit | None = None,
    models_lost: int | None = None,
) -> list[Decision]:
    """Trigger A (§4.1): wounds in an activation (not in melee); at its end, a unit at half strength tests and
    on a failure is Shaken (this trigger never Routs)."""
    if wounds <= 0:
        raise InvalidInputError.saying("record at least one unblocked wound")
    after, lost = take_wounds(unit, wounds, models_lost, hero_last=tables.morale.hero_takes_wounds_last)
    text = f"{unit.name} takes {wounds} wound{'s' if wounds != 1 else ''}" + (
        f": {lost} model{'s' if lost != 1 else ''} killed" if lost else ""
    )
    text += f", {after.size} of {unit.start_size} left" + (" (destroyed)" if after.destroyed else "")
    if unit.models and not after.models and after.hero_alive:
        text += ": the hero fights on alone"
    decisions = [
        Decision(
            "wounds",
            "§4.1",
            unit.unit_id,
            {
                "wounds": wounds,
                "models": unit.models,
                "tough": unit.tough,
                "by": by.unit_id if by else None,
                "start_size": unit.start_size,
                "destroyed": after.destroyed,
                "hero_alone": bool(unit.models and not after.models and after.hero_alive),
            },
            {"models_lost": lost, "models": after.size, "half": after.half},
            text,
            tuple(_wound_facts(battle_id, unit, after, wounds, lost, "shooting", by)),
        )
    ]
    if not after.destroyed and after.half:
        decisions.append(
            _test_decision(tables, after, dice, battle_id, "wounds at half strength", can_rout=False, by=by)
        )
    return decisions


def melee(  # noqa: PLR0913 (the command's inputs, by keyword)
    tables: Tables,
    a: Unit,
    b: Unit,
    dice: Dice,
    battle_id: str,
    *,
    wounds_by_a: int,
    wounds_by_b: int,
    a_lost: int | None = None,
    b_lost: int | None = None,
) -> list[Decision]:
    """Trigger B (§4.1): the side that caused fewer unblocked wounds loses and tests; a tie, nobody. A unit
    destroyed loses, and its opponent does not test. Failing at half strength Routs; otherwise Shaken."""
    if wounds_by_a < 0 or wounds_by_b < 0:
        raise InvalidInputError.saying("wounds cannot be negative")
    if a.side == b.side:
        raise InvalidInputError.saying("{unit} and {other} fight for the same side", unit=a.name, other=b.name)
    hero_last = tables.morale.hero_takes_wounds_last
    a_after, a_lost_n = take_wounds(a, wounds_by_b, a_lost, hero_last=hero_last)
    b_after, b_lost_n = take_wounds(b, wounds_by_a, b_lost, hero_last=hero_last)
    facts: list[Event] = []
    if wounds_by_b:
        facts += _wound_facts(battle_id, a, a_after, wounds_by_b, a_lost_n, "melee", b)
    if wounds_by_a:
        facts += _wound_facts(battle_id, b, b_after, wounds_by_a, b_lost_n, "melee", a)
    loser: tuple[Unit, Unit] | None = None
    if a_after.destroyed or b_after.destroyed:
        verdict = "a unit was destroyed: it lost, and its opponent does not test"
    elif wounds_by_a == wounds_by_b:
        verdict = f"a tie, {wounds_by_a}–{wounds_by_b}: nobody tests"
    else:
        loser = (a_after, b_after) if wounds_by_a < wounds_by_b else (b_after, a_after)
        low, high = sorted((wounds_by_a, wounds_by_b))
        verdict = f"{loser[0].name} caused fewer wounds ({low}–{high}) and tests"
    decisions = [
        Decision(
            "melee",
            "§4.1",
            None,
            {
                "a": a.unit_id,
                "b": b.unit_id,
                "wounds_by_a": wounds_by_a,
                "wounds_by_b": wounds_by_b,
                "destroyed": a_after.destroyed or b_after.destroyed,
            },
            {"loser": loser[0].unit_id if loser else None},
            f"melee, {a.name} {wounds_by_a} wound{'s' if wounds_by_a != 1 else ''}, {b.name} {wounds_by_b}: {verdict}",
            tuple(facts),
        )
    ]
    if loser is not None:
        decisions.append(_test_decision(tables, loser[0], dice, battle_id, "lost a melee", can_rout=True, by=loser[1]))
    return decisions


DOING = {"shooting": Words("shooting"), "charging": Words("charging")}
"""What a unit does of its own, as a refusal names it (said in the reader's language)."""


def acting(tables: Tables, battle: BattleState, unit: Unit, doing: str) -> list[Decision]:
    """``unit`` acting of its own (``doing``: shooting, charging) in its activation (R3-25, R3-26): refused while it
    is Shaken (it only strikes back: ``morale.shaken_allowed``), and once it has activated this round; the record
    of its activation when this begins one, nothing when it goes on with the one under way."""
    if unit.shaken and doing not in tables.morale.shaken_allowed:
        raise InvalidInputError.saying(
            "{unit} is Shaken: it may not be {doing} (a Shaken unit only strikes back when charged); its next "
            "activation is spent idle, and it recovers at its end (`gf recover {unit}`)",
            unit=unit.name,
            doing=DOING.get(doing, doing),
        )
    if battle.activating(unit.unit_id):
        return []
    return [activation(tables, battle, unit, doing)]


def activation(tables: Tables, battle: BattleState, unit: Unit, doing: str, *, idle: bool = False) -> Decision:
    """A unit's activation this round (R3-26): refused once it has had ``activation.per_round`` (one) this round."""
    had = sum(1 for who, _ in battle.activations if who == unit.unit_id)
    if had >= tables.activation.per_round:
        raise InvalidInputError.saying(
            "{unit} has already activated in round {round}: a unit activates once a round (`gf turn` begins the next)",
            unit=unit.name,
            round=battle.round,
        )
    what = "spent idle" if idle else doing
    return Decision(
        "activation",
        "§4.1",
        unit.unit_id,
        {"round": battle.round, "doing": doing},
        {"idle": idle},
        f"{unit.name} activates (round {battle.round}): {what}",
    )


def recovery(tables: Tables, battle: BattleState, unit: Unit) -> list[Decision]:
    """A Shaken unit's next activation is spent idle, and it stops being Shaken at its end (§4.1, R3-26): so only a
    unit that has not yet activated this round recovers in it; one made Shaken during or after its activation
    waits for its activation next round."""
    if not unit.shaken:
        raise InvalidInputError.saying("{unit} is not Shaken", unit=unit.name)
    if battle.activated(unit.unit_id):
        raise InvalidInputError.saying(
            "{unit} has already activated in round {round}: Shaken during or after its activation, it recovers in its "
            "next one, next round (`gf turn` begins it)",
            unit=unit.name,
            round=battle.round,
        )
    began = activation(tables, battle, unit, "idle", idle=True)
    return [began, recover(unit, battle.battle_id)]


def recover(unit: Unit, battle_id: str) -> Decision:
    """A Shaken unit spends its activation idle and stops being Shaken at its end (§4.1)."""
    if not unit.shaken:
        raise InvalidInputError.saying("{unit} is not Shaken", unit=unit.name)
    return Decision(
        "recover",
        "§4.1",
        unit.unit_id,
        {"shaken": True},
        {"shaken": False},
        f"{unit.name} stays idle this activation and is no longer Shaken",
        (ShakenChanged(battle_id=battle_id, unit_id=unit.unit_id, shaken=False, reason="an activation spent idle"),),
    )


# -- the campaign after a battle (§4.2) -----------------------------------------------------------------


def _new_trait(tables: Tables, kind: str, had: Sequence[str], dice: Dice, who: Unit) -> tuple[str, list[Roll]]:
    """A D6 on the ``kind`` table, rolled again while it gives a trait the unit already has."""
    table = tables.trait_names(kind)
    rolls: list[Roll] = []
    for _ in range(20):  # a bound, not a rule: six faces cannot all repeat twenty times running in practice
        roll = dice.roll(parse(f"d{len(table)}"), f"{kind} trait, {who.name}", side=who.side)
        rolls.append(roll)
        trait = table[roll.total - 1]
        if trait not in had:
            return trait, rolls
    raise InvalidInputError.saying(
        "{unit} has every {kind} trait already", unit=who.name, kind=Term("grimdark", "trait_kind", kind)
    )


def casualty(tables: Tables, unit: Unit, dice: Dice, battle_id: str, *, had: Sequence[str]) -> Decision:
    """A unit destroyed or routed rolls on the casualty table; a hero on 1 and 6 rolls an injury or a talent."""
    roll = dice.roll(parse(str(tables.casualty.dice)), f"casualty roll, {unit.name}", side=unit.side)
    rolls = [roll]
    facts: list[Event] = []
    dead_on, talent_on = tables.casualty.dead_on, tables.casualty.talent_on
    points = tables.casualty.hero_points
    result = "recovered"
    if unit.hero and roll.total in (dead_on, talent_on):
        kind = "injury" if roll.total == dead_on else "talent"
        trait, more = _new_trait(tables, kind, had, dice, unit)
        rolls += more
        if kind == "injury" and trait == tables.trait_names("injury")[0]:
            result = "dead"
            facts.append(
                UnitDisbanded(unit_id=unit.unit_id, reason=f"dead: casualty roll {roll.total}, injury {trait}")
            )
        else:
            result = trait
            tough = 1 if trait == "Toughened" else 0
            facts.append(
                TraitGained(
                    unit_id=unit.unit_id,
                    kind=kind,
                    trait=trait,
                    points=points if kind == "talent" else -points,
                    tough=tough,
                )
            )
            if trait == tables.trait_names("talent")[0]:
                facts.append(
                    XpGained(
                        battle_id=battle_id,
                        unit_id=unit.unit_id,
                        xp=tables.casualty.talent_xp,
                        sources={"Natural Talent": tables.casualty.talent_xp},
                    )
                )
    elif roll.total == dead_on:
        result = "dead"
        facts.append(UnitDisbanded(unit_id=unit.unit_id, reason=f"dead: casualty roll {roll.total}"))
    elif roll.total == talent_on:
        result = "Natural Talent"
        xp = tables.casualty.talent_xp
        facts.append(XpGained(battle_id=battle_id, unit_id=unit.unit_id, xp=xp, sources={"Natural Talent": xp}))
    return Decision(
        "casualty",
        "§4.2",
        unit.unit_id,
        {"hero": unit.hero, "traits": list(had)},
        {"roll": roll.total, "result": result},
        f"{unit.name}, casualty roll {roll.total}: {result}",
        tuple(facts),
        tuple(rolls),
    )


def experience(
    tables: Tables, battle_id: str, unit: Unit, *, casualty: bool, kills: Sequence[bool], hero_and_unit: int = 0
) -> Decision | None:
    """XP for one battle: +1 if not a casualty, and for each unit killed (+2 a hero, +3 a hero and its unit)."""
    sources: dict[str, int] = {}
    if not casualty:
        sources["not a casualty"] = tables.xp.not_a_casualty
    units_killed = sum(1 for hero in kills if not hero)
    heroes_killed = sum(1 for hero in kills if hero) - hero_and_unit
    if units_killed - hero_and_unit > 0:
        sources["units killed"] = tables.xp.killed_unit * (units_killed - hero_and_unit)
    if heroes_killed > 0:
        sources["heroes killed"] = tables.xp.killed_hero * heroes_killed
    if hero_and_unit:
        sources["a hero and its unit killed"] = tables.xp.killed_hero_and_unit * hero_and_unit
    xp = sum(sources.values())
    if not xp:
        return None
    parts = ", ".join(f"{v:+d} {k}" for k, v in sources.items())
    return Decision(
        "experience",
        "§4.2",
        unit.unit_id,
        {
            "casualty": casualty,
            "kills": list(kills),
            "hero_and_unit": hero_and_unit,
            "sources": [[k, v] for k, v in sources.items()],
        },
        {"xp": xp},
        f"{unit.name}: {parts} = {xp:+d} XP",
        (XpGained(battle_id=battle_id, unit_id=unit.unit_id, xp=xp, sources=sources),),
    )


def level_up(
    tables: Tables,
    unit: Unit,
    dice: Dice,
    *,
    xp_before: int,
    xp_after: int,
    had: Sequence[str],
    skill_set: str | None = None,
) -> Decision | None:
    """At every level (5 XP) a unit costs +25 pts and rolls a trait; a hero rolls a D6 on its skill set instead
    (1–2, 3–4, 5–6). Either is rolled again if it gives one the unit has already."""
    section = tables.hero_level_up if unit.hero else tables.level_up
    step = section.every_xp
    levels = xp_after // step - xp_before // step
    if levels <= 0 or (unit.hero and skill_set is None):
        return None
    points = section.points
    gained: list[str] = []
    rolls: list[Roll] = []
    facts: list[Event] = []
    for _ in range(levels):
        if unit.hero:
            trait, more = _new_skill(tables, str(skill_set), [*had, *gained], dice, unit)
        else:
            trait, more = _new_trait(tables, "unit", [*had, *gained], dice, unit)
        gained.append(trait)
        rolls += more
        kind = "skill" if unit.hero else "unit"
        facts.append(TraitGained(unit_id=unit.unit_id, kind=kind, trait=trait, points=points))
    return Decision(
        "level_up",
        "§4.2",
        unit.unit_id,
        {"xp_before": xp_before, "xp_after": xp_after, "skill_set": skill_set, "points": points * levels},
        {"traits": list(gained)},
        f"{unit.name} reaches {xp_after} XP: +{points * levels} pts, {', '.join(gained)}",
        tuple(facts),
        tuple(rolls),
    )


def _new_skill(tables: Tables, skill_set: str, had: Sequence[str], dice: Dice, who: Unit) -> tuple[str, list[Roll]]:
    """A D6 on a hero's skill set, two faces a skill, rolled again while it gives one the hero has."""
    skills = tables.skill_names(skill_set)
    rolls: list[Roll] = []
    for _ in range(20):  # a bound, as for traits
        roll = dice.roll(parse("d6"), f"{skill_set} skill, {who.name}", side=who.side)
        rolls.append(roll)
        skill = skills[min(len(skills) - 1, (roll.total - 1) * len(skills) // 6)]
        if skill not in had:
            return skill, rolls
    raise InvalidInputError.saying(
        "{unit} has every {skill_set} skill already", unit=who.name, skill_set=Term("grimdark", "skill_set", skill_set)
    )


def rewards(tables: Tables, battle_id: str, sides: Sequence[str], winner: str | None) -> Decision:
    """§4.2 mission rewards: the winner 2 VP and 150 pts, every loser 300 pts (a draw: as the tables say)."""
    facts: list[Event] = []
    shares: dict[str, list[int]] = {}
    for side in sides:
        if winner is None:
            vp, pts = tables.rewards.draw_vp, tables.rewards.draw_points
        elif side == winner:
            vp, pts = tables.rewards.winner_vp, tables.rewards.winner_points
        else:
            vp, pts = 0, tables.rewards.loser_points
        shares[side] = [vp, pts]
        if vp:
            facts.append(VictoryPoints(battle_id=battle_id, side=side, points=vp))
        if pts:
            facts.append(FundsChanged(side=side, amount=pts, reason="mission reward (campaign points)"))
    text = "; ".join(f"{side} {vp} VP, {pts} pts" for side, (vp, pts) in shares.items())
    if winner is None:
        why = f"a draw: {tables.rewards.draw_vp} VP and {tables.rewards.draw_points} pts to each side (R2-35)"
    else:
        why = (
            f"the winner takes {tables.rewards.winner_vp} VP and {tables.rewards.winner_points} "
            f"pts, every loser {tables.rewards.loser_points} pts and no VP"
        )
        if tables.rewards.loser_points > tables.rewards.winner_points:
            why += ": the loser gets more points to spend on its army, the winner the VP"
    return Decision(
        "rewards",
        "§4.2",
        None,
        # "says_why": the sentence gives the shares' reason (older records of this version did not)
        {"winner": winner, "sides": list(sides), "says_why": True},
        {side: {"vp": vp, "points": pts} for side, (vp, pts) in shares.items()},
        f"mission rewards: {text} ({why})",
        tuple(facts),
    )


def underdog_points(tables: Tables, army_values: dict[str, int]) -> dict[str, int]:
    """§4.2: one underdog point per full 50 pts between an army and the most valuable one."""
    if not army_values:
        return {}
    top = max(army_values.values())
    per = tables.underdog.per_points
    return {side: (top - value) // per for side, value in army_values.items()}


def army_cap_problem(tables: Tables, values: dict[str, int], side: str, new_value: int) -> Words | None:
    """§4.2: why ``side`` may not grow to ``new_value`` pts (none more than 250 above the lowest army), or None."""
    after = {**values, side: new_value}
    if len(after) < 2:
        return None
    lowest = min(after.values())
    limit = lowest + tables.army.max_above_lowest
    if new_value > limit:
        return Words(
            "{side} would be worth {value} pts: more than the lowest army ({lowest}) + {above}",
            side=side,
            value=new_value,
            lowest=lowest,
            above=limit - lowest,
        )
    return None


def special_objectives(tables: Tables, sides: Sequence[str], dice: Dice) -> Decision:
    """§4.2: each side rolls a D6 for its special objective (a player rerolls one that cannot be done)."""
    names = tuple(str(n) for n in tables.special.names)
    rolls = [dice.roll(parse(f"d{len(names)}"), f"special objective, {side}", side=side) for side in sides]
    chosen = {side: names[roll.total - 1] for side, roll in zip(sides, rolls, strict=True)}
    return Decision(
        "special_objectives",
        "§4.2",
        None,
        {"sides": list(sides)},
        dict(chosen),
        "special objectives: " + "; ".join(f"{side} {name}" for side, name in chosen.items()),
        (),
        tuple(rolls),
    )


def special_bonus(tables: Tables, side: str, objective: str) -> Decision:
    bonus = tables.special.bonus
    return Decision(
        "special_objective_achieved",
        "§4.2",
        None,
        {"side": side, "objective": objective},
        {"points": bonus},
        f"{side} achieved its special objective ({objective}): +{bonus} pts",
        (FundsChanged(side=side, amount=bonus, reason=f"special objective {objective} achieved"),),
    )
