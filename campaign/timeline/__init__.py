"""Rewind, amend, undo and re-evaluate a campaign's commands (DESIGN.md, "Rewinding and auditing").

Every command was recorded with its inputs (``timeline.command_issued``) and the dice it used. A sandbox
ledger, loaded with a copy of the log, re-runs commands on their own recorded dice; what the sandbox
appends is exactly what the real log will append, in one transaction.
"""

from __future__ import annotations

import contextlib
from collections import ChainMap
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from campaign.commands import recorded_command
from campaign.executor import Ledger
from campaign.i18n import N_, _
from campaign.i18n.purposes import UNDO_OF
from campaign.replay import (
    CommandGroup,
    Sandbox,
    as_recorded,
    command_groups,
    decided,
    dice_left_on_table,
    edition_of,
    rerun_in_place,
    roll_seq,
)
from campaign.timeline.branching import branch
from campaign.timeline.plans import _TIMELINE, UndoPlan, _args, last_undoable, plan_rewind, plan_undo
from campaign.timeline.reports import AmendReport, Change, Fate, FateKind
from campaign.typed_as import typed
from events.dice.dice import TableDice
from events.dice.rerun import NewDice, NotEnoughDiceError, RerunDice, SeededFaces, StandInFaces, TypedFaces
from events.envelope import NewEvent, RecordedEvent
from events.errors import CampaignError, DiceError, InvalidInputError, NotFoundError, Words
from events.families.dice import DiceCorrected, DiceRolled
from events.families.timeline import Rewound
from events.limits import check_inputs, check_text
from events.recorded import JsonValue, maybe_whole, obj, whole
from events.recorded import seq as array
from events.registry import registry
from events.store import AppendResult
from events.timeline import REWOUND, effective, retracted_among
from projections.state.campaigns import CampaignInfo

if TYPE_CHECKING:
    from campaign.rulesets.command import BaseCommand

__all__ = [
    "AmendReport",
    "Change",
    "Fate",
    "Timeline",
    "UndoPlan",
    "branch",
    "last_undoable",
    "plan_rewind",
    "plan_undo",
]

UNDO_PAGE = 64
"""How many events an undo reads back from the log's end first (four times more each time it must read further)."""


