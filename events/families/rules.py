"""Rule applications and house rules."""

from __future__ import annotations

from events.recorded import JsonValue
from events.registry import Event, registry


@registry.register
class RuleApplied(Event):
    """A rule was applied: its inputs, the roll indexes of the dice it used, its outcome and why.

    ``clause`` names the section of RULES.md; ``explanation`` is what a person reads
    ("LV 2 + threat 4 + 2 unverified = 8; d8 rolled 6 ≤ 8 → −1 grade"). The facts it caused follow it in
    the same command.
    """

    event_name = "rules.applied"

    ruleset: str
    ruleset_version: str
    rule: str
    clause: str
    battle_id: str | None = None
    unit_id: str | None = None
    inputs: dict[str, JsonValue]
    dice: tuple[int, ...] = ()
    outcome: dict[str, JsonValue]
    explanation: str


@registry.register
class TableOverridden(Event):
    """A house rule: from here on, the table value at ``path`` is ``value``."""

    event_name = "rules.table_overridden"

    ruleset: str
    path: str
    value: JsonValue
    source: str
    note: str = ""
