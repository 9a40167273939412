"""A house rule on the threat table (§0.4–0.5) must be a threat level the morale test can use: NTR or 0 and up.
The table has no negative cell and its "+" rows add to the target (LV + threat); a negative "threat" would make a
unit braver the more of its men lie unverified, which no row of the table means."""

from __future__ import annotations

import pytest

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
        table.fs.house_rule(table.info, path, value)
    assert table.log_length() == before


@pytest.mark.parametrize(
    ("path", "value"), [("threats.unverified_casualty.low", 0), ("threats.unverified_casualty.low", 2)]
)
def test_a_threat_level_of_zero_or_more_is_accepted(table: FsTable, path: str, value: int) -> None:
    # 0 is the edge (Medium's own cell for this row); 2 is the A-1 text reading.
    before = table.log_length()
    table.fs.house_rule(table.info, path, value)
    assert table.log_length() > before
    _, tables = table.fs.state(table.info)
    assert tables.threat("unverified_casualty", "low") == value


def test_a_threat_row_kind_must_be_one_the_test_knows(table: FsTable) -> None:
    with pytest.raises(InvalidInputError, match=r"threats\.artillery\.kind is one of base, plus, plus_each, trigger"):
        table.fs.house_rule(table.info, "threats.artillery.kind", "sometimes")
    table.fs.house_rule(table.info, "threats.artillery.kind", "base")  # a known kind is accepted
