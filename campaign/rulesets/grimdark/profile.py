"""A Grimdark Future unit as a player lists it (the army sheet's line for it)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class UnitProfile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    models: int = Field(ge=1, le=100)
    quality: int = Field(ge=2, le=6)
    """Quality N+: a test passes on a d6 of N or more."""
    tough: int = Field(default=1, ge=1, le=30)
    """Tough(X) of each model: it dies after X wounds."""
    fearless: bool = False
    """Every model has Fearless (a failed morale test is passed after all on 4+)."""
    hero: bool = False
    points: int = Field(ge=0, le=10_000)
    skill_set: str | None = None
    """A hero's skill set (``skills.*`` in the tables), rolled on at each level-up."""
