"""The disorder-marker rules (RULES.md §1) as pure functions: state and dice in, a :class:`Decision` out.

A unit carries removable disorder markers and at most one permanent marker; their sum is its state (0 in
order, 1 disordered, 2 broken) and the third (``markers.flees_at``) flees it. Numbers come from the tables in
force, never from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from campaign.i18n import N_
from campaign.rulesets.battles import measured
from campaign.rulesets.decision import Decision
from campaign.rulesets.disorder.tables import Tables
from campaign.rulesets.inputs import terms_listed
from events.dice import Dice, Roll, parse
from events.errors import InvalidInputError, Term, Words
from events.families.battle import ForceMorale, ModelsLost, UnitRemoved
from events.families.career import GloryAwarded, RankReached
from events.families.morale import DisorderChanged
from events.registry import Event

STATES = ("in order", "disordered", "broken")
LOSS_CAUSES = ("shooting", "melee")
FORCE_BROKE = "fled: the force broke"
"""Why the units of a force that breaks leave play (R2-7: with no check; R3-9: their flight calls for none)."""
RETREAT_INCHES = 100
"""No retreat is longer."""


@dataclass(frozen=True)
class Unit:
    """What the rules read of a unit in a battle."""

    unit_id: str
    name: str
    side: str
    start_models: int
    models: int
    points: int
    discipline: int
    markers: int = 0
    permanent: int = 0
    contingent: str | None = None
    """The allied contingent it was mustered in, fighting on ``side`` (R3-13), or None for the side's own force."""

    @property
    def total_markers(self) -> int:
        return self.markers + self.permanent

    @property
    def force(self) -> str:
        """The force whose points, half and flight it counts in: its contingent's, or its side's (R3-13)."""
        return self.contingent or self.side


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(n: int) -> str:
    """'third' for 3: the words for a marker's place, whatever ``markers.flees_at`` a house rule sets."""
    if 1 <= n <= len(ORDINALS):
        return ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def state_name(total_markers: int) -> str:
    return STATES[min(total_markers, len(STATES) - 1)]


def _rolled(roll: Roll) -> str:
    return f"{roll.total} ({'+'.join(map(str, roll.faces))})"


def _flee(unit: Unit, battle_id: str, reason: str) -> UnitRemoved:
    return UnitRemoved(battle_id=battle_id, unit_id=unit.unit_id, reason=reason)


def lose_models(unit: Unit, battle_id: str, count: int, cause: str) -> tuple[Unit, list[Event], str]:
    """The unit after losing ``count`` models (never below none), the facts, and a line saying so."""
    if count <= 0:
        raise InvalidInputError.saying("a loss is at least one model, not {count}", count=count)
    lost = min(count, unit.models)
    after = replace(unit, models=unit.models - lost)
    facts: list[Event] = [ModelsLost(battle_id=battle_id, unit_id=unit.unit_id, count=lost, cause=cause)]
    if after.models == 0:
        facts.append(_flee(unit, battle_id, "destroyed"))
    return after, facts, f"{unit.name} lost {lost} model{'s' if lost != 1 else ''} ({cause}): {after.models} left"


def permanent_marker(tables: Tables, unit: Unit, battle_id: str) -> Decision | None:
    """§1.2: at ≤ ½ of its starting models a unit gets its one permanent marker, before that casualty test."""
    if not tables.markers.permanent_at_half or unit.permanent or unit.models * 2 > unit.start_models:
        return None
    total = unit.total_markers + 1
    flees = total >= tables.markers.flees_at
    facts: list[Event] = [
        DisorderChanged(
            battle_id=battle_id, unit_id=unit.unit_id, markers=unit.markers, permanent=1, reason="at half strength"
        )
    ]
    if flees:
        facts.append(_flee(unit, battle_id, f"fled: a {ordinal(total)} marker"))
    explanation = (
        f"{unit.name} is down to {unit.models} of {unit.start_models} models (≤ ½): a permanent marker, "
        f"{total} in all → " + ("flees at once, no test" if flees else state_name(total))
    )
    return Decision(
        "permanent_marker",
        "§1.2",
        unit.unit_id,
        {"start_models": unit.start_models, "models": unit.models, "markers": unit.markers},
        {"permanent": 1, "total_markers": total, "flees": flees},
        explanation,
        tuple(facts),
    )


