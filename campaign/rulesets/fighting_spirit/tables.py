"""The five-grade tables (``tables.toml``) as a model: the rules read its attributes; base values plus house
rules."""

from typing import Literal

from campaign.rulesets.tables import Flag, Ntr, Number, RuleTables, Section, Word, pick
from events.errors import InvalidInputError

MOTIVATIONS = ("low", "medium", "high")
FATIGUES = ("fresh", "tired", "exhausted")
NTR = "NTR"


class Allowed(Section):
    allowed: list[Word]


class Grades(Section):
    order: list[Word]
    broken: Allowed
    routed: Allowed


class Turn(Section):
    activations_per_unit: Number


class StartGrade(Section):
    fresh: Word
    tired: Word
    exhausted: Word
    scenario_grades: list[Word]


class Quality(Section):
    die: Number
    panic_triggers: list[Word]


class ThreatRow(Section):
    kind: Literal["base", "plus", "plus_each", "trigger"]
    """``base`` (the highest applies), ``plus`` (adds), ``plus_each`` (adds per count) or ``trigger``."""
    low: Number | Ntr
    medium: Number | Ntr
    high: Number | Ntr
    counts: Literal["battle", "attack"] | None = None


class Alternative(Section):
    value: Number


class Rally(Section):
    persisting_rows: list[Word]
    attempts_per_activation: Number
    comms_free_distance: Number


class Reaction(Section):
    """A reaction test's threat (``threat``), or close combat's by grade."""

    threat: Number | None = None
    confident: Number | None = None
    steady: Number | None = None
    shaken: Number | None = None


class Panic(Section):
    threat: Number
    tests_per_activation: Number
    allowed_actions: list[Word]
    fired_on_kinds: list[Word]


class Test(Section):
    two_grades_slack: Number


class LastStand(Section):
    keno_guard_die: Number
    other_die: Number
    success_at_least: Number
    friends_within: Number
    enemy_squads_in_sight: Number
    worst_grade: Word
    end_grade: Word
    end_capped_by_start: Flag
    no_morale_stat: Flag


class Surrender(Section):
    enemy_within: Number


class Measure(Section):
    decimals: Number
    within_inclusive: Flag


class PsiRules(Section):
    band_inches: Number
    android_resist_die: Number
    overrides_ordinary_limits: Flag
    kill_min_men: Number
    kill_crew_weapon_exception: Flag
    actions_per_activation: Number


class PsiEffect(Section):
    at_least: Number


class Psi(Section):
    ranks: dict[str, Number]
    rules: PsiRules
    effects: dict[str, PsiEffect]


class Defence(Section):
    aimed_small_arms_die: Number


class Veterancy(Section):
    green: Number
    regular: Number
    veteran: Number
    may_fall: Flag

    def battles_for(self, quality: str) -> int:
        """The battles a unit needs to reach ``quality`` (R2-12's rungs)."""
        rungs = {"green": self.green, "regular": self.regular, "veteran": self.veteran}
        return pick(rungs, quality, "campaign.veterancy")


class Pay(Section):
    monthly_per_man: Number


class Campaign(Section):
    side_fatigue: Word
    tired_after_front_days: Number
    exhausted_battles: Number
    exhausted_window_days: Number
    fresh_after_rest_days: Number
    surrendered_men_lost: Flag
    veterancy: Veterancy
    pay: Pay


class Tables(RuleTables):
    """The tables in force at one point of a campaign."""

    grades: Grades
    turn: Turn
    start_grade: StartGrade
    qualities: dict[str, Quality]
    threats: dict[str, ThreatRow]
    alternatives: dict[str, Alternative]
    rally: Rally
    reactions: dict[str, Reaction]
    panic: Panic
    test: Test
    last_stand: LastStand
    surrender: Surrender
    measure: Measure
    psi: Psi
    defence: Defence
    campaign: Campaign

    def grade_index(self, grade: str) -> int:
        return self.grades.order.index(grade)

    def shifted_grade(self, grade: str, steps: int) -> str:
        """``steps`` > 0 is worse. Clamped: never below Routed, never above Confident."""
        order = self.grades.order
        index = max(0, min(len(order) - 1, self.grade_index(grade) + steps))
        return order[index]

    def start_grade_for(self, fatigue: str) -> str:
        if fatigue not in FATIGUES:
            raise InvalidInputError(f"fatigue must be one of {', '.join(FATIGUES)}, not {fatigue!r}")
        by_fatigue = {"fresh": self.start_grade.fresh, "tired": self.start_grade.tired}
        return by_fatigue.get(fatigue, self.start_grade.exhausted)

    def quality(self, quality: str) -> Quality:
        return pick(self.qualities, quality, "qualities")

    def quality_die(self, quality: str) -> int:
        return self.quality(quality).die

    def panic_triggers(self, quality: str) -> tuple[str, ...]:
        return tuple(self.quality(quality).panic_triggers)

    def threat_rows(self) -> tuple[str, ...]:
        return tuple(sorted(self.threats))

    def threat_kind(self, row: str) -> str:
        """``base`` (the highest applies), ``plus`` (adds), ``plus_each`` (adds per count) or ``trigger``."""
        return pick(self.threats, row, "threats").kind

    def threat(self, row: str, motivation: str) -> int | None:
        """The row's threat at this motivation; None where the table says NTR (no test required)."""
        if row not in self.threats:
            raise InvalidInputError(f"unknown threat row {row!r}: one of {', '.join(self.threat_rows())}")
        found = self.threats[row]
        by_motivation = {"low": found.low, "medium": found.medium, "high": found.high}
        raw = pick(by_motivation, motivation, f"threats.{row}")
        return None if raw == NTR else int(raw)

    def reaction_threat(self, action: str, grade: str) -> int:
        reaction = pick(self.reactions, action, "reactions")
        if action == "close_combat":
            by_grade = {"confident": reaction.confident, "steady": reaction.steady, "shaken": reaction.shaken}
            found = pick(by_grade, grade, "reactions.close_combat")
        else:
            found = reaction.threat
        if found is None:
            raise InvalidInputError(f"the rule tables have no threat for the reaction {action!r} at {grade!r}")
        return found

    def reaction_actions(self) -> tuple[str, ...]:
        return tuple(sorted(self.reactions))

    def psi_die(self, rank: str) -> int:
        return pick(self.psi.ranks, rank, "psi.ranks")

    def psi_threshold(self, effect: str) -> int:
        return pick(self.psi.effects, effect, "psi.effects").at_least

    def psi_effects(self) -> tuple[str, ...]:
        return tuple(sorted(self.psi.effects))

    def allowed(self, grade: str) -> tuple[str, ...] | None:
        """The actions a unit at ``grade`` may take (R3-3), or None where any order goes (§0.3)."""
        limited = {"broken": self.grades.broken, "routed": self.grades.routed}.get(grade)
        return tuple(limited.allowed) if limited is not None else None
