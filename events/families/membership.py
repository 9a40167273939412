"""Who may do what in a campaign: memberships are events in its log, so every grant is itself auditable.

Roles: ``gm`` (everything), ``player`` (commands for the units of its ``sides``, every read view, audits),
``observer`` (read-only). Accounts are named by their account name; the accounts themselves (passwords) are
not in the log.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from events.registry import Event, registry

Role = Literal["gm", "player", "observer"]


@registry.register
class MemberGranted(Event):
    """``account`` holds ``role`` in the campaign from now on (replacing any role it held); a player plays
    the units of ``sides``."""

    event_name = "membership.granted"

    account: str
    role: Role
    sides: list[str] = Field(default_factory=list)


@registry.register
class MemberRemoved(Event):
    """``account`` no longer belongs to the campaign."""

    event_name = "membership.removed"

    account: str
    reason: str = ""
