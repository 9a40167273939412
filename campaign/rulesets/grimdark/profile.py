"""A Grimdark Future unit as a player lists it (the army sheet's line for it)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from campaign.rulesets.inputs import Typed


class UnitProfile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    models: Annotated[int, Typed(names=("--size",), old=("--models",))] = Field(
        ge=1, le=100, description="Men or models in the unit at full strength."
    )
    quality: int = Field(ge=2, le=6, description="Quality N+ (2–6).")
    """Quality N+: a test passes on a d6 of N or more."""
    defense: int | None = Field(default=None, ge=2, le=6, description="Defense N+ (2–6), as its sheet has it.")
    """Defense N+: a hit is blocked on a d6 of N or more. No morale rule reads it: it is the sheet's, kept."""
    tough: int = Field(default=1, ge=1, le=30, description="Tough(X) of each model.")
    """Tough(X) of each model: it dies after X wounds."""
    fearless: bool = Field(default=False, description="Every model has Fearless.")
    """Every model has Fearless (a failed morale test is passed after all on 4+)."""
    hero: bool = Field(default=False, description="A hero (a single model).")
    points: int = Field(ge=0, le=10_000, description="Its cost as its sheet has it (levels included).")
    skill_set: str | None = Field(default=None, description="A hero's skill set: Captain, Healer or Support.")
    """A hero's skill set (``skills.*`` in the tables), rolled on at each level-up."""

    @model_serializer(mode="wrap")
    def _recorded(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        """A Defense not given is left out: a unit mustered before the profile had one records the very same
        profile as it always did."""
        dumped: dict[str, object] = handler(self)
        if dumped.get("defense") is None:
            dumped.pop("defense", None)
        return dumped
