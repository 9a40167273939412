"""The GURPS Mass Combat tables (``tables.toml``) as a model: the rules read its attributes; base values plus
house rules."""

import re
from collections.abc import Sequence
from typing import Annotated

from campaign.i18n import N_
from campaign.rulesets.tables import (
    Dice,
    Divisor,
    Flag,
    Keyed,
    Money,
    Number,
    RuleTables,
    Section,
    Thousandths,
    Word,
    bounded,
    pick,
)

QUALITIES = ("inexperienced", "green", "average", "seasoned", "veteran", "elite")

ARMOUR = re.compile(r"DR(?:/([1-9][0-9]*))?")
"""How DR counts against a damage row: all of it (``DR``), or a fraction (``DR/2``)."""


class QualityRow(Section):
    roll_from: Number
    morale: Number
    experience_from: Number
    ts_pct: Number
    reroll_when_raised: Flag


class Quality(Keyed):
    rows: dict[str, QualityRow]
    when_unstated: Word


class Morale(Section):
    irregular_inexperienced: Number
    leadership_pivot: Number
    leadership_step: Divisor
    veteran_pay_floor: Number
    ts_pct_per_morale: Number
    exempt_troops: list[Word]


class CommanderRow(Section):
    roll_from: Number
    skill: Number


class TsRules(Section):
    fine_weapons: Number
    irregular_divisor: Divisor
    crew_alone: Number
    super_strength_st: Number
    floor: Number
    floor_after_armour: Flag


class Ts(Section):
    armour: dict[str, Number]
    mount: dict[str, Number]
    ranged: dict[str, Number]
    special: dict[str, Number]
    chariots: dict[str, Word]
    rules: TsRules


class CatastropheTable(Section):
    none_to: Number


class CatastropheEffect(Section):
    """What a catastrophe roll does (§2.8): a field it does not name does not happen."""

    strategy: Number | None = None
    enemy_ts_pct: Number | None = None
    morale_all: Number | None = None
    atrocity: Flag | None = None
    defection: Flag | None = None
    morale_unit: Number | None = None
    halve_strategy: Flag | None = None


class CatastropheRules(Section):
    es_per_point: Divisor
    major_unit_ts_pct: Number
    lasting: list[Number]
    lasting_reaches_later_units: Flag
    atrocity_roll: Word
    defection_goes: Word
    major_unit_pick: Word
    no_major_unit: Word


class Catastrophe(Section):
    table: CatastropheTable
    effects: dict[str, CatastropheEffect]
    rules: CatastropheRules


class AlternativesRow(Section):
    paths: list[Word]


class Pc(Section):
    tactics_default_iq_minus: Number
    combat_reflexes: Number
    danger_sense: Number
    risk_min: Number
    risk_max: Number
    survival_cap: Number
    second_roll_per_margin: Divisor
    second_roll_routed: Number
    second_roll_when_unit_routs: Flag
    luck_rerolls_survival: Flag
    knocked_out_unit_leader_as: Number
    knocked_out_army_leader_as: Number


class Survival(Section):
    critical_success_at_most: Number
    unhurt_made_by: Number
    one_hit_made_by: Number
    column_a_failed_by: Number
    column_b_failed_by: Number
    column_c_failed_by: Number
    column_d_failed_by: Number


class DamageRow(Section):
    """One tech level's damage dice by column, and how armour counts against them."""

    a: Dice
    b: Dice
    c: Dice
    d: Dice
    armour: Annotated[Word, bounded(N_("DR for the whole of it, or DR/2, DR/5, … for a fraction"), ARMOUR.fullmatch)]


class Damage(Keyed):
    """The wounds by column, and the damage rows by tech level (``tl0`` …)."""

    rows: dict[str, DamageRow]

    wounds: dict[
        str, Annotated[Number, bounded(N_("the wounds a damage column gives: at least one wound"), lambda n: n >= 1)]
    ]


class GloryCriticalFailure(Section):
    always_from: Number
    also_on: Number
    also_up_to_target: Number
    over_target_by: Number


class GloryCriticalSuccess(Section):
    always_up_to: Number
    from_target: list[tuple[Number, Number]]


class Glory(Section):
    crit_rep_permanent: Number
    crit_rep_temporary: Number
    made_7_rep: Number
    failed_4_rep: Number
    failed_7_rep: Number
    made_10_counts_as: Word
    cap_at_16: Flag
    strategy_unit_leader: list[Number]
    army_leader_shift: Number
    automatic_failure_row: Word
    demotion_roll_from: Word
    demotion_at_most: Word
    critical_failure: GloryCriticalFailure
    critical_success: GloryCriticalSuccess