class Timeline:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def groups(self, info: CampaignInfo) -> tuple[list[RecordedEvent], list[CommandGroup]]:
        events = list(self.ledger.store.read(info.campaign_id))
        return events, command_groups(effective(events))

    def rewind(self, info: CampaignInfo, to_seq: int, reason: str = "", command_id: str | None = None) -> AppendResult:
        """Retract every event after ``to_seq``; nothing is deleted, and no roll index is used again.

        Its cost does not grow with the log: what is read is the log from the start of the command at ``to_seq``
        on (:meth:`rewind_window`), not the whole log; :func:`plan_rewind` decides on it exactly as on the whole log."""
        check_text(reason, Words("a rewind's reason"))
        if not 1 <= to_seq < info.last_seq:
            raise InvalidInputError.saying("rewind to a seq between 1 and {last}", last=info.last_seq - 1)
        on_table = plan_rewind(self.rewind_window(info, to_seq), info, to_seq)
        event = Rewound(to_seq=to_seq, reason=reason or "rewound by the game master", on_table=on_table)
        return self.ledger.record(info, [event], "rewind", command_id)

    def undo(self, info: CampaignInfo, command_id: str | None = None) -> tuple[AppendResult, str, int]:
        """Take back the last thing appended that is still in effect: a command, a rewind or an amendment
        (whose retractions are then in effect no more). A rewind to just before it: nothing is deleted, and an
        undo can itself be undone. Returns the result, what was undone and the seq it started at.

        Its cost does not grow with the log: the log is read from its end back to the start of what is undone
        (:meth:`undo_window`); :func:`plan_undo` decides on it exactly as on the whole log."""
        plan = plan_undo(self.undo_window(info), info)
        event = Rewound(to_seq=plan.to_seq, reason=plan.reason, on_table=plan.on_table)
        return self.ledger.record(info, [event], "undo", command_id), plan.what, plan.start

    # -- what undo and rewind read: a window at the log's end, never the whole log --------------------------

    def _command_start(self, info: CampaignInfo, event: RecordedEvent) -> int:
        """The first seq of the command ``event`` belongs to (its append), by the commands index."""
        key = event.meta.get("command_id")
        found = self.ledger.store.command_events(info.campaign_id, str(key)) if key is not None else None
        return min(e.seq for e in found) if found else event.seq

    def _from(self, info: CampaignInfo, window: list[RecordedEvent], first: int) -> list[RecordedEvent]:
        """``window`` (a suffix of the log) extended back to start at ``first``."""
        if window and first >= window[0].seq:
            return window
        upto = window[0].seq - 1 if window else None
        return [*self.ledger.store.read(info.campaign_id, after_seq=first - 1, upto_seq=upto), *window]

    def _with_dice_of(self, info: CampaignInfo, window: list[RecordedEvent], to_seq: int) -> list[RecordedEvent]:
        """``window`` extended back until :func:`dice_left_on_table` gives the same on it as on the whole log.

        Back to the target of each rewind in it: a retraction to ``to_seq`` may retract a rewind (an undo of an
        undo does), whose own retractions, back to its target, are then undone; before the window starts, no
        event is then in effect otherwise than before. And back to the start of each command whose dice may
        leave or take the table: those on it now, and those named (taken off it) by a command in the window. Their
        commands, their offers and set-asides all lie at or after those starts. Repeated until nothing moves."""
        store, campaign_id = self.ledger.store, info.campaign_id
        seen: set[int] = set()
        while True:
            by_seq = {e.seq: e for e in window}
            first = window[0].seq
            targets = [whole(e.payload["to_seq"]) for e in window if e.type == REWOUND]
            rolled = {whole(e.payload["roll_index"]): e.seq for e in window if e.type == "dice.rolled"}
            named = {
                whole(i)
                for e in window
                if e.type in ("timeline.command_issued", "rules.applied")
                for i in array(e.payload.get("dice") or ())
            }
            seqs = set(info.on_table) | {rolled[i] for i in named if i in rolled} | {t + 1 for t in targets if t > 0}
            for index in sorted(named - set(rolled)):
                found = roll_seq(store, campaign_id, index, first - 1)
                if found is not None:
                    seqs.add(found)
            for seq in sorted(seqs - seen):
                seen.add(seq)
                # A die's command may begin before the window even when the die is in it.
                events = [by_seq[seq]] if seq in by_seq else store.read(campaign_id, after_seq=seq - 1, upto_seq=seq)
                for event in events:
                    first = min(first, self._command_start(info, event))
            if first >= window[0].seq:
                return window
            window = self._from(info, window, first)

    def rewind_window(self, info: CampaignInfo, to_seq: int) -> list[RecordedEvent]:
        """The log from the start of the command at ``to_seq`` on (a command boundary: the groups from there on
        are those of the whole log, and whether an event is in effect depends only on the rewinds after it)."""
        at = next(iter(self.ledger.store.read(info.campaign_id, after_seq=to_seq - 1, upto_seq=to_seq)))
        window = list(self.ledger.store.read(info.campaign_id, after_seq=self._command_start(info, at) - 1))
        return self._with_dice_of(info, window, to_seq)

    def undo_window(self, info: CampaignInfo) -> list[RecordedEvent]:
        """The log's end, read back in growing pages until it holds the last thing still in effect that can be
        undone (the whole log only when there is nothing to undo), from the start of its command."""
        count, window = UNDO_PAGE, []
        while True:
            window = self.ledger.store.read_last(info.campaign_id, count)
            last = last_undoable(window)
            if last is not None or not window or window[0].seq <= 1:
                break
            count *= 4
        if last is None:
            return window
        start = self._command_start(info, last)
        return self._with_dice_of(info, self._from(info, window, start), start - 1)

    def undone_in_words(self, info: CampaignInfo, what: str, start: int) -> str:
        """What an undo took back, as a person reads it (``what`` and ``start`` as :meth:`undo` returns them)."""
        back = next(iter(self.ledger.store.read(info.campaign_id, after_seq=start - 1, upto_seq=start)))
        if what not in _TIMELINE:
            return _("undid {command} (from #{seq})").format(command=typed(what, _args(back)), seq=start)
        reason = undo_reason_words(str(back.payload.get("reason") or what))
        return _(_TOOK_BACK[what]).format(seq=start, reason=reason)

    def amend(
        self,
        info: CampaignInfo,
        seq: int,
        changes: Mapping[str, object],
        command_id: str | None = None,
        *,
        dry_run: bool = False,
        dice: Sequence[int] | None = None,
        reason: str = "",
        new_dice: NewDice | None = None,
    ) -> AmendReport:
        """Correct a past command's inputs, re-run it on its own dice, then every later command on theirs; a later
        command that no longer applies is skipped alone (its dice go back on the table).
        With ``dice`` (and a ``reason``), its table dice are corrected too: it is re-run on those faces, entered
        as the table agreed (``dice.corrected`` records each roll as it was and as it is now, by whom and why).
        ``new_dice``: where the dice come from that a re-run command asks for and none of its own serve, once the
        table's are taken (the campaign's seeded dice by default). With ``dry_run`` nothing is appended: the
        report is :meth:`preview`'s."""
        if dry_run:
            return self.preview(info, seq, changes, table=dice, reason=reason, new_dice=new_dice)[0]
        report, batch = self.amendment(info, seq, changes, table=dice, reason=reason, new_dice=new_dice)
        return self.apply(info, report, batch, command_id)

    def apply(
        self, info: CampaignInfo, report: AmendReport, batch: list[NewEvent], command_id: str | None = None
    ) -> AmendReport:
        """Append an amendment worked out by :meth:`amendment` on ``info`` (its head): one transaction, refused
        (:class:`ConcurrencyError`) if anything was appended since."""
        report.result = self.ledger.append_prepared(info, batch, "amend", command_id)
        return report

    def preview(
        self,
        info: CampaignInfo,
        seq: int,
        changes: Mapping[str, object],
        *,
        table: Sequence[int] | None = None,
        reason: str = "",
        new_dice: NewDice | None = None,
    ) -> tuple[AmendReport, list[NewEvent] | None]:
        """What an amendment would do, appending nothing, and (when it is exact) what it would append.

        With new dice known (``new_dice``: faces typed or asked for) the preview is the amendment itself. Without
        (the campaign's seeded dice, which no preview may show before they are rolled), its new dice are stand-ins,
        every die at its lowest face and then at its highest: a later command whose fate is the same at both is
        shown with it; one whose fate differs depends on the new dice, decided when they are rolled."""
        if new_dice is not None and new_dice.known:
            return self.amendment(info, seq, changes, table=table, reason=reason, new_dice=new_dice)
        low, batch = self.amendment(info, seq, changes, table=table, reason=reason, new_dice=StandInFaces("low"))
        if not low.new_dice or all(d.from_table is not None for _, d in low.new_dice):
            return low, batch  # no die is new: the table's dice and the commands' own are known
        high, _ = self.amendment(info, seq, changes, table=table, reason=reason, new_dice=StandInFaces("high"))
        low.exact = False
        by_seq = {f.seq: f for f in high.fates}
        for i, fate in enumerate(low.fates):
            other = by_seq.get(fate.seq)
            # A command that rolls new dice at both ends does (what it decides on stand-ins is not shown).
            differs = fate.kind != "new dice" and decided(other.after) != decided(fate.after) if other else True
            if other is None or other.kind != fate.kind or differs:
                low.fates[i] = Fate(fate.seq, fate.command, fate.args, "depends on the new dice", fate.before)
        return low, None

    def seeded(self, info: CampaignInfo) -> SeededFaces:
        """The campaign's own seeded dice, at the next roll indexes: what an amendment's new dice are by default."""
        return SeededFaces(info.dice_id or info.campaign_id, lambda: self.ledger.dice_key(info), info.seed_epoch)

    def _not_in_effect(self, info: CampaignInfo, seq: int) -> NotFoundError:
        """Why ``seq`` names no command to amend, and where to look instead: a command amended since is in
        effect at the seq of its re-run (a new user amended #98 twice and was told only "no command in effect")."""
        if not 0 < seq <= info.last_seq:
            return NotFoundError.saying(
                "no event at seq {seq}: the log runs from #1 to #{last}", seq=seq, last=info.last_seq
            )
        rerun = None
        for event in self.ledger.store.read_types(info.campaign_id, ["timeline.command_issued"], after_seq=seq):
            if event.payload.get("amends") == seq:
                rerun = event.seq
        if rerun is not None:
            return NotFoundError.saying(
                "the command at #{seq} was amended since: it is #{rerun} now (amend that seq)", seq=seq, rerun=rerun
            )
        return NotFoundError.saying(
            "no command in effect at seq {seq}: what was there was taken back (`log --all` shows it)", seq=seq
        )

    def amendment(
        self,
        info: CampaignInfo,
        seq: int,
        changes: Mapping[str, object],
        *,
        whole_log: bool = False,
        table: Sequence[int] | None = None,
        reason: str = "",
        new_dice: NewDice | None = None,
    ) -> tuple[AmendReport, list[NewEvent]]:
        """What :meth:`amend` reports and would append, appending nothing; its new dice from ``new_dice`` (the
        campaign's seeded dice by default, derived here but appended only by :meth:`apply`).

        Read from the amended command on, not the whole log: its group and the later ones from the
        store's index, the state before it from the nearest snapshot, a sandbox that keeps only what it appends,
        and the dice left on the table judged from the log after the earliest die that can change hands. A log
        that needs more (commands recorded without the ids they generated, events without a command id) is read
        whole, as ``whole_log`` asks: the same report and events either way."""
        reason = _asked(changes, table, reason)
        found = None if whole_log else self._from_command(info, seq)
        if found is None:
            events, groups = self.groups(info)
        else:
            events, groups, rolled_dice = found
        target = next((g for g in groups if g.first_seq <= seq <= g.last_seq), None)
        if target is None:
            raise self._not_in_effect(info, seq)
        issued = target.issued
        if issued is None:
            raise InvalidInputError.saying(
                "the command at seq {seq} was not recorded with its inputs; it cannot be amended", seq=seq
            )
        name = str(issued.payload["command"])
        current = recorded_command(name, maybe_whole(issued.payload.get("version")), dict(obj(issued.payload["args"])))
        recorded = current.inputs()
        changes = _changed_inputs(name, recorded, changes)
        report = AmendReport(seq, name, inputs=[(k, recorded[k], v) for k, v in changes.items() if recorded[k] != v])
        args = {**recorded, **changes}  # what is asked: the command's model judges it (build, below)
        report.args = dict(args)
        rewind_to = target.first_seq - 1
        rewind = registry.encode(Rewound(to_seq=rewind_to, reason=_amend_words(seq, table, reason)))
        if found is None:
            sandbox = Sandbox(self.ledger, events)
            sandbox.store.append(
                info.campaign_id, [rewind], sandbox.store.head(info.campaign_id).seq, command_id="amend-rewind"
            )
        else:
            sandbox = Sandbox.after_rewind(self.ledger, info, events, rolled_dice, rewind, "amend-rewind")
        try:
            amended = type(current).build(**args)
        except InvalidInputError as exc:
            raise _not_amended(exc) from None
        entered = [] if table is None else _table_dice(target, sandbox.dice_by_index, typed(name, args), table)
        run = _Rerun(sandbox, info.campaign_id, self.ledger.on_table(info), new_dice or self.seeded(info))
        with _refused_as_not_amended(table):
            report.amended, new = run.first(target, amended, seq, table, self.ledger.actor)
        if entered:
            rolled = (registry.decode(e) for e in new if e.type == "dice.rolled")
            now = [d for d in rolled if isinstance(d, DiceRolled)]
            report.corrected = [
                DiceCorrected(
                    roll_index=old.roll_index,
                    notation=old.notation,
                    faces_before=old.faces,
                    faces=now[i].faces if i < len(now) else (),
                    replaced_by=now[i].roll_index if i < len(now) else None,
                    amends=seq,
                    by=self.ledger.actor,
                    reason=reason,
                )
                for i, old in enumerate(entered)
            ]
        for group in (g for g in groups if g.first_seq > target.last_seq):
            if group.only_corrections:  # an earlier amendment's corrected table dice stay corrected
                sandbox.keep(info.campaign_id, group)
            elif group.events[0].type != "timeline.rewound" and not group.only_dice:
                try:
                    report.fates.append(run.later(group))
                except NotEnoughDiceError as exc:
                    raise _not_amended(exc) from None
        if isinstance(run.new, TypedFaces) and run.new.left():
            _unused_faces(run.new, report)
        tail = sandbox.appended(info.campaign_id)
        batch = [NewEvent(event.type, dict(event.payload), event.schema_version) for event in tail]
        # The amendment's rewind says which dice it leaves on the table: those of the commands it skips, and
        # those its re-runs no longer ask for. ``events`` holds every die whose place can change (see
        # _from_command), and every command that uses one.
        # The corrected dice come just after the amendment's rewind (a group of their own, before the command they
        # correct): taken off the table for good, as the table agreed they never showed those faces.
        corrections = [registry.encode(c) for c in report.corrected]
        noted = [
            RecordedEvent(0, info.campaign_id, tail[-1].seq + 1 + i, c.type, c.schema_version, c.payload, {}, "", "")
            for i, c in enumerate(corrections)
        ]
        on_table = dice_left_on_table(events, [*events, *tail, *noted], info.on_table)
        left: list[JsonValue] = [[*pair] for pair in on_table]
        batch[0] = NewEvent(batch[0].type, {**batch[0].payload, "on_table": left}, batch[0].schema_version)
        batch[1:1] = corrections
        report.retracted = (target.first_seq, info.last_seq)
        return report, batch

    def _from_command(
        self, info: CampaignInfo, seq: int
    ) -> tuple[list[RecordedEvent], list[CommandGroup], list[DiceRolled]] | None:
        """What an amendment at ``seq`` needs, read by index from the command it amends on, not the whole log: the log
        from the earliest die whose place on the table the amendment can change (the amended command's first
        seq, or a die on the table, or one a later command took off it) and from the start of its command; the
        command groups from the amended one on; and the dice those commands may name. None when the log must
        be read whole (a command to re-run recorded without its ids, an event without a command id, no
        command recorded with its inputs before ``seq``): what is read here then gives a different answer.

        The groups from a ``command_issued`` in effect on are the whole log's (one always starts a group). The
        dice left on the table are decided by the commands after that window's start alone: a die before it is
        neither on the table nor used by a command the amendment retracts or re-runs, and a command's events
        are one run of the log, so none is split by the window."""
        store, campaign_id = self.ledger.store, info.campaign_id
        if not 1 <= seq <= info.last_seq:
            return [], [], []  # nothing at that seq: refused as the whole log refuses it
        rewinds = store.read_types(campaign_id, [REWOUND])
        upto, start, limit = seq, None, 1
        while start is None:  # the last command record in effect up to seq: pages that double, back from seq
            page = store.read_types(campaign_id, ["timeline.command_issued"], upto_seq=upto, limit=limit, last=True)
            if not page:
                return None
            gone = retracted_among(page, rewinds)
            start = next((e.seq for e in reversed(page) if e.seq not in gone), None)
            upto, limit = page[0].seq - 1, min(2 * limit, 1024)
        tail = list(store.read(campaign_id, after_seq=start - 1))
        groups = command_groups(effective(tail))
        target = next((g for g in groups if g.first_seq <= seq <= g.last_seq), None)
        if target is None or target.issued is None:
            return tail, groups, []  # refused as the whole log refuses it
        rerun = [g for g in groups[groups.index(target) :] if g.issued is not None]
        if any(g.issued is not None and g.issued.payload.get("ids") is None for g in rerun):
            return None
        dice = [d for d in (registry.decode(e) for e in tail if e.type == "dice.rolled") if isinstance(d, DiceRolled)]
        rolled = {d.roll_index for d in dice}
        named = {
            whole(i)
            for e in tail
            if e.type in ("timeline.command_issued", "rules.applied")
            for i in array(e.payload.get("dice") or ())
        }
        earliest = [start, *info.on_table]
        for index in sorted(named - rolled):  # dice taken off the table, rolled before the amended command
            at = roll_seq(store, campaign_id, index, start - 1)
            for event in store.read(campaign_id, after_seq=(at or 1) - 1, upto_seq=at or 0):
                die = registry.decode(event)
                if isinstance(die, DiceRolled):
                    dice.append(die)
                    earliest.append(event.seq)
        first = max(1, min(earliest))
        (at_first,) = store.read(campaign_id, after_seq=first - 1, upto_seq=first)
        key = at_first.meta.get("command_id")
        if key is None:
            return None
        first = min(e.seq for e in store.command_events(campaign_id, str(key)) or (at_first,))
        before = list(store.read(campaign_id, after_seq=first - 1, upto_seq=start - 1)) if first < start else []
        window = [*before, *tail]
        if any(e.meta.get("command_id") is None for e in window):
            return None
        return window, groups, dice

    def reevaluate(self, info: CampaignInfo) -> list[Change]:
        """Re-run every recorded command in effect, in order, on its own dice; report any that now differ
        (the engine changed since): drift, reported and never written back.

        Streamed first (:func:`rerun_in_place`): when every command decides exactly what it recorded, there is
        no drift, and no copy of the log was made. Otherwise a sandbox re-runs them all to say what differs."""
        if rerun_in_place(self.ledger, info) == []:
            return []
        events, groups = self.groups(info)
        sandbox = Sandbox(self.ledger, events)
        drift: list[Change] = []
        sandbox.store.append(
            info.campaign_id,
            [registry.encode(Rewound(to_seq=groups[0].last_seq, reason="re-evaluation"))],
            sandbox.store.head(info.campaign_id).seq,
            command_id="reevaluate",
        )
        for group in groups[1:]:
            if group.issued is None or group.events[0].type == "timeline.rewound":
                continue
            name = str(group.issued.payload["command"])
            edition = edition_of(group, info)
            try:
                rerun = sandbox.run(info.campaign_id, group)
            except CampaignError as exc:
                drift.append(
                    Change(group.first_seq, name, group.outcomes, [{"error": str(exc)}], edition, group.events)
                )
                if edition is None:
                    break
                sandbox.keep(info.campaign_id, group)  # the rules changed since: go on from what was recorded
                continue
            if decided(as_recorded(group, CommandGroup(tuple(rerun)).outcomes)) != decided(group.outcomes):
                after = CommandGroup(tuple(rerun)).outcomes
                drift.append(Change(group.first_seq, name, group.outcomes, after, edition, group.events, tuple(rerun)))
        return drift


