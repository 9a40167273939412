"""The disorder-marker tables (``tables.toml``) as a model: the rules read its attributes; base values plus house
rules."""

from campaign.rulesets.tables import Flag, Number, RuleTables, Section, Word
from events.errors import InvalidInputError


class Markers(Section):
    flees_at: Number
    permanent_at_half: Flag
    cleared_after_battle: Flag


class Check(Section):
    dice: Word
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
    friend_removed_window: Word


class Retreat(Section):
    models_per_full_inch: Number


class Rally(Section):
    dice: Word
    pass_at: Number
    close_order: Number
    officer_near: Number
    removes: Word
    failed_retreats: Flag
    per_turn: Number


class Force(Section):
    points_lost: Word
    half_at: Number
    flees_over: Number
    flees_at_exactly: Flag


class Encounter(Section):
    counts: list[Word]
    tie: Word


class Allies(Section):
    own_officer_makes_force: Flag


class Measure(Section):
    decimals: Number
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
            raise InvalidInputError(f"unknown troop type {troops!r}: choose one of {', '.join(self.troop_types)}")
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