def add_marker(tables: Tables, unit: Unit, battle_id: str, reason: str) -> Decision:
    """§1.2: a disorder marker from another source (a lost melee, a scenario event); the third flees the unit."""
    if not reason.strip():
        raise InvalidInputError.saying("say where the marker comes from (e.g. 'lost a melee')")
    markers = unit.markers + 1
    total = markers + unit.permanent
    flees = total >= tables.markers.flees_at
    facts: list[Event] = [
        DisorderChanged(
            battle_id=battle_id, unit_id=unit.unit_id, markers=markers, permanent=unit.permanent, reason=reason
        )
    ]
    if flees:
        facts.append(_flee(unit, battle_id, f"fled: a {ordinal(total)} marker"))
    return Decision(
        "marker",
        "§1.2",
        unit.unit_id,
        {"markers": unit.markers, "permanent": unit.permanent, "reason": reason},
        {"total_markers": total, "flees": flees},
        f"{unit.name} takes a marker ({reason}): {total} in all → "
        + ("flees, removed" if flees else state_name(total)),
        tuple(facts),
    )


def _checked_causes(tables: Tables, causes: Sequence[str], lost: int) -> tuple[str, ...]:
    known = tables.cause_names
    unknown = [c for c in causes if c not in known]
    if unknown:
        raise InvalidInputError.saying(
            "unknown causes: {unknown}; choose from {known}",
            unknown=", ".join(unknown),
            known=terms_listed("disorder", "cause", known),
        )
    if not causes:
        raise InvalidInputError.saying("a morale check needs a cause")
    if len(set(causes)) != len(causes):
        raise InvalidInputError.saying("each cause counts once: one check for them all, −1 per extra cause")
    if ("casualties" in causes) != (lost > 0):
        raise InvalidInputError.saying(
            "models lost count only when casualties are a cause of the check, and then they must"
        )
    return tuple(causes)


def morale_check(  # noqa: PLR0913 (the command's inputs, by keyword)
    tables: Tables,
    unit: Unit,
    dice: Dice,
    battle_id: str,
    *,
    causes: Sequence[str],
    lost: int = 0,
    close_order: bool = False,
    officer_near: bool = False,
    friend_removed: str | None = None,
    friend_at: Decimal | None = None,
) -> Decision:
    """§1.4: one check for all the causes that came together; pass, retreat, a marker, or flight.
    ``friend_removed``: the unit whose removal this check is for (R3-9), at ``friend_at`` inches if measured."""
    causes = _checked_causes(tables, causes, lost)
    roll = dice.roll(parse(str(tables.check.dice)), f"morale check, {unit.name}", side=unit.side)
    terms = [
        ("2d6", roll.total),
        ("models lost", -lost),
        ("markers", -unit.total_markers),
        ("discipline", unit.discipline),
        ("close order", tables.check.close_order if close_order else 0),
        ('officer within 12"', tables.check.officer_near if officer_near else 0),
        ("extra causes", tables.check.per_extra_cause * (len(causes) - 1)),
    ]
    total = sum(value for _, value in terms)
    sum_text = " ".join(f"{'+' if v >= 0 else '−'} {abs(v)} {label}" for label, v in terms[1:] if v)
    working = f"{_rolled(roll)} {sum_text} = {total}".replace("  ", " ")
    facts: list[Event] = []
    if total >= tables.check.pass_at:
        result, text = "pass", "passes: no new marker, the markers it has stay"
        verdict = result
    elif total > tables.check.disaster_at_most:
        result, text = "retreat", "fails: retreats ½ move, no new marker"
        verdict = result
    elif unit.markers > 0 or (unit.permanent and tables.check.any_marker_flees):
        result, text = "flees", f"fails badly while {state_name(unit.total_markers)}: flees, removed"
        verdict = "flees_while_disordered"
        facts.append(_flee(unit, battle_id, "fled: failed a morale check while disordered"))
    else:
        markers = unit.markers + 1
        if markers + unit.permanent >= tables.markers.flees_at:
            nth = ordinal(markers + unit.permanent)
            result, text = "flees", f"fails badly: the new marker is its {nth}, it flees"
            verdict = "flees_new_marker"
            facts.append(_flee(unit, battle_id, f"fled: a {nth} marker"))
        else:
            result = verdict = "disordered"
            text = f"fails badly: a marker ({state_name(markers + unit.permanent)}), retreats ½ move, must rally"
        facts.insert(
            0,
            DisorderChanged(
                battle_id=battle_id,
                unit_id=unit.unit_id,
                markers=markers,
                permanent=unit.permanent,
                reason="failed a morale check",
            ),
        )
    return Decision(
        "morale_check",
        "§1.4",
        unit.unit_id,
        {
            "causes": list(causes),
            "lost": lost,
            "markers": unit.markers,
            "permanent": unit.permanent,
            "discipline": unit.discipline,
            "close_order": close_order,
            "officer_near": officer_near,
            **({"friend_removed": friend_removed} if friend_removed is not None else {}),
            **({"friend_at": str(friend_at)} if friend_at is not None else {}),
            # what the sentence states, so a view says it in the reader's language (the ruleset's said.py)
            "terms": [[label, v] for label, v in terms[1:]],
            "verdict": verdict,
        },
        {"total": total, "result": result},
        f"{unit.name}, morale check for {', '.join(causes)}: {working} → {text}",
        tuple(facts),
        (roll,),
    )


