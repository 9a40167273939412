"""Five-grade morale (seed 000; Stargrunt II chapter 8 "Confidence and Reaction"), RULES.md §0.

Pure: tables arrive as data (:class:`Tables`), dice as a Dice object; every rule returns a Decision.
Its rules are imported when first named (``fs.attack``): reading a campaign needs its state and fold alone,
not the rules and the event types they append (issue 13).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from campaign.rulesets.decision import Decision
    from campaign.rulesets.fighting_spirit.pressure import (
        defence_die,
        end_last_stand,
        inspire,
        last_stand,
        position,
        psi,
        reaction_test,
        surrender_check,
    )
    from campaign.rulesets.fighting_spirit.profile import UnitProfile
    from campaign.rulesets.fighting_spirit.rules import (
        ACTION_WORDS,
        FIRE_KINDS,
        activation,
        active_unit,
        attack,
        chain_links,
        enemy_at,
        inches,
        may_act,
        morale_outcome,
        morale_test,
        panic_test,
        rally,
        threat_level,
    )
    from campaign.rulesets.fighting_spirit.state import BattleState, CampaignState, RosterUnit, UnitState, apply, fold
    from campaign.rulesets.fighting_spirit.tables import Tables

_HOMES = {
    "ACTION_WORDS": "campaign.rulesets.fighting_spirit.rules",
    "FIRE_KINDS": "campaign.rulesets.fighting_spirit.rules",
    "BattleState": "campaign.rulesets.fighting_spirit.state",
    "CampaignState": "campaign.rulesets.fighting_spirit.state",
    "Decision": "campaign.rulesets.decision",
    "RosterUnit": "campaign.rulesets.fighting_spirit.state",
    "Tables": "campaign.rulesets.fighting_spirit.tables",
    "UnitProfile": "campaign.rulesets.fighting_spirit.profile",
    "UnitState": "campaign.rulesets.fighting_spirit.state",
    "activation": "campaign.rulesets.fighting_spirit.rules",
    "active_unit": "campaign.rulesets.fighting_spirit.rules",
    "apply": "campaign.rulesets.fighting_spirit.state",
    "attack": "campaign.rulesets.fighting_spirit.rules",
    "chain_links": "campaign.rulesets.fighting_spirit.rules",
    "defence_die": "campaign.rulesets.fighting_spirit.pressure",
    "end_last_stand": "campaign.rulesets.fighting_spirit.pressure",
    "enemy_at": "campaign.rulesets.fighting_spirit.rules",
    "fold": "campaign.rulesets.fighting_spirit.state",
    "inches": "campaign.rulesets.fighting_spirit.rules",
    "inspire": "campaign.rulesets.fighting_spirit.pressure",
    "last_stand": "campaign.rulesets.fighting_spirit.pressure",
    "may_act": "campaign.rulesets.fighting_spirit.rules",
    "morale_outcome": "campaign.rulesets.fighting_spirit.rules",
    "morale_test": "campaign.rulesets.fighting_spirit.rules",
    "panic_test": "campaign.rulesets.fighting_spirit.rules",
    "position": "campaign.rulesets.fighting_spirit.pressure",
    "psi": "campaign.rulesets.fighting_spirit.pressure",
    "rally": "campaign.rulesets.fighting_spirit.rules",
    "reaction_test": "campaign.rulesets.fighting_spirit.pressure",
    "surrender_check": "campaign.rulesets.fighting_spirit.pressure",
    "threat_level": "campaign.rulesets.fighting_spirit.rules",
}
"""Where each name this package offers is defined."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    found = getattr(importlib.import_module(home), name)
    globals()[name] = found
    return found


__all__ = [
    "ACTION_WORDS",
    "FIRE_KINDS",
    "BattleState",
    "CampaignState",
    "Decision",
    "RosterUnit",
    "Tables",
    "UnitProfile",
    "UnitState",
    "activation",
    "active_unit",
    "apply",
    "attack",
    "chain_links",
    "defence_die",
    "end_last_stand",
    "enemy_at",
    "fold",
    "inches",
    "inspire",
    "last_stand",
    "may_act",
    "morale_outcome",
    "morale_test",
    "panic_test",
    "position",
    "psi",
    "rally",
    "reaction_test",
    "surrender_check",
    "threat_level",
]