class _Rerun:
    """An amendment's re-runs in a sandbox, in order, and the dice on the table between them: those retracted
    commands left there before, then those of each command skipped and those a re-run no longer asks for, in
    the order they were rolled, offered to the next re-run that asks for the same dice and none of its own serve."""

    def __init__(self, sandbox: Sandbox, campaign_id: str, on_table: Sequence[DiceRolled], new: NewDice) -> None:
        self.sandbox, self.campaign_id, self.new = sandbox, campaign_id, new
        self.table = list(on_table)

    def _dice(self, own: Sequence[DiceRolled]) -> RerunDice:
        return RerunDice(own, self.table, self.new, self.sandbox.info(self.campaign_id).next_roll_index)

    def _back(self, dice: Sequence[DiceRolled]) -> None:
        held = {d.roll_index: d for d in self.table}
        held.update((d.roll_index, d) for d in dice)
        self.table = [held[i] for i in sorted(held)]

    def first(
        self, target: CommandGroup, amended: BaseCommand, seq: int, table: Sequence[int] | None, actor: str
    ) -> tuple[Fate, list[RecordedEvent]]:
        """The amended command re-run (on the table dice agreed, when ``table`` corrects them): it must apply."""
        own = self.sandbox.recorded(self.campaign_id, target)
        next_index = self.sandbox.info(self.campaign_id).next_roll_index
        dice: RerunDice | TableDice = TableDice(table, actor, next_index) if table is not None else self._dice(own)
        new = self.sandbox.run(self.campaign_id, target, amended, amends=seq, dice=dice)
        return self._fate(target, new, dice, str(amended.name), amended.inputs()), new

    def later(self, group: CommandGroup) -> Fate:
        """A later command re-run on its own dice (then the table's, then new ones), or skipped alone."""
        issued = group.issued
        assert issued is not None
        name, args = str(issued.payload["command"]), dict(obj(issued.payload["args"]))
        own = self.sandbox.recorded(self.campaign_id, group)
        dice = self._dice(own)
        typed_at = self.new.position if isinstance(self.new, TypedFaces) else 0
        try:
            rerun = self.sandbox.run(self.campaign_id, group, dice=dice)
        except NotEnoughDiceError:
            raise
        except CampaignError as exc:
            if isinstance(self.new, TypedFaces):
                self.new.position = typed_at  # the faces it took are for the next command that asks
            self._back(own)
            return Fate(
                group.first_seq, name, args, "no longer applies", group.outcomes, why=str(exc), why_words=exc.words
            )
        return self._fate(group, rerun, dice, name, args)

    def _fate(
        self,
        group: CommandGroup,
        rerun: list[RecordedEvent],
        dice: RerunDice | TableDice,
        name: str,
        args: Mapping[str, JsonValue],
    ) -> Fate:
        after = as_recorded(group, CommandGroup(tuple(rerun)).outcomes)
        if isinstance(dice, TableDice):
            return Fate(
                group.first_seq, name, dict(args), "changed", group.outcomes, after, recorded=group.events,
                rerun=tuple(rerun),
            )  # fmt: skip
        self.table = dice.table_left
        self._back(dice.unused)
        # A change is one in what the rules decided, not in the words (a re-run lists a battle's Morale modifiers
        # in the order its recorded set-up keeps them, and that may not be the order typed).
        kind: FateKind = (
            "new dice"
            if dice.new_dice
            else "changed"
            if dice.unused or decided(after) != decided(group.outcomes)
            else "unchanged"
        )
        return Fate(
            group.first_seq, name, dict(args), kind, group.outcomes, after, new_dice=dice.new_dice,
            back_on_table=len(dice.unused), recorded=group.events, rerun=tuple(rerun),
        )  # fmt: skip


