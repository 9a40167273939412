"""Each table value's bounds are declared on its field's type (``campaign.rulesets.tables.bounded``, ``one_of``,
``some_of``): a house rule is held to its field's own declaration, on both sides of each edge the rules set, and a
value outside them is refused in the words that say the bounds ("``path`` is …, not ``value``").

The edges, from RULES.md: a quality's die is a step of the ladder d4 … d12 (§0.2), any other die one the program
rolls; a threat level is NTR or 0 and up (§0.4–0.5); a threat row's kind is one of the four the test knows; a count
of activations, panic tests or rallies is at least 1 (R3-1 … R3-8, R3-11); a force's half and flight thresholds are
percentages 0–100 (§1.8); a unit flees at 1 marker at the least (§1.2); a damage column gives at least one wound
and its armour is DR or DR/n (§2.9); a value the rules divide by is at least 1 (R2-36's house rules)."""

from __future__ import annotations

import pytest

from campaign.rulesets.disorder.tables import Tables as DisorderTables
from campaign.rulesets.fighting_spirit.tables import Tables as FiveGradeTables
from campaign.rulesets.grimdark.tables import Tables as GrimdarkTables
from campaign.rulesets.mass_combat.tables import Tables as MassCombatTables
from campaign.rulesets.tables import RuleTables, Value, check_override
from campaign.tables import base_values
from events.errors import InvalidInputError

TABLES: dict[str, RuleTables] = {
    "fighting_spirit": FiveGradeTables.of(base_values("fighting_spirit")),
    "disorder": DisorderTables.of(base_values("disorder")),
    "mass_combat": MassCombatTables.of(base_values("mass_combat")),
    "grimdark": GrimdarkTables.of(base_values("grimdark")),
}

KEPT = [
    ("fighting_spirit", "qualities.regular.die", 4),
    ("fighting_spirit", "qualities.regular.die", 12),
    ("fighting_spirit", "last_stand.other_die", 20),
    ("fighting_spirit", "threats.casualties.low", 0),
    ("fighting_spirit", "threats.casualties.low", "NTR"),
    ("fighting_spirit", "threats.casualties.kind", "trigger"),
    ("fighting_spirit", "threats.lost_more_than_left.counts", "attack"),
    ("fighting_spirit", "measure.decimals", 0),
    ("fighting_spirit", "measure.decimals", 1),
    ("fighting_spirit", "turn.activations_per_unit", 1),
    ("fighting_spirit", "panic.tests_per_activation", 1),
    ("fighting_spirit", "grades.broken.allowed", ["move_to_edge", "fire_back"]),
    ("fighting_spirit", "grades.broken.allowed", []),
    ("fighting_spirit", "panic.fired_on_kinds", ["air"]),
    ("fighting_spirit", "psi.rules.band_inches", 1),
    ("disorder", "rally.removes", "one"),
    ("disorder", "markers.flees_at", 1),
    ("disorder", "force.points_lost", "removed_units_only"),
    ("disorder", "force.half_at", 0),
    ("disorder", "force.flees_over", 100),
    ("disorder", "causes.friend_removed_window", "battle"),
    ("disorder", "encounter.tie", "draw"),
    ("disorder", "encounter.counts", ["killed", "fled"]),
    ("disorder", "measure.decimals", 1),
    ("disorder", "rally.per_turn", 1),
    ("mass_combat", "damage.wounds.a", 1),
    ("mass_combat", "damage.tl0.armour", "DR/2"),
    ("mass_combat", "damage.tl0.armour", "DR"),
    ("mass_combat", "damage.tl0.a", "3d6+1"),
    ("mass_combat", "economy.year_days", 1),
    # money and ratios have bounds of their own, far past a modifier's: a GM may raise the Yrth price of heavy
    # cavalry ($14,000, R2-30) or count "none on the other side" as 10:1 (special-unit superiority, §2.10)
    ("mass_combat", "economy.yrth.HC", 15_000),
    ("mass_combat", "economy.yrth.HC", 10_000_000),
    ("mass_combat", "economy.upkeep_mounted", 0),
    ("mass_combat", "special.none_counts_as", 10_000),
    ("mass_combat", "extraordinary.per_ten_beyond", 0),
    ("mass_combat", "tl.bonus_over_difference", 1000),
    ("mass_combat", "tl.bonus_over_difference", -1000),
    ("disorder", "check.dice", "3d6"),
    ("grimdark", "test.dice", "d6"),
    ("grimdark", "level_up.every_xp", 1),
    ("grimdark", "hero_level_up.every_xp", 1),
    ("grimdark", "underdog.per_points", 1),
]

