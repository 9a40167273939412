"""The Mass Combat campaign fold as the projections use it, and the summary rows of its views."""

from __future__ import annotations

from collections.abc import Mapping

from campaign.rulesets.fold import KeptSummary, Row, battle_rows, fold_in_force, kept_rows, unit_rows
from campaign.rulesets.mass_combat import state as mc
from campaign.rulesets.mass_combat.economy import current_penalty
from campaign.rulesets.mass_combat.quality import base_morale, exempt_from_morale, leadership_modifier
from campaign.rulesets.mass_combat.strength import troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from campaign.rulesets.tables import Sourced
from events.recorded import text
from projections.fold import RulesetFold, Summary


def make_fold(base: Mapping[str, Sourced]) -> RulesetFold[mc.CampaignState]:
    """The fold, with ``base`` the ruleset's tables as shipped (house rules arrive as events)."""
    return fold_in_force("mass-combat", mc.CampaignState, base, Tables.of, mc.apply, _summary)


def morale_now(state: mc.CampaignState, tables: Tables, u: mc.Unit) -> int | None:
    """A unit's Morale between battles, as a roll for missed pay or treason reads it (§2.3, §2.6, §2.11, R2-19):
    its quality's base Morale, its leader's modifier and what the campaign gives it now (arrears, bonus pay,
    conscription, modifiers not bound to an enemy); None for troops not subject to Morale (R2-26)."""
    p = u.profile
    if exempt_from_morale(tables, p):
        return None
    base = base_morale(tables, p.quality, irregular=p.irregular) + leadership_modifier(tables, p.leader_leadership)
    return base + state.campaign_morale(u, tables, set())


def _summary(state: mc.CampaignState, tables: Tables, before: KeptSummary | None) -> tuple[Summary, KeptSummary]:
    """The rows of the views; a unit's reads the unit, the tables, the day, the month and the side-wide Morale
    modifiers (:meth:`~mc.CampaignState.campaign_morale`), a career its own record and the day."""
    was = before or KeptSummary()
    units = unit_rows(
        state.roster,
        lambda u: {
            "quality": u.profile.quality,
            "men": u.profile.men,
            "wounded": u.wounded,
            "experience": u.profile.experience,
            "battles": len(u.fought_in),
            "ts": troop_strength(tables, u.profile, men=u.fit).total,
            "campaign_morale": state.campaign_morale(u, tables, set()),
            "pay_penalty": u.pay.penalty,
            "morale": morale_now(state, tables, u),
            "arrears": current_penalty(tables, u.pay, state.day),
            "pay_owed": u.pay.owed,
        },
        was.units,
        (tables, state.day, state.month, state.side_modifiers),
    )
    battles = battle_rows(state.battles, lambda b: {"day": b.day, "result": b.result, "winner": b.winner}, was.battles)

    def career(c: mc.Career) -> Row:
        return {
            "pc": c.pc,
            "battles": c.battles,
            "damage": c.damage,
            "reputation": state.reputation(c.pc),
            "permanent_reputation": c.permanent_reputation,
            "rank": c.rank,
        }

    careers = kept_rows(state.careers, career, lambda c: text(c["pc"]), was.careers, (state.day,))
    summary = Summary(units.rows, battles.rows, dict(state.treasury), careers.rows, state.day)
    return summary, KeptSummary(units, battles, careers)