def _unused_faces(faces: TypedFaces, report: AmendReport) -> None:
    """Faces typed for an amendment's new dice that it did not use: refused, as leftover ``--dice`` are."""
    left = ", ".join(map(str, faces.left()))
    if not faces.position:
        raise InvalidInputError.saying(
            "the amendment rolls no new dice (--dice {left}): every command it re-runs has the dice it needs; leave "
            "out --dice (to correct the amended command's own table dice, give --reason too): nothing was amended",
            left=left,
        )
    # the English says "roll" or "rolls", "was" or "were": each count its own plural forms
    unused = Words.counted("{left} was not used", "{left} were not used", n=len(faces.left()), left=left)
    raise InvalidInputError.counting(
        "the amendment rolls {n:,} new roll ({used} of the faces given); {unused}: check what was entered "
        "(`amend … --dry-run` lists every die it needs): nothing was amended",
        "the amendment rolls {n:,} new rolls ({used} of the faces given); {unused}: check what was entered "
        "(`amend … --dry-run` lists every die it needs): nothing was amended",
        n=len(report.new_dice),
        used=faces.position,
        unused=unused,
    )


def _table_dice(
    target: CommandGroup, by_index: dict[int, DiceRolled], said: str, faces: Sequence[int]
) -> list[DiceRolled]:
    """The dice the command of ``target`` used, when every one was entered at the table (what ``amend --dice``
    may correct); refused in words otherwise: a command that rolled none, a seeded roll (the campaign's own dice
    cannot be changed, only a table entry), a die a retracted command left on the table, faces unchanged."""
    used = target.dice_used(ChainMap({d.roll_index: d for d in target.dice}, by_index))
    if not used:
        raise InvalidInputError.saying(
            "{command} at #{seq} rolled no dice: there are none to correct", command=said, seq=target.first_seq
        )
    for die in used:
        what = Words(
            "roll #{index} ({notation} for “{purpose}”)",
            index=die.roll_index,
            notation=die.notation,
            purpose=die.purpose,
        )
        if die.source == "seeded":
            raise InvalidInputError.saying(
                "{roll} was rolled by the campaign's own seeded dice: a seeded roll cannot be changed, only dice "
                "entered from the table (--dice); nothing was amended",
                roll=what,
            )
        if die.source != "table":
            raise InvalidInputError.saying(
                "{roll} repeats roll #{offered}, left on the table by a command that was taken back: correct it "
                "at the command that rolled it; nothing was amended",
                roll=what,
                offered=die.offered_from,
            )
    if [f for d in used for f in d.faces] == list(faces):
        shown = ",".join(str(f) for d in used for f in d.faces)
        raise InvalidInputError.saying(
            "--dice {faces} is what was entered for {command} at #{seq}: nothing to correct",
            faces=shown,
            command=said,
            seq=target.first_seq,
        )
    return used


