"""The five-grade morale rules (RULES.md §0) as pure functions.

Each takes the battle state, the tables in force, the command's inputs and a Dice object, and returns a
:class:`Decision`. Nothing here reads a clock, a database or a random source; impossible requests raise
:class:`~events.errors.InvalidInputError` before any die is rolled, so nothing is appended.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from campaign.rulesets.decision import Decision
from campaign.rulesets.fighting_spirit.state import BattleState, CampaignState, RosterUnit, UnitState
from campaign.rulesets.fighting_spirit.tables import Tables
from events.dice import Dice, Roll, die
from events.errors import InvalidInputError
from events.families.battle import (
    ActivationLost,
    AttackResolved,
    PositionChanged,
    SuppressionChanged,
    UnitRemoved,
)
from events.families.morale import ActionFailed, GradeChanged, LastStandChanged, PanicChanged, RallyAttempted
from events.registry import Event

# -- helpers -------------------------------------------------------------------------------------------


def active_unit(battle: BattleState, unit: RosterUnit) -> UnitState:
    """The unit's battle state, refusing a unit that is not in the battle or has left it."""
    state = battle.units.get(unit.unit_id)
    if state is None:
        raise InvalidInputError(f"{unit.name} is not deployed in the battle {battle.name!r}")
    if state.removed is not None:
        raise InvalidInputError(f"{unit.name} was removed from the battle ({state.removed}) and takes no more tests")
    return state


def grade_facts(battle: BattleState, unit: UnitState, to_grade: str) -> tuple[Event, ...]:
    if to_grade == unit.grade:
        return ()
    return (GradeChanged(battle_id=battle.battle_id, unit_id=unit.unit_id, from_grade=unit.grade, to_grade=to_grade),)


def surrender_facts(
    tables: Tables, battle: BattleState, unit: UnitState, grade: str, enemy_within: int | None
) -> tuple[tuple[Event, ...], str]:
    """A Routed unit with an enemy within 12" surrenders (§0.3)."""
    limit = int(tables.value("surrender.enemy_within"))
    if grade == "routed" and enemy_within is not None and enemy_within <= limit:
        return (UnitRemoved(battle_id=battle.battle_id, unit_id=unit.unit_id, reason="surrendered"),), (
            f'; Routed with an enemy {enemy_within}" away (≤ {limit}") → surrenders'
        )
    return (), ""


def chain_links(campaign: CampaignState, officer: RosterUnit, unit: RosterUnit) -> int | None:
    """How many links of the chain of command lie between officer and unit (0 = direct superior), or None."""
    links = 0
    current = unit.reports_to
    seen: set[str] = set()
    while current is not None and current not in seen:
        if current == officer.unit_id:
            return links
        seen.add(current)
        parent = campaign.roster.get(current)
        current = parent.reports_to if parent else None
        links += 1
    return None


# -- §0.4–0.5 threat level and the morale (confidence) test --------------------------------------------


@dataclass(frozen=True)
class Threat:
    total: int
    parts: tuple[str, ...]
    base: int | None


def threat_level(
    tables: Tables, motivation: str, rows: Sequence[str], counts: Mapping[str, int] | None = None
) -> Threat:
    """ThreatLevel = max(applicable base rows) + sum(applicable "+" rows) (§0.4).

    ``base`` is None when no base (or trigger) row applies at this motivation: then no test is required,
    because a "+" row never calls for a test on its own.
    """
    counts = counts or {}
    base_values: list[tuple[int, str]] = []
    plus = 0
    parts: list[str] = []
    triggered = False
    for row in rows:
        value = tables.threat(row, motivation)
        kind = tables.threat_kind(row)
        if kind == "base":
            if value is not None:
                base_values.append((value, row))
        elif kind == "trigger":
            triggered = True
            plus += value or 0
            parts.append(f"{row} +{value or 0}")
        elif kind == "plus_each":
            n = counts.get(row, 0)
            if n and value:
                plus += value * n
                parts.append(f"{row} +{value}×{n}")
        elif value:
            plus += value
            parts.append(f"{row} +{value}")
    if not base_values and not triggered:
        return Threat(0, tuple(parts), None)
    best = max(base_values) if base_values else (0, "")
    head = [f"{best[1]} {best[0]}"] if base_values else []
    return Threat(best[0] + plus, (*head, *parts), best[0])


def die_for_test(tables: Tables, unit: RosterUnit, psi_caused: bool) -> int:
    """The die of a test: the quality die, or for an android resisting a hostile psi effect the d6 (R2-1)."""
    if psi_caused and unit.profile.kind == "android":
        return int(tables.value("psi.rules.android_resist_die"))
    return tables.quality_die(unit.profile.quality)


