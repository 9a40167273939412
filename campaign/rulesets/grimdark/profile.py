"""A Grimdark Future unit as a player lists it (the army sheet's line for it)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer


class UnitProfile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    models: int = Field(ge=1, le=100)
    quality: int = Field(ge=2, le=6)
    """Quality N+: a test passes on a d6 of N or more."""
    defense: int | None = Field(default=None, ge=2, le=6)
    """Defense N+: a hit is blocked on a d6 of N or more. No morale rule reads it: it is the sheet's, kept."""
    tough: int = Field(default=1, ge=1, le=30)
    """Tough(X) of each model: it dies after X wounds."""
    fearless: bool = False
    """Every model has Fearless (a failed morale test is passed after all on 4+)."""
    hero: bool = False
    points: int = Field(ge=0, le=10_000)
    skill_set: str | None = None
    """A hero's skill set (``skills.*`` in the tables), rolled on at each level-up."""

    @model_serializer(mode="wrap")
    def _recorded(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A Defense not given is left out: a unit mustered before the profile had one records the very same
        profile as it always did."""
        dumped: dict[str, Any] = handler(self)
        if dumped.get("defense") is None:
            dumped.pop("defense", None)
        return dumped
