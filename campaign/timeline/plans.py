"""What an undo or a rewind would do, decided on the events they read (the whole log or a window at its end):
the rewind's target and the dice it leaves on the table. Pure functions of the events: ``Timeline`` reads the
events and appends what these decide."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from campaign.replay import (
    command_groups,
    dice_left_on_table,
    rewind_at,
)
from campaign.typed_as import typed
from events.envelope import RecordedEvent
from events.errors import InvalidInputError
from events.timeline import NEVER_RETRACTED, effective, live_seqs
from projections.state.campaigns import CampaignInfo

_TIMELINE = ("undo", "rewind", "amend")
"""The timeline's own commands: what they took back is said in their reason, not their arguments."""


def _args(first: RecordedEvent) -> Mapping[str, object] | None:
    """The recorded arguments of the command that starts with ``first``, if it is a ``timeline.command_issued``."""
    args = first.payload.get("args") if first.type == "timeline.command_issued" else None
    return args if isinstance(args, Mapping) else None


def plan_rewind(events: Sequence[RecordedEvent], info: CampaignInfo, to_seq: int) -> tuple[tuple[int, int], ...]:
    """Whether a rewind to ``to_seq`` may be done, on ``events`` (the whole log, or a suffix of it from a command's
    start at or before ``to_seq``'s that holds the dice a retraction may leave on the table): the dice it leaves
    on the table, or the refusal."""
    groups = command_groups(effective(events))
    live = {e.seq for e in effective(events)}
    if to_seq not in live:
        raise InvalidInputError.saying("seq {seq} is itself retracted: rewind to a seq still in effect", seq=to_seq)
    dice_seqs = {e.seq for e in events if e.type in NEVER_RETRACTED}
    if not any(s > to_seq for s in live if s not in dice_seqs):
        raise InvalidInputError.saying("nothing after seq {seq} is in effect: there is nothing to rewind", seq=to_seq)
    inside = next((g for g in groups if g.first_seq <= to_seq < g.last_seq), None)
    if inside is not None:
        raise InvalidInputError.saying(
            "seq {seq} is in the middle of a command (seqs {first}–{last}): rewind to {before} or {last}",
            seq=to_seq,
            first=inside.first_seq,
            last=inside.last_seq,
            before=inside.first_seq - 1,
        )
    # The dice of a command taken back stay in effect; a rewind to one of them would retract the rewind that
    # took the command back and so bring back the command's start, but not its rules after the die.
    taken_back = next(
        (g for g in command_groups(events) if g.first_seq <= to_seq < g.last_seq and g.first_seq not in live),
        None,
    )
    if taken_back is not None:
        raise InvalidInputError.saying(
            "seq {seq} is a die of a command that was taken back (seqs {first}–{last}): a rewind there would bring "
            "back half of that command; rewind to a seq in effect before or after it",
            seq=to_seq,
            first=taken_back.first_seq,
            last=taken_back.last_seq,
        )
    return dice_left_on_table(events, rewind_at(events, to_seq), info.on_table)


def last_undoable(events: Sequence[RecordedEvent]) -> RecordedEvent | None:
    """The last event of ``events`` (a suffix of the log) still in effect that an undo can take back."""
    live = live_seqs(events)
    return next((e for e in reversed(events) if e.seq in live and e.type not in NEVER_RETRACTED and e.seq > 1), None)


class UndoPlan(NamedTuple):
    to_seq: int
    reason: str
    on_table: tuple[tuple[int, int], ...]
    what: str
    start: int


def plan_undo(events: Sequence[RecordedEvent], info: CampaignInfo) -> UndoPlan:
    """What an undo appends, on ``events`` (the whole log, or a suffix of it from the start of what is undone
    that holds the dice it may leave on the table): the seq it rewinds to, its reason and the dice it leaves on
    the table, what is undone and the seq that starts; or the refusal."""
    last = last_undoable(events)
    if last is None:
        if any(e.seq > 1 and e.type in NEVER_RETRACTED for e in events):
            raise InvalidInputError.saying(
                "there is nothing to undo: since the campaign was created only dice, seed reveals, entropy "
                "shares or memberships were recorded, and those are never taken back"
            )
        raise InvalidInputError.saying("there is nothing to undo: the campaign has only just been created")
    key = last.meta.get("command_id")
    start = min(e.seq for e in events if e.meta.get("command_id") == key) if key else last.seq
    what = str(last.meta.get("command") or last.type)
    on_table = dice_left_on_table(events, rewind_at(events, start - 1), info.on_table)
    said = typed(what, _args(next(e for e in events if e.seq == start))) if what not in _TIMELINE else what
    return UndoPlan(start - 1, f"undo of {said} (#{start}–#{last.seq})", on_table, what, start)
