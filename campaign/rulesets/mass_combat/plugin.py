"""GURPS Mass Combat (seed 002) as one plug-in: its commands, fold, tables and the upcasters of old inputs."""

from __future__ import annotations

from campaign.rulesets.command import Ruleset
from campaign.rulesets.mass_combat import RULESET, calendar_commands, commands
from campaign.rulesets.mass_combat.fold import make_fold
from campaign.rulesets.mass_combat.state import CampaignState
from campaign.rulesets.mass_combat.tables import Tables

PLUGIN: Ruleset[CampaignState, Tables] = Ruleset(
    info=RULESET,
    commands=(*commands.COMMANDS, *calendar_commands.COMMANDS),
    make_fold=make_fold,
    tables_type=Tables,
)
