"""The disorder-marker ruleset (seed 001) as one plug-in: its commands, fold, tables and the upcasters of old
inputs."""

from __future__ import annotations

from campaign.rulesets.command import Ruleset
from campaign.rulesets.disorder import RULESET
from campaign.rulesets.disorder.battle_commands import COMMANDS
from campaign.rulesets.disorder.fold import make_fold
from campaign.rulesets.disorder.state import CampaignState
from campaign.rulesets.disorder.tables import Tables


def _objectives_given(inputs: dict[str, object]) -> dict[str, object]:
    """Version 0 could record ``objectives: null`` for a battle ended with no objectives held."""
    return {**inputs, "objectives": inputs.get("objectives") or {}}


PLUGIN: Ruleset[CampaignState, Tables] = Ruleset(
    info=RULESET,
    commands=COMMANDS,
    make_fold=make_fold,
    tables_type=Tables,
    upcasters={("dis.battle_end", 0): _objectives_given},
)
