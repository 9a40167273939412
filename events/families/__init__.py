"""One module per event family. Importing this package registers every event type."""

from events.families import battle, campaign, career, dice, morale, roster, rules

__all__ = ["battle", "campaign", "career", "dice", "morale", "roster", "rules"]
