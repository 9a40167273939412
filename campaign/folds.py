"""Each ruleset's campaign fold, in one registry: its state type, ``apply``, a JSON codec, and the summary
rows a game master reads between battles. Every ruleset plugs into the campaign layer the same way."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import TypeAdapter

from campaign.rulesets import fighting_spirit as fs
from campaign.rulesets.disorder import state as dis
from campaign.rulesets.fighting_spirit.tables import Tables as FsTables
from campaign.rulesets.grimdark import state as gf
from campaign.rulesets.mass_combat import state as mc
from campaign.rulesets.mass_combat.strength import troop_strength
from campaign.rulesets.mass_combat.tables import Tables as McTables
from campaign.rulesets.tables import Override, apply_overrides
from campaign.tables import base_values
from events.envelope import RecordedEvent


@dataclass(frozen=True)
class Summary:
    units: list[dict[str, Any]]
    battles: list[dict[str, Any]]
    treasury: dict[str, int]
    careers: list[dict[str, Any]]
    day: int


@dataclass(frozen=True)
class RulesetFold:
    ruleset: str
    initial: Callable[[], Any]
    apply: Callable[[Any, RecordedEvent], Any]
    adapter: TypeAdapter[Any]
    summary: Callable[[Any], Summary]

    def encode(self, state: Any) -> bytes:
        return orjson.dumps(self.adapter.dump_python(state, mode="json"), option=orjson.OPT_SORT_KEYS)

    def decode(self, data: bytes) -> Any:
        return self.adapter.validate_python(orjson.loads(data))

    def fold(self, events: Iterable[RecordedEvent], state: Any = None) -> Any:
        current = self.initial() if state is None else state
        for event in events:
            current = self.apply(current, event)
        return current


# -- five grades ---------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _fs_tables(overrides: tuple[Override, ...]) -> FsTables:
    return FsTables(apply_overrides(base_values("fighting_spirit"), overrides))


def _fs_apply(state: fs.CampaignState, event: RecordedEvent) -> fs.CampaignState:
    return fs.apply(state, event, _fs_tables(state.overrides))


def _fs_summary(state: fs.CampaignState) -> Summary:
    tables = _fs_tables(state.overrides)
    units = []
    for u in state.roster.values():
        record = state.records.get(u.unit_id)
        units.append(
            {
                "unit_id": u.unit_id,
                "name": u.name,
                "side": u.side,
                "quality": u.profile.quality,
                "men": record.men if record else u.profile.size,
                "experience": record.experience if record else 0,
                "battles": len(record.battles) if record else 0,
                "fatigue": state.fatigue(u.unit_id, tables),
                "pay_owed": record.pay_owed if record else 0,
                "paydays_missed": record.paydays_missed if record else 0,
                "disbanded": u.disbanded,
            }
        )
    battles = [
        {
            "battle_id": b.battle_id,
            "number": b.number,
            "name": b.name,
            "result": b.result,
            "ended": b.ended,
            "turn": b.turn,
        }
        for b in sorted(state.battles.values(), key=lambda b: b.number)
    ]
    return Summary(sorted(units, key=lambda u: (u["side"], u["name"])), battles, dict(state.treasury), [], state.day)


# -- GURPS Mass Combat ----------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _mc_tables(overrides: tuple[Override, ...]) -> McTables:
    return McTables(apply_overrides(base_values("mass_combat"), overrides))


def _mc_apply(state: mc.CampaignState, event: RecordedEvent) -> mc.CampaignState:
    return mc.apply(state, event, _mc_tables(state.overrides))


def _mc_summary(state: mc.CampaignState) -> Summary:
    tables = _mc_tables(state.overrides)
    units = [
        {
            "unit_id": u.unit_id,
            "name": u.name,
            "side": u.side,
            "quality": u.profile.quality,
            "men": u.profile.men,
            "wounded": u.wounded,
            "experience": u.profile.experience,
            "battles": len(u.fought_in),
            "ts": troop_strength(tables, u.profile, men=u.fit).total,
            "campaign_morale": state.campaign_morale(u, tables, set()),
            "pay_penalty": u.pay.penalty,
            "disbanded": u.disbanded,
        }
        for u in state.roster.values()
    ]
    battles = [
        {
            "battle_id": b.battle_id,
            "number": b.number,
            "name": b.name,
            "day": b.day,
            "result": b.result,
            "winner": b.winner,
        }
        for b in sorted(state.battles.values(), key=lambda b: b.number)
    ]
    careers = [
        {
            "pc": c.pc,
            "battles": c.battles,
            "damage": c.damage,
            "reputation": state.reputation(c.pc),
            "permanent_reputation": c.permanent_reputation,
            "rank": c.rank,
        }
        for c in state.careers.values()
    ]
    units.sort(key=lambda u: (u["side"], u["name"]))
    return Summary(units, battles, dict(state.treasury), sorted(careers, key=lambda c: c["pc"]), state.day)


# -- disorder markers ---------------------------------------------------------------------------------


def _dis_summary(state: dis.CampaignState) -> Summary:
    units = [
        {
            "unit_id": u.unit_id,
            "name": u.name,
            "side": u.side,
            "troops": u.profile.troops,
            "models": u.profile.models,
            "points": u.profile.points,
            "battles": u.battles,
            "disbanded": u.disbanded,
        }
        for u in state.roster.values()
    ]
    battles = [
        {
            "battle_id": b.battle_id,
            "number": b.number,
            "name": b.name,
            "turn": b.turn,
            "result": b.result,
            "winner": b.winner,
            "ended": b.ended,
        }
        for b in sorted(state.battles.values(), key=lambda b: b.number)
    ]
    careers = [
        {
            "pc": c.officer,
            "side": c.side,
            "commands": state.officers.get(c.side) == c.officer,
            "battles": list(c.battles),
            "glory": c.glory,
            "glory_by_battle": list(c.glory_by_battle),
            "rank": c.rank,
        }
        for c in state.careers.values()
    ]
    units.sort(key=lambda u: (u["side"], u["name"]))
    return Summary(units, battles, {}, sorted(careers, key=lambda c: c["pc"]), 0)


# -- Grimdark Future ----------------------------------------------------------------------------------


def _gf_summary(state: gf.CampaignState) -> Summary:
    units = [
        {
            "unit_id": u.unit_id,
            "name": u.name,
            "side": u.side,
            "models": u.profile.models,
            "quality": f"{u.profile.quality}+",
            "points": u.points,
            "xp": u.xp,
            "traits": list(u.traits),
            "battles": u.battles,
            "disbanded": u.disbanded,
        }
        for u in state.roster.values()
    ]
    battles = [
        {
            "battle_id": b.battle_id,
            "number": b.number,
            "name": b.name,
            "round": b.round,
            "result": b.result,
            "winner": b.winner,
            "ended": b.ended,
        }
        for b in sorted(state.battles.values(), key=lambda b: b.number)
    ]
    units.sort(key=lambda u: (u["side"], u["name"]))
    return Summary(units, battles, dict(state.treasury), [], 0)


FOLDS: Mapping[str, RulesetFold] = {
    "fighting-spirit": RulesetFold(
        "fighting-spirit", fs.CampaignState, _fs_apply, TypeAdapter(fs.CampaignState), _fs_summary
    ),
    "mass-combat": RulesetFold("mass-combat", mc.CampaignState, _mc_apply, TypeAdapter(mc.CampaignState), _mc_summary),
    "disorder": RulesetFold("disorder", dis.CampaignState, dis.apply, TypeAdapter(dis.CampaignState), _dis_summary),
    "grimdark": RulesetFold("grimdark", gf.CampaignState, gf.apply, TypeAdapter(gf.CampaignState), _gf_summary),
}


def fold_for(ruleset: str) -> RulesetFold | None:
    """The ruleset's campaign fold, or None for a name that is not one of the four rulesets."""
    return FOLDS.get(ruleset)
