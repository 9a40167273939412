"""Rewind, amend and re-evaluate a campaign's commands (DESIGN.md, "Rewinding and auditing").

Every command was recorded with its inputs (``timeline.command_issued``) and the dice it used. A sandbox
ledger, loaded with a copy of the log, re-runs commands on their own recorded dice; what the sandbox
appends is exactly what the real log will append, in one transaction.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaign.commands import command_type, fold_for, recorded_command
from campaign.executor import Ledger, Replay
from campaign.rulesets import RULESETS
from campaign.rulesets.command import Command
from events.dice import ReplayDice
from events.dice.derive import seed_commitment
from events.envelope import NewEvent, RecordedEvent
from events.errors import CampaignError, InvalidInputError, NotFoundError
from events.families.dice import DiceRolled, SeedCommitted
from events.families.timeline import Branched, Rewound
from events.memory import InMemoryEventStore
from events.registry import registry
from events.store import EMPTY_HEAD, AppendResult, Head, prepare_events
from events.timeline import NEVER_RETRACTED, effective, live_seqs
from events.vault import SeedVault
from projections.campaign_state import FoldingCampaignStates
from projections.campaigns import FoldingCampaignDirectory
from projections.state.campaigns import CampaignInfo


@dataclass(frozen=True)
class CommandGroup:
    """One command's events in the log: its ``command_issued`` (if recorded), dice and effects."""

    events: tuple[RecordedEvent, ...]

    @property
    def first_seq(self) -> int:
        return self.events[0].seq

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq

    @property
    def issued(self) -> RecordedEvent | None:
        head = self.events[0]
        return head if head.type == "timeline.command_issued" else None

    @property
    def only_dice(self) -> bool:
        """What a rewind left of a retracted command: its dice and seeds, which stay (nothing to re-run)."""
        return self.issued is None and all(e.type in NEVER_RETRACTED for e in self.events)

    @property
    def dice(self) -> list[DiceRolled]:
        decoded = (registry.decode(e) for e in self.events if e.type == "dice.rolled")
        return [d for d in decoded if isinstance(d, DiceRolled)]

    def dice_used(self, by_index: Mapping[int, DiceRolled]) -> list[DiceRolled]:
        """The dice this command used, in the order it used them: as its ``command_issued`` records them, or
        (recorded before that was kept) its own, or those its rule applications name."""
        issued = self.issued
        recorded = issued.payload.get("dice") if issued is not None else None
        if recorded is not None:
            return [by_index[i] for i in recorded if i in by_index]
        own = self.dice
        if own:
            return own
        named = [i for e in self.events if e.type == "rules.applied" for i in e.payload["dice"]]
        return [by_index[i] for i in named if i in by_index]

    @property
    def outcomes(self) -> list[dict[str, Any]]:
        return [
            {
                "rule": e.payload["rule"],
                "unit_id": e.payload.get("unit_id"),
                "outcome": e.payload["outcome"],
                "explanation": e.payload["explanation"],
            }
            for e in self.events
            if e.type == "rules.applied"
        ]


def command_groups(events: Iterable[RecordedEvent]) -> list[CommandGroup]:
    """Consecutive events appended by the same command (they share its command id)."""
    groups: list[list[RecordedEvent]] = []
    last_id: object = object()
    for event in events:
        command_id = event.meta.get("command_id", f"seq-{event.seq}")
        if command_id != last_id or event.type in ("timeline.command_issued", "timeline.rewound"):
            groups.append([])
        groups[-1].append(event)
        last_id = command_id
    return [CommandGroup(tuple(g)) for g in groups if g]


@dataclass
class Change:
    seq: int
    command: str
    before: list[dict[str, Any]]
    after: list[dict[str, Any]]
    recorded_under: str | None = None
    """The ruleset version its rules were recorded under, when that is not today's: the rules changed since (a
    new edition of RULES.md), so a different outcome is expected, not a sign that the log was altered."""


@dataclass
class AmendReport:
    amended_seq: int
    command: str
    changes: list[Change] = field(default_factory=list)
    rerun: int = 0
    stopped_at: int | None = None
    stopped_because: str | None = None
    retracted: tuple[int, int] = (0, 0)
    dropped: list[tuple[int, str]] = field(default_factory=list)
    """Later commands the amendment retracts for good (they no longer apply): seq and command."""
    result: AppendResult | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "amended_seq": self.amended_seq,
            "command": self.command,
            "rerun": self.rerun,
            "changed": [
                {"seq": c.seq, "command": c.command, "before": c.before, "after": c.after} for c in self.changes
            ],
            "stopped_at": self.stopped_at,
            "stopped_because": self.stopped_because,
            "retracted": list(self.retracted),
            "dropped": [{"seq": seq, "command": command} for seq, command in self.dropped],
            "dry_run": self.result is None,
            "appended": [e.seq for e in self.result.events] if self.result else [],
        }


