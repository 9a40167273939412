"""The disorder-markers campaign fold as the projections use it, and the summary rows of its views."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import TypeAdapter

from campaign.rulesets.disorder import state as dis
from campaign.rulesets.fold import KeptSummary, Row, battle_rows, facts_only, kept_rows, unit_rows
from campaign.rulesets.tables import Sourced
from events.recorded import text
from projections.fold import RulesetFold, Summary


def make_fold(base: Mapping[str, Sourced]) -> RulesetFold[dis.CampaignState]:
    """The fold (its rules read no table while folding, so ``base`` is not needed)."""
    del base
    return RulesetFold("disorder", dis.CampaignState, facts_only(dis.apply), TypeAdapter(dis.CampaignState), _summary)


def _summary(state: dis.CampaignState, before: KeptSummary | None) -> tuple[Summary, KeptSummary]:
    """The rows of the views; a unit's reads the unit only, a career its own record and who commands its side."""
    was = before or KeptSummary()
    units = unit_rows(
        state.roster,
        lambda u: {
            "troops": u.profile.troops,
            "models": u.profile.models,
            "points": u.profile.points,
            "battles": u.battles,
        },
        was.units,
    )
    battles = battle_rows(
        state.battles,
        lambda b: {"turn": b.turn, "result": b.result, "winner": b.winner, "ended": b.ended},
        was.battles,
    )

    def career(c: dis.Career) -> Row:
        return {
            "pc": c.officer,
            "side": c.side,
            "commands": state.officers.get(c.side) == c.officer,
            "battles": list(c.battles),
            "glory": c.glory,
            "glory_by_battle": list(c.glory_by_battle),
            "rank": c.rank,
        }

    careers = kept_rows(state.careers, career, lambda c: text(c["pc"]), was.careers, (state.officers,))
    return Summary(units.rows, battles.rows, {}, careers.rows, 0), KeptSummary(units, battles, careers)
