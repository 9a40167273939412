"""One subpackage per ruleset: pure rule functions and their tables as data (TOML, with provenance tags).

Nothing here may touch a database, a clock, randomness or I/O: dice arrive as a Dice object, tables as
validated data. ``pyproject.toml``'s import-linter contract keeps that true.

The package itself lists the four rulesets a campaign can run, by the names used on the command line.
"""

from __future__ import annotations

from dataclasses import dataclass

from events.errors import InvalidInputError


@dataclass(frozen=True, slots=True)
class RulesetInfo:
    name: str
    package: str
    version: str
    """The version of its rules: 0.1 the first edition of RULES.md, 0.2 the second (its errata R2-…), 0.3 the
    third (its errata R3-…), 0.N.M a fix of the program's reading of one that decides some command differently.
    Every rule application records it, so re-evaluating a log tells a rules change from an altered log."""
    seed: str
    title: str
    prefix: str
    """The first part of its commands' names (``gf`` in ``gf.shoot``), and its command group on the CLI."""


RULESETS: dict[str, RulesetInfo] = {
    r.name: r
    for r in (
        RulesetInfo(
            "fighting-spirit",
            "fighting_spirit",
            "0.3",  # 0.3: the third edition's errata R3-1 … R3-8
            "000",
            "Five-grade morale (Stargrunt II-like)",
            "fs",
        ),
        RulesetInfo(
            "disorder",
            "disorder",
            # 0.2.1: `dis hit` refuses a loss larger than the models left (0.2 capped it unsaid);
            # 0.3: the third edition's errata R3-8 … R3-13
            "0.3",
            "001",
            "Disorder markers and officer careers (Napoleonic skirmish)",
            "dis",
        ),
        RulesetInfo(
            "mass-combat",
            "mass_combat",
            # 0.2.1: `mc pay` with nothing owed is bonus pay (it spent a month's pay for nothing under 0.2);
            # 0.2.2: a clear victory clears a lost commander's lasting penalty on every unit of the army, whether
            # or not it fought (R2-10); under 0.2.1 only on those that fought;
            # 0.3: the third edition's errata R3-14…R3-24 (Glory's criticals and high command's reaction roll,
            # catastrophes 13, 14, 15 and 17, surrender, the sappers' −2 on the casualty row, training months,
            # a muster's quality, chariots' archers)
            "0.3",
            "002",
            "GURPS Mass Combat: troop strength, quality, pay, glory",
            "mc",
        ),
        RulesetInfo(
            "grimdark",
            "grimdark",
            "0.3",  # 0.3: R3-25, R3-26: a Shaken unit neither shoots nor charges; activations once a round
            "004",
            "One Page Rules Grimdark Future: morale (seed 004) and campaign (OPR's published rules)",
            "gf",
        ),
    )
}


def ruleset(name: str) -> RulesetInfo:
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(RULESETS)
        raise InvalidInputError(f"unknown ruleset {name!r}: choose one of {known}") from None
