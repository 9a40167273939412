"""A unit of the disorder-marker ruleset, as a game master musters it."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from campaign.rulesets.inputs import Name, Typed, seed_word


class UnitProfile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    models: Annotated[int, Typed(names=("--size",), old=("--models",))] = Field(
        ge=1, le=1000, description="Men or models in the unit at full strength."
    )
    """Models in the unit at full strength."""
    troops: Annotated[str, seed_word("disorder", "troops")] = Field(
        min_length=1, description="militia, line, light, rifles or guard (→ Discipline)."
    )
    """Its troop type, which sets its Discipline (``discipline.*`` in the tables)."""
    points: int = Field(ge=0, le=100_000, description="Its cost in the force's points.")
    """What the unit costs in the force's points: force morale counts the share of points lost."""
    contingent: Name | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="An allied contingent of the side's force: on its side, not in its points (R3-13).",
    )
    """The allied contingent of its side's force it is mustered in (R3-13): it fights on that side, but is not in
    the force's points and does not flee with it; with an officer of its own (`dis officer CONTINGENT NAME`) it is
    a force of its own."""
