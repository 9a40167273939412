"""RULES.md §2.9's Glory table, row by row at its edges, where the mutation run (scripts/mutation.py) found the
Reputation of "failed by 7+" untested: made by 7–9 +1 Reputation for 1d−2 months (min 1), made by 4–6 nothing,
failed by 4–6 −1 for 1d−2 months (min 1), failed by 7+ −2 for 1d months."""

from __future__ import annotations

import pytest

from campaign.rulesets.mass_combat.pcs import _glory
from campaign.rulesets.mass_combat.setup import PcInBattle
from campaign.rulesets.mass_combat.tables import Tables
from campaign.tables import base_values
from events.dice import TableDice

T = Tables(base_values("mass_combat"))
PC = PcInBattle(name="Ayla", side="Crimson", weapon=12, risk=0)


def reputation(target: int, faces: tuple[int, ...]) -> list[tuple[int, int]]:
    decision = _glory(T, PC, "b", TableDice(faces, "glory", 0), target)
    return [(f.change, f.months) for f in decision.facts if hasattr(f, "change")]


@pytest.mark.parametrize(
    ("target", "faces", "expected"),
    [
        # target 8, rolled 15 (no critical: 15 − 8 = 7 < 10): failed by 7 → −2 for 1d = 3 months
        (8, (5, 5, 5, 3), [(-2, 3)]),
        # target 9, rolled 15: failed by 6 → −1 for 1d−2 months: a 3 gives 1
        (9, (5, 5, 5, 3), [(-1, 1)]),
        # target 11, rolled 15: failed by 4 → −1; a 2 gives 0 months, raised to the minimum 1
        (11, (5, 5, 5, 2), [(-1, 1)]),
        # target 12, rolled 15: failed by 3 → fought adequately, nothing
        (12, (5, 5, 5), []),
        # target 14, rolled 7 (not a critical: a 7, target below 15): made by 7 → +1 for 1d−2 = 3 months
        (14, (2, 2, 3, 5, 3, 3, 3), [(1, 3)]),
        # target 13, rolled 7: made by 6 → a promotion roll, no Reputation
        (13, (2, 2, 3, 3, 3, 3), []),
    ],
)
def test_glory_reputation_at_each_edge(target: int, faces: tuple[int, ...], expected: list[tuple[int, int]]) -> None:
    assert reputation(target, faces) == expected