def morale_outcome(roll: int, target: int) -> int:
    """Grades lost: 0 if roll > target, 2 if 2×roll ≤ target ("half or less"), else 1 (§0.4)."""
    if roll > target:
        return 0
    return 2 if 2 * roll <= target else 1


def morale_test(
    tables: Tables,
    battle: BattleState,
    unit: RosterUnit,
    dice: Dice,
    rows: Sequence[str],
    *,
    counts: Mapping[str, int] | None = None,
    enemy_within: int | None = None,
    cause: str = "",
    state: UnitState | None = None,
    psi_caused: bool = False,
) -> Decision:
    """A confidence test (§0.4): quality die against LV + threat; lose one or two grades.

    ``psi_caused``: the test resists a hostile psi effect, so an android rolls its psi-resistance die (R2-1)."""
    us = state or active_unit(battle, unit)
    motivation = battle.motivation[us.side]
    for row in rows:
        tables.threat(row, motivation)  # refuses an unknown row before anything is rolled
    counts = dict(counts or {})
    if "unverified_casualty" in tables.threat_rows():
        counts.setdefault("unverified_casualty", us.unverified)
    rows_all = list(rows)
    if counts.get("unverified_casualty") and "unverified_casualty" not in rows_all:
        rows_all.append("unverified_casualty")
    if us.abandoned_wounded and "abandoned_wounded" not in rows_all:
        rows_all.append("abandoned_wounded")
    threat = threat_level(tables, motivation, rows_all, counts)
    inputs = {
        "rows": list(rows),
        "motivation": motivation,
        "cause": cause,
        "unverified": counts.get("unverified_casualty", 0),
    }
    if us.last_stand:
        return Decision(
            "morale_test",
            "§0.9",
            unit.unit_id,
            inputs,
            {"result": "auto_pass", "grades_lost": 0},
            f"{unit.name} is in No step back: it passes every morale test without rolling",
        )
    if threat.base is None:
        return Decision(
            "morale_test",
            "§0.4",
            unit.unit_id,
            inputs,
            {"result": "no_test", "grades_lost": 0},
            f"{unit.name}: no morale test ({', '.join(rows) or 'no row'} does not apply at {motivation} motivation)",
        )
    lv = unit.profile.leadership
    target = lv + threat.total
    sides = die_for_test(tables, unit, psi_caused)
    roll = dice.roll(die(sides), f"morale test of {unit.name}")
    lost = morale_outcome(roll.total, target)
    if lost == 1 and 2 * roll.total <= target + tables.number("test.two_grades_slack"):
        lost = 2  # R2-5: A-7's alternative reading of "half of what is needed", by house rule
    new_grade = tables.shifted_grade(us.grade, lost)
    verdict = {0: "passes", 1: "−1 grade", 2: "−2 grades (half or less)"}[lost]
    explanation = (
        f"{unit.name} morale test: LV {lv} + threat {threat.total} ({' + '.join(threat.parts)}) = {target}; "
        f"d{sides} rolled {roll.total} → {verdict}" + (f": {us.grade} → {new_grade}" if new_grade != us.grade else "")
    )
    removed, note = surrender_facts(tables, battle, us, new_grade, enemy_within)
    return Decision(
        "morale_test",
        "§0.4",
        unit.unit_id,
        {**inputs, "threat": threat.total, "target": target, "die": sides},
        {
            "result": "pass" if lost == 0 else "fail",
            "grades_lost": lost,
            "from": us.grade,
            "to": new_grade,
            "surrendered": bool(removed),
        },
        explanation + note,
        (*grade_facts(battle, us, new_grade), *removed),
        (roll,),
    )


