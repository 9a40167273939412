"""Five-grade morale under pressure (RULES.md §0.7–§0.10): reaction tests, panic, No step back and psionics.

Pure functions like those of :mod:`campaign.rulesets.fighting_spirit.rules`, whose morale test they use.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from campaign.rulesets.decision import Decision
from campaign.rulesets.fighting_spirit.rules import (
    active_unit,
    fired_on_by,
    grade_facts,
    may_act,
    morale_test,
    panic_test,
    persisting_threat,
    surrender_facts,
    within,
)
from campaign.rulesets.fighting_spirit.state import BattleState, CampaignState, RosterUnit
from campaign.rulesets.fighting_spirit.tables import ACTION_WORDS, Tables
from campaign.rulesets.inputs import terms_listed
from events.dice import Dice, Roll, die
from events.errors import InvalidInputError, Term, Words
from events.families.battle import (
    ActivationLost,
    PositionChanged,
    SuppressionChanged,
    UnitRemoved,
)
from events.families.morale import ActionFailed, LastStandChanged
from events.recorded import JsonValue
from events.registry import Event

# -- §0.7 reaction tests -------------------------------------------------------------------------------

REACTION_MOVES: dict[str, dict[str, bool]] = {
    "go_prone_open": {"prone": True},
    "go_prone_cover": {"prone": True},
    "move_while_prone": {"prone": False},
    "leave_cover_shaken": {"in_cover": False},
    "close_combat": {},
}
HOSTILE = frozenset({"psi_strike", "panic", "confusion", "psi_blast", "kill"})
"""The psi effects that attack their target (R3-3: a Broken psion's, as its fire, only at an enemy that fired on it)."""
REACTION_ACTIONS: dict[str, tuple[str, ...]] = {
    "go_prone_open": ("go_prone",),
    "go_prone_cover": ("go_prone",),
    "move_while_prone": ("move_while_prone",),
    "leave_cover_shaken": ("leave_cover",),
    "close_combat": ("close_combat",),
}
"""The action each reaction test is for (R3-2, R3-3: a unit that may not take the action takes no test for it)."""


def reaction_test(tables: Tables, battle: BattleState, unit: RosterUnit, dice: Dice, action: str) -> Decision:
    """Roll the quality die; pass if > LV + the action's threat. A failure costs no grade, but the action
    may not be tried again this activation or turn (§0.7)."""
    us = active_unit(battle, unit)
    if action not in REACTION_MOVES or action not in tables.reaction_actions():
        raise InvalidInputError.saying(
            "unknown action {action!r}: one of {actions}",
            action=action,
            actions=terms_listed("fighting-spirit", "action", sorted(REACTION_MOVES)),
        )
    if action == "go_prone_open" and us.in_cover:
        raise InvalidInputError.saying("{unit} is in cover: going prone there is go_prone_cover", unit=unit.name)
    if action == "go_prone_cover" and not us.in_cover:
        raise InvalidInputError.saying("{unit} is in the open: going prone there is go_prone_open", unit=unit.name)
    if action.startswith("go_prone") and us.prone:
        raise InvalidInputError.saying("{unit} is already prone", unit=unit.name)
    if action == "move_while_prone" and not us.prone:
        raise InvalidInputError.saying("{unit} is not prone", unit=unit.name)
    if action == "leave_cover_shaken" and (us.grade != "shaken" or not us.in_cover):
        raise InvalidInputError.saying("only a Shaken unit in cover tests to leave it")
    if action == "close_combat" and tables.grade_index(us.grade) > tables.grade_index("shaken"):
        raise InvalidInputError.saying(
            "{unit} is {grade}: it may not enter close combat",
            unit=unit.name,
            grade=Term("fighting-spirit", "grade", us.grade),
        )
    if (battle.turn, action) in us.failed_actions:
        raise InvalidInputError.saying(
            "{unit} failed {action} this turn: it may not try again until next turn",
            unit=unit.name,
            action=Term("fighting-spirit", "action", action),
        )
    # what the test is for, as a refusal names it: the action it allows (go prone, enter close combat …)
    what = REACTION_ACTIONS[action][0]
    may_act(tables, battle, unit, us, REACTION_ACTIONS[action], ACTION_WORDS.get(what) or Words(what))
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
        {"action": action, "threat": threat, "target": target, "die": sides},
        {"result": "pass" if passed else "fail"},
        f"{unit.name} reaction test ({action}): LV {lv} + threat {threat} = {target}; d{sides} rolled {roll.total} → "
        + ("passes" if passed else "fails: not done, and not again this turn"),
        facts,
        (roll,),
    )


