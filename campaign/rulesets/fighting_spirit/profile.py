"""A unit under the five-grade rules (§0.2): what its roster entry holds."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

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

    quality: Quality
    leadership: int = Field(ge=1, le=6)
    size: int = Field(ge=1, le=500)
    kind: Kind = "infantry"
    radio: bool = False
    psi_rank: PsiRank | None = None
    keno_guard: bool = False
    terrifying: bool = False
    crew_weapon: bool = False
    """It has a crew-served weapon (e.g. a mounted machine gun): Kill may target it even as a one-man unit (R2-4 c)."""

    @property
    def living(self) -> bool:
        return self.kind not in ("vehicle", "robot")