REFUSED = [
    ("mass_combat", "economy.yrth.HC", -1, "is an amount of $0 to $10,000,000, not -1"),
    ("mass_combat", "economy.yrth.HC", 10_000_001, "is an amount of $0 to $10,000,000, not 10000001"),
    ("mass_combat", "special.none_counts_as", -1, "is an amount in thousandths (1000 is one) from 0 to 1,000,000"),
    ("mass_combat", "tl.bonus_over_difference", 1001, "is a number from −1,000 to 1,000, not 1001"),
    ("mass_combat", "tl.bonus_over_difference", -1001, "is a number from −1,000 to 1,000, not -1001"),
    ("fighting_spirit", "qualities.regular.die", 3, "is a die: one of d4, d6, d8, d10, d12 "),
    ("fighting_spirit", "qualities.regular.die", 20, "is a die: one of d4, d6, d8, d10, d12 "),
    ("fighting_spirit", "last_stand.other_die", 7, "is a die: one of d4, d6, d8, d10, d12, d20, d100"),
    ("fighting_spirit", "threats.casualties.low", -1, "is a threat level: NTR (no test) or 0 and up, not -1; "),
    ("fighting_spirit", "threats.casualties.kind", "sometimes", "is one of base, plus, plus_each, trigger"),
    ("fighting_spirit", "threats.lost_more_than_left.counts", "turn", "is one of battle, attack, not 'turn'"),
    ("fighting_spirit", "measure.decimals", 2, "is one of 0, 1, not 2"),
    ("fighting_spirit", "measure.decimals", True, "is one of 0, 1, not True"),
    ("fighting_spirit", "turn.activations_per_unit", 0, "is a count of 1 or more, not 0"),
    ("fighting_spirit", "panic.tests_per_activation", 0, "is a count of 1 or more, not 0"),
    ("fighting_spirit", "grades.broken.allowed", ["fire", "dance"], "is a list of some of move_to_edge, move_to_cover"),
    (
        "fighting_spirit",
        "panic.fired_on_kinds",
        ["laser"],
        "is a list of some of small_arms, artillery, air, close_combat (laser: unknown)",
    ),
    ("fighting_spirit", "psi.rules.band_inches", 0, "is a step the rules divide by: at least 1, not 0"),
    ("disorder", "rally.removes", "some", "is 'all' (every removable marker) or 'one', not 'some'"),
    ("disorder", "markers.flees_at", 0, "is at least 1, not 0"),
    ("disorder", "force.points_lost", "per_unit", "is one of per_model, removed_units_only"),
    ("disorder", "force.half_at", -1, "is a percentage of the force's points (0–100), not -1"),
    ("disorder", "force.flees_over", 101, "is a percentage of the force's points (0–100), not 101"),
    ("disorder", "causes.friend_removed_window", "round", "is one of turn, battle, not 'round'"),
    ("disorder", "encounter.tie", "win", "is one of draw, not 'win'"),
    (
        "disorder",
        "encounter.counts",
        ["killed", "wounded"],
        "is a list of some of killed, captured, fled (wounded: unknown)",
    ),
    ("disorder", "measure.decimals", 2, "is one of 0, 1, not 2"),
    ("disorder", "rally.per_turn", 0, "is a count of 1 or more, not 0"),
    ("mass_combat", "damage.wounds.a", 0, "is the wounds a damage column gives: at least one wound, not 0"),
    ("mass_combat", "damage.tl0.armour", "DR/0", "is DR for the whole of it, or DR/2, DR/5"),
    ("mass_combat", "damage.tl0.armour", "half", "is DR for the whole of it, or DR/2, DR/5"),
    ("mass_combat", "damage.tl0.a", "3x6", "is dice (malformed dice notation '3x6'"),
    ("disorder", "check.dice", "2q6", "is dice (malformed dice notation '2q6'"),
    ("grimdark", "test.dice", "d7", "is dice (d7 is not a die this program rolls"),
    ("mass_combat", "economy.year_days", 0, "is a step the rules divide by: at least 1, not 0"),
    ("grimdark", "level_up.every_xp", 0, "is a step the rules divide by: at least 1, not 0"),
    ("grimdark", "hero_level_up.every_xp", 0, "is a step the rules divide by: at least 1, not 0"),
    ("grimdark", "underdog.per_points", 0, "is a step the rules divide by: at least 1, not 0"),
]


@pytest.mark.parametrize(("ruleset", "path", "value"), KEPT)
def test_a_value_within_its_fields_bounds_is_kept(ruleset: str, path: str, value: Value) -> None:
    check_override(TABLES[ruleset], path, value)


@pytest.mark.parametrize(("ruleset", "path", "value", "words"), REFUSED)
def test_a_value_outside_its_fields_bounds_is_refused_in_words(
    ruleset: str, path: str, value: Value, words: str
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        check_override(TABLES[ruleset], path, value)
    assert f"{path} {words}" in str(refused.value)


def test_tables_toml_out_of_bounds_is_refused_in_the_same_words() -> None:
    values = {**base_values("disorder")}
    values["markers.flees_at"] = type(values["markers.flees_at"])(0, "test")
    with pytest.raises(InvalidInputError, match=r"markers\.flees_at: at least 1"):
        DisorderTables.of(values)
