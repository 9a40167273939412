"""The five-grade campaign fold as the projections use it, and the summary rows of its views."""

from __future__ import annotations

from collections.abc import Mapping

from campaign.rulesets.fighting_spirit import state as fs
from campaign.rulesets.fighting_spirit.tables import Tables
from campaign.rulesets.fold import KeptSummary, Row, battle_rows, fold_in_force, unit_rows
from campaign.rulesets.tables import Sourced
from projections.fold import RulesetFold, Summary


def make_fold(base: Mapping[str, Sourced]) -> RulesetFold[fs.CampaignState]:
    """The fold, with ``base`` the ruleset's tables as shipped (house rules arrive as events)."""
    return fold_in_force("fighting-spirit", fs.CampaignState, base, Tables.of, fs.apply, _summary)


def _summary(state: fs.CampaignState, tables: Tables, before: KeptSummary | None) -> tuple[Summary, KeptSummary]:
    """The rows of the views; a unit's reads the unit, its record, the tables, the day and the sides' conditions
    (:meth:`~fs.CampaignState.fatigue`)."""
    was = before or KeptSummary()

    def columns(u: fs.RosterUnit) -> Row:
        record = state.records.get(u.unit_id)
        return {
            "quality": u.profile.quality,
            "men": record.men if record else u.profile.size,
            "experience": record.experience if record else 0,
            "battles": len(record.battles) if record else 0,
            "fatigue": state.fatigue(u.unit_id, tables),
            "pay_owed": record.pay_owed if record else 0,
            "paydays_missed": record.paydays_missed if record else 0,
        }

    units = unit_rows(state.roster, columns, was.units, (tables, state.day, state.conditions, state.records))
    battles = battle_rows(
        state.battles,
        lambda b: {"day": b.day, "result": b.result, "winner": b.winner, "ended": b.ended, "turn": b.turn},
        was.battles,
    )
    return Summary(units.rows, battles.rows, dict(state.treasury), [], state.day), KeptSummary(units, battles)
