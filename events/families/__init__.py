"""One module per event family. Importing this package registers every event type."""

from events.families import campaign, dice

__all__ = ["campaign", "dice"]