def attack(
    tables: Tables,
    battle: BattleState,
    unit: RosterUnit,
    dice: Dice,
    *,
    killed: int,
    wounded: int,
    suppressing: bool,
    artillery: bool,
    leader_hit: bool,
    enemy_within: int | None = None,
) -> list[Decision]:
    """Fire or an assault hits the unit: record it, then the morale test it calls for (§0.4, §0.5)."""
    us = active_unit(battle, unit)
    if killed < 0 or wounded < 0:
        raise InvalidInputError("casualties cannot be negative")
    if killed + wounded > us.men:
        raise InvalidInputError(f"{unit.name} has {us.men} men left; it cannot lose {killed + wounded}")
    if not (killed or wounded or suppressing or leader_hit):
        raise InvalidInputError("an attack with no casualties, no suppression and no leader hit calls for nothing")
    left = us.men - killed - wounded
    first_suppression = suppressing and not us.ever_suppressed and not us.last_stand
    casualties = killed + wounded > 0
    rows: list[str] = []
    if first_suppression:
        rows.append("first_suppression")
    if casualties:
        rows.append("casualties")
    if killed + wounded > left:
        rows.append("lost_more_than_left")
    if leader_hit:
        rows.append("leader_lost")
    # Artillery adds only if that attack causes the first suppression or casualties (§0.5).
    if artillery and (first_suppression or casualties):
        rows.append("artillery")
    fact = AttackResolved(
        battle_id=battle.battle_id,
        unit_id=unit.unit_id,
        killed=killed,
        wounded=wounded,
        suppressing=suppressing,
        artillery=artillery,
        leader_hit=leader_hit,
    )
    after = UnitState(**{**us.__dict__, "men": left, "unverified": us.unverified + wounded})
    what = (
        f"{killed} killed, {wounded} wounded"
        + (", suppressed" if suppressing else "")
        + (", leader hit" if leader_hit else "")
        + (" (artillery)" if artillery else "")
    )
    recorded = Decision(
        "attack",
        "§0.5",
        unit.unit_id,
        {
            "killed": killed,
            "wounded": wounded,
            "suppressing": suppressing,
            "artillery": artillery,
            "leader_hit": leader_hit,
        },
        {"men_left": left, "threat_rows": rows},
        f"{unit.name} attacked: {what}; {left} men left",
        (fact,),
    )
    if not rows:
        return [recorded]
    test = morale_test(tables, battle, unit, dice, rows, enemy_within=enemy_within, cause="attack", state=after)
    return [recorded, test]


# -- §0.6 rally ----------------------------------------------------------------------------------------


def persisting_threat(tables: Tables, motivation: str, us: UnitState, under_artillery: bool) -> Threat:
    """The rally test's threat term: only the persisting "+" rows ([INF], from E4)."""
    allowed = set(tables.value("rally.persisting_rows"))
    rows = [r for r in ("unverified_casualty", "abandoned_wounded", "artillery") if r in allowed]
    present: list[str] = []
    counts = {"unverified_casualty": us.unverified}
    for row in rows:
        if (
            (row == "unverified_casualty" and us.unverified)
            or (row == "abandoned_wounded" and us.abandoned_wounded)
            or (row == "artillery" and under_artillery)
        ):
            present.append(row)
    total = 0
    parts: list[str] = []
    for row in present:
        value = tables.threat(row, motivation) or 0
        n = counts.get(row, 1) if tables.threat_kind(row) == "plus_each" else 1
        total += value * n
        parts.append(f"{row} +{value}" + (f"×{n}" if n != 1 else ""))
    return Threat(total, tuple(parts), 0)


