"""Typed access to the five-grade tables in force (base values plus house rules)."""

from __future__ import annotations

from dataclasses import dataclass

from campaign.rulesets.tables import RuleTables
from events.errors import InvalidInputError

MOTIVATIONS = ("low", "medium", "high")
FATIGUES = ("fresh", "tired", "exhausted")
NTR = "NTR"


@dataclass(frozen=True)
class Tables(RuleTables):
    """The tables in force at one point of a campaign; every lookup names the path it read."""

    @property
    def grades(self) -> tuple[str, ...]:
        return tuple(self.value("grades.order"))

    def grade_index(self, grade: str) -> int:
        return self.grades.index(grade)

    def shifted_grade(self, grade: str, steps: int) -> str:
        """``steps`` > 0 is worse. Clamped: never below Routed, never above Confident."""
        index = max(0, min(len(self.grades) - 1, self.grade_index(grade) + steps))
        return self.grades[index]

    def start_grade(self, fatigue: str) -> str:
        if fatigue not in FATIGUES:
            raise InvalidInputError(f"fatigue must be one of {', '.join(FATIGUES)}, not {fatigue!r}")
        return str(self.value(f"start_grade.{fatigue}"))

    def quality_die(self, quality: str) -> int:
        return int(self.value(f"qualities.{quality}.die"))

    def panic_triggers(self, quality: str) -> tuple[str, ...]:
        return tuple(self.value(f"qualities.{quality}.panic_triggers"))

    def threat_rows(self) -> tuple[str, ...]:
        return tuple(sorted({p.split(".")[1] for p in self.values if p.startswith("threats.")}))

    def threat_kind(self, row: str) -> str:
        """``base`` (the highest applies), ``plus`` (adds), ``plus_each`` (adds per count) or ``trigger``."""
        return str(self.value(f"threats.{row}.kind"))

    def threat(self, row: str, motivation: str) -> int | None:
        """The row's threat at this motivation; None where the table says NTR (no test required)."""
        if row not in self.threat_rows():
            raise InvalidInputError(f"unknown threat row {row!r}: one of {', '.join(self.threat_rows())}")
        raw = self.value(f"threats.{row}.{motivation}")
        return None if raw == NTR else int(raw)

    def reaction_threat(self, action: str, grade: str) -> int:
        if action == "close_combat":
            return int(self.value(f"reactions.close_combat.{grade}"))
        return int(self.value(f"reactions.{action}.threat"))

    def reaction_actions(self) -> tuple[str, ...]:
        return tuple(sorted({p.split(".")[1] for p in self.values if p.startswith("reactions.")}))

    def psi_die(self, rank: str) -> int:
        return int(self.value(f"psi.ranks.{rank}"))

    def psi_threshold(self, effect: str) -> int:
        return int(self.value(f"psi.effects.{effect}.at_least"))

    def psi_effects(self) -> tuple[str, ...]:
        return tuple(sorted({p.split(".")[2] for p in self.values if p.startswith("psi.effects.")}))

    def allowed(self, grade: str) -> tuple[str, ...] | None:
        """The actions a unit at ``grade`` may take (R3-3), or None where any order goes (§0.3)."""
        path = f"grades.{grade}.allowed"
        return tuple(self.value(path)) if self.has(path) else None
