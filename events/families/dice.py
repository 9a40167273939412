"""Dice events: every die used by any command, and the seed's commit / reveal cycle."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import SerializerFunctionWrapHandler, model_serializer

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
    source: Literal["seeded", "table", "offered"]
    seed_epoch: int | None = None
    entered_by: str | None = None
    offered_from: int | None = None
    """For ``source="offered"``: the roll index whose dice these are. A command retracted by a rewind, amend or
    undo leaves its dice on the table, offered in order to the next commands that roll the same dice: the same
    faces, under a new roll index (indexes are never reused)."""


@registry.register
class DiceSetAside(Event):
    """A die left on the table by a retracted command, taken off it by an explicit reroll: the next command
    that rolls those dice rolls new ones. Recorded with who asked and why, and listed by ``audit`` and ``verify``."""

    event_name = "dice.set_aside"

    roll_index: int
    reason: str


@registry.register
class DiceCorrected(Event):
    """Table dice that were entered wrong, corrected on the record by ``amend SEQ --dice … --reason …``: roll
    ``roll_index`` (dice typed in at the table) is taken off the record of the command at ``amends``, which the
    amendment re-ran on the faces the table agreed, rolled as roll ``replaced_by`` (None: the re-run rolled no
    die in its place). Who corrected it and why are kept; ``audit`` and ``verify`` list every correction. A
    seeded roll is never corrected. Retracted with the amendment that made it (an undo of it brings back the
    command as first entered)."""

    event_name = "dice.corrected"

    roll_index: int
    notation: str
    faces_before: tuple[int, ...]
    faces: tuple[int, ...]
    replaced_by: int | None = None
    amends: int
    by: str
    reason: str


@registry.register
class SeedRevealed(Event):
    """The seed of ``epoch`` is published: every roll made with it can now be checked by anyone."""

    event_name = "dice.seed_revealed"

    epoch: int
    seed: str
    shares: tuple[str, ...] = ()
    """The shares of entropy committed for the epoch (``dice.share_committed``), in commit order: its dice were
    derived from the seed and these (``events.dice.derive.dice_key``). Left out of the payload when there are
    none, so reveals of epochs without shares keep the bytes they always had."""

    @model_serializer(mode="wrap")
    def _omit_no_shares(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if not data.get("shares"):
            data.pop("shares", None)
        return data


@registry.register
class SeedCommitted(Event):
    """From now on rolls use the seed of ``epoch``, whose SHA-256 is ``commitment``."""

    event_name = "dice.seed_committed"

    epoch: int
    commitment: str


@registry.register
class ShareCommitted(Event):
    """A share of entropy for the seed of ``epoch``, given by ``by`` (a player or the GM): only its SHA-256 until
    the seed is revealed with it. Committed after the seed's commitment and before the epoch's first seeded
    roll, so that neither whoever drew the seed nor whoever gave a share chose the epoch's dice alone."""

    event_name = "dice.share_committed"

    epoch: int
    commitment: str
    by: str