def rally(
    tables: Tables,
    unit: Unit,
    dice: Dice,
    battle_id: str,
    *,
    close_order: bool = False,
    officer_near: bool = False,
    tried: int = 0,
) -> Decision:
    """§1.6 [INF]: 2d6 + Discipline − markers + bonuses ≥ 6 removes the non-permanent markers; at most
    ``rally.per_turn`` attempts in a turn, passed or failed (R3-11; ``tried``: those made this turn)."""
    if unit.markers == 0:
        none = (
            N_("{unit} has no marker a rally can remove (its permanent marker stays for the game)")
            if unit.permanent
            else N_("{unit} has no marker a rally can remove")
        )
        raise InvalidInputError.saying(none, unit=unit.name)
    allowed = tables.rally.per_turn
    if tried >= allowed:
        raise InvalidInputError.saying(
            "{unit} has made its rally attempt this turn ({n} a turn): it may try again next turn",
            unit=unit.name,
            n=allowed,
        )
    roll = dice.roll(parse(str(tables.rally.dice)), f"rally, {unit.name}", side=unit.side)
    bonus = (tables.rally.close_order if close_order else 0) + (tables.rally.officer_near if officer_near else 0)
    total = roll.total + unit.discipline - unit.total_markers + bonus
    passed = total >= tables.rally.pass_at
    removes = str(tables.rally.removes)
    if removes not in ("all", "one"):
        raise InvalidInputError.saying("rally.removes is {removes!r}: it must be 'all' or 'one'", removes=removes)
    left = 0 if removes == "all" else unit.markers - 1
    facts: tuple[Event, ...] = ()
    if passed:
        facts = (
            DisorderChanged(
                battle_id=battle_id, unit_id=unit.unit_id, markers=left, permanent=unit.permanent, reason="rallied"
            ),
        )
    working = (
        f"{_rolled(roll)} {unit.discipline:+d} discipline − {unit.total_markers} markers"
        + (f" {bonus:+d} bonuses" if bonus else "")
        + f" = {total}"
    )
    retreats = not passed and tables.rally.failed_retreats
    if passed:
        text = f"rallies: {state_name(left + unit.permanent)}"
    elif retreats:  # R2-6: a failed rally test makes the unit retreat (§1.5), away from the nearest enemy
        text = "fails: retreats ½ move directly away from the nearest enemy; it may try again next turn"
    else:
        text = "fails: no change, it may try again next turn"
    return Decision(
        "rally",
        "§1.6",
        unit.unit_id,
        {
            "markers": unit.markers,
            "permanent": unit.permanent,
            "discipline": unit.discipline,
            "close_order": close_order,
            "officer_near": officer_near,
        },
        {"total": total, "passed": passed, "markers": left if passed else unit.markers, "retreats": retreats},
        f"{unit.name}, rally: {working} → {text}",
        facts,
        (roll,),
    )


