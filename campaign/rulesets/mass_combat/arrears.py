"""Arrears counted in days (RULES.md §2.11, R2-19 (c)): a Morale roll for each day that ends with pay owed."""

from __future__ import annotations

from dataclasses import replace

from campaign.rulesets.decision import Decision
from campaign.rulesets.mass_combat.economy import after_unpaid_days, by_days
from campaign.rulesets.mass_combat.quality import base_morale, exempt_from_morale, leadership_modifier
from campaign.rulesets.mass_combat.state import CampaignState
from campaign.rulesets.mass_combat.tables import Tables
from events.dice import Dice, parse

THREE_D = parse("3d")


def unpaid_day_rolls(tables: Tables, state: CampaignState, days: int, dice: Dice) -> list[Decision]:
    """Each unit owed pay rolls Morale for each of the ``days``, after that day's reduction; a failure is for the
    game master ("bad results at the GM's choice")."""
    if not by_days(tables):
        return []
    out: list[Decision] = []
    for unit in state.units():
        if unit.disbanded or unit.pay.owed <= 0 or exempt_from_morale(tables, unit.profile):
            continue
        p = unit.profile
        base = base_morale(tables, p.quality, irregular=p.irregular) + leadership_modifier(tables, p.leader_leadership)
        for n in range(1, days + 1):
            pay = after_unpaid_days(tables, unit.pay, n)
            morale = base + state.campaign_morale(replace(unit, pay=pay), tables, set())
            roll = dice.roll(THREE_D, f"Morale roll for an unpaid day, {unit.name}", side=unit.side)
            made = roll.total <= morale
            out.append(
                Decision(
                    "unpaid_day",
                    "§2.11",
                    unit.unit_id,
                    # unpaid_days: what the sentence states (the ruleset's said.py)
                    {"day": state.day + n, "arrears": pay.penalty, "morale": morale, "unpaid_days": pay.unpaid_days},
                    {"morale_roll": "made" if made else "failed"},
                    f"{unit.name}: unpaid day {pay.unpaid_days}, arrears Morale −{pay.penalty}; Morale roll "
                    f"{roll.total} vs {morale} → "
                    + ("the men grumble but stay" if made else "failed: trouble of the game master's choosing"),
                    (),
                    (roll,),
                )
            )
    return out