def position(
    tables: Tables, battle: BattleState, unit: RosterUnit, *, prone: bool | None, in_cover: bool | None
) -> PositionChanged:
    """A move into or out of cover, or going prone or getting up, where no test is needed; refused at Ра, Бе or
    in panic where the action is not allowed (R3-2, R3-3). Leaving or entering cover is a move, which a Бе unit
    makes toward its own edge wherever it ends."""
    us = active_unit(battle, unit)
    if prone is None and in_cover is None:
        raise InvalidInputError.saying("say what changed: --prone/--standing, --cover/--open")
    changes: list[tuple[tuple[str, ...], Words]] = []
    if prone is not None:
        changes.append((("go_prone",), Words("go prone")) if prone else (("get_up",), Words("get up")))
    if in_cover is not None:
        into = (("move_to_cover", "move_to_edge"), Words("move into cover"))
        changes.append(into if in_cover else (("leave_cover_withdraw", "move_to_edge"), Words("leave cover")))
    for actions, what in changes:
        may_act(tables, battle, unit, us, actions, what)
    return PositionChanged(battle_id=battle.battle_id, unit_id=unit.unit_id, prone=prone, in_cover=in_cover)


# -- §0.9 No step back ---------------------------------------------------------------------------------


def last_stand(
    tables: Tables,
    battle: BattleState,
    unit: RosterUnit,
    dice: Dice,
    *,
    friends_within_12: int,
    enemy_squads_in_sight: int,
    enemy_within: Decimal | None = None,
) -> Decision:
    us = active_unit(battle, unit)
    if us.last_stand:
        raise InvalidInputError.saying("{unit} is already in No step back", unit=unit.name)
    problems: list[Words] = []
    if not (us.in_cover or us.prone):
        problems.append(Words("it is neither in cover nor prone"))
    if friends_within_12 > 0:
        near = tables.last_stand.friends_within
        problems.append(
            Words.counted(
                '{n} friendly unit is within {near}"',
                '{n} friendly units are within {near}"',
                n=friends_within_12,
                near=near,
            )
        )
    need_enemies = int(tables.last_stand.enemy_squads_in_sight)
    if enemy_squads_in_sight < need_enemies:
        problems.append(
            Words.counted(
                "only {n} enemy squad (not retreating) is in sight, it needs {need}",
                "only {n} enemy squads (not retreating) are in sight, it needs {need}",
                n=enemy_squads_in_sight,
                need=need_enemies,
            )
        )
    worst = str(tables.last_stand.worst_grade)
    if tables.grade_index(us.grade) > tables.grade_index(worst):
        problems.append(
            Words(
                "it is {grade}; it must be {worst} or better",
                grade=Term("fighting-spirit", "grade", us.grade),
                worst=Term("fighting-spirit", "grade", worst),
            )
        )
    if problems:
        why = problems[0]
        for more in problems[1:]:
            why = Words("{some}; {last}", some=why, last=more)
        raise InvalidInputError.saying("{unit} cannot make a last stand: {why}", unit=unit.name, why=why)
    sides = tables.last_stand.keno_guard_die if unit.profile.keno_guard else tables.last_stand.other_die
    need = int(tables.last_stand.success_at_least)
    roll = dice.roll(die(sides), f"No step back test of {unit.name}", side=unit.side)
    inputs = {
        "friends_within_12": friends_within_12,
        "enemy_squads_in_sight": enemy_squads_in_sight,
        "die": sides,
        "need": need,
    }
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
    surrender_limit = int(tables.surrender.enemy_within)
    near = enemy_within is not None and within(tables, enemy_within, surrender_limit)
    reason = "surrendered" if near else "scattered"
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
        raise InvalidInputError.saying("{unit} is not in No step back", unit=unit.name)
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
        raise InvalidInputError.saying(
            "No step back ends only when the unit is wiped_out or only_broken_enemies are in view"
        )
    end_grade = str(tables.last_stand.end_grade)
    capped = ""
    if tables.last_stand.end_capped_by_start and tables.grade_index(us.start_grade) > tables.grade_index(
        end_grade
    ):  # R3-6: never above the grade it started at (its rally cap)
        end_grade, capped = us.start_grade, " (its start grade: morale never rises above it, R3-6)"
    return Decision(
        "last_stand_end",
        "§0.9",
        unit.unit_id,
        {"reason": reason, "capped": bool(capped)},
        {"result": "steady", "to": end_grade},
        f"{unit.name}: no enemy in view but Broken ones → No step back ends, the unit returns to {end_grade}{capped}",
        (
            LastStandChanged(battle_id=battle.battle_id, unit_id=unit.unit_id, active=False, reason=reason),
            *grade_facts(battle, us, end_grade),
        ),
    )