def markers_after_battle(tables: Tables) -> str:
    """§5, R2-9 [INF]: the markers end with the battle, unless a house rule keeps the permanent ones."""
    if tables.markers.cleared_after_battle:
        return "every marker comes off (§5)"
    return "the markers come off; the permanent ones stay with their units into their next battle (house rule)"


def distance(tables: Tables, text: str, what: str | Words, *, halved: bool = False) -> Decimal:
    """A distance typed at the table, exactly, to ``measure.decimals`` places (R3-8); ``halved``: half a measured
    move, unrounded, which may take one place more (a 5.5" move retreats 2.75")."""
    places = tables.measure.decimals + (1 if halved else 0)
    return measured(text, what, places, RETREAT_INCHES)


def within(tables: Tables, inches: Decimal, limit: int) -> bool:
    """ "Within ``limit``": d ≤ N, or d < N when ``measure.within_inclusive`` says so (R3-8)."""
    return inches <= limit if tables.measure.within_inclusive else inches < limit


def retreat(
    tables: Tables, unit: Unit, battle_id: str, *, needed: Decimal, moved: Decimal, off_table: bool
) -> Decision:
    """§1.5: blocked, a unit loses a model (captured) per full inch not moved (R3-8: floor of the shortfall,
    never rounded); off the table, it is gone."""
    if moved > needed:
        raise InvalidInputError.saying(
            'it moved {moved}" of a {needed}" retreat: it cannot move more', moved=str(moved), needed=str(needed)
        )
    short = int(needed - moved)  # the full inches: int() truncates a positive shortfall, 1.9 → 1
    captured = min(unit.models, short * tables.retreat.models_per_full_inch)
    facts: list[Event] = []
    after = unit
    text = f'retreats {moved}" of {needed}"'
    if captured:
        after, lost_facts, _ = lose_models(unit, battle_id, captured, "captured")
        facts.extend(lost_facts)
        text += f", {short} full inch{'es' if short != 1 else ''} short: {captured} captured"
    if off_table and after.models > 0:
        facts.append(_flee(unit, battle_id, "fled: left the table"))
        text += "; a model left the table: the whole unit has fled"
    return Decision(
        "retreat",
        "§1.5",
        unit.unit_id,
        {"needed": str(needed), "moved": str(moved), "off_table": off_table, "models": unit.models},
        {"captured": captured, "fled": off_table},
        f"{unit.name} {text}",
        tuple(facts),
    )


def points_lost(tables: Tables, unit: Unit, removed: bool) -> int:
    """A unit's points counted lost (R2-8): all of them once it has left play; while it is on the table
    floor(points × models lost ÷ starting models), or nothing if the tables count removed units only."""
    if removed:
        return unit.points
    if str(tables.force.points_lost) == "removed_units_only":
        return 0
    return unit.points * (unit.start_models - unit.models) // unit.start_models


def force_status(tables: Tables, start_points: int, lost_points: int) -> str | None:
    """R2-8: ``flees`` beyond the flight threshold (4 × lost > 3 × start by default; ≥ with
    ``force.flees_at_exactly``), ``half`` at 2 × lost ≥ start, else None."""
    if start_points <= 0:
        return None
    pct_x = lost_points * 100
    flee_line = tables.force.flees_over * start_points
    if pct_x >= flee_line if tables.force.flees_at_exactly else pct_x > flee_line:
        return "flees"
    if pct_x >= tables.force.half_at * start_points:
        return "half"
    return None


@dataclass(frozen=True)
class Removal:
    """A unit that left play in a battle (R3-9): the turn, the unit, its side."""

    turn: int
    unit_id: str
    name: str
    side: str


