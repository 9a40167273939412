"""The disorder-marker campaign, folded from the log: a pure ``apply(state, event) -> state``.

It applies recorded facts only (models lost, markers, removals, Glory); it never re-decides a rule. Markers
live in a battle's state and end with it (RULES.md §5); what carries on is the roster, the battles each unit
fought, and each officer's running Glory and rank.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from campaign.rulesets import state as shared
from campaign.rulesets.disorder.profile import UnitProfile
from campaign.rulesets.disorder.rules import FORCE_BROKE, Losses, Removal, Unit
from campaign.rulesets.disorder.tables import Tables
from campaign.rulesets.tables import Override
from events.envelope import RecordedEvent
from events.recorded import JsonObject, maybe_text, obj, text, texts, whole

RULESET = "disorder"


@dataclass(frozen=True)
class RosterUnit(shared.Enlisted):
    profile: UnitProfile
    disbanded: str | None = None
    battles: int = 0


@dataclass(frozen=True)
class UnitInBattle:
    unit_id: str
    side: str
    start_models: int
    models: int
    points: int
    markers: int = 0
    permanent: int = 0
    removed: str | None = None
    must_rally: int | None = None
    """The turn in which it must try to rally (set by a check that disordered it, cleared by a rally attempt)."""
    checked_for: tuple[str, ...] = ()
    """Every cause its morale checks have cited in this battle (R2-7: some count once per game)."""
    contingent: str | None = None
    """The allied contingent it fights in, on its side (R3-13)."""
    checked_removals: tuple[str, ...] = ()
    """The friendly units whose removal its checks were for (R3-9: one check for each)."""
    rallied_in: tuple[int, ...] = ()
    """The turn of each of its rally attempts (R3-11: one a turn)."""
    killed: int = 0
    """Models it lost killed in shooting or melee (R3-12)."""
    captured: int = 0
    """Models it lost captured in a blocked retreat (R3-12)."""


@dataclass(frozen=True)
class BattleState(shared.OnTable):
    units: Mapping[str, UnitInBattle] = field(default_factory=dict)
    turn: int = 1
    force: Mapping[str, str] = field(default_factory=dict)
    """Per side: ``half`` once half its points are lost, ``flees`` once it broke."""
    officer_removed: tuple[str, ...] = ()
    removals: tuple[tuple[int, str], ...] = ()
    """Each unit that left play (but in a force's flight), with the turn it did (R3-9)."""
    last_turn: int | None = None
    """The turn in which a force fled: the battle's last (R3-10)."""
    encounter: bool = False
    """A plain encounter battle: its winner is the side that destroyed more enemy models (R3-12)."""

    def start_points(self, force: str) -> int:
        """A force's starting points: its own units', never an allied contingent's (R3-13)."""
        return sum(u.points for u in self.units.values() if (u.contingent or u.side) == force)

    def removed_units(self, names: Mapping[str, str]) -> list[Removal]:
        """The units that left play, for the friend-removed checks (R3-9); ``names`` by unit id."""
        return [Removal(turn, uid, names.get(uid, uid), self.units[uid].side) for turn, uid in self.removals]

    def losses(self) -> list[Losses]:
        """Each unit's losses for an encounter battle's count (R3-12): a unit that fled whole took its models
        away alive; one removed otherwise (destroyed in one melee) lost those it had left."""
        out = []
        for u in self.units.values():
            fled = u.models if (u.removed or "").startswith("fled") else 0
            gone = u.models if u.removed is not None and not fled else 0
            out.append(Losses(u.side, u.killed + gone, u.captured, fled))
        return out


@dataclass(frozen=True)
class Career:
    officer: str
    side: str
    glory: int = 0
    rank: str = ""
    battles: tuple[str, ...] = ()
    glory_by_battle: tuple[int, ...] = ()


@dataclass(frozen=True)
class CampaignState:
    roster: Mapping[str, RosterUnit] = field(default_factory=dict)
    officers: Mapping[str, str] = field(default_factory=dict)
    """The officer commanding each side's force."""
    careers: Mapping[str, Career] = field(default_factory=dict)
    battles: Mapping[str, BattleState] = field(default_factory=dict)
    active_battle: str | None = None
    overrides: tuple[Override, ...] = ()

    def unit_by_name(self, name: str) -> RosterUnit | None:
        return shared.unit_named(self.roster, name)

    def permanent_markers(self) -> dict[str, int]:
        """Each unit's permanent marker at the end of its last battle (kept only if a house rule says so, §5)."""
        kept: dict[str, int] = {}
        for battle in sorted(self.battles.values(), key=lambda b: b.number):
            kept.update({uid: u.permanent for uid, u in battle.units.items() if battle.ended})
        return kept

    def in_battle(self, battle: BattleState, unit_id: str, tables: Tables) -> Unit:
        """What the rules read of a unit in ``battle``."""
        roster, state = self.roster[unit_id], battle.units[unit_id]
        return Unit(
            unit_id=unit_id,
            name=roster.name,
            side=state.side,
            start_models=state.start_models,
            models=state.models,
            points=state.points,
            discipline=tables.discipline_of(roster.profile.troops),
            markers=state.markers,
            permanent=state.permanent,
            contingent=state.contingent,
        )


def _unit(state: CampaignState, p: JsonObject, **changes: Any) -> CampaignState:
    unit_id = text(p["unit_id"])

    def change(b: BattleState) -> BattleState:
        if unit_id not in b.units:
            return b
        units = dict(b.units)
        units[unit_id] = replace(units[unit_id], **changes)
        return replace(b, units=units)

    return shared.change_battle(state, text(p["battle_id"]), change)


def _models(state: CampaignState, unit_id: str, delta: int) -> CampaignState:
    roster = dict(state.roster)
    unit = roster[unit_id]
    roster[unit_id] = replace(unit, profile=unit.profile.model_copy(update={"models": unit.profile.models + delta}))
    return replace(state, roster=roster)


def apply(state: CampaignState, event: RecordedEvent) -> CampaignState:  # noqa: C901, PLR0911, PLR0912 (one case per event type)
    # Read as the JSON it is recorded as: each value is narrowed to what the fact holds (cheap, unlike a model).
    p: JsonObject = event.payload
    kind = event.type
    if kind == "roster.unit_mustered":
        roster = dict(state.roster)
        unit_id = text(p["unit_id"])
        roster[unit_id] = RosterUnit(
            unit_id, text(p["name"]), text(p["side"]), UnitProfile.model_validate(p["profile"])
        )
        return replace(state, roster=roster)
    if (alike := shared.roster_fact(state, kind, p, RULESET)) is not None:
        return alike
    if kind == "roster.men_transferred" and {p["from_unit_id"], p["to_unit_id"]} <= state.roster.keys():
        men = whole(p["men"])
        return _models(_models(state, text(p["from_unit_id"]), -men), text(p["to_unit_id"]), men)
    if kind == "career.officer_appointed":
        careers = dict(state.careers)
        officer, side = text(p["officer"]), text(p["side"])
        known = careers.get(officer)
        rank = maybe_text(p.get("rank")) or (known.rank if known else "")
        careers[officer] = replace(known, side=side, rank=rank) if known else Career(officer, side, rank=rank)
        return replace(state, officers={**state.officers, side: officer}, careers=careers)
    if kind == "career.glory_awarded" and (officer := text(p["officer"])) in state.careers:
        careers = dict(state.careers)
        c = careers[officer]
        glory = whole(p["glory"])
        careers[officer] = replace(
            c,
            glory=c.glory + glory,
            battles=(*c.battles, text(p["battle_id"])),
            glory_by_battle=(*c.glory_by_battle, glory),
        )
        return replace(state, careers=careers)
    if kind == "career.rank_reached" and (officer := text(p["officer"])) in state.careers:
        careers = dict(state.careers)
        careers[officer] = replace(careers[officer], rank=text(p["rank"]))
        return replace(state, careers=careers)
    if kind == "battle.started":
        return shared.battle_started(state, p, BattleState)
    if kind == "battle.unit_deployed":
        s = obj(p["state"])
        points, permanent = whole(s["points"]), whole(s.get("permanent", 0))
        contingent = maybe_text(s.get("contingent"))
        men = whole(p["men"])
        placed = UnitInBattle(
            text(p["unit_id"]), text(p["side"]), men, men, points, permanent=permanent, contingent=contingent
        )
        return shared.deployed(state, p, placed)
    if kind == "battle.turn_began":
        return shared.change_battle(state, text(p["battle_id"]), lambda b: replace(b, turn=whole(p["turn"])))
    if kind == "battle.models_lost":
        battle = state.battles.get(text(p["battle_id"]))
        unit = battle.units.get(text(p["unit_id"])) if battle else None
        if unit is None:
            return state
        captured = p["cause"] == "captured"
        count = whole(p["count"])
        return _unit(
            state,
            p,
            models=max(0, unit.models - count),
            killed=unit.killed + (0 if captured else count),
            captured=unit.captured + (count if captured else 0),
        )
    if kind == "morale.disorder_changed":
        return _unit(state, p, markers=whole(p["markers"]), permanent=whole(p["permanent"]))
    if kind == "battle.unit_removed":
        reason = text(p["reason"])
        if reason != FORCE_BROKE:  # a force's flight calls for no check (R2-7, R3-9)
            unit_id = text(p["unit_id"])
            state = shared.change_battle(
                state, text(p["battle_id"]), lambda b: replace(b, removals=(*b.removals, (b.turn, unit_id)))
            )
        return _unit(state, p, removed=reason)
    if kind == "rules.applied" and p["ruleset"] == RULESET and p["rule"] == "encounter":
        return shared.change_battle(state, maybe_text(p["battle_id"]) or "", lambda b: replace(b, encounter=True))
    if (
        kind == "rules.applied"
        and p["ruleset"] == RULESET
        and (checked := maybe_text(p["unit_id"]))
        and (where := maybe_text(p["battle_id"])) is not None
        and where in state.battles
    ):
        battle = state.battles[where]
        unit = battle.units.get(checked)
        if p["rule"] == "morale_check" and unit is not None:
            inputs = obj(p["inputs"])
            cited = tuple(dict.fromkeys((*unit.checked_for, *texts(inputs["causes"]))))
            friend = maybe_text(inputs.get("friend_removed"))
            removals = (*unit.checked_removals, friend) if friend else unit.checked_removals
            rally = battle.turn + 1 if obj(p["outcome"])["result"] == "disordered" else unit.must_rally
            return _unit(state, p, checked_for=cited, checked_removals=removals, must_rally=rally)
        if p["rule"] == "rally" and unit is not None:
            return _unit(state, p, must_rally=None, rallied_in=(*unit.rallied_in, battle.turn))
    if kind == "battle.force_morale":

        def status(b: BattleState) -> BattleState:
            last = b.turn if p["status"] == "flees" and b.last_turn is None else b.last_turn
            return replace(b, force={**b.force, text(p["side"]): text(p["status"])}, last_turn=last)

        return shared.change_battle(state, text(p["battle_id"]), status)
    if kind == "battle.officer_removed":
        return shared.change_battle(
            state, text(p["battle_id"]), lambda b: replace(b, officer_removed=(*b.officer_removed, text(p["side"])))
        )
    if kind == "battle.ended":
        return shared.battle_ended(state, p)
    return state
