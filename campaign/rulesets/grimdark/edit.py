"""``gf.edit``: a unit's profile changed on the record, checked as a muster checks it."""

from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import BaseModel, Field

from campaign.rulesets.command import Situation
from campaign.rulesets.common import EditUnit, find_unit
from campaign.rulesets.grimdark.carried import carried_facts, carried_traits
from campaign.rulesets.grimdark.profile import UnitProfile
from campaign.rulesets.grimdark.state import CampaignState
from campaign.rulesets.grimdark.tables import Tables
from campaign.rulesets.inputs import Called, Typed
from events.errors import InvalidInputError
from events.recorded import JsonValue
from events.registry import Event


def check_profile(tables: Tables, checked: UnitProfile) -> None:
    """What the rules ask of a profile beyond its schema: a hero is one model with a skill set of the tables."""
    if checked.hero and checked.models != 1:
        raise InvalidInputError.saying("a hero is a single model")
    if checked.skill_set is not None:
        if not checked.hero:
            raise InvalidInputError.saying("only a hero has a skill set")
        if checked.skill_set not in tables.skill_sets:
            raise InvalidInputError.saying(
                "unknown skill set {skill_set!r}: choose one of {skill_sets}",
                skill_set=checked.skill_set,
                skill_sets=", ".join(tables.skill_sets),
            )


class Edit(EditUnit[CampaignState, Tables]):
    """Change a unit's profile, XP or traits (recorded: the log keeps what they were before).

    ``changes`` to its profile, ``xp`` its XP from now on, ``traits`` it has and the record lacks (a campaign begun
    elsewhere, a roll made away from the ledger)."""

    name: ClassVar[str] = "gf.edit"
    profile_model: ClassVar[type[BaseModel] | None] = UnitProfile

    changes: Annotated[
        dict[Annotated[str, Called("profile field")], Annotated[JsonValue, Called("new value")]],
        Typed(names=("--set",), form="KEY=VALUE"),
    ] = Field(default_factory=dict, max_length=50, description="A profile field and its new value.")
    xp: int | None = Field(default=None, ge=0, le=10_000, description="Its XP from now on.")
    traits: Annotated[tuple[str, ...], Typed(names=("--trait",))] = Field(
        default=(), max_length=30, description="A trait it has and the record lacks."
    )

    def check(self, tables: Tables, profile: UnitProfile) -> None:
        check_profile(tables, profile)

    def decide(self, s: Situation[CampaignState, Tables]) -> list[Event]:
        unit = find_unit(s.state, self.unit_name)
        carried = sorted({"xp", "traits"} & set(self.changes))
        if carried:
            raise InvalidInputError.saying(
                "{unit}: not profile fields: {fields}; give its XP as --xp N and a trait as --trait NAME",
                unit=unit.name,
                fields=", ".join(carried),
            )
        if not self.changes and self.xp is None and not self.traits:
            raise InvalidInputError.saying(
                "say what to change of {unit}: a profile field, its XP or a trait", unit=unit.name
            )
        events = self.profile_changed(s, unit) if self.changes else []
        xp = self.xp if self.xp is not None and self.xp != unit.xp else None
        if self.xp is not None and xp is None and not events and not self.traits:
            raise InvalidInputError.saying("{unit} has {xp} XP already: nothing to change", unit=unit.name, xp=unit.xp)
        traits = carried_traits(s.tables, unit.name, self.traits, unit.traits)
        return [*events, *carried_facts(unit.unit_id, xp, traits, f"edited, was {unit.xp}")]
