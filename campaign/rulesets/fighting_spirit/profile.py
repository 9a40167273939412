"""A unit under the five-grade rules (§0.2): what its roster entry holds."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from campaign.rulesets.inputs import Typed

Quality = Literal["untrained", "green", "regular", "veteran", "elite"]
Kind = Literal["infantry", "vehicle_crew", "vehicle", "robot", "android"]
PsiRank = Literal["none", "pupil", "master", "renowned", "legend"]


class UnitProfile(BaseModel):
    """Quality die, the leader's leadership value (LV: 1 best … 6 worst; SGII's leaders are 1–3), size, and what
    the unit is.

    ``psi_rank`` is None for a unit with no psion; ``"none"`` is an ordinary non-psi Barf-jat (d4).
    ``kind``: psionics affect only the living (infantry, vehicle crews, androids), never vehicles or robots
    (§0.10); androids take every psi-resistance test on a d6 (R2-1).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    quality: Quality = Field(description="untrained, green, regular, veteran or elite.")
    leadership: Annotated[int, Typed(names=("--leadership", "--lv"))] = Field(
        ge=1, le=6, description="Leader's LV: 1 best … 6 worst (SGII's leaders are 1–3)."
    )
    size: int = Field(ge=1, le=500, description="Men in the unit.")
    kind: Kind = Field(default="infantry", description="infantry, vehicle_crew, vehicle, robot or android.")
    radio: bool = Field(default=False, description="Has a radio or telephone.")
    psi_rank: PsiRank | None = Field(default=None, description="none, pupil, master, renowned, legend.")
    keno_guard: bool = Field(default=False, description="Keno Guard (d8 for No step back).")
    terrifying: bool = Field(default=False, description="Terrifying troops.")
    crew_weapon: bool = Field(default=False, description="Has a crew-served weapon (R2-4).")
    """It has a crew-served weapon (e.g. a mounted machine gun): Kill may target it even as a one-man unit (R2-4 c)."""

    @property
    def living(self) -> bool:
        return self.kind not in ("vehicle", "robot")