def undo_reason_words(reason: str) -> str:
    """An undo's recorded reason ("undo of fs attack (#10–#14)", "undo of undo (#140–#140)") as a person says it:
    "it had undone fs attack, #10–#14", "it had undone the undo at #140"; any other reason as it is."""
    found = UNDO_OF.match(reason)
    if found is None:
        return reason
    what, first, last = found.groups()
    span = f"#{first}" if first == last else f"#{first}–#{last}"
    if what in _TIMELINE:
        return _(_HAD_UNDONE[what]).format(span=span)
    return _("it had undone {command}, {span}").format(command=what, span=span)


_TOOK_BACK = {
    "undo": N_("took back the undo at #{seq} ({reason}): what it had taken back is in effect again"),
    "rewind": N_("took back the rewind at #{seq} ({reason}): what it had taken back is in effect again"),
    "amend": N_("took back the amend at #{seq} ({reason}): what it had taken back is in effect again"),
}
"""An undo of one of the timeline's own commands, a sentence each (the languages inflect the command's name)."""
_HAD_UNDONE = {
    "undo": N_("it had undone the undo at {span}"),
    "rewind": N_("it had undone the rewind at {span}"),
    "amend": N_("it had undone the amend at {span}"),
}


def _asked(changes: Mapping[str, object], table: Sequence[int] | None, reason: str) -> str:
    """The amendment asked for, held to the input rules: something to change, and a reason for table dice. Its
    reason, trimmed."""
    check_inputs(dict(changes), ())
    check_text(reason, Words("an amendment's reason"))
    reason = reason.strip()
    if table is not None and not reason:
        raise InvalidInputError.saying(
            "a correction of table dice needs a reason (--reason), recorded with it for everyone to see: "
            "nothing was amended"
        )
    if table is None and not changes:
        raise InvalidInputError.saying("say what to amend: --set INPUT=VALUE, or --dice FACES with --reason")
    return reason


