"""The game master's corrections over HTTP: rewind, undo, and amend with its preview (``campaign.timeline``,
as the CLI's ``rewind``, ``undo`` and ``amend --dry-run`` / ``--yes``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campaign.commands import BaseCommand, recorded_command
from campaign.executor import Ledger
from campaign.timeline import Timeline
from events.dice.rerun import TypedFaces
from events.errors import InvalidInputError
from events.families.timeline import CommandIssued
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo


def rewind(ledger: Ledger, info: CampaignInfo, to_seq: int, reason: str = "") -> AppendResult:
    return Timeline(ledger).rewind(info, to_seq, reason)


def undo(ledger: Ledger, info: CampaignInfo) -> tuple[AppendResult, str]:
    """Take back the last command, rewind, amendment or undo; what was undone, in words."""
    timeline = Timeline(ledger)
    result, what, start = timeline.undo(info)
    return result, timeline.undone_in_words(info, what, start)


def recorded(ledger: Ledger, info: CampaignInfo, seq: int) -> BaseCommand | None:
    """The command recorded at ``seq`` as the model of today reads it (what an amendment of it starts from), or
    None where no command's inputs were recorded there (another event, a seq past the head, inputs that no
    longer read). Whether it is still in effect is the amendment's to say."""
    if not 0 < seq <= info.last_seq:
        return None
    event = next(iter(ledger.store.read(info.campaign_id, after_seq=seq - 1, upto_seq=seq)), None)
    if event is None or event.type != CommandIssued.event_name:
        return None
    try:
        return recorded_command(
            str(event.payload["command"]), event.payload.get("version"), dict(event.payload["args"])
        )
    except (InvalidInputError, LookupError):
        return None


def amend(
    ledger: Ledger,
    info: CampaignInfo,
    seq: int,
    changes: Mapping[str, Any],
    *,
    preview: bool = False,
    dice: Sequence[int] | None = None,
    reason: str = "",
    head: int | None = None,
) -> dict[str, Any]:
    """Amend the command at ``seq`` (its inputs; with ``dice`` and a ``reason`` its table dice corrected; with
    ``dice`` and no reason, the faces of the dice the amendment rolls anew). With ``preview`` nothing is appended:
    the report lists each later command's fate, and ``head`` (the campaign's head it was worked out on) goes with
    the confirmation, which is refused if anything was appended since (the preview would be stale)."""
    timeline = Timeline(ledger)
    correction = list(dice) if dice is not None and (reason.strip() or not changes) else None
    new_dice = TypedFaces(dice, ledger.actor) if dice is not None and correction is None else None
    if preview:
        report, _ = timeline.preview(info, seq, changes, table=correction, reason=reason, new_dice=new_dice)
        return {**report.as_dict(), "preview": True, "head": info.last_seq}
    if head is not None and head != info.last_seq:
        raise InvalidInputError(
            f"the campaign moved on since this preview (it was at #{head}, it is at #{info.last_seq} now): nothing "
            "was amended; preview it again"
        )
    done = timeline.amend(info, seq, changes, dice=correction, reason=reason, new_dice=new_dice)
    return {**done.as_dict(), "preview": False, "head": info.last_seq}
