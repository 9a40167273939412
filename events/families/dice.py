"""Dice events: every die used by any command, and the seed's commit / reveal cycle."""

from __future__ import annotations

from typing import Literal

from events.registry import Event, registry


@registry.register
class DiceRolled(Event):
    """One roll (one or more dice of one kind). Holds all that is needed to re-derive or re-check it.

    ``source`` is ``seeded`` (derived from seed ``seed_epoch`` at ``roll_index``) or ``table`` (physical dice
    entered by ``entered_by``). Roll indexes only grow, even across a rewind.
    """

    event_name = "dice.rolled"

    roll_index: int
    notation: str
    count: int
    sides: int
    modifier: int
    faces: tuple[int, ...]
    total: int
    purpose: str
    source: Literal["seeded", "table"]
    seed_epoch: int | None = None
    entered_by: str | None = None


@registry.register
class SeedRevealed(Event):
    """The seed of ``epoch`` is published: every roll made with it can now be checked by anyone."""

    event_name = "dice.seed_revealed"

    epoch: int
    seed: str


@registry.register
class SeedCommitted(Event):
    """From now on rolls use the seed of ``epoch``, whose SHA-256 is ``commitment``."""

    event_name = "dice.seed_committed"

    epoch: int
    commitment: str
