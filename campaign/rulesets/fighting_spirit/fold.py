"""The five-grade campaign fold as the projections use it, and the summary rows of its views."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import TypeAdapter

from campaign.rulesets.fighting_spirit import state as fs
from campaign.rulesets.fighting_spirit.tables import Tables
from campaign.rulesets.tables import Sourced, tables_in_force_cache
from events.envelope import RecordedEvent
from projections.fold import RulesetFold, Summary


def make_fold(base: Mapping[str, Sourced]) -> RulesetFold[fs.CampaignState]:
    """The fold, with ``base`` the ruleset's tables as shipped (house rules arrive as events)."""

    tables = tables_in_force_cache(base, Tables)

    def apply(state: fs.CampaignState, event: RecordedEvent) -> fs.CampaignState:
        return fs.apply(state, event, tables(state.overrides))

    def summary(state: fs.CampaignState) -> Summary:
        return _summary(state, tables(state.overrides))

    return RulesetFold("fighting-spirit", fs.CampaignState, apply, TypeAdapter(fs.CampaignState), summary)


def _summary(state: fs.CampaignState, tables: Tables) -> Summary:
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
