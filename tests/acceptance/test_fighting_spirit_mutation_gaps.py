"""RULES.md §0.5's threat table, §0.7's reaction threats and §0.10's psi dice, cell by cell, where the mutation run
(scripts/mutation.py) found cells no test read (the psi-strike's +3 at Medium, a prone unit in cover, the
non-psi Barf-jat's d4). Each expected value is RULES.md's table. And a unit that surrendered, lost to the campaign."""

from __future__ import annotations

import pytest

from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.commands import Deployment
from campaign.rulesets.fighting_spirit.plugin import PLUGIN as FIGHTING_SPIRIT
from campaign.rulesets.fighting_spirit.rules import threat_level
from campaign.rulesets.fighting_spirit.tables import Tables
from campaign.tables import base_values
from events.errors import InvalidInputError
from tests.acceptance.conftest import FsTable, dice

T = Tables.of(base_values("fighting_spirit"))

# §0.5: Low, Medium, High (None = NTR, the row does not call for a test).
BASE = {
    "first_suppression": (2, 1, None),
    "casualties": (2, 1, None),
    "lost_more_than_left": (4, 3, 1),
    "leader_lost": (4, 3, 2),
}
PLUS = {"artillery": (2, 1, 0), "abandoned_wounded": (3, 2, 1)}
MOTIVATIONS = ("low", "medium", "high")


@pytest.mark.parametrize("row", sorted(BASE))
@pytest.mark.parametrize("m", range(3))
def test_each_base_row_of_the_threat_table(row: str, m: int) -> None:
    threat = threat_level(T, MOTIVATIONS[m], [row])
    assert threat.base == BASE[row][m]
    assert threat.total == (BASE[row][m] or 0)


@pytest.mark.parametrize("row", sorted(PLUS))
@pytest.mark.parametrize("m", range(3))
def test_each_plus_row_adds_to_the_leader_lost_row(row: str, m: int) -> None:
    # A "+" row adds to the highest base row: leader lost (4/3/2) plus the row's cell.
    assert threat_level(T, MOTIVATIONS[m], ["leader_lost", row]).total == BASE["leader_lost"][m] + PLUS[row][m]  # type: ignore[operator]


@pytest.mark.parametrize(("m", "each"), [(0, 1), (1, 0), (2, 0)])
def test_unverified_casualties_add_per_casualty(m: int, each: int) -> None:
    # Low +1 each (ex.3), Medium +0 (ex.4), High NTR read as +0: three unverified casualties.
    counts = {"unverified_casualty": 3}
    threat = threat_level(T, MOTIVATIONS[m], ["leader_lost", "unverified_casualty"], counts)
    assert threat.total == BASE["leader_lost"][m] + 3 * each  # type: ignore[operator]


@pytest.mark.parametrize("motivation", MOTIVATIONS)
def test_a_psi_strike_is_a_test_at_plus_3_at_every_motivation(motivation: str) -> None:
    threat = threat_level(T, motivation, ["psi_strike"])
    assert threat.total == 3
    assert "psi_strike +3" in threat.parts


@pytest.mark.parametrize(
    ("action", "threat"),
    [("go_prone_open", 2), ("go_prone_cover", 0), ("move_while_prone", 2), ("leave_cover_shaken", 2)],
)
def test_reaction_threats(action: str, threat: int) -> None:
    # §0.7: motivation does not change them; the grade only matters for close combat.
    assert T.reaction_threat(action, "confident") == threat


@pytest.mark.parametrize(("rank", "die"), [("none", 4), ("pupil", 6), ("master", 8), ("renowned", 10), ("legend", 12)])
def test_psi_die_by_rank(rank: str, die: int) -> None:
    assert T.psi_die(rank) == die


def test_a_unit_that_surrendered_is_lost_to_the_campaign(table: FsTable) -> None:
    # §0.3/§5 [INF] campaign.surrendered_men_lost: a unit that surrendered is gone after the battle (0 men); a unit
    # that only fought keeps its men. Otlok Squad (untrained, LV 3) at Low: leader lost 4 + 3 = 7, a 1 on the die
    # is half or less: −2 grades, twice → routed; an enemy within 10" (≤ 12"): it surrenders.
    table.muster("1st Squad", quality="regular", leadership=2, size=8)
    table.muster("Otlok Squad", side="Otlok", quality="untrained", leadership=3, size=10)
    table.battle(
        {"Keno": "medium", "Otlok": "low"}, *(Deployment(unit=n, fatigue="fresh") for n in ("1st Squad", "Otlok Squad"))
    )
    table.ledger.execute(table.info, fsb.Morale.build(unit_name="Otlok Squad", rows=["leader_lost"]), table=dice(1))
    table.ledger.execute(table.info, fsb.Morale.build(unit_name="Otlok Squad", rows=["leader_lost"]), table=dice(1))
    table.ledger.execute(table.info, fsb.Surrender.build(unit_name="Otlok Squad", enemy_within=10))
    assert table.unit_state("Otlok Squad").removed == "surrendered"
    table.ledger.execute(table.info, fs.EndBattle.build(result="Otlok surrendered", winner="Keno"))
    state, _ = table.ledger.in_force(table.info, FIGHTING_SPIRIT)
    men = {name: state.records[state.unit_by_name(name).unit_id].men for name in ("1st Squad", "Otlok Squad")}  # type: ignore[union-attr]
    assert men == {"1st Squad": 8, "Otlok Squad": 0}


def test_a_transfer_between_the_only_two_units_of_a_campaign(table: FsTable) -> None:
    # §5: men transferred leave one unit and join the other, whatever else the campaign holds (here nothing).
    table.muster("Alpha", quality="regular", leadership=2, size=8)
    table.muster("Bravo", quality="regular", leadership=2, size=6)
    table.ledger.execute(table.info, fs.Transfer.build(from_unit="Bravo", to_unit="Alpha", men=2))
    state, _ = table.ledger.in_force(table.info, FIGHTING_SPIRIT)
    men = {n: state.records[state.unit_by_name(n).unit_id].men for n in ("Alpha", "Bravo")}  # type: ignore[union-attr]
    assert men == {"Alpha": 10, "Bravo": 4}


@pytest.mark.parametrize(("distance", "allowed"), [(12, True), (13, False)])
def test_psi_out_of_sight_reaches_only_the_first_band(table: FsTable, distance: int, allowed: bool) -> None:
    # §0.10: range bands of 12"; band 1 (up to 12"): any target; later bands: line of sight only.
    table.muster("Barf-jat Master", quality="regular", leadership=2, size=1, psi_rank="master")
    table.muster("Otlok Squad", side="Otlok", quality="untrained", leadership=3, size=10)
    table.battle(
        {"Keno": "medium", "Otlok": "low"},
        *(Deployment(unit=n, fatigue="fresh") for n in ("Barf-jat Master", "Otlok Squad")),
    )

    def strike() -> object:
        return table.ledger.execute(
            table.info,
            fsb.Psi.build(
                psion_name="Barf-jat Master",
                target_name="Otlok Squad",
                effect="psi_detection",
                distance=distance,
                in_sight=False,
            ),
            table=dice(1),
        )

    if allowed:
        strike()
    else:
        with pytest.raises(InvalidInputError, match="sight"):
            strike()
