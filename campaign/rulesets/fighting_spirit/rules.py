"""The five-grade morale rules (RULES.md §0) as pure functions.

Each takes the battle state, the tables in force, the command's inputs and a Dice object, and returns a
:class:`Decision`. Nothing here reads a clock, a database or a random source; impossible requests raise
:class:`~events.errors.InvalidInputError` before any die is rolled, so nothing is appended.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from campaign.i18n import N_
from campaign.rulesets.battles import measured
from campaign.rulesets.decision import Decision
from campaign.rulesets.fighting_spirit.state import BattleState, CampaignState, RosterUnit, UnitState
from campaign.rulesets.fighting_spirit.tables import ACTION_WORDS, Tables
from campaign.rulesets.inputs import terms_listed
from events.dice import Dice, Roll, die
from events.errors import InvalidInputError, Term, Words
from events.families.battle import AttackResolved, UnitActivated, UnitRemoved
from events.families.morale import GradeChanged, PanicChanged, RallyAttempted
from events.recorded import JsonValue
from events.registry import Event

# -- helpers -------------------------------------------------------------------------------------------


def active_unit(battle: BattleState, unit: RosterUnit) -> UnitState:
    """The unit's battle state, refusing a unit that is not in the battle or has left it."""
    state = battle.units.get(unit.unit_id)
    if state is None:
        raise InvalidInputError.saying(
            "{unit} is not deployed in the battle {battle!r}", unit=unit.name, battle=battle.name
        )
    if state.removed is not None:
        raise InvalidInputError.saying(
            "{unit} was removed from the battle ({reason}) and takes no more tests",
            unit=unit.name,
            reason=Term("fighting-spirit", "removed", state.removed),
        )
    return state


def grade_facts(battle: BattleState, unit: UnitState, to_grade: str) -> tuple[Event, ...]:
    if to_grade == unit.grade:
        return ()
    return (GradeChanged(battle_id=battle.battle_id, unit_id=unit.unit_id, from_grade=unit.grade, to_grade=to_grade),)


def inches(tables: Tables, text: str, what: str | Words) -> Decimal:
    """A distance typed at the table, exactly, to the tables' ``measure.decimals`` places (R3-8)."""
    return measured(text, what, tables.measure.decimals)


def enemy_at(tables: Tables, text: str | None) -> Decimal | None:
    """The nearest enemy's distance, when the players measured it."""
    return None if text is None else inches(tables, text, Words("the enemy within"))


def within(tables: Tables, distance: Decimal, limit: int) -> bool:
    """ "Within ``limit``": d ≤ N, or d < N when ``measure.within_inclusive`` says so (R3-8)."""
    return distance <= limit if tables.measure.within_inclusive else distance < limit


def surrender_facts(
    tables: Tables, battle: BattleState, unit: UnitState, grade: str, enemy_within: Decimal | None
) -> tuple[tuple[Event, ...], str]:
    """A Routed unit with an enemy within 12" surrenders (§0.3)."""
    limit = int(tables.surrender.enemy_within)
    if grade == "routed" and enemy_within is not None and within(tables, enemy_within, limit):
        return (UnitRemoved(battle_id=battle.battle_id, unit_id=unit.unit_id, reason="surrendered"),), (
            f'; Routed with an enemy {enemy_within}" away (within {limit}") → surrenders'
        )
    return (), ""


# -- R3-1 … R3-3: what a unit may do in its activation ------------------------------------------------------


def activation(tables: Tables, battle: BattleState, unit: RosterUnit) -> UnitActivated:
    """R3-1: a unit's own activation; at most ``turn.activations_per_unit`` of them in a turn (a unit that lost
    its activation, or spent it on its panic test, has had it)."""
    us = active_unit(battle, unit)
    allowed = tables.turn.activations_per_unit
    if us.activations >= allowed:
        raise InvalidInputError.saying(
            "{unit} has had its activation in turn {turn}: one a turn (R3-1); the next is in turn {next}",
            unit=unit.name,
            turn=battle.turn,
            next=battle.turn + 1,
        )
    return UnitActivated(battle_id=battle.battle_id, unit_id=unit.unit_id, turn=battle.turn)


