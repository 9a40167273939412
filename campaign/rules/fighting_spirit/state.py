"""The five-grade battle state, folded from the log: a pure ``apply(state, event) -> state``.

It applies recorded facts only (grade changes, casualties, markers); it never re-decides a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from campaign.rules.fighting_spirit.profile import UnitProfile
from campaign.rules.tables import Override
from events.envelope import RecordedEvent

RULESET = "fighting-spirit"


@dataclass(frozen=True)
class RosterUnit:
    unit_id: str
    name: str
    side: str
    profile: UnitProfile
    reports_to: str | None


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
    failed_actions: frozenset[tuple[int, str]] = frozenset()
    rally_attempts: int = 0


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


@dataclass(frozen=True)
class CampaignState:
    """What the five-grade handlers need: the roster, the house rules in force, and the battles."""

    roster: Mapping[str, RosterUnit] = field(default_factory=dict)
    overrides: tuple[Override, ...] = ()
    battles: Mapping[str, BattleState] = field(default_factory=dict)
    active_battle: str | None = None

    def unit_by_name(self, name: str) -> RosterUnit | None:
        return next((u for u in self.roster.values() if name in (u.name, u.unit_id)), None)


def _unit(battle: BattleState, unit_id: str, **changes: Any) -> BattleState:
    units = dict(battle.units)
    units[unit_id] = replace(units[unit_id], **changes)
    return replace(battle, units=units)


def _in_battle(state: CampaignState, p: Mapping[str, Any], change: Any) -> CampaignState:
    battle = state.battles.get(p["battle_id"])
    if battle is None or ("unit_id" in p and p["unit_id"] not in battle.units):
        return state
    battles = dict(state.battles)
    battles[battle.battle_id] = change(battle)
    return replace(state, battles=battles)


def apply(state: CampaignState, event: RecordedEvent) -> CampaignState:
    p = event.payload
    kind = event.type
    if kind == "roster.unit_mustered":
        roster = dict(state.roster)
        roster[p["unit_id"]] = RosterUnit(
            p["unit_id"], p["name"], p["side"], UnitProfile.model_validate(p["profile"]), p.get("reports_to")
        )
        return replace(state, roster=roster)
    if kind == "rules.table_overridden" and p["ruleset"] == RULESET:
        return replace(state, overrides=(*state.overrides, Override(p["path"], p["value"], p["source"])))
    if kind == "battle.started":
        motivation = {side: str(p["settings"].get(side, {}).get("motivation", "medium")) for side in p["sides"]}
        battles = dict(state.battles)
        battles[p["battle_id"]] = BattleState(p["battle_id"], p["name"], tuple(p["sides"]), motivation)
        return replace(state, battles=battles, active_battle=p["battle_id"])
    if kind == "battle.ended":
        ended = _in_battle(state, p, lambda b: replace(b, ended=True, result=p["result"]))
        return replace(ended, active_battle=None if state.active_battle == p["battle_id"] else state.active_battle)
    if kind == "battle.unit_deployed":
        s = p["state"]

        def deploy(b: BattleState) -> BattleState:
            units = dict(b.units)
            units[p["unit_id"]] = UnitState(
                p["unit_id"],
                p["side"],
                s["start_grade"],
                s["start_grade"],
                p["men"],
                p["men"],
                prone=bool(s.get("prone", False)),
                in_cover=bool(s.get("in_cover", False)),
            )
            return replace(b, units=units)

        return _in_battle(state, {"battle_id": p["battle_id"]}, deploy)
    if kind == "battle.turn_began":

        def next_turn(b: BattleState) -> BattleState:
            units = {k: replace(u, rally_attempts=0) for k, u in b.units.items()}
            return replace(b, turn=p["turn"], units=units)

        return _in_battle(state, {"battle_id": p["battle_id"]}, next_turn)
    if "battle_id" not in p:
        return state
    return _in_battle(state, p, lambda b: _unit_fact(b, kind, p))


def _unit_fact(b: BattleState, kind: str, p: Mapping[str, Any]) -> BattleState:
    uid = p.get("unit_id", "")
    u = b.units.get(uid)
    if kind == "morale.rally_attempted":
        officer = b.units.get(p["officer_id"])
        if officer is None:
            return b
        return _unit(b, officer.unit_id, rally_attempts=officer.rally_attempts + 1)
    if u is None:
        return b
    if kind == "battle.unit_activated":
        return _unit(b, uid, rally_attempts=0)
    if kind == "battle.attack_resolved":
        lost = p["killed"] + p["wounded"]
        suppression = u.suppression + (1 if p["suppressing"] and not u.last_stand else 0)
        return _unit(
            b,
            uid,
            men=max(0, u.men - lost),
            dead=u.dead + p["killed"],
            unverified=u.unverified + p["wounded"],
            suppression=suppression,
            ever_suppressed=u.ever_suppressed or suppression > u.suppression,
            leader_lost=u.leader_lost or p["leader_hit"],
        )
    if kind == "battle.wounded_checked":
        return _unit(b, uid, unverified=max(0, u.unverified - p["count"]))
    if kind == "battle.wounded_abandoned":
        return _unit(b, uid, abandoned_wounded=True, unverified=0)
    if kind == "battle.position_changed":
        return _unit(
            b,
            uid,
            prone=u.prone if p.get("prone") is None else p["prone"],
            in_cover=u.in_cover if p.get("in_cover") is None else p["in_cover"],
        )
    if kind == "battle.suppression_changed":
        return _unit(b, uid, suppression=p["markers"], ever_suppressed=u.ever_suppressed or p["markers"] > 0)
    if kind == "battle.unit_removed":
        return _unit(b, uid, removed=p["reason"])
    if kind == "morale.grade_changed":
        return _unit(b, uid, grade=p["to_grade"])
    if kind == "morale.action_failed":
        return _unit(b, uid, failed_actions=u.failed_actions | {(p["turn"], p["action"])})
    if kind == "morale.panic_changed":
        return _unit(b, uid, panic=p["panic"])
    if kind == "morale.last_stand_changed":
        return _unit(b, uid, last_stand=p["active"], suppression=0 if p["active"] else u.suppression)
    return b


def fold(events: Iterable[RecordedEvent], state: CampaignState | None = None) -> CampaignState:
    current = state or CampaignState()
    for event in events:
        current = apply(current, event)
    return current
