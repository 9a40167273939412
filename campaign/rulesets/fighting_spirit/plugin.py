"""The five-grade ruleset (seed 000) as one plug-in: its commands, fold and tables.

Its version-0 inputs (recorded by the service methods before commands were models) read as they are: the
models' field names are the old parameter names, so it declares no upcaster.
"""

from __future__ import annotations

from campaign.rulesets.command import Ruleset
from campaign.rulesets.fighting_spirit import RULESET
from campaign.rulesets.fighting_spirit.battle_commands import BATTLE_COMMANDS
from campaign.rulesets.fighting_spirit.commands import COMMANDS
from campaign.rulesets.fighting_spirit.fold import make_fold
from campaign.rulesets.fighting_spirit.state import CampaignState
from campaign.rulesets.fighting_spirit.tables import Tables

PLUGIN: Ruleset[CampaignState, Tables] = Ruleset(
    info=RULESET,
    commands=COMMANDS + BATTLE_COMMANDS,
    make_fold=make_fold,
    tables_type=Tables,
)
