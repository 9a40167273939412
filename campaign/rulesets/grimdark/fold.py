"""The Grimdark Future campaign fold as the projections use it, and the summary rows of its views."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import TypeAdapter

from campaign.rulesets.fold import battle_rows, facts_only, unit_rows
from campaign.rulesets.grimdark import state as gf
from campaign.rulesets.tables import Sourced
from projections.fold import RulesetFold, Summary


def make_fold(base: Mapping[str, Sourced]) -> RulesetFold[gf.CampaignState]:
    """The fold (its rules read no table while folding: ``base`` only names the injuries for the views)."""
    injuries = frozenset(str(n) for n in base["traits.injury.names"].value) if "traits.injury.names" in base else None

    def summary(state: gf.CampaignState) -> Summary:
        return _summary(state, injuries or frozenset())

    return RulesetFold("grimdark", gf.CampaignState, facts_only(gf.apply), TypeAdapter(gf.CampaignState), summary)


def _summary(state: gf.CampaignState, injuries: frozenset[str] = frozenset()) -> Summary:
    units = unit_rows(
        state.roster.values(),
        lambda u: {
            "models": u.profile.models,
            "quality": f"{u.profile.quality}+",
            "points": u.points,
            "xp": u.xp,
            "traits": list(u.traits),
            "battles": u.battles,
        },
    )
    battles = battle_rows(
        state.battles.values(), lambda b: {"round": b.round, "result": b.result, "winner": b.winner, "ended": b.ended}
    )
    careers = [  # a hero's career: its battles, XP, the injuries and other traits it carries
        {
            "pc": u.name,
            "side": u.side,
            "hero": True,
            "battles": u.battles,
            "xp": u.xp,
            "injuries": [t for t in u.traits if t in injuries],
            "traits": [t for t in u.traits if t not in injuries],
            "out": u.disbanded,
        }
        for u in state.roster.values()
        if u.profile.hero
    ]
    return Summary(units, battles, dict(state.treasury), sorted(careers, key=lambda c: c["pc"]), 0)
