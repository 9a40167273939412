"""The disorder-markers campaign fold as the projections use it, and the summary rows of its views."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import TypeAdapter

from campaign.rulesets.disorder import state as dis
from campaign.rulesets.tables import Sourced
from projections.fold import RulesetFold, Summary


def make_fold(base: Mapping[str, Sourced]) -> RulesetFold[dis.CampaignState]:
    """The fold (its rules read no table while folding, so ``base`` is not needed)."""
    del base
    return RulesetFold("disorder", dis.CampaignState, dis.apply, TypeAdapter(dis.CampaignState), _summary)


def _summary(state: dis.CampaignState) -> Summary:
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
