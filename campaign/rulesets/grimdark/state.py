"""The Grimdark Future campaign, folded from the log: a pure ``apply(state, event) -> state``.

It applies recorded facts only (wounds, Shaken, removals, kills, XP, traits, points); it never re-decides a
rule. Shaken and Rout end with the battle (RULES.md §5); XP, traits, the units' cost, each side's campaign
points and victory points carry on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from campaign.rulesets import state as shared
from campaign.rulesets.grimdark.profile import UnitProfile
from campaign.rulesets.grimdark.rules import Unit
from campaign.rulesets.tables import Override
from events.envelope import RecordedEvent
from events.recorded import JsonObject, flag, maybe_text, obj, text, whole

RULESET = "grimdark"


@dataclass(frozen=True)
class RosterUnit(shared.Enlisted):
    profile: UnitProfile
    xp: int = 0
    traits: tuple[str, ...] = ()
    points_change: int = 0
    tough_bonus: int = 0
    battles: int = 0
    disbanded: str | None = None
    """Why it left the roster (dead, or disbanded)."""
    listed: tuple[str, str] | None = None
    """(list id, entry id) of the army list it came from (Army Forge's ``selectionId``): a later version of the
    list updates this unit."""
    joins: str | None = None
    """The unit it joins at the start of every battle both fight in (a hero attached to it in the army list)."""

    @property
    def points(self) -> int:
        return self.profile.points + self.points_change

    @property
    def tough(self) -> int:
        return self.profile.tough + self.tough_bonus


@dataclass(frozen=True)
class UnitInBattle:
    unit_id: str
    side: str
    start_size: int
    models: int
    tough: int
    quality: int
    carried: int = 0
    total_wounds: int = 0
    shaken: bool = False
    tested: bool = False
    removed: str | None = None
    joined_to: str | None = None
    """For a hero: the unit it joined. Its models count in that unit."""
    hero_is_model: bool = False
    """For a unit a hero joined: the hero is one of its models (R2-32); false in battles recorded before it."""
    kills: tuple[tuple[str, bool], ...] = ()
    """(victim id, victim was a hero) for each unit it destroyed or routed."""


@dataclass(frozen=True)
class BattleState(shared.OnTable):
    units: Mapping[str, UnitInBattle] = field(default_factory=dict)
    round: int = 1
    special: Mapping[str, str] = field(default_factory=dict)
    """Each side's special objective, if the match has them."""
    activations: tuple[tuple[str, bool], ...] = ()
    """This round's activations in order (R3-26): each unit's id, and whether it was spent idle (a recovery)."""

    def activated(self, unit_id: str) -> bool:
        """The unit has activated this round."""
        return any(who == unit_id for who, _ in self.activations)

    def activating(self, unit_id: str) -> bool:
        """The unit's activation is the one under way: the last this round, and not one spent idle."""
        return bool(self.activations) and self.activations[-1] == (unit_id, False)


@dataclass(frozen=True)
class CampaignState:
    roster: Mapping[str, RosterUnit] = field(default_factory=dict)
    battles: Mapping[str, BattleState] = field(default_factory=dict)
    active_battle: str | None = None
    treasury: Mapping[str, int] = field(default_factory=dict)
    """Each side's campaign points (to buy and sell upgrades and units)."""
    victory_points: Mapping[str, int] = field(default_factory=dict)
    overrides: tuple[Override, ...] = ()

    def unit_by_name(self, name: str) -> RosterUnit | None:
        return shared.unit_named(self.roster, name)

    def army_values(self) -> dict[str, int]:
        values: dict[str, int] = {}
        for u in self.roster.values():
            if u.disbanded is None:
                values[u.side] = values.get(u.side, 0) + u.points
        return values

    def in_battle(self, battle: BattleState, unit_id: str) -> Unit:
        """What the rules read of a unit in ``battle`` (a joined hero's Quality serves its unit when better).

        A joined hero is one model of the unit (R2-32); whether every model now in it has Fearless, the hero
        included, is for R2-33."""
        roster, state = self.roster[unit_id], battle.units[unit_id]
        quality = state.quality
        hero: tuple[str, UnitInBattle] | None = None
        members = [roster] if state.models else []
        for other_id, other in battle.units.items():
            if other.joined_to == unit_id and other.removed is None:
                quality = min(quality, self.roster[other_id].profile.quality)
                if self.roster[other_id].profile.hero:
                    hero = (other_id, other) if state.hero_is_model else None
                    members.append(self.roster[other_id])
                elif state.models:
                    members.append(self.roster[other_id])
        return Unit(
            unit_id=unit_id,
            name=roster.name,
            side=state.side,
            quality=quality,
            start_size=state.start_size,
            models=state.models,
            tough=state.tough,
            carried=state.carried,
            total_wounds=state.total_wounds,
            fearless=roster.profile.fearless,
            every_model_fearless=bool(members) and all(m.profile.fearless for m in members),
            hero=roster.profile.hero,
            shaken=state.shaken,
            traits=roster.traits,
            tested=state.tested,
            hero_id=hero[0] if hero else None,
            hero_tough=hero[1].tough if hero else 0,
            hero_carried=hero[1].carried if hero else 0,
            hero_fearless=self.roster[hero[0]].profile.fearless if hero else False,
        )


def _unit(
    state: CampaignState, battle_id: str, unit_id: str, change: Callable[[UnitInBattle], UnitInBattle]
) -> CampaignState:
    def apply_to(b: BattleState) -> BattleState:
        if unit_id not in b.units:
            return b
        return replace(b, units={**b.units, unit_id: change(b.units[unit_id])})

    return shared.change_battle(state, battle_id, apply_to)


def _roster(state: CampaignState, unit_id: str, change: Callable[[RosterUnit], RosterUnit]) -> CampaignState:
    if unit_id not in state.roster:
        return state
    return replace(state, roster={**state.roster, unit_id: change(state.roster[unit_id])})


def _wounded(u: UnitInBattle, p: JsonObject) -> UnitInBattle:
    models = max(0, u.models - whole(p["models_lost"]))
    return replace(u, models=models, carried=whole(p["carried"]), total_wounds=u.total_wounds + whole(p["wounds"]))


def apply(state: CampaignState, event: RecordedEvent) -> CampaignState:  # noqa: C901, PLR0911, PLR0912 (one case per event type)
    # Read as the JSON it is recorded as: each value is narrowed to what the fact holds (cheap, unlike a model).
    p: JsonObject = event.payload
    kind = event.type
    if kind == "roster.unit_mustered":
        unit = RosterUnit(
            text(p["unit_id"]), text(p["name"]), text(p["side"]), UnitProfile.model_validate(p["profile"])
        )
        return replace(state, roster={**state.roster, unit.unit_id: unit})
    if (alike := shared.roster_fact(state, kind, p, RULESET)) is not None:
        return alike
    if kind == "economy.funds_changed":
        side = text(p["side"])
        return replace(state, treasury={**state.treasury, side: state.treasury.get(side, 0) + whole(p["amount"])})
    if kind == "battle.victory_points":
        side = text(p["side"])
        vp = {**state.victory_points, side: state.victory_points.get(side, 0) + whole(p["points"])}
        return replace(state, victory_points=vp)
    if kind == "career.xp_gained":
        return _roster(state, text(p["unit_id"]), lambda u: replace(u, xp=u.xp + whole(p["xp"])))
    if kind == "career.xp_set":
        return _roster(state, text(p["unit_id"]), lambda u: replace(u, xp=whole(p["xp"])))
    if kind == "roster.unit_listed":
        return _roster(state, text(p["unit_id"]), lambda u: replace(u, listed=(text(p["list_id"]), text(p["entry"]))))
    if kind == "roster.join_planned":
        return _roster(state, text(p["unit_id"]), lambda u: replace(u, joins=maybe_text(p["joins"])))
    if kind == "career.trait_gained":
        return _roster(
            state,
            text(p["unit_id"]),
            lambda u: replace(
                u,
                traits=(*u.traits, text(p["trait"])),
                points_change=u.points_change + whole(p["points"]),
                tough_bonus=u.tough_bonus + whole(p["tough"]),
            ),
        )
    if kind == "battle.started":
        return shared.battle_started(state, p, BattleState)
    if kind == "battle.unit_deployed":
        s = obj(p["state"])
        placed = UnitInBattle(
            text(p["unit_id"]),
            text(p["side"]),
            whole(s["start_size"]),
            whole(p["men"]),
            whole(s["tough"]),
            whole(s["quality"]),
            joined_to=maybe_text(s.get("joined_to")),
            hero_is_model=bool(s.get("hero_is_model", False)),
        )
        return shared.deployed(state, p, placed)
    if kind == "battle.turn_began":
        return shared.change_battle(
            state, text(p["battle_id"]), lambda b: replace(b, round=whole(p["turn"]), activations=())
        )
    if kind == "battle.wounds_taken":
        return _unit(state, text(p["battle_id"]), text(p["unit_id"]), lambda u: _wounded(u, p))
    if kind == "morale.shaken_changed":
        return _unit(state, text(p["battle_id"]), text(p["unit_id"]), lambda u: replace(u, shaken=flag(p["shaken"])))
    if kind == "rules.applied" and p["ruleset"] == RULESET and p["rule"] == "special_objectives" and p["battle_id"]:
        return shared.change_battle(
            state,
            text(p["battle_id"]),
            lambda b: replace(b, special={side: text(goal) for side, goal in obj(p["outcome"]).items()}),
        )
    if kind == "rules.applied" and p["ruleset"] == RULESET and p["rule"] == "activation" and p["battle_id"]:
        went = (str(p["unit_id"]), bool(obj(p["outcome"])["idle"]))
        return shared.change_battle(
            state, text(p["battle_id"]), lambda b: replace(b, activations=(*b.activations, went))
        )
    if kind == "rules.applied" and p["ruleset"] == RULESET and p["rule"] == "morale_test" and p["battle_id"]:
        return _unit(state, text(p["battle_id"]), text(p["unit_id"]), lambda u: replace(u, tested=True))
    if kind == "battle.unit_removed":
        return _unit(state, text(p["battle_id"]), text(p["unit_id"]), lambda u: replace(u, removed=text(p["reason"])))
    if kind == "battle.kill_credited":
        kill = (text(p["victim_id"]), flag(p["victim_hero"]))
        return _unit(state, text(p["battle_id"]), text(p["unit_id"]), lambda u: replace(u, kills=(*u.kills, kill)))
    if kind == "battle.ended":
        return shared.battle_ended(state, p)
    return state