def _changed_inputs(name: str, args: Mapping[str, JsonValue], changes: Mapping[str, object]) -> dict[str, object]:
    """The changes asked for, each an input the command has; ``--set name=12`` on a word input is the word 12."""
    unknown = sorted(set(changes) - set(args))
    if unknown:
        raise InvalidInputError.saying(
            "{command} has no input {unknown} (its inputs: {inputs})",
            command=typed(name, dict(args)),
            unknown=", ".join(k.replace("_", "-") for k in unknown),
            inputs=", ".join(k.replace("_", "-") for k in sorted(args)),
        )
    return {
        key: str(value).lower() if isinstance(args[key], str) and isinstance(value, int) else value
        for key, value in changes.items()
    }


def _amend_words(seq: int, table: Sequence[int] | None, reason: str) -> str:
    """The amendment's rewind in words: what it amends, the table dice it corrects, and why."""
    if table is not None:
        return f"amend of seq {seq}: table dice corrected to {', '.join(map(str, table))} ({reason})"
    return f"amend of seq {seq}" + (f" ({reason})" if reason else "")


@contextlib.contextmanager
def _refused_as_not_amended(table: Sequence[int] | None) -> Iterator[None]:
    """The amended command's refusal, said as the amendment's: nothing was amended."""
    try:
        yield
    except NotEnoughDiceError as exc:
        raise _not_amended(exc) from None
    except DiceError as exc:
        if table is None:
            raise _does_not_apply(exc) from None
        raise InvalidInputError.saying(
            "--dice {faces}: {refusal}: nothing was amended", faces=",".join(map(str, table)), refusal=_said(exc)
        ) from None
    except CampaignError as exc:
        raise _does_not_apply(exc) from None


def _said(error: BaseException) -> Words | str:
    """An error's message as a clause of another refusal: its words where it was raised with them."""
    words = getattr(error, "words", None)
    return words if isinstance(words, Words) else str(error)


def _not_amended(error: BaseException) -> InvalidInputError:
    return InvalidInputError.saying("{refusal}: nothing was amended", refusal=_said(error))


def _does_not_apply(error: BaseException) -> InvalidInputError:
    return InvalidInputError.saying(
        "the amended command does not apply: {refusal}: nothing was amended", refusal=_said(error)
    )
