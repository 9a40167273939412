"""The game master's corrections over HTTP: rewind, undo, and amend with its preview (``campaign.timeline``,
as the CLI's ``rewind``, ``undo`` and ``amend --dry-run`` / ``--yes``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from campaign.commands import BaseCommand, recorded_command
from campaign.executor import Ledger
from campaign.i18n import N_
from campaign.timeline import Timeline
from campaign.timeline.reports import AmendData
from campaign.typed_as import typed
from events.dice.rerun import TypedFaces
from events.errors import InvalidInputError
from events.families.timeline import CommandIssued
from events.recorded import maybe_whole, obj
from events.store import AppendResult
from events.timeline import NEVER_RETRACTED
from projections.state.campaigns import CampaignInfo


def rewind(ledger: Ledger, info: CampaignInfo, to_seq: int, reason: str = "", seen: int | None = None) -> AppendResult:
    """Rewind to ``to_seq``; refused if something it would take back came in since ``seen``, the head the
    request saw (:func:`still_meant`)."""
    still_meant(ledger, info, seen, REWIND_OUTRUN)
    return Timeline(ledger).rewind(info, to_seq, reason)


def undo(ledger: Ledger, info: CampaignInfo, seen: int | None = None) -> tuple[AppendResult, str]:
    """Take back the last command, rewind, amendment or undo; what was undone, in words. Refused if something it
    would take back came in since ``seen``, the head the request saw (:func:`still_meant`); said as done where
    it is the same undo sent again (:func:`sent_again`)."""
    sent_again(ledger, info, seen)
    still_meant(ledger, info, seen, UNDO_OUTRUN)
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
            str(event.payload["command"]), maybe_whole(event.payload.get("version")), dict(obj(event.payload["args"]))
        )
    except (InvalidInputError, LookupError):
        return None


class AmendAnswer(AmendData):
    """An amendment's report as the server answers it: whether it was only previewed, and the head it was worked
    out on (a preview's confirmation carries it back)."""

    preview: bool
    head: int


def amend(  # noqa: PLR0913 (an amendment's own inputs, and the names a page says it with)
    ledger: Ledger,
    info: CampaignInfo,
    seq: int,
    changes: Mapping[str, object],
    *,
    preview: bool = False,
    dice: Sequence[int] | None = None,
    reason: str = "",
    head: int | None = None,
    names: Mapping[str, str] | None = None,
) -> AmendAnswer:
    """Amend the command at ``seq`` (its inputs; with ``dice`` and a ``reason`` its table dice corrected; with
    ``dice`` and no reason, the faces of the dice the amendment rolls anew). With ``preview`` nothing is appended:
    the report lists each later command's fate, and ``head`` (the campaign's head it was worked out on) goes with
    the confirmation, which is refused if anything was appended since (the preview would be stale)."""
    timeline = Timeline(ledger)
    correction = list(dice) if dice is not None and (reason.strip() or not changes) else None
    new_dice = TypedFaces(dice, ledger.actor) if dice is not None and correction is None else None
    if preview:
        report, _ = timeline.preview(info, seq, changes, table=correction, reason=reason, new_dice=new_dice)
        return {**report.as_dict(names), "preview": True, "head": info.last_seq}
    if head is not None and head != info.last_seq:
        raise moved_on(ledger, info, head)
    done = timeline.amend(info, seq, changes, dice=correction, reason=reason, new_dice=new_dice)
    return {**done.as_dict(names), "preview": False, "head": info.last_seq}


SAID_SINCE = 3
"""How many of the entries appended since a head a refusal names (the rest are counted)."""

UNDO_OUTRUN = N_(
    "campaign {campaign!r} moved on before the undo was recorded (appended since #{head}: {since}): it would now "
    "take back what you have not seen, so nothing was undone; look at the log and undo again"
)
REWIND_OUTRUN = N_(
    "campaign {campaign!r} moved on before the rewind was recorded (appended since #{head}: {since}): it would "
    "also take that back unseen, so nothing was rewound; look at the log and rewind again"
)


class Appended(NamedTuple):
    """One append since a head: its command (who entered it) and seqs, and whether a rewind takes it back."""

    what: str
    first: int
    last: int
    retractable: bool

    def __str__(self) -> str:
        return f"#{self.first}{'' if self.first == self.last else f'–#{self.last}'} {self.what}"


def appended_since(ledger: Ledger, info: CampaignInfo, head: int) -> list[Appended]:
    """What was appended to the campaign after ``head``, one entry per append (its events share their meta)."""
    entries: list[Appended] = []
    meta: object = None
    for event in ledger.store.read(info.campaign_id, after_seq=head, upto_seq=info.last_seq):
        retractable = event.type not in NEVER_RETRACTED
        if entries and meta == event.meta:
            entries[-1] = entries[-1]._replace(last=event.seq, retractable=entries[-1].retractable or retractable)
            continue
        meta = event.meta
        recorded = event.meta.get("command")
        # the command as a person types it ("gf muster"; "muster" on the page), not its recorded name
        command = typed(str(recorded)) if recorded else event.type
        actor = event.meta.get("actor")
        entries.append(Appended(f"{command} ({actor})" if actor else command, event.seq, event.seq, retractable))
    return entries


def _said(entries: Sequence[Appended]) -> str:
    said = [str(e) for e in entries[:SAID_SINCE]]
    if len(entries) > SAID_SINCE:
        said.append(f"+{len(entries) - SAID_SINCE}")
    return ", ".join(said)


def still_meant(ledger: Ledger, info: CampaignInfo, seen: int | None, refusal: str) -> None:
    """Refuse (in words, ``refusal``) an undo or rewind when something it would take back was appended since
    ``seen``, the head the request saw (while it waited for the campaign's turn, or won a race against it): the
    game master did not see it, and run on the new head it would silently take back another player's command.
    What no rewind takes back (a membership, a share of entropy) does not stop it."""
    if seen is None or seen >= info.last_seq:
        return
    since = appended_since(ledger, info, seen)
    if any(e.retractable for e in since):
        raise InvalidInputError.saying(refusal, campaign=info.name, head=seen, since=_said(since))


def sent_again(ledger: Ledger, info: CampaignInfo, seen: int | None) -> None:
    """Refuse an undo as already done when all that was appended since ``seen`` is one undo by the same person:
    the page's button pressed twice (or a post sent again). The refusal is the same as :func:`still_meant`'s —
    nothing more is taken back — but said as what happened, not as a command the game master has not seen."""
    if seen is None or seen >= info.last_seq:
        return
    if info.last_seq != seen + 1:
        return  # an undo appends one event: anything more came from elsewhere too
    [since] = ledger.store.read(info.campaign_id, after_seq=seen, upto_seq=info.last_seq)
    if since.meta.get("command") == "undo" and since.meta.get("actor") == ledger.actor:
        raise InvalidInputError.saying(
            "this undo is already recorded (#{seq}): the button was pressed twice, so nothing more was undone",
            seq=since.seq,
        )


def moved_on(ledger: Ledger, info: CampaignInfo, head: int) -> InvalidInputError:
    """The refusal of an amendment confirmed on ``head`` when the campaign is at another: the campaign by its
    name, what was appended since (each entry's command and who entered it), and to preview it again, for the
    preview no longer says what the amendment would do."""
    if head > info.last_seq:
        return InvalidInputError.saying(
            "campaign {campaign!r} was never at #{head} (it is at #{now}): nothing was amended; preview it again",
            campaign=info.name,
            head=head,
            now=info.last_seq,
        )
    return InvalidInputError.saying(
        "campaign {campaign!r} moved on since this preview (it was at #{head}, it is at #{now} now; appended since: "
        "{since}): nothing was amended; preview it again",
        campaign=info.name,
        head=head,
        now=info.last_seq,
        since=_said(appended_since(ledger, info, head)),
    )
