"""Typed access to the disorder-marker tables in force (base values plus house rules)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign.rules.tables import Sourced
from events.errors import InvalidInputError


@dataclass(frozen=True)
class Tables:
    """The tables in force at one point of a campaign; every lookup names the path it read."""

    values: Mapping[str, Sourced]

    def value(self, path: str) -> Any:
        try:
            return self.values[path].value
        except KeyError:
            raise InvalidInputError(f"the rule tables have no value at {path!r}") from None

    def number(self, path: str) -> int:
        return int(self.value(path))

    def flag(self, path: str) -> bool:
        return bool(self.value(path))

    def source(self, path: str) -> str:
        return self.values[path].source

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
