"""``gf.edit``: a unit's profile changed on the record, checked as a muster checks it."""

from __future__ import annotations

from typing import ClassVar

from campaign.rulesets.common import EditUnit
from campaign.rulesets.grimdark.profile import UnitProfile
from campaign.rulesets.grimdark.state import CampaignState
from campaign.rulesets.grimdark.tables import Tables
from events.errors import InvalidInputError


def check_profile(tables: Tables, checked: UnitProfile) -> None:
    """What the rules ask of a profile beyond its schema: a hero is one model with a skill set of the tables."""
    if checked.hero and checked.models != 1:
        raise InvalidInputError("a hero is a single model")
    if checked.skill_set is not None:
        if not checked.hero:
            raise InvalidInputError("only a hero has a skill set")
        if checked.skill_set not in tables.skill_sets:
            raise InvalidInputError(
                f"unknown skill set {checked.skill_set!r}: choose one of {', '.join(tables.skill_sets)}"
            )


class Edit(EditUnit[CampaignState, Tables]):
    name: ClassVar[str] = "gf.edit"

    def check(self, tables: Tables, profile: UnitProfile) -> None:
        check_profile(tables, profile)