def rally(
    campaign: CampaignState,
    tables: Tables,
    battle: BattleState,
    officer: RosterUnit,
    unit: RosterUnit,
    dice: Dice,
    *,
    distance: int,
    in_sight: bool,
    under_artillery: bool = False,
) -> Decision:
    """An officer on the direct chain of command rallies a unit (§0.6): communication, then the rally test."""
    off = active_unit(battle, officer)
    us = active_unit(battle, unit)
    if distance < 0:
        raise InvalidInputError("a distance cannot be negative")
    links = chain_links(campaign, officer, unit)
    if links is None:
        raise InvalidInputError(
            f"{officer.name} is not on {unit.name}'s direct chain of command: only its superiors may rally it"
        )
    if us.last_stand:
        raise InvalidInputError(f"{unit.name} is in No step back: it has no morale grade to rally")
    if tables.grade_index(us.grade) <= tables.grade_index(us.start_grade):
        raise InvalidInputError(
            f"{unit.name} is at {us.grade}, its starting grade: morale never rises above it, there is nothing to rally"
        )
    attempts = int(tables.value("rally.attempts_per_activation"))
    if off.rally_attempts >= attempts:
        raise InvalidInputError(f"{officer.name} has used its {attempts} rally actions this activation")
    free = int(tables.value("rally.comms_free_distance"))
    motivation = battle.motivation[us.side]
    lv_off, lv_unit = officer.profile.leadership, unit.profile.leadership
    attempt = RallyAttempted(battle_id=battle.battle_id, officer_id=officer.unit_id, unit_id=unit.unit_id)
    inputs = {
        "officer": officer.unit_id,
        "distance": distance,
        "in_sight": in_sight,
        "under_artillery": under_artillery,
        "links_bypassed": links,
    }
    rolls: list[Roll] = []
    steps: list[str] = []
    if distance <= free and in_sight:
        steps.append(f'within {free}" and in sight: no communication test')
    else:
        officer_psi, unit_psi = officer.profile.psi_rank is not None, unit.profile.psi_rank is not None
        if officer_psi and unit_psi:
            steps.append("psion to psion: communication always succeeds")
        else:
            if not (officer.profile.radio and unit.profile.radio) and not (officer_psi or unit_psi):
                raise InvalidInputError(
                    f'{officer.name} is {distance}" away{"" if in_sight else " and out of sight"}: '
                    "a rally needs both to have a radio or telephone"
                )
            sides = tables.quality_die(officer.profile.quality)
            note = f"officer quality d{sides}"
            if officer_psi or unit_psi:
                psion = officer if officer_psi else unit
                psi_sides = tables.psi_die(psion.profile.psi_rank or "none")
                if psi_sides > sides:
                    sides, note = psi_sides, f"psi die d{psi_sides} (the better of psi and quality)"
            spec = die(sides).shifted(-links)
            need = max(lv_off, lv_unit)
            roll = dice.roll(spec, f"communication test, {officer.name} → {unit.name}")
            rolls.append(roll)
            shift = f", −{links} step{'s' if links != 1 else ''} for bypassed links → d{spec.sides}" if links else ""
            steps.append(f"communication: {note}{shift}; need > {need} (worse LV); rolled {roll.total}")
            if roll.total <= need:
                return Decision(
                    "rally",
                    "§0.6",
                    unit.unit_id,
                    inputs,
                    {"result": "comms_failed", "from": us.grade, "to": us.grade},
                    f"{officer.name} rallies {unit.name}: " + "; ".join(steps) + " → fails, the action is wasted",
                    (attempt,),
                    tuple(rolls),
                )
    threat = persisting_threat(tables, motivation, us, under_artillery)
    target = lv_off + lv_unit + threat.total
    sides = tables.quality_die(unit.profile.quality)
    roll = dice.roll(die(sides), f"rally test of {unit.name}")
    rolls.append(roll)
    improved = roll.total > target
    new_grade = tables.shifted_grade(us.grade, -1) if improved else us.grade
    if tables.grade_index(new_grade) < tables.grade_index(us.start_grade):
        new_grade = us.start_grade
    threat_text = f" + threat {threat.total} ({' + '.join(threat.parts)})" if threat.parts else ""
    steps.append(
        f"rally: LV {lv_off} + LV {lv_unit}{threat_text} = {target}; d{sides} rolled {roll.total} → "
        + (f"{us.grade} → {new_grade}" if improved else "no change")
    )
    return Decision(
        "rally",
        "§0.6",
        unit.unit_id,
        {**inputs, "target": target},
        {"result": "rallied" if improved else "failed", "from": us.grade, "to": new_grade},
        f"{officer.name} rallies {unit.name}: " + "; ".join(steps),
        (attempt, *grade_facts(battle, us, new_grade)),
        tuple(rolls),
    )


# -- §0.7 reaction tests -------------------------------------------------------------------------------

REACTION_MOVES: dict[str, dict[str, bool]] = {
    "go_prone_open": {"prone": True},
    "go_prone_cover": {"prone": True},
    "move_while_prone": {"prone": False},
    "leave_cover_shaken": {"in_cover": False},
    "close_combat": {},
}


