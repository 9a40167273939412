"""Typed access to the disorder-marker tables in force (base values plus house rules)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from campaign.rulesets.tables import RuleTables
from events.errors import InvalidInputError


@dataclass(frozen=True)
class Tables(RuleTables):
    """The tables in force at one point of a campaign; every lookup names the path it read."""

    @property
    def troop_types(self) -> tuple[str, ...]:
        return tuple(sorted(p.split(".", 1)[1] for p in self.values if p.startswith("discipline.")))

    def discipline(self, troops: str) -> int:
        if f"discipline.{troops}" not in self.values:
            raise InvalidInputError(f"unknown troop type {troops!r}: choose one of {', '.join(self.troop_types)}")
        return self.number(f"discipline.{troops}")

    @property
    def causes(self) -> tuple[str, ...]:
        return tuple(self.value("causes.names"))

    def rank(self, glory: int) -> str:
        """The highest career rank whose Glory threshold ``glory`` reaches (the first rank below them all)."""
        ranks: Sequence[Sequence[Any]] = sorted(self.value("career.ranks"), key=lambda r: int(r[0]))
        found = str(ranks[0][1])
        for threshold, name in ranks:
            if glory >= int(threshold):
                found = str(name)
        return found
