"""The game master's corrections over HTTP: rewind, undo, and amend with its preview (``campaign.timeline``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.executor import Ledger
from campaign.timeline import Sandbox, Timeline
from events.errors import InvalidInputError
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo


def rewind(ledger: Ledger, info: CampaignInfo, to_seq: int, reason: str = "") -> AppendResult:
    return Timeline(ledger).rewind(info, to_seq, reason)


def undo(ledger: Ledger, info: CampaignInfo) -> AppendResult:
    """Retract the last command in effect: a rewind to just before it."""
    _, groups = Timeline(ledger).groups(info)
    commands = [g for g in groups if g.issued is not None]
    if not commands:
        raise InvalidInputError("there is no command in effect to undo")
    return Timeline(ledger).rewind(info, commands[-1].first_seq - 1, "undo")


def amend(
    ledger: Ledger, info: CampaignInfo, seq: int, changes: Mapping[str, Any], *, preview: bool = False
) -> dict[str, Any]:
    """Amend the command at ``seq``; with ``preview``, on a throw-away copy of the log (nothing appended)."""
    if preview:
        events = list(ledger.store.read(info.campaign_id))
        copy = Sandbox(ledger, events).ledger
        copied = copy.directory.get(info.campaign_id)
        assert copied is not None
        report = Timeline(copy).amend(copied, seq, changes).as_dict()
        return {**report, "appended": [], "preview": True}
    return {**Timeline(ledger).amend(info, seq, changes).as_dict(), "preview": False}
