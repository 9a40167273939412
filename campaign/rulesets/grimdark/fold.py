"""The Grimdark Future campaign fold as the projections use it, and the summary rows of its views."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import TypeAdapter

from campaign.rulesets.fold import KeptSummary, Row, battle_rows, facts_only, kept_rows, unit_rows
from campaign.rulesets.grimdark import state as gf
from campaign.rulesets.tables import Sourced
from events.recorded import seq, text
from projections.fold import RulesetFold, Summary


def make_fold(base: Mapping[str, Sourced]) -> RulesetFold[gf.CampaignState]:
    """The fold (its rules read no table while folding: ``base`` only names the injuries for the views)."""
    injuries = (
        frozenset(str(n) for n in seq(base["traits.injury.names"].value)) if "traits.injury.names" in base else None
    )

    def summarize(state: gf.CampaignState, before: KeptSummary | None) -> tuple[Summary, KeptSummary]:
        return _summary(state, injuries or frozenset(), before)

    return RulesetFold("grimdark", gf.CampaignState, facts_only(gf.apply), TypeAdapter(gf.CampaignState), summarize)


def _summary(
    state: gf.CampaignState, injuries: frozenset[str] = frozenset(), before: KeptSummary | None = None
) -> tuple[Summary, KeptSummary]:
    """The rows of the views; a unit's reads the unit only, a hero's career the hero and the injuries' names."""
    was = before or KeptSummary()
    units = unit_rows(
        state.roster,
        lambda u: {
            "models": u.profile.models,
            "quality": f"{u.profile.quality}+",
            "points": u.points,
            "xp": u.xp,
            "traits": list(u.traits),
            "battles": u.battles,
        },
        was.units,
    )
    battles = battle_rows(
        state.battles,
        lambda b: {"round": b.round, "result": b.result, "winner": b.winner, "ended": b.ended},
        was.battles,
    )

    def career(u: gf.RosterUnit) -> Row | None:
        """A hero's career: its battles, XP, the injuries and other traits it carries."""
        if not u.profile.hero:
            return None
        return {
            "pc": u.name,
            "side": u.side,
            "hero": True,
            "battles": u.battles,
            "xp": u.xp,
            "injuries": [t for t in u.traits if t in injuries],
            "traits": [t for t in u.traits if t not in injuries],
            "out": u.disbanded,
        }

    careers = kept_rows(state.roster, career, lambda c: text(c["pc"]), was.careers, (injuries,))
    summary = Summary(units.rows, battles.rows, dict(state.treasury), careers.rows, 0)
    return summary, KeptSummary(units, battles, careers)
