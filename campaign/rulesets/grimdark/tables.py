"""The Grimdark Future tables (``tables.toml``) as a model: the rules read its attributes; base values plus house
rules."""

from campaign.rulesets.tables import Dice, Divisor, Flag, Number, RuleTables, Section, Word, pick

TRAIT_KINDS = ("unit", "injury", "talent")


class Test(Section):
    dice: Dice
    natural_six_passes: Flag
    natural_one_fails: Flag


class Morale(Section):
    fearless_passes_on: Number
    fearless_after_auto_fail: Flag
    fearless_needs_every_model: Flag
    shaken_auto_fails: Flag
    joined_hero_adds: Number
    hero_takes_wounds_last: Flag
    shaken_allowed: list[Word]


class Activation(Section):
    per_round: Number


class Rewards(Section):
    winner_vp: Number
    winner_points: Number
    loser_points: Number
    draw_vp: Number
    draw_points: Number


class Xp(Section):
    not_a_casualty: Number
    killed_unit: Number
    killed_hero: Number
    killed_hero_and_unit: Number


class LevelUp(Section):
    every_xp: Divisor
    points: Number


class Casualty(Section):
    dice: Dice
    dead_on: Number
    talent_on: Number
    talent_xp: Number
    hero_points: Number


class Named(Section):
    names: list[Word]


class Traits(Section):
    unit: Named
    injury: Named
    talent: Named
    morale: dict[str, Number]
    first_test_passes: dict[str, Flag]


class Underdog(Section):
    per_points: Divisor


class Army(Section):
    max_above_lowest: Number
    sell_refund_pct: Number


class Special(Section):
    bonus: Number
    names: list[Word]


class Tables(RuleTables):
    """The tables in force at one point of a campaign."""

    test: Test
    morale: Morale
    activation: Activation
    rewards: Rewards
    xp: Xp
    level_up: LevelUp
    casualty: Casualty
    traits: Traits
    underdog: Underdog
    army: Army
    special: Special
    hero_level_up: LevelUp
    skills: dict[str, Named]

    def trait_names(self, kind: str) -> tuple[str, ...]:
        """The D6 table of ``kind`` traits, face 1 first."""
        tables = {"unit": self.traits.unit, "injury": self.traits.injury, "talent": self.traits.talent}
        return tuple(pick(tables, kind, "traits").names)

    def morale_modifier(self, traits: tuple[str, ...]) -> int:
        return sum(self.traits.morale[t] for t in traits if t in self.traits.morale)

    def first_test_passes(self, traits: tuple[str, ...]) -> bool:
        return any(self.traits.first_test_passes[t] for t in traits if t in self.traits.first_test_passes)

    @property
    def skill_sets(self) -> tuple[str, ...]:
        return tuple(sorted(self.skills))

    def skill_names(self, skill_set: str) -> tuple[str, ...]:
        return tuple(pick(self.skills, skill_set, "skills").names)
