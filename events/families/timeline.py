"""The campaign's own history: which command ran with which inputs, and rewinds that retract events."""

from __future__ import annotations

from events.recorded import JsonValue
from events.registry import Event, registry


@registry.register
class CommandIssued(Event):
    """The command whose events follow, with its inputs: enough to run it again on its recorded dice."""

    event_name = "timeline.command_issued"

    command: str
    args: dict[str, JsonValue]
    amends: int | None = None
    """For a command re-run by an amendment: the seq of the command it replaces."""
    version: int | None = None
    """The command's ``schema_version`` (None: recorded before commands had versions, read as 0)."""
    dice: tuple[int, ...] | None = None
    """The roll indexes it used, in order (None: recorded before this was kept; its rules name them)."""
    ids: tuple[str, ...] | None = None
    """The ids it gave the units and battles it created, in order, so that a re-run gives the same."""
    ruleset_version: str | None = None
    """The version of the rules it ran under (None: a command of no ruleset, or recorded before this was kept,
    which was under the first edition, 0.1)."""


@registry.register
class Rewound(Event):
    """Every event after ``to_seq`` (up to this one) is retracted: kept in the log, skipped by projections.

    Dice rolled in the retracted stretch stay rolled: their roll indexes are never used again.
    """

    event_name = "timeline.rewound"

    to_seq: int
    reason: str
    on_table: tuple[tuple[int, int], ...] | None = None
    """The dice left on the table once this takes effect (dice of retracted commands, offered again in order),
    each as (seq of its ``dice.rolled`` event, roll index); None: recorded before dice stayed on the table."""


@registry.register
class Branched(Event):
    """This campaign is a what-if branch of ``parent_id``, sharing its history up to ``at_seq``."""

    event_name = "timeline.branched"

    parent_id: str
    parent_name: str
    at_seq: int
    parent_hash: str
