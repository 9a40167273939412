"""One test over every quality die and every target: seeded outcomes match the exact probabilities."""

from __future__ import annotations

import hashlib
import math
from itertools import product

from campaign.rulesets.fighting_spirit.rules import morale_outcome
from events.dice import SeededDice, die

SEED = hashlib.sha256(b"five-grade statistics").digest()
DICE = (4, 6, 8, 10, 12)
TARGETS = tuple(range(1, 15))  # LV 1–3 plus threat 0–11


def exact(sides: int, target: int) -> tuple[float, float, float]:
    """P(pass), P(−1 grade), P(−2 grades) for a quality die against a target (§0.4)."""
    passes = sum(1 for r in range(1, sides + 1) if r > target)
    two = sum(1 for r in range(1, sides + 1) if r <= target and 2 * r <= target)
    return passes / sides, (sides - passes - two) / sides, two / sides


def test_seeded_morale_outcomes_match_the_exact_probabilities_over_100000_tests() -> None:
    combos = list(product(DICE, TARGETS))
    dice = SeededDice("statistics", SEED, 0, 0)
    counts = {c: [0, 0, 0] for c in combos}
    total = 100_000
    for i in range(total):
        sides, target = combos[i % len(combos)]
        roll = dice.roll(die(sides), "morale test")
        counts[(sides, target)][morale_outcome(roll.total, target)] += 1
    chi2, dof = 0.0, 0
    for (sides, target), observed in counts.items():
        n = sum(observed)
        probabilities = exact(sides, target)
        for o, p in zip(observed, probabilities, strict=True):
            if p == 0:
                assert o == 0, f"d{sides} vs {target}: an impossible outcome happened"
                continue
            chi2 += (o - n * p) ** 2 / (n * p)
            dof += 1
        dof -= 1
    # Wilson–Hilferty upper quantile of chi-square at p ≈ 1e-5.
    k = 2 / (9 * dof)
    critical = dof * (1 - k + 4.265 * math.sqrt(k)) ** 3
    assert chi2 < critical, f"chi2 {chi2:.1f} over {dof} degrees of freedom exceeds {critical:.1f}"
    # Spot check against the worked example E3: d8 vs 8 never passes; ≤ 4 loses two grades: P = 1/2.
    assert exact(8, 8) == (0.0, 0.5, 0.5)