def _ids_in(event: RecordedEvent) -> list[str]:
    return [str(v) for k, v in event.payload.items() if k.endswith("_id") and isinstance(v, str)]


def new_ids(group: CommandGroup, seen: set[str]) -> list[str]:
    """The ids a command generated: those first seen in its events (a new unit's, a new battle's);
    ``seen`` holds every id of the events before it."""
    out: list[str] = []
    for event in group.events:
        for i in _ids_in(event):
            if i not in seen and i not in out:
                out.append(i)
    return out


class Sandbox:
    """A throw-away ledger over a copy of a campaign's log, re-running commands on recorded dice.

    A re-run command gets back the ids it generated the first time, so that the units and battles it
    created keep their identity for the commands after it.
    """

    def __init__(self, ledger: Ledger, events: Sequence[RecordedEvent]) -> None:
        self.store = InMemoryEventStore()
        self.store.load(events)
        self.start = len(events)
        self.original = list(events)
        self._seen: set[str] = set()
        self._seen_upto = 1
        """``_seen`` holds the ids of ``original`` events with seq below ``_seen_upto``."""
        self.dice_by_index = {
            d.roll_index: d
            for d in (registry.decode(e) for e in events if e.type == "dice.rolled")
            if isinstance(d, DiceRolled)
        }
        self.ledger = Ledger(
            store=self.store,
            directory=FoldingCampaignDirectory(self.store),
            vault=SeedVault(),
            states=FoldingCampaignStates(self.store, fold_for),
            actor=ledger.actor,
            clock=lambda: "replay",
            new_id=ledger.new_id,
            new_seed=lambda: bytes(32),
        )

    def _ids_before(self, seq: int) -> set[str]:
        """Every id in the original events before ``seq``: grown as commands are re-run in order."""
        if seq < self._seen_upto:
            self._seen, self._seen_upto = set(), 1
        for event in self.original[self._seen_upto - 1 : seq - 1]:
            self._seen.update(_ids_in(event))
        self._seen_upto = max(self._seen_upto, seq)
        return self._seen

    def info(self, campaign_id: str) -> CampaignInfo:
        info = self.ledger.directory.get(campaign_id)
        assert info is not None
        return info

    def run(
        self, campaign_id: str, group: CommandGroup, command: Command[Any, Any] | None = None, amends: int | None = None
    ) -> list[RecordedEvent]:
        """Re-run a recorded command on its own dice, through the executor; raise if it no longer applies."""
        issued = group.issued
        if issued is None:
            raise InvalidInputError(f"the command at seq {group.first_seq} was not recorded with its inputs")
        payload = issued.payload
        if command is None:
            command = recorded_command(str(payload["command"]), payload.get("version"), dict(payload["args"]))
        # The group's own dice too: an audit's sandbox holds only the log before the command it re-runs.
        recorded = group.dice_used({**self.dice_by_index, **{d.roll_index: d for d in group.dice}})
        dice = ReplayDice(recorded)
        before = self.store.head(campaign_id).seq
        given = payload.get("ids")
        ids = tuple(given) if given is not None else tuple(new_ids(group, self._ids_before(group.first_seq)))
        replay = Replay(dice, ids, amends)
        self.ledger.execute(
            self.info(campaign_id), command, command_id=f"replay-{before}-{group.first_seq}", replay=replay
        )
        if dice.unused:
            raise InvalidInputError(f"it now rolls fewer dice than the {len(recorded)} it was recorded with")
        return list(self.store.read(campaign_id, after_seq=before))

    def keep(self, campaign_id: str, group: CommandGroup) -> None:
        """Append ``group``'s recorded events as they stand (a command that cannot be re-run any more)."""
        events = [NewEvent(e.type, dict(e.payload), e.schema_version) for e in group.events]
        head = self.store.head(campaign_id).seq
        self.store.append(campaign_id, events, head, command_id=f"kept-{group.first_seq}")

    def appended(self, campaign_id: str) -> list[RecordedEvent]:
        return [e for e in self.store.read(campaign_id) if e.seq > self.start]


