"""The five-grade tables (``tables.toml``) as a model: the rules read its attributes; base values plus house
rules."""

from typing import Annotated, Literal

from campaign.rulesets.tables import (
    Count,
    Divisor,
    Flag,
    Ntr,
    Number,
    RuleTables,
    Section,
    Word,
    bounded,
    one_of,
    pick,
    some_of,
)
from events.dice.notation import SIDES
from events.errors import InvalidInputError, Words

MOTIVATIONS = ("low", "medium", "high")
FATIGUES = ("fresh", "tired", "exhausted")
NTR = "NTR"
LADDER = (4, 6, 8, 10, 12)
"""The die-step ladder d4 < d6 < d8 < d10 < d12 (§0.2): the quality dice, and the dice a shift can reach."""

ACTION_WORDS = {
    "move_to_edge": Words("move toward its own edge"),
    "move_to_cover": Words("move to cover"),
    "leave_cover_withdraw": Words("leave cover to withdraw"),
    "fire_back": Words("fire (or attack by psi) only at an enemy that fired on it this turn"),
    "move_while_prone": Words("take the move-while-prone test"),
    "go_prone": Words("go prone"),
    "get_up": Words("get up"),
    "leave_cover": Words("leave cover"),
    "close_combat": Words("enter close combat"),
    "fire": Words("fire"),
    "psi": Words("make a psi action"),
    "rally": Words("rally a unit"),
    "reorganise": Words("check its wounded (Reorganise)"),
}
"""The actions the ledger records a unit taking, as ``grades.*.allowed`` and ``panic.allowed_actions`` name them,
in words said in the reader's language where a refusal names what a unit may do."""

FIRE_KINDS = ("small_arms", "artillery", "air", "close_combat")
"""What an attack on a unit is: fire of three kinds (R3-4), or an assault."""

Actions = Annotated[list[Word], some_of(*ACTION_WORDS)]
Threat = Annotated[
    Number | Ntr,
    bounded(
        "a threat level: NTR (no test) or 0 and up",
        lambda v: v == NTR or v >= 0,
        "a threat adds to the morale test's target (LV + threat, §0.4) and no row of the table lowers it (§0.5)",
    ),
]
"""A threat row's cell (§0.4–0.5): NTR, or a level added to the test's target."""


def _dice(sides: tuple[int, ...]) -> str:
    return f"a die: one of {', '.join(f'd{n}' for n in sides)} (give its sides, e.g. 8)"


Die = Annotated[Number, bounded(_dice(SIDES), SIDES.__contains__)]
"""A die the program rolls, by its sides."""
LadderDie = Annotated[Number, bounded(_dice(LADDER), LADDER.__contains__)]
"""A quality's die: one of the ladder's (§0.2); d0 would leave every test of those units refused."""


class Allowed(Section):
    allowed: Actions


class Grades(Section):
    order: list[Word]
    broken: Allowed
    routed: Allowed


class Turn(Section):
    activations_per_unit: Count


class StartGrade(Section):
    fresh: Word
    tired: Word
    exhausted: Word
    scenario_grades: list[Word]


class Quality(Section):
    die: LadderDie
    panic_triggers: list[Word]


class ThreatRow(Section):
    kind: Annotated[Literal["base", "plus", "plus_each", "trigger"], one_of("base", "plus", "plus_each", "trigger")]
    """``base`` (the highest applies), ``plus`` (adds), ``plus_each`` (adds per count) or ``trigger``."""
    low: Threat
    medium: Threat
    high: Threat
    counts: Annotated[Literal["battle", "attack"], one_of("battle", "attack")] | None = None


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
    tests_per_activation: Count
    allowed_actions: Actions
    fired_on_kinds: Annotated[list[Word], some_of(*FIRE_KINDS)]


class Test(Section):
    two_grades_slack: Number


class LastStand(Section):
    keno_guard_die: Die
    other_die: Die
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
    decimals: Annotated[Literal[0, 1], one_of(0, 1)]
    within_inclusive: Flag


class PsiRules(Section):
    band_inches: Divisor
    android_resist_die: Die
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
    aimed_small_arms_die: Die


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
            raise InvalidInputError.saying(
                "fatigue must be one of {fatigues}, not {fatigue!r}", fatigues=", ".join(FATIGUES), fatigue=fatigue
            )
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
            raise InvalidInputError.saying(
                "unknown threat row {row!r}: one of {rows}", row=row, rows=", ".join(self.threat_rows())
            )
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
            raise InvalidInputError.saying(
                "the rule tables have no threat for the reaction {action!r} at {grade!r}", action=action, grade=grade
            )
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