def surrender_check(tables: Tables, battle: BattleState, unit: RosterUnit, enemy_within: Decimal) -> Decision:
    us = active_unit(battle, unit)
    if us.last_stand and tables.last_stand.no_morale_stat:  # R2-4 (b): "die, but not surrender"
        raise InvalidInputError.saying(
            "{unit} is in No step back: it has no grade and cannot surrender", unit=unit.name
        )
    facts, note = surrender_facts(tables, battle, us, us.grade, enemy_within)
    if not facts:
        raise InvalidInputError.saying(
            '{unit} is {grade} with the nearest enemy {distance}" away: only a Routed unit with an enemy within '
            '{limit}" surrenders',
            unit=unit.name,
            grade=Term("fighting-spirit", "grade", us.grade),
            distance=str(enemy_within),
            limit=tables.surrender.enemy_within,
        )
    return Decision(
        "surrender",
        "§0.3",
        unit.unit_id,
        # the limit, as the sentence states it (the ruleset's said.py); verify compares outcomes, never inputs
        {"enemy_within": str(enemy_within), "surrender_within": int(tables.surrender.enemy_within)},
        {"result": "surrendered"},
        f"{unit.name}{note}",
        facts,
    )


# -- §0.10 psionics ------------------------------------------------------------------------------------


