"""The Mass Combat campaign fold as the projections use it, and the summary rows of its views."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import TypeAdapter

from campaign.rulesets.mass_combat import state as mc
from campaign.rulesets.mass_combat.strength import troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from campaign.rulesets.tables import Sourced, tables_in_force_cache
from events.envelope import RecordedEvent
from projections.fold import RulesetFold, Summary


def make_fold(base: Mapping[str, Sourced]) -> RulesetFold[mc.CampaignState]:
    """The fold, with ``base`` the ruleset's tables as shipped (house rules arrive as events)."""

    tables = tables_in_force_cache(base, Tables)

    def apply(state: mc.CampaignState, event: RecordedEvent) -> mc.CampaignState:
        return mc.apply(state, event, tables(state.overrides))

    def summary(state: mc.CampaignState) -> Summary:
        return _summary(state, tables(state.overrides))

    return RulesetFold("mass-combat", mc.CampaignState, apply, TypeAdapter(mc.CampaignState), summary)


def _summary(state: mc.CampaignState, tables: Tables) -> Summary:
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
