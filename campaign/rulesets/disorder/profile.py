"""A unit of the disorder-marker ruleset, as a game master musters it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class UnitProfile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    models: int = Field(ge=1, le=1000)
    """Models in the unit at full strength."""
    troops: str = Field(min_length=1)
    """Its troop type, which sets its Discipline (``discipline.*`` in the tables)."""
    points: int = Field(ge=0, le=100_000)
    """What the unit costs in the force's points: force morale counts the share of points lost."""
    contingent: str | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="The allied contingent of its side's force it is mustered in (R3-13): it fights on that side, "
        "but is not in the force's points and does not flee with it; with an officer of its own (`dis officer "
        "CONTINGENT NAME`) it is a force of its own.",
    )