def reaction_test(tables: Tables, battle: BattleState, unit: RosterUnit, dice: Dice, action: str) -> Decision:
    """Roll the quality die; pass if > LV + the action's threat. A failure costs no grade, but the action
    may not be tried again this activation or turn (§0.7)."""
    us = active_unit(battle, unit)
    if action not in REACTION_MOVES or action not in tables.reaction_actions():
        raise InvalidInputError(f"unknown action {action!r}: one of {', '.join(sorted(REACTION_MOVES))}")
    if action == "go_prone_open" and us.in_cover:
        raise InvalidInputError(f"{unit.name} is in cover: going prone there is go_prone_cover")
    if action == "go_prone_cover" and not us.in_cover:
        raise InvalidInputError(f"{unit.name} is in the open: going prone there is go_prone_open")
    if action.startswith("go_prone") and us.prone:
        raise InvalidInputError(f"{unit.name} is already prone")
    if action == "move_while_prone" and not us.prone:
        raise InvalidInputError(f"{unit.name} is not prone")
    if action == "leave_cover_shaken" and (us.grade != "shaken" or not us.in_cover):
        raise InvalidInputError("only a Shaken unit in cover tests to leave it")
    if action == "close_combat" and tables.grade_index(us.grade) > tables.grade_index("shaken"):
        raise InvalidInputError(f"{unit.name} is {us.grade}: it may not enter close combat")
    if (battle.turn, action) in us.failed_actions:
        raise InvalidInputError(f"{unit.name} failed {action} this turn: it may not try again until next turn")
    moves = REACTION_MOVES[action]
    position = (PositionChanged(battle_id=battle.battle_id, unit_id=unit.unit_id, **moves),) if moves else ()
    if us.last_stand:
        return Decision(
            "reaction_test",
            "§0.9",
            unit.unit_id,
            {"action": action},
            {"result": "auto_pass"},
            f"{unit.name} is in No step back: {action} passes without a test",
            position,
        )
    threat = tables.reaction_threat(action, us.grade)
    lv = unit.profile.leadership
    target = lv + threat
    sides = tables.quality_die(unit.profile.quality)
    roll = dice.roll(die(sides), f"reaction test of {unit.name}: {action}")
    passed = roll.total > target
    facts: tuple[Event, ...] = (
        position
        if passed
        else (ActionFailed(battle_id=battle.battle_id, unit_id=unit.unit_id, action=action, turn=battle.turn),)
    )
    return Decision(
        "reaction_test",
        "§0.7",
        unit.unit_id,
        {"action": action, "threat": threat, "target": target},
        {"result": "pass" if passed else "fail"},
        f"{unit.name} reaction test ({action}): LV {lv} + threat {threat} = {target}; d{sides} rolled {roll.total} → "
        + ("passes" if passed else "fails: not done, and not again this turn"),
        facts,
        (roll,),
    )


# -- §0.8 panic ----------------------------------------------------------------------------------------


def panic_test(
    tables: Tables,
    battle: BattleState,
    unit: RosterUnit,
    dice: Dice,
    trigger: str | None,
    *,
    forced: bool = False,
    psi_caused: bool = False,
) -> Decision:
    """Quality die > LV (threat 0). A pass ends panic for the game; a failure panics the unit, −1 grade.

    A psi-caused test (R2-2) reaches Veterans, Elite and units that passed a panic test already."""
    us = active_unit(battle, unit)
    triggers = tables.panic_triggers(unit.profile.quality)
    if us.last_stand:
        raise InvalidInputError(f"{unit.name} is in No step back: it takes no panic test")
    if not triggers and not psi_caused and us.panic != "panicking":  # a psi-made panic has its later tests (R2-2)
        raise InvalidInputError(f"{unit.name} is {unit.profile.quality}: Veterans and Elite never panic")
    if us.panic == "immune" and not psi_caused:
        raise InvalidInputError(f"{unit.name} passed a panic test this game: it can never panic again")
    if us.panic != "panicking" and not forced:
        if trigger is None:
            raise InvalidInputError(f"{unit.name} is not panicking: name the trigger (one of {', '.join(triggers)})")
        if trigger not in triggers:
            raise InvalidInputError(
                f"{trigger!r} does not make {unit.profile.quality} troops panic; their triggers: {', '.join(triggers)}"
            )
    lv = unit.profile.leadership
    target = lv + int(tables.value("panic.threat"))
    sides = die_for_test(tables, unit, psi_caused)
    roll = dice.roll(die(sides), f"panic test of {unit.name}")
    passed = roll.total > target
    if passed:
        facts: tuple[Event, ...] = (PanicChanged(battle_id=battle.battle_id, unit_id=unit.unit_id, panic="immune"),)
        verdict = "passes: no panic, and never again this game"
        new_grade = us.grade
    else:
        new_grade = tables.shifted_grade(us.grade, 1)
        facts = grade_facts(battle, us, new_grade)
        if us.panic != "panicking":
            facts = (PanicChanged(battle_id=battle.battle_id, unit_id=unit.unit_id, panic="panicking"), *facts)
        verdict = f"fails: panics, −1 grade ({us.grade} → {new_grade}); it does nothing else this activation"
    return Decision(
        "panic_test",
        "§0.8",
        unit.unit_id,
        {"trigger": trigger or "still panicking", "target": target},
        {"result": "pass" if passed else "fail", "from": us.grade, "to": new_grade},
        f"{unit.name} panic test: LV {lv} = {target}; d{sides} rolled {roll.total} → {verdict}",
        facts,
        (roll,),
    )


# -- §0.9 No step back ---------------------------------------------------------------------------------


