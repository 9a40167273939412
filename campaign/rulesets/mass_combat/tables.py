"""Typed access to the GURPS Mass Combat tables in force (base values plus house rules)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from campaign.rulesets.tables import RuleTables

QUALITIES = ("inexperienced", "green", "average", "seasoned", "veteran", "elite")


@dataclass(frozen=True)
class Tables(RuleTables):
    def names(self, prefix: str) -> tuple[str, ...]:
        depth = prefix.count(".") + 1
        return tuple(sorted({p.split(".")[depth] for p in self.values if p.startswith(prefix + ".")}))

    def step_bonus(self, path: str, ratio_pm: int) -> int:
        """The bonus of the highest step (per-mille threshold, bonus) that ``ratio_pm`` reaches."""
        bonus = 0
        for threshold, value in self.value(path):
            if ratio_pm >= threshold:
                bonus = int(value)
        return bonus

    def band(self, path: str, score: int) -> str:
        """The label of the highest band (low end, label) that ``score`` reaches; the lowest band below it."""
        bands: Sequence[Sequence[Any]] = self.value(path)
        found = str(bands[0][1])
        for low, label in sorted(bands, key=lambda b: int(b[0])):
            if score >= int(low):
                found = str(label)
        return found
