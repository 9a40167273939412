"""The game master's corrections over HTTP: rewind, undo, and amend with its preview (``campaign.timeline``,
as the CLI's ``rewind``, ``undo`` and ``amend --dry-run`` / ``--yes``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campaign.executor import Ledger
from campaign.timeline import Timeline
from events.errors import InvalidInputError
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo


def rewind(ledger: Ledger, info: CampaignInfo, to_seq: int, reason: str = "") -> AppendResult:
    return Timeline(ledger).rewind(info, to_seq, reason)


def undo(ledger: Ledger, info: CampaignInfo) -> tuple[AppendResult, str]:
    """Take back the last command, rewind, amendment or undo; what was undone, in words."""
    timeline = Timeline(ledger)
    result, what, start = timeline.undo(info)
    return result, timeline.undone_in_words(info, what, start)


def amend(
    ledger: Ledger,
    info: CampaignInfo,
    seq: int,
    changes: Mapping[str, Any],
    *,
    preview: bool = False,
    drop_later: bool = False,
    dice: Sequence[int] | None = None,
    reason: str = "",
) -> dict[str, Any]:
    """Amend the command at ``seq`` (its inputs, or with ``dice`` and a ``reason`` its table dice); with
    ``preview`` nothing is appended. An amendment that would drop later commands (they no longer apply) is
    refused unless ``drop_later`` says so, after the preview showed them."""
    timeline = Timeline(ledger)
    report = timeline.amend(info, seq, changes, dry_run=True, dice=dice, reason=reason)
    if preview:
        return {**report.as_dict(), "preview": True}
    if report.dropped and not drop_later:
        raise InvalidInputError(
            f"this amendment would drop {len(report.dropped)} later commands that no longer apply: nothing was "
            "changed; preview it, then confirm dropping them"
        )
    return {**timeline.amend(info, seq, changes, dice=dice, reason=reason).as_dict(), "preview": False}
