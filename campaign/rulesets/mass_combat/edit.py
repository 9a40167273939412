"""``mc.edit``: a unit's profile changed on the record (a troop type left out at muster), checked as a muster."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel

from campaign.rulesets.common import EditUnit
from campaign.rulesets.mass_combat import state as mc_state
from campaign.rulesets.mass_combat.profile import UnitProfile, check_manned
from campaign.rulesets.mass_combat.strength import troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from events.errors import InvalidInputError


class Edit(EditUnit[mc_state.CampaignState, Tables]):
    name: ClassVar[str] = "mc.edit"
    profile_model: ClassVar[type[BaseModel] | None] = UnitProfile

    def check(self, tables: Tables, profile: UnitProfile) -> None:
        troop_strength(tables, profile)  # as a muster: unknown weapons refused
        check_manned(profile)
        if profile.troop_type is not None and profile.troop_type not in tables.economy.yrth:
            types = ", ".join(sorted(tables.economy.yrth))
            raise InvalidInputError.saying(
                "unknown troop type {typed!r}: one of {types}", typed=profile.troop_type, types=types
            )