def _dice_in_use(events: Sequence[RecordedEvent]) -> tuple[dict[int, int], set[int], set[int]]:
    """Every die rolled (seq → roll index), the seqs of those a command in effect uses, and the roll indexes
    taken off the table (offered again, or set aside by a reroll). A die is used by the command in effect that
    rolled it, or that names it (``command_issued.dice``, a rule application's dice)."""
    live = live_seqs(events)
    rolled: dict[int, int] = {}
    command_of: dict[int, object] = {}
    named: set[int] = set()
    live_commands: set[object] = set()
    taken: set[int] = set()
    for e in events:
        p = e.payload
        if e.type == "dice.rolled":
            rolled[e.seq] = int(p["roll_index"])
            command_of[e.seq] = e.meta.get("command_id")
            if p.get("offered_from") is not None:
                taken.add(int(p["offered_from"]))
        elif e.type == "dice.set_aside":  # never retracted: a reroll stays a reroll
            taken.add(int(p["roll_index"]))
        if e.seq not in live or e.type in NEVER_RETRACTED:
            continue
        live_commands.add(e.meta.get("command_id"))
        if e.type in ("timeline.command_issued", "rules.applied"):
            named.update(int(i) for i in (p.get("dice") or ()))
    used = {seq for seq, index in rolled.items() if command_of[seq] in live_commands or index in named}
    return rolled, used, taken


def dice_left_on_table(
    before: Sequence[RecordedEvent], after: Sequence[RecordedEvent], queued: Sequence[int]
) -> tuple[tuple[int, int], ...]:
    """The dice on the table once a rewind, undo or amendment turns the log ``before`` into ``after``: those
    already on it (``queued``: seqs) and those a command in effect used before and no longer uses, less any a
    command in effect uses now or that were taken off; in the order rolled, as (seq, roll index)."""
    _, used_before, _ = _dice_in_use(before)
    rolled, used_after, taken = _dice_in_use(after)
    held = (set(queued) | used_before) - used_after
    return tuple((seq, rolled[seq]) for seq in sorted(held) if seq in rolled and rolled[seq] not in taken)


def _rewind_at(events: Sequence[RecordedEvent], to_seq: int) -> list[RecordedEvent]:
    """``events`` with a rewind to ``to_seq`` appended (not stored): what the log would be."""
    last = events[-1]
    rewind = RecordedEvent(0, last.campaign_id, last.seq + 1, "timeline.rewound", 1, {"to_seq": to_seq}, {}, "", "")
    return [*events, rewind]


