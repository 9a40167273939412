"""The five-grade battle state, folded from the log: a pure ``apply(state, event) -> state``.

It applies recorded facts only (grade changes, casualties, markers); it never re-decides a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypedDict

from campaign.rulesets.fighting_spirit.profile import UnitProfile
from campaign.rulesets.fighting_spirit.tables import Tables
from campaign.rulesets.state import Calendar, Enlisted, in_order, roster_fact, unit_named
from campaign.rulesets.tables import Override, Sourced, apply_overrides
from events.envelope import RecordedEvent
from events.recorded import JsonObject, flag, maybe_text, obj, text, texts, whole

RULESET = "fighting-spirit"


@dataclass(frozen=True)
class RosterUnit(Enlisted):
    profile: UnitProfile
    reports_to: str | None
    disbanded: str | None = None
    """Why the unit was disbanded; a disbanded unit is paid no more and fights no more."""


@dataclass(frozen=True)
class UnitState:
    unit_id: str
    side: str
    start_grade: str
    grade: str
    start_men: int
    men: int
    unverified: int = 0
    dead: int = 0
    suppression: int = 0
    ever_suppressed: bool = False
    leader_lost: bool = False
    prone: bool = False
    in_cover: bool = False
    abandoned_wounded: bool = False
    panic: str = "none"
    last_stand: bool = False
    removed: str | None = None
    fatigue: str | None = None
    """The fatigue it was deployed with (R2-3: its side's, as the GM stated it or as the records give it); None
    in a state kept before the battle's fatigue was held here."""
    failed_actions: frozenset[tuple[int, str]] = frozenset()
    rally_attempts: int = 0
    psi_actions: int = 0
    """Psi actions its psion has made this activation, and so this turn (R2-4 a: two at most; R3-1)."""
    activations: int = 0
    """Its own activations in this turn (R3-1: one), a lost one counted."""
    spent: bool = False
    """Its activation this turn is spent: lost (psi Confusion), or its trigger test failed in it (R3-2)."""
    panic_tests: int = 0
    """Panic tests taken in its activation while panicking (R3-2: one, and that is the activation)."""
    fired_on: tuple[tuple[int, str], ...] = ()
    """Each recorded fire on it in this battle: the turn, and the enemy unit that fired (or "") (R3-3 d, R3-4)."""
    first_fire: int = 0
    """The seq of the first fire recorded on it in this battle (R3-4)."""


@dataclass(frozen=True)
class BattleState:
    battle_id: str
    name: str
    sides: tuple[str, ...]
    motivation: Mapping[str, str]
    turn: int = 1
    units: Mapping[str, UnitState] = field(default_factory=dict)
    ended: bool = False
    result: str | None = None
    number: int = 0
    """Its place in the campaign's battles (1, 2, …): dictionaries do not keep order through JSON."""
    day: int | None = None
    """The campaign's day it began on (None only in a state stored before it was kept: migration 0011 refolds)."""
    winner: str | None = None
    """The side that won, as ``battle-end --winner`` recorded it (None: none was named)."""


@dataclass(frozen=True)
class UnitRecord:
    """A unit's campaign record (RULES.md §5): strength, veterancy, time at the front, pay."""

    men: int
    experience: int = 0
    battles: tuple[str, ...] = ()
    battle_days: tuple[int, ...] = ()
    front_days: int = 0
    rest_days: int = 0
    forced_march: bool = False
    pay_owed: int = 0
    paydays_missed: int = 0


@dataclass(frozen=True)
class CampaignState:
    """What the five-grade handlers need: the roster and its records, house rules, battles, time, money."""

    roster: Mapping[str, RosterUnit] = field(default_factory=dict)
    overrides: tuple[Override, ...] = ()
    battles: Mapping[str, BattleState] = field(default_factory=dict)
    active_battle: str | None = None
    records: Mapping[str, UnitRecord] = field(default_factory=dict)
    day: int = 0
    treasury: Mapping[str, int] = field(default_factory=dict)
    conditions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    month: int = 0
    calendar: Calendar = field(default_factory=Calendar)
    """Each side's own days (RULES.md §5): ``day`` is its campaign day."""

    def fatigue(self, unit_id: str, tables: Tables) -> str:
        """FRESH, TIRED or EXHAUSTED from the campaign record (the [INF] thresholds of RULES.md §5, as data)."""
        record = self.records.get(unit_id)
        unit = self.roster.get(unit_id)
        if record is None or unit is None:
            return "fresh"
        window = int(tables.campaign.exhausted_window_days)
        recent = [d for d in record.battle_days if self.day - d < window]
        if (
            len(recent) >= int(tables.campaign.exhausted_battles)
            or record.forced_march
            or self.conditions.get(unit.side)
        ):
            return "exhausted"
        if record.rest_days >= int(tables.campaign.fresh_after_rest_days):
            return "fresh"
        if record.front_days >= int(tables.campaign.tired_after_front_days):
            return "tired"
        return "fresh"

    def units(self) -> list[RosterUnit]:
        return in_order(self.roster)

    def unit_by_name(self, name: str) -> RosterUnit | None:
        return unit_named(self.roster, name)


LADDER = ("green", "regular", "veteran")
"""The qualities veterancy moves a unit along; Untrained and Elite come only by scenario or training."""


def start_experience(tables: Tables, quality: str) -> int:
    """Battles per man a unit is mustered with: the low end of its quality's band (Elite: the Veteran one)."""
    rung = "veteran" if quality == "elite" else quality
    return tables.campaign.veterancy.battles_for(rung) if rung in LADDER else 0


def _record(state: CampaignState, unit_id: str, **changes: Any) -> CampaignState:
    records = dict(state.records)
    records[unit_id] = replace(records[unit_id], **changes)
    return replace(state, records=records)


def _joined(state: CampaignState, unit_id: str, men: int, experience: int, tables: Tables) -> CampaignState:
    """Men join a unit (recruits, or a transfer): its experience is re-averaged with theirs (§5)."""
    record = state.records[unit_id]
    total = record.men + men
    averaged = (record.men * record.experience + men * experience) // max(1, total)
    state = _record(state, unit_id, men=total, experience=averaged)
    return _veterancy(state, unit_id, averaged, tables)


def _veterancy(state: CampaignState, unit_id: str, experience: int, tables: Tables) -> CampaignState:
    """Green, Regular and Veteran take the band their experience falls in, down as well as up (R3-7; upward only
    without ``campaign.veterancy.may_fall``); Untrained and Elite come only by scenario or training."""
    unit = state.roster[unit_id]
    if unit.profile.quality not in LADDER:
        return state
    earned = [q for q in LADDER if experience >= tables.campaign.veterancy.battles_for(q)]
    if not earned or earned[-1] == unit.profile.quality:
        return state
    falls = LADDER.index(earned[-1]) < LADDER.index(unit.profile.quality)
    if falls and not tables.campaign.veterancy.may_fall:
        return state
    earned_quality = earned[-1]
    roster = dict(state.roster)
    roster[unit_id] = replace(unit, profile=unit.profile.model_copy(update={"quality": earned_quality}))
    return replace(state, roster=roster)


def _after_battle(state: CampaignState, battle_id: str, tables: Tables) -> CampaignState:
    """One more battle of experience for each unit that fought; the dead and the captured are gone."""
    battle = state.battles.get(battle_id)
    if battle is None:
        return state
    for unit_id, u in battle.units.items():
        record = state.records.get(unit_id)
        if record is None:
            continue
        lost = u.removed == "wiped_out" or (u.removed == "surrendered" and tables.campaign.surrendered_men_lost)
        men = 0 if lost else max(0, u.start_men - u.dead)
        experience = record.experience + 1
        state = _record(
            state,
            unit_id,
            men=men,
            experience=experience,
            battles=(*record.battles, battle_id),
            battle_days=(*record.battle_days, state.day),
            forced_march=False,
        )
        state = _veterancy(state, unit_id, experience, tables)
    return state


def _days(state: CampaignState, p: JsonObject, tables: Tables) -> CampaignState:
    days, activity, side = whole(p["days"]), text(p["activity"]), maybe_text(p.get("side"))
    records = dict(state.records)
    for unit_id, record in state.records.items():
        unit = state.roster.get(unit_id)
        if unit is None or (side is not None and unit.side != side):
            continue
        if activity == "rest":
            rest = record.rest_days + days
            front = 0 if rest >= int(tables.campaign.fresh_after_rest_days) else record.front_days
            records[unit_id] = replace(record, rest_days=rest, front_days=front, forced_march=False)
        elif activity in ("march", "front", "battle", "forced_march"):
            records[unit_id] = replace(
                record,
                front_days=record.front_days + days,
                rest_days=0,
                forced_march=activity == "forced_march" or record.forced_march,
            )
    calendar = state.calendar.passed(days, side)
    return replace(state, day=calendar.day, records=records, calendar=calendar)


def _unit(battle: BattleState, unit_id: str, **changes: Any) -> BattleState:
    units = dict(battle.units)
    units[unit_id] = replace(units[unit_id], **changes)
    return replace(battle, units=units)


def _in_battle(state: CampaignState, p: JsonObject, change: Callable[[BattleState], BattleState]) -> CampaignState:
    # A rule's record need not be of a battle (its battle_id null): it changes none.
    battle_id = maybe_text(p["battle_id"])
    battle = state.battles.get(battle_id) if battle_id is not None else None
    if battle is None or ("unit_id" in p and p["unit_id"] not in battle.units):
        return state
    battles = dict(state.battles)
    battles[battle.battle_id] = change(battle)
    return replace(state, battles=battles)


def apply(state: CampaignState, event: RecordedEvent, tables: Tables) -> CampaignState:  # noqa: C901, PLR0911 (one case per event type)
    # Read as the JSON it is recorded as: each value is narrowed to what the fact holds (cheap, unlike a model).
    p: JsonObject = event.payload
    kind = event.type
    if kind == "roster.unit_mustered":
        roster = dict(state.roster)
        profile = UnitProfile.model_validate(p["profile"])
        unit_id = text(p["unit_id"])
        roster[unit_id] = RosterUnit(
            unit_id, text(p["name"]), text(p["side"]), profile, maybe_text(p.get("reports_to"))
        )
        records = dict(state.records)
        records[unit_id] = UnitRecord(men=profile.size, experience=start_experience(tables, profile.quality))
        return replace(state, roster=roster, records=records)
    if (alike := roster_fact(state, kind, p, RULESET)) is not None:
        return alike
    if kind == "economy.troops_recruited" and p["unit_id"] in state.records:
        return _joined(state, text(p["unit_id"]), whole(p["men"]), whole(p["experience"]), tables)
    if kind == "roster.men_transferred" and {p["from_unit_id"], p["to_unit_id"]} <= state.records.keys():
        giver, men = text(p["from_unit_id"]), whole(p["men"])
        state = _record(state, giver, men=state.records[giver].men - men)
        return _joined(state, text(p["to_unit_id"]), men, whole(p["experience"]), tables)
    if kind == "economy.funds_changed":
        treasury = dict(state.treasury)
        side = text(p["side"])
        treasury[side] = treasury.get(side, 0) + whole(p["amount"])
        return replace(state, treasury=treasury)
    if kind == "economy.pay_settled" and (unit_id := text(p["unit_id"])) in state.records:
        record = state.records[unit_id]
        paid, due = whole(p["paid"]), whole(p["due"])
        missed = paid < due
        return _record(
            state,
            unit_id,
            pay_owed=record.pay_owed + due - paid,
            paydays_missed=record.paydays_missed + (1 if missed else 0),
        )
    if kind == "calendar.month_ended":
        return replace(state, month=whole(p["month"]) + 1)
    if kind == "calendar.side_condition":
        conditions = {k: tuple(v) for k, v in state.conditions.items()}
        side, condition = text(p["side"]), text(p["condition"])
        current = set(conditions.get(side, ()))
        current = current | {condition} if flag(p["active"]) else current - {condition}
        conditions[side] = tuple(sorted(current))
        return replace(state, conditions={k: v for k, v in conditions.items() if v})
    if kind == "calendar.days_passed":
        return _days(state, p, tables)
    if kind == "battle.started":
        sides, settings = tuple(texts(p["sides"])), obj(p["settings"])
        motivation = {side: str(obj(settings.get(side, {})).get("motivation", "medium")) for side in sides}
        battles = dict(state.battles)
        battle_id = text(p["battle_id"])
        battles[battle_id] = BattleState(
            battle_id, text(p["name"]), sides, motivation, number=len(state.battles) + 1, day=state.day
        )
        calendar = state.calendar.fought(sides)
        return replace(state, battles=battles, active_battle=battle_id, calendar=calendar)
    if kind == "battle.ended":
        ended = _in_battle(
            state, p, lambda b: replace(b, ended=True, result=text(p["result"]), winner=maybe_text(p.get("winner")))
        )
        battle_id = text(p["battle_id"])
        ended = _after_battle(ended, battle_id, tables)
        return replace(ended, active_battle=None if state.active_battle == battle_id else state.active_battle)
    if kind == "battle.unit_deployed":
        s = obj(p["state"])

        def deploy(b: BattleState) -> BattleState:
            units = dict(b.units)
            unit_id, grade, men = text(p["unit_id"]), text(s["start_grade"]), whole(p["men"])
            units[unit_id] = UnitState(
                unit_id,
                text(p["side"]),
                grade,
                grade,
                men,
                men,
                prone=bool(s.get("prone", False)),
                in_cover=bool(s.get("in_cover", False)),
                fatigue=maybe_text(s.get("fatigue")),
            )
            return replace(b, units=units)

        return _in_battle(state, {"battle_id": p["battle_id"]}, deploy)
    if kind == "battle.turn_began":

        def next_turn(b: BattleState) -> BattleState:
            units = {k: replace(u, **_FRESH_TURN) for k, u in b.units.items()}
            return replace(b, turn=whole(p["turn"]), units=units)

        return _in_battle(state, {"battle_id": p["battle_id"]}, next_turn)
    if "battle_id" not in p:
        return state
    return _in_battle(state, p, lambda b: _unit_fact(b, kind, p, event.seq))


class _FreshTurn(TypedDict):
    rally_attempts: int
    psi_actions: int
    activations: int
    spent: bool
    panic_tests: int


_FRESH_TURN: _FreshTurn = {
    "rally_attempts": 0,
    "psi_actions": 0,
    "activations": 0,
    "spent": False,
    "panic_tests": 0,
}
"""What a new turn gives every unit back: its activation and the counts kept per activation (R3-1)."""


def _unit_fact(b: BattleState, kind: str, p: JsonObject, seq: int) -> BattleState:  # noqa: C901, PLR0911, PLR0912 (one case per event type)
    # A rule's record may be of no unit (unit_id null): no unit has the id "" either.
    uid = maybe_text(p.get("unit_id")) or ""
    u = b.units.get(uid)
    if kind == "morale.rally_attempted":
        officer = b.units.get(text(p["officer_id"]))
        if officer is None:
            return b
        return _unit(b, officer.unit_id, rally_attempts=officer.rally_attempts + 1)
    if kind == "rules.applied" and p.get("rule") == "psi" and obj(p["inputs"]).get("psion") in b.units:
        psion = b.units[text(obj(p["inputs"])["psion"])]
        return _unit(b, psion.unit_id, psi_actions=psion.psi_actions + 1)
    if u is None:
        return b
    if kind == "rules.applied":
        return _ruled(b, u, p, seq)
    if kind == "battle.unit_activated":
        # A second activation in a turn (by house rule: R3-1 allows one) opens its own per-activation counts.
        again = {"rally_attempts": 0, "psi_actions": 0} if u.activations else {}
        return _unit(b, uid, activations=u.activations + 1, spent=False, panic_tests=0, **again)
    if kind == "battle.activation_lost":
        return _unit(b, uid, activations=u.activations + 1, spent=True)
    if kind == "battle.attack_resolved":
        killed, wounded = whole(p["killed"]), whole(p["wounded"])
        suppression = u.suppression + (1 if flag(p["suppressing"]) and not u.last_stand else 0)
        return _unit(
            b,
            uid,
            men=max(0, u.men - (killed + wounded)),
            dead=u.dead + killed,
            unverified=u.unverified + wounded,
            suppression=suppression,
            ever_suppressed=u.ever_suppressed or suppression > u.suppression,
            leader_lost=u.leader_lost or flag(p["leader_hit"]),
        )
    if kind == "battle.wounded_checked":
        return _unit(b, uid, unverified=max(0, u.unverified - whole(p["count"])))
    if kind == "battle.wounded_abandoned":
        return _unit(b, uid, abandoned_wounded=True, unverified=0)
    if kind == "battle.position_changed":
        return _unit(
            b,
            uid,
            prone=u.prone if p.get("prone") is None else flag(p["prone"]),
            in_cover=u.in_cover if p.get("in_cover") is None else flag(p["in_cover"]),
        )
    if kind == "battle.suppression_changed":
        markers = whole(p["markers"])
        return _unit(b, uid, suppression=markers, ever_suppressed=u.ever_suppressed or markers > 0)
    if kind == "battle.unit_removed":
        return _unit(b, uid, removed=text(p["reason"]))
    if kind == "morale.grade_changed":
        return _unit(b, uid, grade=text(p["to_grade"]))
    if kind == "morale.action_failed":
        return _unit(b, uid, failed_actions=u.failed_actions | {(whole(p["turn"]), text(p["action"]))})
    if kind == "morale.panic_changed":
        return _unit(b, uid, panic=text(p["panic"]))
    if kind == "morale.last_stand_changed":
        active = flag(p["active"])
        return _unit(b, uid, last_stand=active, suppression=0 if active else u.suppression)
    return b


def _ruled(b: BattleState, u: UnitState, p: JsonObject, seq: int) -> BattleState:
    """What a rule's record says of the unit beyond its facts: the fire on it (R3-4) and its panic tests (R3-2)."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if p["rule"] == "attack" and inputs.get("fire", True):  # an older log's attacks were all fire
        fired = (*u.fired_on, (b.turn, str(inputs.get("by") or "")))
        return _unit(b, u.unit_id, fired_on=fired, first_fire=u.first_fire or seq)
    if p["rule"] == "panic_test":
        if inputs.get("trigger") == "still panicking":
            return _unit(b, u.unit_id, panic_tests=u.panic_tests + 1)
        if outcome.get("result") == "fail" and u.activations:  # in (or after) its activation: the rest is lost
            return _unit(b, u.unit_id, spent=True)
    return b


def fold(
    events: Iterable[RecordedEvent], base: Mapping[str, Sourced], state: CampaignState | None = None
) -> CampaignState:
    """Fold a campaign's events, each with the tables in force when it was recorded (house rules included)."""
    current = state or CampaignState()
    tables = Tables.of(apply_overrides(base, current.overrides))
    for event in events:
        current = apply(current, event, tables)
        if event.type == "rules.table_overridden":
            tables = Tables.of(apply_overrides(base, current.overrides))
    return current