def may_act(
    tables: Tables, battle: BattleState, unit: RosterUnit, us: UnitState, actions: Sequence[str], what: Words
) -> None:
    """Refuse, before any die is rolled, an action the unit may not take (``actions``: the names it goes by, any
    one allowed will do; ``what``: it in words): none once its activation this turn is spent (lost, or spent on
    its panic test: R3-1, R3-2), none but ``panic.allowed_actions`` while it panics (R3-2), and only those of
    ``grades.<grade>.allowed`` at Ра or Бе (R3-3). A unit in No step back has no grade (R2-4 b)."""
    if us.last_stand:
        return
    if us.spent or us.panic_tests:
        spent = (
            N_("{unit}: its activation in turn {turn} is spent (on its panic test): it may not {what} this turn (R3-2)")
            if us.panic_tests
            else N_("{unit}: its activation in turn {turn} is spent (lost): it may not {what} this turn (R3-2)")
        )
        raise InvalidInputError.saying(spent, unit=unit.name, turn=battle.turn, what=what)
    if us.panic == "panicking" and not set(actions) & set(tables.panic.allowed_actions):
        raise InvalidInputError.saying(
            "{unit} is panicking: it takes no action in its activations but its panic test, so it may not "
            "{what} (§0.8, R3-2)",
            unit=unit.name,
            what=what,
        )
    allowed = tables.allowed(us.grade)
    if allowed is not None and not set(actions) & set(allowed):
        # each action in the reader's words, joined as the reader's language joins a choice
        may: Words | str = Words("do nothing")
        for i, a in enumerate(allowed):
            said = ACTION_WORDS.get(a) or a.replace("_", " ")  # an action of edited tables: as they name it
            may = said if i == 0 else Words("{some} or {last}", some=may, last=said)
        raise InvalidInputError.saying(
            "{unit} is {grade}: it may {may}, not {what} (§0.3, R3-3)",
            unit=unit.name,
            grade=Term("fighting-spirit", "grade", us.grade),
            may=may,
            what=what,
        )


def fired_on_by(battle: BattleState, us: UnitState, enemy: str) -> bool:
    """Whether ``enemy`` (a unit id) is recorded as having fired on the unit in this turn (R3-3 d, R3-4)."""
    return (battle.turn, enemy) in us.fired_on


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
    terms: tuple[tuple[str, str, int, int], ...] = ()
    """The parts as data, for a sentence in another language: ``(row, "base" | "plus" | "each", value, count)``."""


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
    terms: list[tuple[str, str, int, int]] = []
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
            terms.append((row, "plus", value or 0, 1))
        elif kind == "plus_each":
            n = counts.get(row, 0)
            if n and value:
                plus += value * n
                parts.append(f"{row} +{value}×{n}")
                terms.append((row, "each", value, n))
        elif value:
            plus += value
            parts.append(f"{row} +{value}")
            terms.append((row, "plus", value, 1))
    if not base_values and not triggered:
        return Threat(0, tuple(parts), None, tuple(terms))
    best = max(base_values) if base_values else (0, "")
    head = [f"{best[1]} {best[0]}"] if base_values else []
    base_term = [(best[1], "base", best[0], 1)] if base_values else []
    return Threat(best[0] + plus, (*head, *parts), best[0], (*base_term, *terms))


def die_for_test(tables: Tables, unit: RosterUnit, psi_caused: bool) -> int:
    """The die of a test: the quality die, or for an android resisting a hostile psi effect the d6 (R2-1)."""
    if psi_caused and unit.profile.kind == "android":
        return int(tables.psi.rules.android_resist_die)
    return tables.quality_die(unit.profile.quality)


def morale_outcome(roll: int, target: int) -> int:
    """Grades lost: 0 if roll > target, 2 if 2×roll ≤ target ("half or less"), else 1 (§0.4)."""
    if roll > target:
        return 0
    return 2 if 2 * roll <= target else 1


