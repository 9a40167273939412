"""A Grimdark Future unit as a player lists it (the army sheet's line for it)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from campaign.rulesets.inputs import Typed


class UnitProfile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    models: Annotated[int, Typed(names=("--size",), old=("--models",))] = Field(
        ge=1, le=100, description="Men or models in the unit at full strength."
    )
    quality: int = Field(ge=2, le=6, description="Quality N+ (2–6).")
    """Quality N+: a test passes on a d6 of N or more."""
    tough: int = Field(default=1, ge=1, le=30, description="Tough(X) of each model.")
    """Tough(X) of each model: it dies after X wounds."""
    fearless: bool = Field(default=False, description="Every model has Fearless.")
    """Every model has Fearless (a failed morale test is passed after all on 4+)."""
    hero: bool = Field(default=False, description="A hero (a single model).")
    points: int = Field(ge=0, le=10_000)
    skill_set: str | None = Field(default=None, description="A hero's skill set: Captain, Healer or Support.")
    """A hero's skill set (``skills.*`` in the tables), rolled on at each level-up."""
