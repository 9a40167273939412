"""The disorder-marker tables (``tables.toml``) as a model: the rules read its attributes; base values plus house
rules."""

from typing import Annotated, Literal

from campaign.i18n import N_
from campaign.rulesets.inputs import terms_listed
from campaign.rulesets.tables import Count, Dice, Flag, Number, RuleTables, Section, Word, bounded, one_of, some_of
from events.errors import InvalidInputError

COUNTED = ("killed", "captured", "fled")
"""What an encounter battle's count may take (R3-12): models killed, captured, and those of units that fled."""
Percentage = Annotated[Number, bounded(N_("a percentage of the force's points (0–100)"), lambda n: 0 <= n <= 100)]


class Markers(Section):
    flees_at: Annotated[Number, bounded(N_("at least 1"), lambda n: n >= 1)]
    permanent_at_half: Flag
    cleared_after_battle: Flag


class Check(Section):
    dice: Dice
    pass_at: Number
    disaster_at_most: Number
    close_order: Number
    officer_near: Number
    per_extra_cause: Number
    any_marker_flees: Flag


class Causes(Section):
    names: list[Word]
    once_per_game: list[Word]
    friend_removed_within: Number
    friend_removed_window: Annotated[Literal["turn", "battle"], one_of("turn", "battle")]


class Retreat(Section):
    models_per_full_inch: Number


class Rally(Section):
    dice: Dice
    pass_at: Number
    close_order: Number
    officer_near: Number
    removes: Annotated[Literal["all", "one"], one_of("all", "one", said=N_("'all' (every removable marker) or 'one'"))]
    """``all`` (every removable marker) or ``one``."""
    failed_retreats: Flag
    per_turn: Count


class Force(Section):
    points_lost: Annotated[Literal["per_model", "removed_units_only"], one_of("per_model", "removed_units_only")]
    half_at: Percentage
    flees_over: Percentage
    flees_at_exactly: Flag


class Encounter(Section):
    counts: Annotated[list[Word], some_of(*COUNTED)]
    tie: Annotated[Literal["draw"], one_of("draw")]


class Allies(Section):
    own_officer_makes_force: Flag


class Measure(Section):
    decimals: Annotated[Literal[0, 1], one_of(0, 1)]
    within_inclusive: Flag


class Glory(Section):
    won: Number
    drawn: Number
    lost: Number
    per_objective: Number
    per_enemy_unit_removed: Number
    per_own_unit_fled: Number
    officer_removed: Number


class Career(Section):
    ranks: list[tuple[Number, Word]]


class Tables(RuleTables):
    """The tables in force at one point of a campaign."""

    markers: Markers
    check: Check
    causes: Causes
    retreat: Retreat
    rally: Rally
    discipline: dict[str, Number]
    force: Force
    encounter: Encounter
    allies: Allies
    measure: Measure
    glory: Glory
    career: Career

    @property
    def troop_types(self) -> tuple[str, ...]:
        return tuple(sorted(self.discipline))

    def discipline_of(self, troops: str) -> int:
        if troops not in self.discipline:
            raise InvalidInputError.saying(
                "unknown troop type {troops!r}: choose one of {types}",
                troops=troops,
                types=terms_listed("disorder", "troops", self.troop_types),
            )
        return self.discipline[troops]

    @property
    def cause_names(self) -> tuple[str, ...]:
        return tuple(self.causes.names)

    def rank(self, glory: int) -> str:
        """The highest career rank whose Glory threshold ``glory`` reaches (the first rank below them all)."""
        ranks = sorted(self.career.ranks, key=lambda r: int(r[0]))
        found = str(ranks[0][1])
        for threshold, name in ranks:
            if glory >= int(threshold):
                found = str(name)
        return found