def morale_test(  # noqa: PLR0913 (the command's inputs, by keyword)
    tables: Tables,
    battle: BattleState,
    unit: RosterUnit,
    dice: Dice,
    rows: Sequence[str],
    *,
    counts: Mapping[str, int] | None = None,
    enemy_within: Decimal | None = None,
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
    inputs: dict[str, JsonValue] = {
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
    roll = dice.roll(die(sides), f"morale test of {unit.name}", side=unit.side)
    lost = morale_outcome(roll.total, target)
    if lost == 1 and 2 * roll.total <= target + tables.test.two_grades_slack:
        lost = 2  # R2-5: A-7's alternative reading of "half of what is needed", by house rule
    new_grade = tables.shifted_grade(us.grade, lost)
    verdict = {0: "passes", 1: "−1 grade", 2: "−2 grades (half or less)"}[lost]
    explanation = (
        f"{unit.name} morale test: LV {lv} + threat {threat.total} ({' + '.join(threat.parts)}) = {target}; "
        f"d{sides} rolled {roll.total} → {verdict}" + (f": {us.grade} → {new_grade}" if new_grade != us.grade else "")
    )
    removed, note = surrender_facts(tables, battle, us, new_grade, enemy_within)
    # What the sentence states, as data, so a view renders it in the reader's language (campaign/i18n/explain.py);
    # verify compares outcomes, never inputs, so a test recorded before these keys verifies as before.
    said: dict[str, JsonValue] = {"lv": lv, "threat_parts": [list(t) for t in threat.terms]}
    if removed:
        # the distance as typed (a Decimal, "2.5"): events hold integers and strings
        said |= {"enemy_within": str(enemy_within), "surrender_within": int(tables.surrender.enemy_within)}
    return Decision(
        "morale_test",
        "§0.4",
        unit.unit_id,
        {**inputs, "threat": threat.total, "target": target, "die": sides, **said},
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


def attack(  # noqa: C901, PLR0913 (RULES.md's steps, in its order)
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
    enemy_within: Decimal | None = None,
    by: RosterUnit | None = None,
    assault: bool = False,
    air: bool = False,
) -> list[Decision]:
    """Fire or an assault hits the unit: record it, then the morale test it calls for (§0.4, §0.5), and a Green
    unit's panic test at the first fire on it in the battle (R3-4). ``by``: the enemy unit that attacked, so
    that a Broken unit may fire back at it this turn (R3-3 d)."""
    us = active_unit(battle, unit)
    if killed < 0 or wounded < 0:
        raise InvalidInputError.saying("casualties cannot be negative")
    if killed + wounded > us.men:
        raise InvalidInputError.counting(
            "{unit} has {n} man left; it cannot lose {lost}",
            "{unit} has {n} men left; it cannot lose {lost}",
            n=us.men,
            unit=unit.name,
            lost=killed + wounded,
        )
    if artillery + air + assault > 1:
        raise InvalidInputError.saying("an attack is artillery, air or an assault (close combat): one of them at most")
    kind = "artillery" if artillery else "air" if air else "close_combat" if assault else "small_arms"
    fire = kind in tables.panic.fired_on_kinds
    if not (killed or wounded or suppressing or leader_hit or fire):
        raise InvalidInputError.saying(
            "an attack with no casualties, no suppression and no leader hit calls for nothing"
        )
    if by is not None:
        firer = active_unit(battle, by)
        if firer.side == us.side:
            raise InvalidInputError.saying(
                "{by} fights for {side}, as {unit} does: it attacks enemies only",
                by=by.name,
                side=firer.side,
                unit=unit.name,
            )
        back = fired_on_by(battle, firer, unit.unit_id)
        if fire and firer.grade == "broken" and not back and not firer.last_stand:
            raise InvalidInputError.saying(
                "{by} is broken: it may fire only at an enemy that fired on it this turn, and {unit} has not "
                "(§0.3, R3-3)",
                by=by.name,
                unit=unit.name,
            )
        action = ("close_combat",) if assault else ("fire_back",) if back else ("fire",)
        at = Words("assault {unit}", unit=unit.name) if assault else Words("fire at {unit}", unit=unit.name)
        may_act(tables, battle, by, firer, action, at)
    left = us.men - killed - wounded
    first_suppression = suppressing and not us.ever_suppressed and not us.last_stand
    casualties = killed + wounded > 0
    battle_loss = str(tables.threats["lost_more_than_left"].counts) == "battle"
    lost = us.start_men - left if battle_loss else killed + wounded  # R3-5: the battle's losses, by default
    rows: list[str] = []
    if first_suppression:
        rows.append("first_suppression")
    if casualties:
        rows.append("casualties")
    if casualties and lost > left:
        rows.append("lost_more_than_left")
    if leader_hit:
        rows.append("leader_lost")
    # Artillery (and air) adds only if that attack causes the first suppression or casualties (§0.5).
    if (artillery or air) and (first_suppression or casualties):
        rows.append("artillery")
    fact = AttackResolved(
        battle_id=battle.battle_id,
        unit_id=unit.unit_id,
        killed=killed,
        wounded=wounded,
        suppressing=suppressing,
        artillery=artillery or air,
        leader_hit=leader_hit,
    )
    after = replace(us, men=left, unverified=us.unverified + wounded)
    what = (
        f"{killed} killed, {wounded} wounded"
        + (", suppressed" if suppressing else "")
        + (", leader hit" if leader_hit else "")
        + {"small_arms": "", "artillery": " (artillery)", "air": " (from the air)", "close_combat": " (assault)"}[kind]
        + (f", by {by.name}" if by is not None else "")
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
            "kind": kind,
            "fire": fire,
            "by": by.unit_id if by is not None else None,
        },
        {"men_left": left, "threat_rows": list(rows)},
        f"{unit.name} attacked: {what}; {left} {'man' if left == 1 else 'men'} left",
        (fact,),
    )
    decisions = [recorded]
    if rows:
        test = morale_test(tables, battle, unit, dice, rows, enemy_within=enemy_within, cause="attack", state=after)
        decisions.append(test)
        if test.outcome.get("surrendered"):
            return decisions
        after = replace(after, grade=str(test.outcome.get("to", after.grade)))
    # R3-4: the first recorded fire on a Green unit makes its panic trigger test part of the attack.
    first = fire and not us.fired_on and us.panic == "none" and not us.last_stand
    if first and "fired_on" in tables.panic_triggers(unit.profile.quality):
        decisions.append(panic_test(tables, battle, unit, dice, "fired_on", state=after, fire_event=True))
    return decisions


# -- §0.8 panic ----------------------------------------------------------------------------------------


def panic_test(  # noqa: C901, PLR0912, PLR0913 (RULES.md's steps, in its order)
    tables: Tables,
    battle: BattleState,
    unit: RosterUnit,
    dice: Dice,
    trigger: str | None,
    *,
    forced: bool = False,
    psi_caused: bool = False,
    state: UnitState | None = None,
    fire_event: bool = False,
) -> Decision:
    """Quality die > LV (threat 0). A pass ends panic for the game; a failure panics the unit, −1 grade.

    A trigger test (``trigger``, or ``forced`` by psi) is taken when its event happens and costs no activation; a
    failure in the unit's own activation loses the rest of it. While it panics, each of its own activations is
    spent on one test (``trigger`` None), which is that activation: it activates the unit if it has not yet
    (R3-1, R3-2). ``fire_event``: the test comes with the first fire on the unit (R3-4). A psi-caused test (R2-2)
    reaches Veterans, Elite and units that passed a panic test already."""
    us = state or active_unit(battle, unit)
    triggers = tables.panic_triggers(unit.profile.quality)
    if us.last_stand:
        raise InvalidInputError.saying("{unit} is in No step back: it takes no panic test", unit=unit.name)
    if trigger == "fired_on" and not fire_event:  # R3-4: the test of the first fire comes with it, and only then
        if us.fired_on:
            raise InvalidInputError.saying(
                "{unit}: its first fire (#{seq}) called for its fired_on panic test with it: there is no other",
                unit=unit.name,
                seq=us.first_fire,
            )
        raise InvalidInputError.saying(
            "{unit} has not been fired on: record the fire with `fs attack {unit}`, which takes the panic test of "
            "the first fire",
            unit=unit.name,
        )
    leading: tuple[Event, ...] = ()
    if us.panic == "panicking":
        if trigger is not None or forced:  # R3-2 (5)
            raise InvalidInputError.saying(
                "{unit} is already panicking: a trigger calls for no new test; its panic tests are taken one in "
                "each of its activations",
                unit=unit.name,
            )
        per = tables.panic.tests_per_activation
        if us.activations and us.panic_tests >= per:
            raise InvalidInputError.saying(
                "{unit} has taken its panic test in this activation (R3-2): the next is in its next activation",
                unit=unit.name,
            )
        if us.activations and us.spent:
            raise InvalidInputError.saying(
                "{unit}: its activation in turn {turn} is spent (its trigger test failed in it, or it was lost): "
                "its next panic test is in its next activation (R3-2)",
                unit=unit.name,
                turn=battle.turn,
            )
        if not us.activations:
            leading = (activation(tables, battle, unit),)
    else:
        if not triggers and not psi_caused:
            raise InvalidInputError.saying(
                "{unit} is {quality}: Veterans and Elite never panic",
                unit=unit.name,
                quality=Term("fighting-spirit", "quality", unit.profile.quality),
            )
        if us.panic == "immune" and not psi_caused:
            raise InvalidInputError.saying(
                "{unit} passed a panic test this game: it can never panic again", unit=unit.name
            )
        if not forced:
            if trigger is None:
                raise InvalidInputError.saying(
                    "{unit} is not panicking: name the trigger (one of {triggers})",
                    unit=unit.name,
                    triggers=terms_listed("fighting-spirit", "trigger", triggers),
                )
            if trigger not in triggers:
                raise InvalidInputError.saying(
                    "{trigger!r} does not make {quality} troops panic; their triggers: {triggers}",
                    trigger=trigger,
                    quality=Term("fighting-spirit", "quality", unit.profile.quality),
                    triggers=terms_listed("fighting-spirit", "trigger", triggers),
                )
    lv = unit.profile.leadership
    target = lv + int(tables.panic.threat)
    sides = die_for_test(tables, unit, psi_caused)
    roll = dice.roll(die(sides), f"panic test of {unit.name}", side=unit.side)
    passed = roll.total > target
    if passed:
        facts: tuple[Event, ...] = (PanicChanged(battle_id=battle.battle_id, unit_id=unit.unit_id, panic="immune"),)
        verdict = "passes: no panic, and never again this game"
        if us.panic == "panicking":
            verdict = "passes: the panic is over, and never again this game; the test was its activation"
        new_grade = us.grade
    else:
        new_grade = tables.shifted_grade(us.grade, 1)
        facts = grade_facts(battle, us, new_grade)
        if us.panic != "panicking":
            facts = (PanicChanged(battle_id=battle.battle_id, unit_id=unit.unit_id, panic="panicking"), *facts)
        verdict = f"fails: panics, −1 grade ({us.grade} → {new_grade}); it does nothing else this activation"
    recorded = trigger or ("psi" if psi_caused else "still panicking")
    return Decision(
        "panic_test",
        "§0.8",
        unit.unit_id,
        # lv, die and whether it was panicking already: what the sentence states (the ruleset's said.py)
        {"trigger": recorded, "target": target, "lv": lv, "die": sides, "panicking": us.panic == "panicking"},
        {"result": "pass" if passed else "fail", "from": us.grade, "to": new_grade},
        f"{unit.name} panic test: LV {lv} = {target}; d{sides} rolled {roll.total} → {verdict}",
        facts,
        (roll,),
        leading,
    )


# -- §0.6 rally ----------------------------------------------------------------------------------------


def persisting_threat(tables: Tables, motivation: str, us: UnitState, under_artillery: bool) -> Threat:
    """The rally test's threat term: only the persisting "+" rows ([INF], from E4)."""
    allowed = set(tables.rally.persisting_rows)
    rows: list[str] = [r for r in ("unverified_casualty", "abandoned_wounded", "artillery") if r in allowed]
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
    terms: list[tuple[str, str, int, int]] = []
    for row in present:
        value = tables.threat(row, motivation) or 0
        n = counts.get(row, 1) if tables.threat_kind(row) == "plus_each" else 1
        total += value * n
        parts.append(f"{row} +{value}" + (f"×{n}" if n != 1 else ""))
        terms.append((row, "each" if n != 1 else "plus", value, n))
    return Threat(total, tuple(parts), 0, tuple(terms))


def rally(  # noqa: PLR0913 (the command's inputs, by keyword)
    campaign: CampaignState,
    tables: Tables,
    battle: BattleState,
    officer: RosterUnit,
    unit: RosterUnit,
    dice: Dice,
    *,
    distance: Decimal,
    in_sight: bool,
    under_artillery: bool = False,
) -> Decision:
    """An officer on the direct chain of command rallies a unit (§0.6): communication, then the rally test."""
    off = active_unit(battle, officer)
    us = active_unit(battle, unit)
    may_act(tables, battle, officer, off, ("rally",), Words("rally {unit}", unit=unit.name))
    links = chain_links(campaign, officer, unit)
    if links is None:
        raise InvalidInputError.saying(
            "{officer} is not on the direct chain of command of {unit}: only its superiors may rally it",
            officer=officer.name,
            unit=unit.name,
        )
    if us.last_stand:
        raise InvalidInputError.saying("{unit} is in No step back: it has no morale grade to rally", unit=unit.name)
    if tables.grade_index(us.grade) <= tables.grade_index(us.start_grade):
        raise InvalidInputError.saying(
            "{unit} is at {grade}, its starting grade: morale never rises above it, there is nothing to rally",
            unit=unit.name,
            grade=Term("fighting-spirit", "grade", us.grade),
        )
    attempts = int(tables.rally.attempts_per_activation)
    if off.rally_attempts >= attempts:  # per activation, and so per turn (R3-1)
        raise InvalidInputError.counting(
            "{officer} has used its {n} rally action this turn",
            "{officer} has used its {n} rally actions this turn",
            n=attempts,
            officer=officer.name,
        )
    free = int(tables.rally.comms_free_distance)
    motivation = battle.motivation[us.side]
    lv_off, lv_unit = officer.profile.leadership, unit.profile.leadership
    attempt = RallyAttempted(battle_id=battle.battle_id, officer_id=officer.unit_id, unit_id=unit.unit_id)
    inputs: dict[str, JsonValue] = {
        "officer": officer.unit_id,
        "distance": str(distance),
        "in_sight": in_sight,
        "under_artillery": under_artillery,
        "links_bypassed": links,
    }
    rolls: list[Roll] = []
    steps: list[str] = []
    # What the sentence states, as data (the ruleset's said.py): verify compares outcomes, never inputs.
    said: dict[str, JsonValue] = {"lv_officer": lv_off, "lv_unit": lv_unit}
    if in_sight and within(tables, distance, free):
        steps.append(f'within {free}" and in sight: no communication test')
        said |= {"comms": "free", "free_within": free}
    else:
        officer_psi, unit_psi = officer.profile.psi_rank is not None, unit.profile.psi_rank is not None
        if officer_psi and unit_psi:
            steps.append("psion to psion: communication always succeeds")
            said |= {"comms": "psion"}
        else:
            if not (officer.profile.radio and unit.profile.radio) and not (officer_psi or unit_psi):
                raise InvalidInputError.saying(
                    N_('{officer} is {distance}" away: a rally needs both to have a radio or telephone')
                    if in_sight
                    else N_(
                        '{officer} is {distance}" away and out of sight: a rally needs both to have a radio or '
                        "telephone"
                    ),
                    officer=officer.name,
                    distance=str(distance),
                )
            sides = tables.quality_die(officer.profile.quality)
            note = f"officer quality d{sides}"
            if officer_psi or unit_psi:
                psion = officer if officer_psi else unit
                psi_sides = tables.psi_die(psion.profile.psi_rank or "none")
                if psi_sides > sides:
                    sides, note = psi_sides, f"psi die d{psi_sides} (the better of psi and quality)"
            said |= {"comms": "test", "comms_die": sides, "comms_psi": note.startswith("psi")}
            spec = die(sides).shifted(-links)
            need = max(lv_off, lv_unit)
            said |= {"comms_shifted": spec.sides, "need": need}
            roll = dice.roll(spec, f"communication test, {officer.name} → {unit.name}", side=unit.side)
            rolls.append(roll)
            shift = f", −{links} step{'s' if links != 1 else ''} for bypassed links → d{spec.sides}" if links else ""
            steps.append(f"communication: {note}{shift}; need > {need} (worse LV); rolled {roll.total}")
            if roll.total <= need:
                return Decision(
                    "rally",
                    "§0.6",
                    unit.unit_id,
                    {**inputs, **said},
                    {"result": "comms_failed", "from": us.grade, "to": us.grade},
                    f"{officer.name} rallies {unit.name}: " + "; ".join(steps) + " → fails, the action is wasted",
                    (attempt,),
                    tuple(rolls),
                )
    threat = persisting_threat(tables, motivation, us, under_artillery)
    target = lv_off + lv_unit + threat.total
    sides = tables.quality_die(unit.profile.quality)
    roll = dice.roll(die(sides), f"rally test of {unit.name}", side=unit.side)
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
        {
            **inputs,
            **said,
            "target": target,
            "threat": threat.total,
            "threat_parts": [list(t) for t in threat.terms],
            "die": sides,
        },
        {"result": "rallied" if improved else "failed", "from": us.grade, "to": new_grade},
        f"{officer.name} rallies {unit.name}: " + "; ".join(steps),
        (attempt, *grade_facts(battle, us, new_grade)),
        tuple(rolls),
    )