def _as_recorded(group: CommandGroup, outcomes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A re-run's outcomes as the version of the command that ``group`` recorded would have recorded them."""
    issued = group.issued
    if issued is None:
        return outcomes
    kind = command_type(str(issued.payload["command"]))
    version = issued.payload.get("version") or 0
    return [dict(o) for o in kind.recorded_by(version, outcomes)]


def _edition(group: CommandGroup, info: CampaignInfo) -> str | None:
    """The ruleset version ``group``'s rules were recorded under, if it is not the version of today."""
    recorded = {str(e.payload.get("ruleset_version")) for e in group.events if e.type == "rules.applied"}
    issued = group.issued
    if issued is not None:
        # A command recorded before commands had versions ran under the first edition (0.1).
        kept = issued.payload.get("ruleset_version") or ("0.1" if issued.payload.get("version") is None else None)
        if kept is not None:
            recorded.add(str(kept))
    today = RULESETS[info.ruleset].version if info.ruleset in RULESETS else None
    older = sorted(v for v in recorded if v != today)
    return older[0] if older else None


def _decided(outcomes: list[dict[str, Any]]) -> list[tuple[Any, Any]]:
    """What a rule decided, without the wording of its explanation."""
    return [(o["rule"], o["outcome"]) for o in outcomes]


class Timeline:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def groups(self, info: CampaignInfo) -> tuple[list[RecordedEvent], list[CommandGroup]]:
        events = list(self.ledger.store.read(info.campaign_id))
        return events, command_groups(effective(events))

    def rewind(self, info: CampaignInfo, to_seq: int, reason: str = "", command_id: str | None = None) -> AppendResult:
        """Retract every event after ``to_seq``; nothing is deleted, and no roll index is used again."""
        events, groups = self.groups(info)
        if not 1 <= to_seq < info.last_seq:
            raise InvalidInputError(f"rewind to a seq between 1 and {info.last_seq - 1}")
        live = {e.seq for e in effective(events)}
        if to_seq not in live:
            raise InvalidInputError(f"seq {to_seq} is itself retracted: rewind to a seq still in effect")
        if not any(s > to_seq for s in live if s not in self._dice_seqs(events)):
            raise InvalidInputError(f"nothing after seq {to_seq} is in effect: there is nothing to rewind")
        inside = next((g for g in groups if g.first_seq <= to_seq < g.last_seq), None)
        if inside is not None:
            raise InvalidInputError(
                f"seq {to_seq} is in the middle of a command (seqs {inside.first_seq}–"
                f"{inside.last_seq}): rewind to {inside.first_seq - 1} or {inside.last_seq}"
            )
        on_table = dice_left_on_table(events, _rewind_at(events, to_seq), info.on_table)
        event = Rewound(to_seq=to_seq, reason=reason or "rewound by the game master", on_table=on_table)
        return self.ledger.record(info, [event], "rewind", command_id)

    @staticmethod
    def _dice_seqs(events: Sequence[RecordedEvent]) -> set[int]:
        return {e.seq for e in events if e.type in NEVER_RETRACTED}

    def undo(self, info: CampaignInfo, command_id: str | None = None) -> tuple[AppendResult, str, int]:
        """Take back the last thing appended that is still in effect: a command, a rewind or an amendment
        (whose retractions are then in effect no more). A rewind to just before it: nothing is deleted, and an
        undo can itself be undone. Returns the result, what was undone and the seq it started at."""
        events = list(self.ledger.store.read(info.campaign_id))
        live = live_seqs(events)
        last = next(
            (e for e in reversed(events) if e.seq in live and e.type not in NEVER_RETRACTED and e.seq > 1), None
        )
        if last is None:
            raise InvalidInputError("there is nothing to undo: the campaign has only just been created")
        key = last.meta.get("command_id")
        start = min(e.seq for e in events if e.meta.get("command_id") == key) if key else last.seq
        what = str(last.meta.get("command") or last.type)
        on_table = dice_left_on_table(events, _rewind_at(events, start - 1), info.on_table)
        event = Rewound(to_seq=start - 1, reason=f"undo of {what} (#{start}–#{last.seq})", on_table=on_table)
        return self.ledger.record(info, [event], "undo", command_id), what, start

    def amend(
        self,
        info: CampaignInfo,
        seq: int,
        changes: Mapping[str, Any],
        command_id: str | None = None,
        *,
        dry_run: bool = False,
    ) -> AmendReport:
        """Correct a past command's inputs, re-run it on its own dice, then every later command on theirs.
        With ``dry_run`` nothing is appended: the report says what would change and what would be dropped."""
        events, groups = self.groups(info)
        target = next((g for g in groups if g.first_seq <= seq <= g.last_seq), None)
        if target is None:
            raise NotFoundError(f"no command in effect at seq {seq}")
        issued = target.issued
        if issued is None:
            raise InvalidInputError(f"the command at seq {seq} was not recorded with its inputs; it cannot be amended")
        name = str(issued.payload["command"])
        current = recorded_command(name, issued.payload.get("version"), dict(issued.payload["args"]))
        args = current.inputs()
        unknown = sorted(set(changes) - set(args))
        if unknown:
            raise InvalidInputError(f"{name} has no input {', '.join(unknown)} (its inputs: {', '.join(sorted(args))})")
        args.update(changes)
        report = AmendReport(seq, name)
        sandbox = Sandbox(self.ledger, events)
        rewind_to = target.first_seq - 1
        sandbox.store.append(
            info.campaign_id,
            [registry.encode(Rewound(to_seq=rewind_to, reason=f"amend of seq {seq}"))],
            sandbox.store.head(info.campaign_id).seq,
            command_id="amend-rewind",
        )
        try:
            amended = recorded_command(name, type(current).schema_version, args)
            new = sandbox.run(info.campaign_id, target, amended, amends=seq)
        except CampaignError as exc:
            raise InvalidInputError(f"the amended command does not apply: {exc}") from None
        report.changes.append(
            Change(target.first_seq, report.command, target.outcomes, CommandGroup(tuple(new)).outcomes)
        )
        later = [g for g in groups if g.first_seq > target.last_seq]
        for group in later:
            if group.events[0].type == "timeline.rewound" or group.only_dice:
                continue
            try:
                rerun = sandbox.run(info.campaign_id, group)
            except CampaignError as exc:
                report.stopped_at, report.stopped_because = group.first_seq, str(exc)
                break
            report.rerun += 1
            after = _as_recorded(group, CommandGroup(tuple(rerun)).outcomes)
            if after != group.outcomes:
                name = str(group.issued.payload["command"]) if group.issued else "?"
                report.changes.append(Change(group.first_seq, name, group.outcomes, after))
        tail = sandbox.appended(info.campaign_id)
        batch = [NewEvent(event.type, dict(event.payload), event.schema_version) for event in tail]
        # The amendment's rewind says which dice its dropped commands leave on the table.
        whole = list(sandbox.store.read(info.campaign_id))
        left = [list(pair) for pair in dice_left_on_table(events, whole, info.on_table)]
        batch[0] = NewEvent(batch[0].type, {**batch[0].payload, "on_table": left}, batch[0].schema_version)
        report.retracted = (target.first_seq, info.last_seq)
        if report.stopped_at is not None:
            report.dropped = [
                (g.first_seq, str(g.issued.payload["command"]))
                for g in later
                if g.first_seq >= report.stopped_at and g.issued is not None
            ]
        if dry_run:
            return report
        report.result = self.ledger.append_prepared(info, batch, "amend", command_id)
        return report

    def reevaluate(self, info: CampaignInfo) -> list[Change]:
        """Re-run every recorded command in effect, in order, on its own dice; report any that now differ
        (the engine changed since): drift, reported and never written back."""
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
            edition = _edition(group, info)
            try:
                rerun = sandbox.run(info.campaign_id, group)
            except CampaignError as exc:
                drift.append(Change(group.first_seq, name, group.outcomes, [{"error": str(exc)}], edition))
                if edition is None:
                    break
                sandbox.keep(info.campaign_id, group)  # the rules changed since: go on from what was recorded
                continue
            if _decided(_as_recorded(group, CommandGroup(tuple(rerun)).outcomes)) != _decided(group.outcomes):
                after = CommandGroup(tuple(rerun)).outcomes
                drift.append(Change(group.first_seq, name, group.outcomes, after, edition))
        return drift


def branch(ledger: Ledger, parent: CampaignInfo, name: str, at_seq: int) -> AppendResult:
    """A what-if campaign sharing ``parent``'s history up to ``at_seq``; the parent is untouched.

    The shared events are copied command by command (their meta kept) and chained under the branch's own
    id. The branch derives the shared dice as its parent did, and commits to a fresh seed of its own, so
    that nobody can branch to see the parent's coming dice.
    """
    if ledger.directory.find(name) is not None:
        raise InvalidInputError(f"a campaign named {name!r} already exists in this database")
    events = list(ledger.store.read(parent.campaign_id))
    if not 1 <= at_seq <= len(events):
        raise InvalidInputError(f"branch at a seq between 1 and {len(events)}")
    groups = command_groups(events)
    inside = next((g for g in groups if g.first_seq <= at_seq < g.last_seq), None)
    if inside is not None:
        raise InvalidInputError(
            f"seq {at_seq} is in the middle of a command (seqs {inside.first_seq}–"
            f"{inside.last_seq}): branch at {inside.first_seq - 1} or {inside.last_seq}"
        )
    branch_id = ledger.new_id()
    shared = [g for g in groups if g.last_seq <= at_seq]
    recorded: list[RecordedEvent] = []
    head = EMPTY_HEAD
    for group in shared:
        batch = []
        for event in group.events:
            payload = dict(event.payload)
            if event.type == "campaign.created":
                payload.update(
                    name=name, dice_campaign_id=payload.get("dice_campaign_id") or parent.dice_id or parent.campaign_id
                )
            batch.append(NewEvent(event.type, payload, event.schema_version))
        meta = {k: v for k, v in group.events[0].meta.items() if k != "command_id"}
        chained = prepare_events(branch_id, batch, head, 0, group.events[0].meta.get("command_id"), meta)
        recorded.extend(chained)
        head = Head(chained[-1].seq, chained[-1].hash)
    epochs = sorted({0} | {int(e.payload["epoch"]) for e in events[:at_seq] if e.type == "dice.seed_committed"})
    new_epoch = epochs[-1] + 1
    seed = ledger.fresh_seed()
    own = [
        registry.encode(
            Branched(
                parent_id=parent.campaign_id,
                parent_name=parent.name,
                at_seq=at_seq,
                parent_hash=events[at_seq - 1].hash,
            )
        ),
        registry.encode(SeedCommitted(epoch=new_epoch, commitment=seed_commitment(seed))),
    ]
    meta = {"actor": ledger.actor, "command": "branch", "recorded_at": ledger.now()}
    recorded.extend(prepare_events(branch_id, own, head, 0, ledger.new_id(), meta))
    result = ledger.store.import_stream(branch_id, recorded)
    for epoch in epochs:
        with contextlib.suppress(NotFoundError):  # a seed not held here (an import without secrets)
            ledger.vault.keep(branch_id, epoch, ledger.vault.seed(parent.campaign_id, epoch))
    ledger.vault.keep(branch_id, new_epoch, seed)
    return result
