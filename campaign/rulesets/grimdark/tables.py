"""Typed access to the Grimdark Future tables in force (base values plus house rules)."""

from __future__ import annotations

from dataclasses import dataclass

from campaign.rulesets.tables import RuleTables

TRAIT_KINDS = ("unit", "injury", "talent")


@dataclass(frozen=True)
class Tables(RuleTables):
    def traits(self, kind: str) -> tuple[str, ...]:
        """The D6 table of ``kind`` traits, face 1 first."""
        return tuple(str(t) for t in self.value(f"traits.{kind}.names"))

    def morale_modifier(self, traits: tuple[str, ...]) -> int:
        return sum(self.number(f"traits.morale.{t}") for t in traits if self.has(f"traits.morale.{t}"))

    def first_test_passes(self, traits: tuple[str, ...]) -> bool:
        return any(
            self.flag(f"traits.first_test_passes.{t}") for t in traits if self.has(f"traits.first_test_passes.{t}")
        )

    @property
    def skill_sets(self) -> tuple[str, ...]:
        return tuple(sorted({p.split(".")[1] for p in self.values if p.startswith("skills.")}))

    def skills(self, skill_set: str) -> tuple[str, ...]:
        return tuple(str(s) for s in self.value(f"skills.{skill_set}.names"))
