"""The Mass Combat campaign fold as the projections use it, and the summary rows of its views."""

from __future__ import annotations

from collections.abc import Mapping

from campaign.rulesets.fold import battle_rows, fold_in_force, unit_rows
from campaign.rulesets.mass_combat import state as mc
from campaign.rulesets.mass_combat.strength import troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from campaign.rulesets.tables import Sourced
from projections.fold import RulesetFold, Summary


def make_fold(base: Mapping[str, Sourced]) -> RulesetFold[mc.CampaignState]:
    """The fold, with ``base`` the ruleset's tables as shipped (house rules arrive as events)."""
    return fold_in_force("mass-combat", mc.CampaignState, base, Tables, mc.apply, _summary)


def _summary(state: mc.CampaignState, tables: Tables) -> Summary:
    units = unit_rows(
        state.roster.values(),
        lambda u: {
            "quality": u.profile.quality,
            "men": u.profile.men,
            "wounded": u.wounded,
            "experience": u.profile.experience,
            "battles": len(u.fought_in),
            "ts": troop_strength(tables, u.profile, men=u.fit).total,
            "campaign_morale": state.campaign_morale(u, tables, set()),
            "pay_penalty": u.pay.penalty,
        },
    )
    battles = battle_rows(state.battles.values(), lambda b: {"day": b.day, "result": b.result, "winner": b.winner})
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
    return Summary(units, battles, dict(state.treasury), sorted(careers, key=lambda c: c["pc"]), state.day)