def friend_removal(
    tables: Tables,
    unit: Unit,
    *,
    turn: int,
    removals: Sequence[Removal],
    checked: Sequence[str],
    friend_at: Decimal | None = None,
) -> str:
    """R3-9: the removal a check citing friend_removed is for: a unit of the same side (its force or an allied
    contingent, R3-13) other than ``unit`` that left play in this turn (``causes.friend_removed_window``), which
    ``unit`` has not checked for yet; within 12" if the players measured it (R3-8). Refused in words otherwise."""
    window = str(tables.causes.friend_removed_window)
    friends = [r for r in removals if r.side == unit.side and r.unit_id != unit.unit_id]
    recent = [r for r in friends if window == "battle" or r.turn == turn]
    if not recent:
        raise InvalidInputError.saying(
            "{unit} cannot check for {cause}: no friendly unit has left play this turn",
            unit=unit.name,
            cause=Term("disorder", "cause", "friend_removed"),
        )
    open_ = [r for r in recent if r.unit_id not in checked]
    if not open_:
        names = ", ".join(r.name for r in recent)
        raise InvalidInputError.saying(
            "{unit} has already checked for that removal ({names}): once for each", unit=unit.name, names=names
        )
    found = open_[0]
    limit = tables.causes.friend_removed_within
    if friend_at is not None and not within(tables, friend_at, limit):
        raise InvalidInputError.saying(
            '{unit} was {distance}" away: not within {limit}", no check for it',
            unit=found.name,
            distance=str(friend_at),
            limit=limit,
        )
    return found.unit_id


@dataclass(frozen=True)
class Losses:
    """A unit's losses in a battle, as the encounter count reads them (R3-12)."""

    side: str
    killed: int
    captured: int
    fled: int


def encounter_result(
    tables: Tables, sides: Sequence[str], losses: Sequence[Losses]
) -> tuple[str | None, dict[str, int]]:
    """R3-12: each of two sides' score is the models the other side lost (``encounter.counts``: killed in shooting
    or melee, captured, and with "fled" those of units that fled whole); the higher score wins, equal ones are a
    draw (``encounter.tie``). The winner (None: a draw) and the scores."""
    counted = set(tables.encounter.counts)
    lost = dict.fromkeys(sides, 0)
    for loss in losses:
        if loss.side in lost:
            lost[loss.side] += sum(n for what, n in (("killed", loss.killed), ("captured", loss.captured),
                                                     ("fled", loss.fled)) if what in counted)  # fmt: skip
    first, second = sides
    scores = {first: lost[second], second: lost[first]}
    if scores[first] == scores[second]:
        if str(tables.encounter.tie) != "draw":
            raise InvalidInputError.saying(
                "encounter.tie is {tie!r}: only 'draw' is known", tie=str(tables.encounter.tie)
            )
        return None, scores
    return (first if scores[first] > scores[second] else second), scores


def causes_that_happened(
    tables: Tables, unit: Unit, causes: Sequence[str], *, happened: Sequence[str], used: Sequence[str]
) -> None:
    """R2-7 (4): a check may cite force at half or officer removed only once it has happened, and each of the
    ``causes.once_per_game`` at most once per unit per game."""
    once = set(tables.causes.once_per_game)
    for cause in causes:
        if cause in ("force_half", "officer_removed") and cause not in happened:
            not_yet = (
                N_("{unit} cannot check for {cause}: its force has not lost half its points")
                if cause == "force_half"
                else N_("{unit} cannot check for {cause}: its officer is in play")
            )
            raise InvalidInputError.saying(not_yet, unit=unit.name, cause=Term("disorder", "cause", cause))
        if cause in once and cause in used:
            raise InvalidInputError.saying(
                "{unit} has already checked for {cause}: once per game",
                unit=unit.name,
                cause=Term("disorder", "cause", cause),
            )


