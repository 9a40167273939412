"""A house rule on the threat table (§0.4–0.5) must be a threat level the morale test can use: NTR or 0 and up.
The table has no negative cell and its "+" rows add to the target (LV + threat); a negative "threat" would make a
unit braver the more of its men lie unverified, which no row of the table means."""

from __future__ import annotations

import pytest

from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.plugin import PLUGIN as FIGHTING_SPIRIT
from events.errors import InvalidInputError
from tests.acceptance.conftest import FsTable


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("threats.unverified_casualty.low", -5),
        ("threats.unverified_casualty.low", -1),
        ("threats.leader_lost.medium", -1),
    ],
)
def test_a_negative_threat_level_is_refused_in_words_and_nothing_is_appended(
    table: FsTable, path: str, value: int
) -> None:
    before = table.log_length()
    with pytest.raises(InvalidInputError, match=r"threat level: NTR \(no test\) or 0 and up"):
        table.ledger.execute(table.info, fs.HouseRule.build(path=path, value=value))
    assert table.log_length() == before


@pytest.mark.parametrize(
    ("path", "value"), [("threats.unverified_casualty.low", 0), ("threats.unverified_casualty.low", 2)]
)
def test_a_threat_level_of_zero_or_more_is_accepted(table: FsTable, path: str, value: int) -> None:
    # 0 is the edge (Medium's own cell for this row); 2 is the A-1 text reading.
    before = table.log_length()
    table.ledger.execute(table.info, fs.HouseRule.build(path=path, value=value))
    assert table.log_length() > before
    _, tables = table.ledger.in_force(table.info, FIGHTING_SPIRIT)
    assert tables.threat("unverified_casualty", "low") == value


def test_a_threat_row_kind_must_be_one_the_test_knows(table: FsTable) -> None:
    with pytest.raises(InvalidInputError, match=r"threats\.artillery\.kind is one of base, plus, plus_each, trigger"):
        table.ledger.execute(table.info, fs.HouseRule.build(path="threats.artillery.kind", value="sometimes"))
    table.ledger.execute(
        table.info, fs.HouseRule.build(path="threats.artillery.kind", value="base")
    )  # a known kind is accepted


@pytest.mark.parametrize("value", [0, 3, 5, 20])
def test_a_quality_die_off_the_ladder_is_refused(table: FsTable, value: int) -> None:
    # §0.2: the quality dice are d4, d6, d8, d10, d12 (the die-step ladder). d0 would leave every test refused;
    # d20 is a die the program rolls, but no quality's, and no step of the ladder reaches it.
    before = table.log_length()
    with pytest.raises(InvalidInputError, match=r"qualities\.regular\.die is a die: one of d4, d6, d8, d10, d12"):
        table.ledger.execute(table.info, fs.HouseRule.build(path="qualities.regular.die", value=value))
    assert table.log_length() == before


@pytest.mark.parametrize("value", [4, 12])
def test_a_quality_die_on_the_ladder_is_accepted_at_both_ends(table: FsTable, value: int) -> None:
    table.ledger.execute(table.info, fs.HouseRule.build(path="qualities.regular.die", value=value))
    _, tables = table.ledger.in_force(table.info, FIGHTING_SPIRIT)
    assert tables.quality_die("regular") == value


def test_another_die_is_one_the_program_rolls(table: FsTable) -> None:
    with pytest.raises(InvalidInputError, match=r"last_stand\.other_die is a die: one of d4, d6, d8, d10, d12, d20"):
        table.ledger.execute(table.info, fs.HouseRule.build(path="last_stand.other_die", value=7))
    table.ledger.execute(
        table.info, fs.HouseRule.build(path="last_stand.other_die", value=20)
    )  # a die the program rolls