def last_stand(
    tables: Tables,
    battle: BattleState,
    unit: RosterUnit,
    dice: Dice,
    *,
    friends_within_12: int,
    enemy_squads_in_sight: int,
    enemy_within: int | None = None,
) -> Decision:
    us = active_unit(battle, unit)
    if us.last_stand:
        raise InvalidInputError(f"{unit.name} is already in No step back")
    problems = []
    if not (us.in_cover or us.prone):
        problems.append("it is neither in cover nor prone")
    if friends_within_12 > 0:
        near = tables.number("last_stand.friends_within")
        problems.append(f'{friends_within_12} friendly unit(s) are within {near}"')
    need_enemies = int(tables.value("last_stand.enemy_squads_in_sight"))
    if enemy_squads_in_sight < need_enemies:
        problems.append(
            f"only {enemy_squads_in_sight} enemy squads (not retreating) are in sight, it needs {need_enemies}"
        )
    worst = str(tables.value("last_stand.worst_grade"))
    if tables.grade_index(us.grade) > tables.grade_index(worst):
        problems.append(f"it is {us.grade}; it must be {worst} or better")
    if problems:
        raise InvalidInputError(f"{unit.name} cannot make a last stand: " + "; ".join(problems))
    sides = int(tables.value("last_stand.keno_guard_die" if unit.profile.keno_guard else "last_stand.other_die"))
    need = int(tables.value("last_stand.success_at_least"))
    roll = dice.roll(die(sides), f"No step back test of {unit.name}")
    inputs = {"friends_within_12": friends_within_12, "enemy_squads_in_sight": enemy_squads_in_sight}
    if roll.total >= need:
        return Decision(
            "last_stand",
            "§0.9",
            unit.unit_id,
            inputs,
            {"result": "stands"},
            f"{unit.name} No step back: d{sides} rolled {roll.total} ≥ {need} → stands: no more morale or reaction "
            "tests, no suppression",
            (LastStandChanged(battle_id=battle.battle_id, unit_id=unit.unit_id, active=True, reason="test passed"),),
            (roll,),
        )
    surrender_limit = int(tables.value("surrender.enemy_within"))
    reason = "surrendered" if enemy_within is not None and enemy_within <= surrender_limit else "scattered"
    return Decision(
        "last_stand",
        "§0.9",
        unit.unit_id,
        inputs,
        {"result": reason},
        f"{unit.name} No step back: d{sides} rolled {roll.total} < {need} → the unit is {reason} and removed",
        (UnitRemoved(battle_id=battle.battle_id, unit_id=unit.unit_id, reason=reason),),
        (roll,),
    )


def end_last_stand(tables: Tables, battle: BattleState, unit: RosterUnit, reason: str) -> Decision:
    us = active_unit(battle, unit)
    if not us.last_stand:
        raise InvalidInputError(f"{unit.name} is not in No step back")
    if reason == "wiped_out":
        return Decision(
            "last_stand_end",
            "§0.9",
            unit.unit_id,
            {"reason": reason},
            {"result": "wiped_out"},
            f"{unit.name} fought to the last man: No step back ends, the unit is wiped out",
            (UnitRemoved(battle_id=battle.battle_id, unit_id=unit.unit_id, reason="wiped_out"),),
        )
    if reason != "only_broken_enemies":
        raise InvalidInputError("No step back ends only when the unit is wiped_out or only_broken_enemies are in view")
    end_grade = str(tables.value("last_stand.end_grade"))
    return Decision(
        "last_stand_end",
        "§0.9",
        unit.unit_id,
        {"reason": reason},
        {"result": "steady", "to": end_grade},
        f"{unit.name}: no enemy in view but Broken ones → No step back ends, the unit returns to {end_grade}",
        (
            LastStandChanged(battle_id=battle.battle_id, unit_id=unit.unit_id, active=False, reason=reason),
            *grade_facts(battle, us, end_grade),
        ),
    )


def surrender_check(tables: Tables, battle: BattleState, unit: RosterUnit, enemy_within: int) -> Decision:
    us = active_unit(battle, unit)
    if us.last_stand and tables.flag("last_stand.no_morale_stat"):  # R2-4 (b): "die, but not surrender"
        raise InvalidInputError(f"{unit.name} is in No step back: it has no grade and cannot surrender")
    facts, note = surrender_facts(tables, battle, us, us.grade, enemy_within)
    if not facts:
        limit = tables.value("surrender.enemy_within")
        raise InvalidInputError(
            f'{unit.name} is {us.grade} with the nearest enemy {enemy_within}" away: only a Routed unit with an '
            f'enemy within {limit}" surrenders'
        )
    return Decision(
        "surrender",
        "§0.3",
        unit.unit_id,
        {"enemy_within": enemy_within},
        {"result": "surrendered"},
        f"{unit.name}{note}",
        facts,
    )


