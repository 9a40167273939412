"""Five-grade morale under pressure (RULES.md §0.7–§0.10): reaction tests, panic, No step back and psionics.

Pure functions like those of :mod:`campaign.rulesets.fighting_spirit.rules`, whose morale test they use.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from campaign.rulesets.decision import Decision
from campaign.rulesets.fighting_spirit.rules import (
    active_unit,
    die_for_test,
    grade_facts,
    morale_test,
    persisting_threat,
    surrender_facts,
)
from campaign.rulesets.fighting_spirit.state import BattleState, CampaignState, RosterUnit
from campaign.rulesets.fighting_spirit.tables import Tables
from events.dice import Dice, Roll, die
from events.errors import InvalidInputError
from events.families.battle import (
    ActivationLost,
    PositionChanged,
    SuppressionChanged,
    UnitRemoved,
)
from events.families.morale import ActionFailed, LastStandChanged, PanicChanged
from events.registry import Event

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
    roll = dice.roll(die(sides), f"reaction test of {unit.name}: {action}", side=unit.side)
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
    roll = dice.roll(die(sides), f"panic test of {unit.name}", side=unit.side)
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
    roll = dice.roll(die(sides), f"No step back test of {unit.name}", side=unit.side)
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
    roll = dice.roll(spec, f"psi {effect} by {psion.name} on {target.name}", side=psion.side)
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
    roll = dice.roll(die(sides), f"rally test of {unit.name} (inspired)", side=unit.side)
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
