"""In-game time: it passes only by these events, never by the wall clock."""

from __future__ import annotations

from typing import Literal

from events.registry import Event, registry


@registry.register
class DaysPassed(Event):
    """``days`` of rest, march or battle passed for the campaign (or one side of it)."""

    event_name = "calendar.days_passed"

    days: int
    activity: Literal["rest", "march", "forced_march", "front", "battle", "other"]
    side: str | None = None
    note: str = ""


@registry.register
class WoundedReturned(Event):
    event_name = "calendar.wounded_returned"

    unit_id: str
    men: int


@registry.register
class MonthEnded(Event):
    event_name = "calendar.month_ended"

    month: int


@registry.register
class SideCondition(Event):
    """A side's campaign condition changed: ``no_supplies`` or ``encircled`` (both exhaust its units)."""

    event_name = "calendar.side_condition"

    side: str
    condition: Literal["no_supplies", "encircled"]
    active: bool
