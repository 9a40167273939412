"""One module per event family. Importing this package registers every event type."""

from events.families import (
    battle,
    calendar,
    campaign,
    career,
    dice,
    economy,
    membership,
    morale,
    roster,
    rules,
    timeline,
)

__all__ = [
    "battle",
    "calendar",
    "campaign",
    "career",
    "dice",
    "economy",
    "membership",
    "morale",
    "roster",
    "rules",
    "timeline",
]