# -- §0.10 psionics ------------------------------------------------------------------------------------


def psi(
    campaign: CampaignState,
    tables: Tables,
    battle: BattleState,
    psion: RosterUnit,
    target: RosterUnit,
    dice: Dice,
    *,
    effect: str,
    distance: int,
    in_sight: bool,
    blast_choice: str = "grades",
) -> list[Decision]:
    """A psi action (§0.10): the psi die, shifted down a step per 12" band after the first, ≥ the effect's number."""
    ps = active_unit(battle, psion)
    ts = active_unit(battle, target)
    if psion.profile.psi_rank is None:
        raise InvalidInputError(f"{psion.name} has no psion")
    if effect not in tables.psi_effects():
        raise InvalidInputError(f"unknown psi effect {effect!r}: one of {', '.join(tables.psi_effects())}")
    if not target.profile.living:
        raise InvalidInputError(f"{target.name} is a {target.profile.kind}: psionics affect only living targets")
    if distance < 0:
        raise InvalidInputError("a distance cannot be negative")
    band = int(tables.value("psi.rules.band_inches"))
    bands = max(1, -(-distance // band))
    if bands > 1 and not in_sight:
        raise InvalidInputError(
            f'{target.name} is {distance}" away: beyond the first {band}" band a psion needs line of sight'
        )
    crew_weapon = target.profile.crew_weapon and tables.flag("psi.rules.kill_crew_weapon_exception")
    if effect == "kill" and ts.men < int(tables.value("psi.rules.kill_min_men")) and not crew_weapon:
        raise InvalidInputError(f"Kill cannot be used on a one-man unit ({target.name}) without a crew-served weapon")
    if blast_choice not in ("grades", "panic"):
        raise InvalidInputError("a psi-blast takes 2 grades or makes the target panic: --blast grades|panic")
    per_activation = tables.number("psi.rules.actions_per_activation")
    if ps.psi_actions >= per_activation:  # R2-4 (a)
        raise InvalidInputError(f"{psion.name} has made its {per_activation} psi actions this activation")
    rank = psion.profile.psi_rank
    spec = die(tables.psi_die(rank)).shifted(-(bands - 1))
    need = tables.psi_threshold(effect)
    roll = dice.roll(spec, f"psi {effect} by {psion.name} on {target.name}")
    inputs = {"psion": psion.unit_id, "effect": effect, "distance": distance, "in_sight": in_sight, "bands": bands}
    shift = f" (−{bands - 1} step{'s' if bands > 2 else ''} for range)" if bands > 1 else ""
    head = f"{psion.name} psi {effect} on {target.name}: d{spec.sides}{shift} rolled {roll.total}, need ≥ {need}"
    rolls: list[Roll] = [roll]
    if roll.total < need:
        return [Decision("psi", "§0.10", target.unit_id, inputs, {"result": "fail"}, head + " → fails", (), (roll,))]
    # R2-1: there is no android save; the tests a hostile psi effect calls for are rolled on the android die.
    b, uid = battle.battle_id, target.unit_id
    success = Decision("psi", "§0.10", uid, inputs, {"result": "success"}, head + " → succeeds", (), tuple(rolls))

    def succeeded(what: str, facts: tuple[Event, ...] = (), **changes: Any) -> Decision:
        """The success, with what it did."""
        return replace(success, explanation=success.explanation + what, facts=facts, **changes)

    if effect == "remove_suppression":
        marker = SuppressionChanged(battle_id=b, unit_id=uid, markers=0)
        return [succeeded(f": {ts.suppression} suppression marker(s) removed", (marker,))]
    if effect in ("psi_detection", "avert_eyes"):
        return [succeeded(": use the psi die for Observe this turn")]
    if effect == "confusion":
        lost = ActivationLost(battle_id=b, unit_id=uid, turn=battle.turn)
        return [succeeded(f": {target.name} loses its activation", (lost,))]
    no_grade = ts.last_stand and tables.flag("last_stand.no_morale_stat")
    if no_grade and effect in ("no_step_back", "psi_blast", "psi_strike", "panic"):
        # R2-2, R2-4 (b): a unit in No step back has no grade; none of these reaches it.
        return [succeeded(f", but {target.name} is in No step back: no effect", outcome={"result": "no_effect"})]
    if effect == "no_step_back":
        stand = LastStandChanged(battle_id=b, unit_id=uid, active=True, reason="psi")
        return [succeeded(f": {target.name} enters No step back", (stand,))]
    # R2-2: psionics override the ordinary limits on panic (Veterans, Elite, a unit that passed its test).
    overrides = tables.flag("psi.rules.overrides_ordinary_limits")
    cannot_panic = ts.last_stand or (
        not overrides and (not tables.panic_triggers(target.profile.quality) or ts.panic == "immune")
    )
    if effect == "psi_blast":
        blast = {**inputs, "blast": blast_choice}
        if blast_choice == "grades":
            new_grade = tables.shifted_grade(ts.grade, 2)
            return [
                succeeded(
                    f": −2 grades ({ts.grade} → {new_grade})",
                    grade_facts(battle, ts, new_grade),
                    inputs=blast,
                    outcome={"result": "success", "to": new_grade},
                )
            ]
        if cannot_panic:
            return [succeeded(f", but {target.name} cannot panic", inputs=blast, outcome={"result": "no_effect"})]
        # R2-2: the panic option makes the target take a panic test (§0.8), not panic outright.
        return [
            succeeded(": the target takes a panic test", inputs=blast),
            panic_test(tables, battle, target, dice, None, forced=True, psi_caused=True),
        ]
    if effect == "inspire":
        return [success, inspire(tables, battle, psion, target, dice)]
    if effect == "psi_strike":
        strike = morale_test(tables, battle, target, dice, ["psi_strike"], cause="psi strike", psi_caused=True)
        return [success, strike]
    if effect == "panic":
        if cannot_panic:
            return [succeeded(f", but {target.name} cannot panic", outcome={"result": "no_effect"})]
        return [success, panic_test(tables, battle, target, dice, None, forced=True, psi_caused=True)]
    # kill: a trooper shoots a comrade (the hit is resolved as normal), the unit is suppressed and tests as if
    # its leader were lost.
    suppressed = SuppressionChanged(battle_id=b, unit_id=uid, markers=ts.suppression + (0 if ts.last_stand else 1))
    what = "; no suppression marker (No step back)" if ts.last_stand else "; suppressed"
    kill = succeeded(f": a trooper of {target.name} shoots a comrade (resolve the hit){what}", (suppressed,))
    return [kill, morale_test(tables, battle, target, dice, ["leader_lost"], cause="psi kill", psi_caused=True)]


def inspire(tables: Tables, battle: BattleState, psion: RosterUnit, unit: RosterUnit, dice: Dice) -> Decision:
    """Inspire: a rally test as if the psion were the unit's direct commander nearby (no communication test)."""
    us = active_unit(battle, unit)
    if us.last_stand or tables.grade_index(us.grade) <= tables.grade_index(us.start_grade):
        return Decision(
            "rally",
            "§0.10",
            unit.unit_id,
            {"psion": psion.unit_id},
            {"result": "no_effect"},
            f"{unit.name} is at its starting grade: inspiring it changes nothing",
        )
    threat = persisting_threat(tables, battle.motivation[us.side], us, False)
    target = psion.profile.leadership + unit.profile.leadership + threat.total
    sides = tables.quality_die(unit.profile.quality)
    roll = dice.roll(die(sides), f"rally test of {unit.name} (inspired)")
    new_grade = tables.shifted_grade(us.grade, -1) if roll.total > target else us.grade
    return Decision(
        "rally",
        "§0.10",
        unit.unit_id,
        {"psion": psion.unit_id, "target": target},
        {"result": "rallied" if new_grade != us.grade else "failed", "from": us.grade, "to": new_grade},
        f"{unit.name} inspired rally: LV {psion.profile.leadership} + LV {unit.profile.leadership} + threat "
        f"{threat.total} = {target}; d{sides} rolled {roll.total} → "
        + (f"{us.grade} → {new_grade}" if new_grade != us.grade else "no change"),
        grade_facts(battle, us, new_grade),
        (roll,),
    )


def defence_die(
    tables: Tables, unit: RosterUnit, *, aimed: bool = True, from_air: bool = False, on_psion: bool = True
) -> int:
    """Against small-arms fire a psion defends with the psi die instead of the d4 (§0.10), only when the fire is
    aimed (not fragments or blast), not from the air, and the hit falls on the psion himself (R2-4 d)."""
    base = int(tables.value("defence.aimed_small_arms_die"))
    if unit.profile.psi_rank is None or not aimed or from_air or not on_psion:
        return base
    return max(base, tables.psi_die(unit.profile.psi_rank))
