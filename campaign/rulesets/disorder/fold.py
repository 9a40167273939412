"""The disorder-markers campaign fold as the projections use it, and the summary rows of its views."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import TypeAdapter

from campaign.rulesets.disorder import state as dis
from campaign.rulesets.fold import battle_rows, facts_only, unit_rows
from campaign.rulesets.tables import Sourced
from projections.fold import RulesetFold, Summary


def make_fold(base: Mapping[str, Sourced]) -> RulesetFold[dis.CampaignState]:
    """The fold (its rules read no table while folding, so ``base`` is not needed)."""
    del base
    return RulesetFold("disorder", dis.CampaignState, facts_only(dis.apply), TypeAdapter(dis.CampaignState), _summary)


def _summary(state: dis.CampaignState) -> Summary:
    units = unit_rows(
        state.roster.values(),
        lambda u: {
            "troops": u.profile.troops,
            "models": u.profile.models,
            "points": u.profile.points,
            "battles": u.battles,
        },
    )
    battles = battle_rows(
        state.battles.values(), lambda b: {"turn": b.turn, "result": b.result, "winner": b.winner, "ended": b.ended}
    )
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
    return Summary(units, battles, {}, sorted(careers, key=lambda c: c["pc"]), 0)