def psi(  # noqa: C901, PLR0911, PLR0912, PLR0913, PLR0915 (RULES.md's steps, in its order)
    campaign: CampaignState,
    tables: Tables,
    battle: BattleState,
    psion: RosterUnit,
    target: RosterUnit,
    dice: Dice,
    *,
    effect: str,
    distance: Decimal,
    in_sight: bool,
    blast_choice: str = "grades",
) -> list[Decision]:
    """A psi action (§0.10): the psi die, shifted down a step per 12" band after the first, ≥ the effect's number."""
    ps = active_unit(battle, psion)
    ts = active_unit(battle, target)
    if psion.profile.psi_rank is None:
        raise InvalidInputError.saying("{unit} has no psion", unit=psion.name)
    if effect not in tables.psi_effects():
        raise InvalidInputError.saying(
            "unknown psi effect {effect!r}: one of {effects}",
            effect=effect,
            effects=terms_listed("fighting-spirit", "psi_effect", tables.psi_effects()),
        )
    # R3-3: a Broken psion attacks only an enemy that fired on it this turn ("like shooting, with the same
    # limits") and gives no support; R3-2: a panicking one makes no psi action at all.
    back = effect in HOSTILE and fired_on_by(battle, ps, target.unit_id)
    psi = Words(
        "make psi {effect} on {target}", effect=Term("fighting-spirit", "psi_effect", effect), target=target.name
    )
    may_act(tables, battle, psion, ps, ("fire_back",) if back else ("psi",), psi)
    if not target.profile.living:
        raise InvalidInputError.saying(
            "{target} is not living ({kind}): psionics affect only living targets",
            target=target.name,
            kind=Term("fighting-spirit", "kind", target.profile.kind),
        )
    band = int(tables.psi.rules.band_inches)
    # R3-8: band 1 is "within 12"" (d ≤ 12 by default): ceil(d ÷ 12), or with "within" read as d < 12, one band
    # more for each whole 12".
    inclusive = tables.measure.within_inclusive
    bands = max(1, math.ceil(distance / band)) if inclusive else math.floor(distance / band) + 1
    if bands > 1 and not in_sight:
        raise InvalidInputError.saying(
            '{target} is {distance}" away: beyond the first {band}" band a psion needs line of sight',
            target=target.name,
            distance=str(distance),
            band=band,
        )
    crew_weapon = target.profile.crew_weapon and tables.psi.rules.kill_crew_weapon_exception
    if effect == "kill" and ts.men < int(tables.psi.rules.kill_min_men) and not crew_weapon:
        raise InvalidInputError.saying(
            "Kill cannot be used on a one-man unit ({target}) without a crew-served weapon", target=target.name
        )
    if blast_choice not in ("grades", "panic"):
        raise InvalidInputError.saying("a psi-blast takes 2 grades or makes the target panic: --blast grades|panic")
    per_activation = tables.psi.rules.actions_per_activation
    if ps.psi_actions >= per_activation:  # R2-4 (a); one activation a turn, so per turn too (R3-1)
        raise InvalidInputError.counting(
            "{unit} has made its {n} psi action this turn",
            "{unit} has made its {n} psi actions this turn",
            n=per_activation,
            unit=psion.name,
        )
    rank = psion.profile.psi_rank
    spec = die(tables.psi_die(rank)).shifted(-(bands - 1))
    need = tables.psi_threshold(effect)
    roll = dice.roll(spec, f"psi {effect} by {psion.name} on {target.name}", side=psion.side)
    inputs: dict[str, JsonValue] = {
        "psion": psion.unit_id, "effect": effect, "distance": str(distance), "in_sight": in_sight, "bands": bands,
        # what the sentence states (the ruleset's said.py): the die rolled, the number needed, and (below) what the
        # success did, by a key of its own; verify compares outcomes, never inputs
        "die": spec.sides, "need": need,
    }  # fmt: skip
    shift = f" (−{bands - 1} step{'s' if bands > 2 else ''} for range)" if bands > 1 else ""
    head = f"{psion.name} psi {effect} on {target.name}: d{spec.sides}{shift} rolled {roll.total}, need ≥ {need}"
    rolls: list[Roll] = [roll]
    if roll.total < need:
        return [Decision("psi", "§0.10", target.unit_id, inputs, {"result": "fail"}, head + " → fails", (), (roll,))]
    # R2-1: there is no android save; the tests a hostile psi effect calls for are rolled on the android die.
    b, uid = battle.battle_id, target.unit_id
    success = Decision("psi", "§0.10", uid, inputs, {"result": "success"}, head + " → succeeds", (), tuple(rolls))

    tested = inputs

    def succeeded(
        what: str,
        facts: tuple[Event, ...] = (),
        then: str = "",
        inputs: Mapping[str, JsonValue] = tested,
        outcome: Mapping[str, JsonValue] = success.outcome,
    ) -> Decision:
        """The success, with what it did (``then``: which of these sentences it is, for a view's language)."""
        said = {**inputs, "then": then}
        return replace(success, explanation=success.explanation + what, facts=facts, inputs=said, outcome=outcome)

    if effect == "remove_suppression":
        marker = SuppressionChanged(battle_id=b, unit_id=uid, markers=0)
        removed = {**inputs, "markers": ts.suppression}
        return [
            succeeded(f": {ts.suppression} suppression marker(s) removed", (marker,), "unsuppressed", inputs=removed)
        ]
    if effect in ("psi_detection", "avert_eyes"):
        return [succeeded(": use the psi die for Observe this turn", then="observe")]
    if effect == "confusion":
        lost = ActivationLost(battle_id=b, unit_id=uid, turn=battle.turn)
        return [succeeded(f": {target.name} loses its activation", (lost,), "confused")]
    no_grade = ts.last_stand and tables.last_stand.no_morale_stat
    if no_grade and effect in ("no_step_back", "psi_blast", "psi_strike", "panic"):
        # R2-2, R2-4 (b): a unit in No step back has no grade; none of these reaches it.
        return [
            succeeded(
                f", but {target.name} is in No step back: no effect",
                then="in_last_stand",
                outcome={"result": "no_effect"},
            )
        ]
    if effect == "no_step_back":
        stand = LastStandChanged(battle_id=b, unit_id=uid, active=True, reason="psi")
        return [succeeded(f": {target.name} enters No step back", (stand,), "last_stand")]
    # R2-2: psionics override the ordinary limits on panic (Veterans, Elite, a unit that passed its test).
    overrides = tables.psi.rules.overrides_ordinary_limits
    cannot_panic = ts.last_stand or (
        not overrides and (not tables.panic_triggers(target.profile.quality) or ts.panic == "immune")
    )
    if ts.panic == "panicking" and (effect == "panic" or (effect == "psi_blast" and blast_choice == "panic")):
        # R3-2 (5): a trigger on a unit already panicking calls for no new test.
        return [
            succeeded(
                f", but {target.name} is already panicking: no new test",
                then="panicking",
                inputs={**inputs, "blast": blast_choice} if effect == "psi_blast" else inputs,
                outcome={"result": "no_effect"},
            )
        ]
    if effect == "psi_blast":
        blast = {**inputs, "blast": blast_choice}
        if blast_choice == "grades":
            new_grade = tables.shifted_grade(ts.grade, 2)
            return [
                succeeded(
                    f": −2 grades ({ts.grade} → {new_grade})",
                    grade_facts(battle, ts, new_grade),
                    "two_grades",
                    inputs={**blast, "from": ts.grade},
                    outcome={"result": "success", "to": new_grade},
                )
            ]
        if cannot_panic:
            return [
                succeeded(
                    f", but {target.name} cannot panic",
                    then="cannot_panic",
                    inputs=blast,
                    outcome={"result": "no_effect"},
                )
            ]
        # R2-2: the panic option makes the target take a panic test (§0.8), not panic outright.
        return [
            succeeded(": the target takes a panic test", then="panic_test", inputs=blast),
            panic_test(tables, battle, target, dice, None, forced=True, psi_caused=True),
        ]
    if effect == "inspire":
        return [success, inspire(tables, battle, psion, target, dice)]
    if effect == "psi_strike":
        strike = morale_test(tables, battle, target, dice, ["psi_strike"], cause="psi strike", psi_caused=True)
        return [success, strike]
    if effect == "panic":
        if cannot_panic:
            return [
                succeeded(f", but {target.name} cannot panic", then="cannot_panic", outcome={"result": "no_effect"})
            ]
        return [success, panic_test(tables, battle, target, dice, None, forced=True, psi_caused=True)]
    # kill: a trooper shoots a comrade (the hit is resolved as normal), the unit is suppressed and tests as if
    # its leader were lost.
    suppressed = SuppressionChanged(battle_id=b, unit_id=uid, markers=ts.suppression + (0 if ts.last_stand else 1))
    what = "; no suppression marker (No step back)" if ts.last_stand else "; suppressed"
    then = "kill_in_last_stand" if ts.last_stand else "kill"
    kill = succeeded(f": a trooper of {target.name} shoots a comrade (resolve the hit){what}", (suppressed,), then)
    return [kill, morale_test(tables, battle, target, dice, ["leader_lost"], cause="psi kill", psi_caused=True)]


def inspire(tables: Tables, battle: BattleState, psion: RosterUnit, unit: RosterUnit, dice: Dice) -> Decision:
    """Inspire: a rally test as if the psion were the unit's direct commander nearby (no communication test)."""
    us = active_unit(battle, unit)
    if us.last_stand or tables.grade_index(us.grade) <= tables.grade_index(us.start_grade):
        return Decision(
            "rally",
            "§0.10",
            unit.unit_id,
            {"psion": psion.unit_id, "at_start": True},
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
        # what the sentence states (the ruleset's said.py); verify compares outcomes, never inputs
        {
            "psion": psion.unit_id,
            "target": target,
            "lv_psion": psion.profile.leadership,
            "lv_unit": unit.profile.leadership,
            "threat": threat.total,
            "die": sides,
        },
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
    base = int(tables.defence.aimed_small_arms_die)
    if unit.profile.psi_rank is None or not aimed or from_air or not on_psion:
        return base
    return max(base, tables.psi_die(unit.profile.psi_rank))
