"""Five-grade morale (seed 000; Stargrunt II chapter 8 "Confidence and Reaction"), RULES.md §0.

Pure: tables arrive as data (:class:`Tables`), dice as a Dice object; every rule returns a Decision.
"""

from campaign.rulesets.decision import Decision
from campaign.rulesets.fighting_spirit.pressure import (
    defence_die,
    end_last_stand,
    inspire,
    last_stand,
    panic_test,
    psi,
    reaction_test,
    surrender_check,
)
from campaign.rulesets.fighting_spirit.profile import UnitProfile
from campaign.rulesets.fighting_spirit.rules import (
    active_unit,
    attack,
    chain_links,
    morale_outcome,
    morale_test,
    rally,
    threat_level,
)
from campaign.rulesets.fighting_spirit.state import BattleState, CampaignState, RosterUnit, UnitState, apply, fold
from campaign.rulesets.fighting_spirit.tables import Tables

__all__ = [
    "BattleState",
    "CampaignState",
    "Decision",
    "RosterUnit",
    "Tables",
    "UnitProfile",
    "UnitState",
    "active_unit",
    "apply",
    "attack",
    "chain_links",
    "defence_die",
    "end_last_stand",
    "fold",
    "inspire",
    "last_stand",
    "morale_outcome",
    "morale_test",
    "panic_test",
    "psi",
    "rally",
    "reaction_test",
    "surrender_check",
    "threat_level",
]