class TsRatio(Section):
    steps: list[tuple[Thousandths, Number]]
    beyond_cap_per_ten: Number
    tl_lead_for_beyond_cap: Number


class Positions(Keyed):
    """Each position's modifier by its name, and the starred ones."""

    rows: dict[str, Number]

    starred: list[Word]
    starred_vs_artillery: Number


class Circumstances(Section):
    home_soil: Number
    home_soil_not_with: list[Word]


class Tl(Section):
    bonus_over_difference: Number


class Special(Section):
    steps: list[tuple[Thousandths, Number]]
    none_counts_as: Thousandths


class Results(Section):
    open_field: list[tuple[Number, Word]]
    defender_wins: list[tuple[Number, Word]]
    attacker_wins: list[tuple[Number, Word]]
    retreat_fail_by: Number
    nowhere_to_go_bonus: Number
    tactics_under_men: Number
    tactics_counts: Word
    next_day_morale: Number
    surrender_casualty_row: Word
    surrendered_leave_roster: Flag


class Casualties(Section):
    offset_base: Number
    offset_per_row: Number
    offset_divisor: Divisor
    row_min: Number
    row_max: Number
    armour_heavy: Number
    armour_medium: Number
    armour_light: Number
    dead_divisor: Divisor
    wounded_return_rest_base: Number
    wounded_return_march: Number


class Reaction(Section):
    bands: list[tuple[Number, Word]]


class Extraordinary(Section):
    points_pm: list[tuple[Number, Thousandths]]
    per_ten_beyond: Thousandths
    rounding: Word
    recon_per_points: Divisor
    recon_max: Number
    ts_per_point: Number


class Economy(Section):
    pay_pct_of_cost: Number
    upkeep_soldier: Money
    upkeep_mounted: Money
    bonus_pay_1: Number
    bonus_pay_2: Number
    missed_first: Number
    missed_later: Number
    paid_restores_every: Divisor
    conscript_paid: Number
    conscript_unpaid: Number
    strip_fraction_divisor: Divisor
    strip_sale_pct: Number
    strip_cavalry_divisor: Number
    month_days: Number
    arrears_counted_in: Word
    year_days: Divisor
    clear_victory_from: Number
    pay_quality_pct: dict[str, Number]
    yrth: dict[str, Money]
    yrth_missile: dict[str, Money]


class Healing(Section):
    magic_healers_per_wounded: Number
    fast_pct: Number
    slow_pct: Number


class Training(Section):
    inexperienced_months: Number
    green_months: Number
    months_add_up: Flag


class ExtraordinaryModifiers(Section):
    mana_low_pct: Number
    mana_normal_pct: Number
    mana_very_high_pct: Number
    power_stone_capacity: Divisor


class Treason(Section):
    fail: Number
    success: Number


class SameEnemy(Section):
    beat: Number
    lost: Number


NO_EFFECT = CatastropheEffect()


class Tables(RuleTables):
    """The tables in force at one point of a campaign."""

    quality: Quality
    morale: Morale
    commander: dict[str, CommanderRow]
    ts: Ts
    catastrophe: Catastrophe
    alternatives: dict[str, AlternativesRow]
    pc: Pc
    survival: Survival
    damage: Damage
    glory: Glory
    ts_ratio: TsRatio
    positions: Positions
    circumstances: Circumstances
    tl: Tl
    special: Special
    results: Results
    casualties: Casualties
    reaction: Reaction
    extraordinary: Extraordinary
    economy: Economy
    healing: Healing
    training: Training
    extraordinary_modifiers: ExtraordinaryModifiers
    treason: Treason
    same_enemy: SameEnemy

    def catastrophe_effect(self, result: int) -> CatastropheEffect:
        """What catastrophe roll ``result`` does (none for a roll the table has no row for)."""
        return self.catastrophe.effects.get(str(result), NO_EFFECT)

    def quality_row(self, quality: str) -> QualityRow:
        """The row of troop quality ``quality`` (§2.3)."""
        return pick(self.quality.rows, quality, "quality")

    def step_bonus(self, steps: Sequence[tuple[int, int]], ratio_pm: int) -> int:
        """The bonus of the highest step (per-mille threshold, bonus) that ``ratio_pm`` reaches."""
        bonus = 0
        for threshold, value in steps:
            if ratio_pm >= threshold:
                bonus = int(value)
        return bonus

    def band(self, bands: Sequence[tuple[int, str]], score: int) -> str:
        """The label of the highest band (low end, label) that ``score`` reaches; the lowest band below it."""
        found = str(bands[0][1])
        for low, label in sorted(bands, key=lambda b: int(b[0])):
            if score >= int(low):
                found = str(label)
        return found
