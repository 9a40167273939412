"""What a battle leaves behind (§2.11, §2.12): effects that outlive it, the year's record against the same enemy,
and the loot of the field. Pure functions over the campaign state and the tables in force."""

from __future__ import annotations

from collections.abc import Sequence

from campaign.rulesets.decision import Decision, decision_events
from campaign.rulesets.mass_combat import RULESET
from campaign.rulesets.mass_combat.economy import stripped_value
from campaign.rulesets.mass_combat.setup import BattleSetup
from campaign.rulesets.mass_combat.state import BattleRecord, CampaignState
from campaign.rulesets.mass_combat.tables import Tables
from events.families.economy import FundsChanged, MoraleModifierSet, UnitDisbanded
from events.families.roster import UnitWentOver
from events.recorded import maybe_text, obj, seq, whole
from events.registry import Event


def year_record(tables: Tables, setup: BattleSetup, winner: str) -> Decision:
    """Beat the same enemy this year +1, lost to it −2 (§2.11), until the year ends: each side's Morale against
    the other, as ``vs SIDE`` modifiers that count only in a battle against that side."""
    beat, lost = tables.same_enemy.beat, tables.same_enemy.lost
    facts: list[Event] = []
    losers = [s.name for s in setup.sides if s.name != winner]
    for other in losers:
        facts.append(
            MoraleModifierSet(name=f"vs {other}: beat them this year", value=beat, side=winner, until="year_end")
        )
        facts.append(
            MoraleModifierSet(name=f"vs {winner}: lost to them this year", value=lost, side=other, until="year_end")
        )
    text = f"{winner} beat {', '.join(losers)} at {setup.name}: Morale {beat:+d} against them until the year ends; " + (
        f"{', '.join(losers)} {lost:+d} against {winner}"
    )
    return Decision(
        "same_enemy_this_year",
        "§2.11",
        None,
        {"winner": winner, "losers": list(losers), "battle": setup.name},
        {"beat": beat, "lost": lost},
        text,
        tuple(facts),
    )


def loot(tables: Tables, state: CampaignState, record: BattleRecord, side: str) -> Decision:
    """Strip the enemy's fallen (§2.12): each fallen enemy's gear fetches what ``stripped_value`` says; the
    wounded count too where their unit routed."""
    total = 0
    for unit_id, dead, wounded in record.fallen:
        fallen = state.roster.get(unit_id)
        if fallen is None or fallen.side == side:
            continue
        men = dead + (wounded if record.fates.get(unit_id) == "routs" else 0)
        total += stripped_value(tables, fallen.profile, men)
    for unit_id, fate in record.fates.items():  # every man left of a unit that surrendered is captured (R3-19)
        captured = state.roster.get(unit_id)
        if fate == "surrenders" and captured is not None and captured.side != side:
            total += stripped_value(tables, captured.profile, captured.profile.men)
    text = f"{side} strips the field of {record.name}: ${total}"
    fact = FundsChanged(side=side, amount=total, reason=f"loot of {record.battle_id}")
    return Decision("loot", "§2.12", None, {"battle": record.name, "side": side}, {"value": total}, text, (fact,))


def lasting_effects(tables: Tables, decisions: Sequence[Decision], setup: BattleSetup, final_day: bool) -> list[Event]:
    """What outlives the battle (§2.11): a lost commander until a clear victory; the same enemy this year."""
    out: list[Event] = []
    for d in decisions:
        if d.rule not in ("catastrophe", "leader_lost", "next_day_morale"):  # R2-14, R2-18 recorded too
            continue
        for persisting in seq(d.outcome.get("persist", [])):
            item = obj(persisting)
            if "defected" in item:  # the unit left the battle with its troops: lost to its side for good
                out.append(UnitDisbanded(unit_id=str(item["defected"]), reason=f"defected at {setup.name}"))
                continue
            if "went_over" in item:  # R3-17: it fought for the enemy, and belongs to the enemy from now on
                reason = f"defected at {setup.name}, day {setup.day}"
                out.append(UnitWentOver(unit_id=str(item["went_over"]), side=str(item["to"]), reason=reason))
                continue
            out.append(
                MoraleModifierSet(
                    name=f"{'the day after' if d.rule == 'next_day_morale' else 'commander lost'} "
                    f"({setup.name}, day {setup.day})",
                    value=whole(item["value"]),
                    unit_id=maybe_text(item.get("unit_id")),
                    side=maybe_text(item.get("side")),
                    until=str(item.get("until", "clear_victory")),
                )
            )
    if tables.results.surrendered_leave_roster:  # R3-19: the men who surrendered are prisoners
        winner_name = next((d.outcome.get("winner") for d in decisions if d.rule == "result"), None)
        surrendered = dict.fromkeys(
            str(d.unit_id) for d in decisions if d.rule == "unit_morale" and d.outcome.get("fate") == "surrenders"
        )
        for unit_id in surrendered:
            out.append(
                UnitDisbanded(
                    unit_id=unit_id,
                    reason=f"surrendered at {setup.name}, day {setup.day}: its men are prisoners of {winner_name}",
                )
            )
    end = next((d for d in decisions if d.rule == "battle_end"), None)
    winner = end.outcome.get("winner") if end is not None else None
    if final_day and winner:
        out.extend(decision_events([year_record(tables, setup, str(winner))], None, RULESET))
    return out
