"""Grimdark Future (seed 004) as one plug-in: its commands, fold, tables and the upcasters of old inputs."""

from __future__ import annotations

from campaign.rulesets.command import Ruleset
from campaign.rulesets.grimdark import RULESET
from campaign.rulesets.grimdark.army_list import ImportList
from campaign.rulesets.grimdark.commands import COMMANDS
from campaign.rulesets.grimdark.fold import make_fold
from campaign.rulesets.grimdark.state import CampaignState
from campaign.rulesets.grimdark.tables import Tables


def _joins_given(inputs: dict[str, object]) -> dict[str, object]:
    """Version 0 recorded ``joins: null`` for a battle without joined units."""
    return {**inputs, "joins": inputs.get("joins") or {}}


def _first_edition_heroes(inputs: dict[str, object]) -> dict[str, object]:
    """Version 1 started battles in which a joined hero was not one of its unit's models (before R2-32)."""
    return {**inputs, "hero_is_model": False}


PLUGIN: Ruleset[CampaignState, Tables] = Ruleset(
    info=RULESET,
    commands=(*COMMANDS, ImportList),
    make_fold=make_fold,
    tables_type=Tables,
    upcasters={("gf.battle_start", 0): _joins_given, ("gf.battle_start", 1): _first_edition_heroes},
)