def force_morale(
    tables: Tables,
    battle_id: str,
    side: str,
    *,
    start_points: int,
    lost_points: int,
    status: str | None,
    remaining: Sequence[Unit],
    folded: str | None = None,
) -> Decision | None:
    """§1.3/§1.8, R2-7, R2-8: at ½ of its points lost every unit of the force tests (once); beyond ¾ the rest
    flee, with no check at all. ``folded``: the unit whose single check already counts force at half."""
    if start_points <= 0:
        return None
    pct_x = lost_points * 100
    status_now = force_status(tables, start_points, lost_points)
    flees, half = status_now == "flees", status_now is not None
    share = f"{lost_points} of {start_points} points lost ({pct_x // start_points}%)"
    inputs = {"start_points": start_points, "lost_points": lost_points}
    if flees and status != "flees":
        facts: list[Event] = [ForceMorale(battle_id=battle_id, side=side, status="flees", lost_points=lost_points)]
        facts.extend(_flee(u, battle_id, FORCE_BROKE) for u in remaining)
        names = ", ".join(u.name for u in remaining) or "none"
        return Decision(
            "force_flees",
            "§1.3",
            None,
            {**inputs, "side": side},
            {"status": "flees", "fled": [u.unit_id for u in remaining]},
            f"{side}: {share}, beyond the limit: its remaining units flee ({names}); "
            "the game ends once this turn is played out",
            tuple(facts),
        )
    if half and status is None:
        to_check = [u.name for u in remaining if u.unit_id != folded]
        folded_text = (
            f" ({next(u.name for u in remaining if u.unit_id == folded)}'s check counts it already)"
            if folded in {u.unit_id for u in remaining}
            else ""
        )
        return Decision(
            "force_half",
            "§1.3",
            None,
            {**inputs, "side": side, "folded": next((u.name for u in remaining if u.unit_id == folded), None)},
            {"status": "half", "units_to_check": list(to_check)},
            f"{side}: {share}: each of its units takes one morale check (force_half), once this game: "
            f"{', '.join(to_check) or 'none'}{folded_text}",
            (ForceMorale(battle_id=battle_id, side=side, status="half", lost_points=lost_points),),
        )
    return None


def glory(  # noqa: PLR0913 (the command's inputs, by keyword)
    tables: Tables,
    battle_id: str,
    side: str,
    officer: str,
    *,
    result: str,
    objectives: int,
    enemy_removed: int,
    own_fled: int,
    officer_removed: bool,
    glory_before: int,
) -> Decision:
    """§1.8 [PLACEHOLDER]: the force's Glory for the scenario, added to its officer's running total."""
    if result not in ("won", "drawn", "lost"):
        raise InvalidInputError.saying("a scenario is won, drawn or lost, not {result!r}", result=result)
    if objectives < 0:
        raise InvalidInputError.saying("objectives held cannot be negative ({n})", n=objectives)
    sources = {
        result: {"won": tables.glory.won, "drawn": tables.glory.drawn, "lost": tables.glory.lost}[result],
        "objectives": tables.glory.per_objective * objectives,
        "enemy units removed": tables.glory.per_enemy_unit_removed * enemy_removed,
        "own units fled": tables.glory.per_own_unit_fled * own_fled,
        "officer removed": tables.glory.officer_removed if officer_removed else 0,
    }
    sources = {k: v for k, v in sources.items() if v or k == result}
    earned = sum(sources.values())
    total = glory_before + earned
    facts: list[Event] = [
        GloryAwarded(battle_id=battle_id, side=side, officer=officer, glory=earned, sources=sources),
    ]
    rank_before, rank_after = tables.rank(glory_before), tables.rank(total)
    if rank_after != rank_before:
        facts.append(RankReached(officer=officer, rank=rank_after, glory=total))
    parts = " ".join(f"{v:+d} {k}" for k, v in sources.items())
    return Decision(
        "glory",
        "§1.8",
        None,
        {
            "side": side,
            "officer": officer,
            "result": result,
            "objectives": objectives,
            "enemy_removed": enemy_removed,
            "own_fled": own_fled,
            "officer_removed": officer_removed,
            "glory_before": glory_before,
            "sources": [[k, v] for k, v in sources.items()],
            "rank_before": rank_before,
        },
        {"glory": earned, "total": total, "rank": rank_after},
        f"{side} ({officer}): {parts} = {earned:+d} Glory; running total {total}"
        + (f", now {rank_after}" if rank_after != rank_before else f" ({rank_after})"),
        tuple(facts),
    )
