"""The project's own errors. Driver errors are translated into these once, at the store boundary.

Every error a user can cause derives from :class:`CampaignError`; the CLI prints its message and exits
with :attr:`CampaignError.exit_code`, and nothing has been appended.
"""

from __future__ import annotations


class CampaignError(Exception):
    """Root of every error the project raises on purpose."""

    exit_code = 2


class InvalidInputError(CampaignError):
    """A command's input is malformed or impossible (a 7 on a d6, a negative count, an unknown unit)."""


class NotFoundError(CampaignError):
    """A campaign, unit, event or roll that was named does not exist."""


class ConcurrencyError(CampaignError):
    """Another writer appended to the campaign first: re-read and retry."""

    exit_code = 4
    campaign_id: str | None = None
    """The campaign being written, when known (the store sets it)."""


class EventSchemaError(CampaignError):
    """An event does not match its registered schema, or its type is unknown."""


class DiceError(InvalidInputError):
    """A dice notation is malformed, or table dice do not fit it."""


class VerificationError(CampaignError):
    """The log fails a check: a broken hash chain, a forged roll, a gap in the sequence."""

    exit_code = 3


class ConfigurationError(CampaignError):
    """The database or the environment is not usable as configured."""


class DamagedDatabaseError(ConfigurationError):
    """The database file itself is damaged: SQLite calls it malformed (a page overwritten, a file cut short)."""


class CorruptEventError(VerificationError):
    """A stored event can no longer be read: its payload or meta is not JSON, or not of its schema's shape.

    Only a hand edit of the database does this; the message names the campaign and the event."""

    def __init__(self, campaign_id: str, seq: int, type_: str, what: str) -> None:
        super().__init__(
            f"event #{seq} ({type_}) of campaign {campaign_id} is damaged: {what}. The database was edited "
            "outside Campaign Ledger; `campaign verify` names every damaged event"
        )
        self.campaign_id, self.seq, self.type, self.what = campaign_id, seq, type_, what
