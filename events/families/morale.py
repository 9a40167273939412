"""Morale facts: grades, panic, "No step back", failed actions."""

from __future__ import annotations

from typing import Literal

from events.registry import Event, registry


@registry.register
class GradeChanged(Event):
    event_name = "morale.grade_changed"

    battle_id: str
    unit_id: str
    from_grade: str
    to_grade: str


@registry.register
class ActionFailed(Event):
    """A reaction test failed: the action may not be tried again this activation or turn."""

    event_name = "morale.action_failed"

    battle_id: str
    unit_id: str
    action: str
    turn: int


@registry.register
class PanicChanged(Event):
    event_name = "morale.panic_changed"

    battle_id: str
    unit_id: str
    panic: Literal["panicking", "immune"]


@registry.register
class LastStandChanged(Event):
    """The unit entered or left "No step back" (the Last Stand)."""

    event_name = "morale.last_stand_changed"

    battle_id: str
    unit_id: str
    active: bool
    reason: str


@registry.register
class RallyAttempted(Event):
    """An officer spent a rally action (counted against the two it has per activation)."""

    event_name = "morale.rally_attempted"

    battle_id: str
    officer_id: str
    unit_id: str


@registry.register
class DisorderChanged(Event):
    """A unit's disorder markers after the change (seed 001): ``markers`` removable ones, ``permanent`` 0 or 1."""

    event_name = "morale.disorder_changed"

    battle_id: str
    unit_id: str
    markers: int
    permanent: int
    reason: str


@registry.register
class ShakenChanged(Event):
    """A unit became Shaken (a failed morale test) or stopped being Shaken (an activation spent idle)."""

    event_name = "morale.shaken_changed"

    battle_id: str
    unit_id: str
    shaken: bool
    reason: str
