"""Re-running recorded commands: the log read as commands (their events, inputs and dice), a sandbox that
re-runs them through the executor on their own dice, and which dice a retraction leaves on the table.

What ``campaign/timeline.py`` builds rewind, amend, undo and re-evaluation on.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from campaign.commands import command_type, fold_for, recorded_command
from campaign.executor import Decision, Ledger, Replay
from campaign.rulesets import RULESETS
from campaign.rulesets.command import BaseCommand, Overridden
from events.dice import ReplayDice
from events.dice.dice import TableDice
from events.dice.rerun import RerunDice
from events.envelope import NewEvent, RecordedEvent
from events.errors import CampaignError, InvalidInputError
from events.families.dice import DiceRolled
from events.families.rules import RuleApplied
from events.memory import InMemoryEventStore
from events.overlay import OverlayStore
from events.recorded import JsonValue, maybe_text, maybe_whole, obj, text, texts, whole
from events.recorded import seq as array
from events.registry import registry
from events.store import EventStore, Head
from events.timeline import NEVER_RETRACTED, REWOUND, live_events, live_seqs
from events.vault import SeedVault
from projections.campaign_state import CampaignStates, FoldingCampaignStates
from projections.campaigns import CampaignDirectory, FoldingCampaignDirectory
from projections.state.campaigns import CampaignInfo

CORRECTED = "dice.corrected"
"""A table die corrected by an amendment (``amend SEQ --dice``): retracted with it, kept as it is by a later
amendment that re-runs past it, and a group of its own (not a fact of the command before it)."""


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
    def only_corrections(self) -> bool:
        """Table dice an amendment corrected (``dice.corrected``): kept as they are by a later amendment."""
        return self.issued is None and all(e.type == CORRECTED for e in self.events)

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
            return [by_index[i] for i in map(whole, array(recorded)) if i in by_index]
        own = self.dice
        if own:
            return own
        named = [whole(i) for e in self.events if e.type == "rules.applied" for i in array(e.payload["dice"])]
        return [by_index[i] for i in named if i in by_index]

    @property
    def outcomes(self) -> list[RuleOutcome]:
        return [
            {
                "rule": text(e.payload["rule"]),
                "unit_id": maybe_text(e.payload.get("unit_id")),
                "outcome": dict(obj(e.payload["outcome"])),
                "explanation": text(e.payload["explanation"]),
            }
            for e in self.events
            if e.type == "rules.applied"
        ]


class RuleOutcome(TypedDict, total=False):
    """A command's rule application as an amendment or a re-evaluation compares it, recorded or re-run; a re-run
    the rules refuse has only the ``error`` it was refused with."""

    rule: str
    unit_id: str | None
    outcome: dict[str, JsonValue]
    explanation: str
    error: str


def command_groups(events: Iterable[RecordedEvent]) -> list[CommandGroup]:
    """Consecutive events appended by the same command (they share its command id)."""
    return list(iter_command_groups(events))


def iter_command_groups(events: Iterable[RecordedEvent]) -> Iterator[CommandGroup]:
    """:func:`command_groups` one by one, as ``events`` are pulled: only the command being read is held (a
    ``branch`` of a long log streams it through)."""
    group: list[RecordedEvent] = []
    last_id: object = object()
    for event in events:
        command_id = event.meta.get("command_id", f"seq-{event.seq}")
        if group and (
            command_id != last_id
            or event.type in ("timeline.command_issued", "timeline.rewound")
            or (event.type == CORRECTED and group[-1].type not in (CORRECTED, REWOUND))
        ):
            yield CommandGroup(tuple(group))
            group = []
        group.append(event)
        last_id = command_id
    if group:
        yield CommandGroup(tuple(group))


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
        store = InMemoryEventStore()
        store.load(events)
        self.store: EventStore = store
        self.start = len(events)
        self.original: list[RecordedEvent] | None = list(events)
        self._seen: set[str] = set()
        self._seen_upto = 1
        """``_seen`` holds the ids of ``original`` events with seq below ``_seen_upto``."""
        self.dice_by_index = {
            d.roll_index: d
            for d in (registry.decode(e) for e in events if e.type == "dice.rolled")
            if isinstance(d, DiceRolled)
        }
        self.ledger = _sandbox_ledger(
            ledger, store, FoldingCampaignDirectory(store), FoldingCampaignStates(store, fold_for)
        )

    @classmethod
    def after_rewind(
        cls,
        ledger: Ledger,
        info: CampaignInfo,
        tail: Sequence[RecordedEvent],
        dice: Iterable[DiceRolled],
        rewind: NewEvent,
        command_id: str,
    ) -> Sandbox:
        """A sandbox whose first append is ``rewind`` (to the seq before ``tail``'s first) over the real log,
        without copying it: the real store serves the log, the sandbox holds only what it appends; the
        state after the rewind is the real state at its target (from the nearest snapshot) with the dice events
        of ``tail`` folded in (the only events after the target a rewind leaves in effect). ``tail``: the log
        from the target on; ``dice``: every die its commands may name. Only for commands recorded with the ids
        they generated (:meth:`run` reads no earlier event)."""
        sandbox = cls.__new__(cls)
        store = OverlayStore(ledger.store, info.campaign_id, Head(info.last_seq, info.head_hash))
        sandbox.store = store
        sandbox.start = info.last_seq
        sandbox.original = None
        sandbox._seen, sandbox._seen_upto = set(), 1
        sandbox.dice_by_index = {d.roll_index: d for d in dice}
        to_seq = whole(rewind.payload["to_seq"])
        state = ledger.states.get(info, to_seq)
        fold = fold_for(info.ruleset)
        if fold is not None:
            state = fold.fold((e for e in tail if e.seq > to_seq and e.type in NEVER_RETRACTED), state)
        (appended,) = store.append(info.campaign_id, [rewind], info.last_seq, command_id=command_id).events
        directory = _DirectoryFrom(store, info)
        states = _StatesFrom(store, info.campaign_id, appended.seq, state)
        sandbox.ledger = _sandbox_ledger(ledger, store, directory, states)
        return sandbox

    def _ids_before(self, seq: int) -> set[str]:
        """Every id in the original events before ``seq``: grown as commands are re-run in order."""
        if self.original is None:
            raise InvalidInputError.saying(
                "the command at seq {seq} was recorded without the ids it generated", seq=seq
            )
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

    def recorded(self, campaign_id: str, group: CommandGroup) -> list[DiceRolled]:
        """The dice ``group`` used, in order (:func:`recorded_dice`, from the dice this sandbox knows first)."""
        return recorded_dice(self.store, campaign_id, group, self.dice_by_index)

    def run(
        self,
        campaign_id: str,
        group: CommandGroup,
        command: BaseCommand | None = None,
        amends: int | None = None,
        dice: RerunDice | TableDice | None = None,
    ) -> list[RecordedEvent]:
        """Re-run a recorded command through the executor; raise if it no longer applies (then nothing is
        appended). On its own recorded dice, every one of them (a re-evaluation), or on ``dice`` (an amendment:
        its own first, then the table's and new ones; or the table dice an amendment corrects)."""
        issued = group.issued
        if issued is None:
            raise InvalidInputError.saying(
                "the command at seq {seq} was not recorded with its inputs", seq=group.first_seq
            )
        payload = issued.payload
        if command is None:
            command = recorded_command(
                str(payload["command"]), maybe_whole(payload.get("version")), dict(obj(payload["args"]))
            )
        before = self.store.head(campaign_id).seq
        given = payload.get("ids")
        ids = tuple(texts(given)) if given is not None else tuple(new_ids(group, self._ids_before(group.first_seq)))
        replay = (
            Replay(ReplayDice(self.recorded(campaign_id, group)), ids, amends, exact=True)
            if dice is None
            else Replay(dice, ids, amends)
        )
        self.ledger.execute(
            self.info(campaign_id), command, command_id=f"replay-{before}-{group.first_seq}", replay=replay
        )
        return list(self.store.read(campaign_id, after_seq=before))

    def keep(self, campaign_id: str, group: CommandGroup) -> None:
        """Append ``group``'s recorded events as they stand (a command that cannot be re-run any more)."""
        events = [NewEvent(e.type, dict(e.payload), e.schema_version) for e in group.events]
        head = self.store.head(campaign_id).seq
        self.store.append(campaign_id, events, head, command_id=f"kept-{group.first_seq}")

    def appended(self, campaign_id: str) -> list[RecordedEvent]:
        return list(self.store.read(campaign_id, after_seq=self.start))


def _sandbox_ledger(ledger: Ledger, store: EventStore, directory: CampaignDirectory, states: CampaignStates) -> Ledger:
    return Ledger(
        store=store,
        directory=directory,
        vault=SeedVault(),
        states=states,
        actor=ledger.actor,
        clock=lambda: "replay",
        new_id=ledger.new_id,
        new_seed=lambda: bytes(32),
    )


class _DirectoryFrom(FoldingCampaignDirectory):
    """The directory folded from the real entry at the real head (``info``): only what the sandbox appends."""

    def __init__(self, store: EventStore, info: CampaignInfo) -> None:
        super().__init__(store)
        self._folded[info.campaign_id] = (info.last_seq, info)


class _StatesFrom(FoldingCampaignStates):
    """States folded from ``state`` at ``seq`` on: only what the sandbox appends after it."""

    def __init__(self, store: EventStore, campaign_id: str, seq: int, state: object) -> None:
        super().__init__(store, fold_for)
        self._head[campaign_id] = (seq, state)


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
            rolled[e.seq] = whole(p["roll_index"])
            command_of[e.seq] = e.meta.get("command_id")
            if p.get("offered_from") is not None:
                taken.add(whole(p["offered_from"]))
        elif e.type == "dice.set_aside" or (e.type == CORRECTED and e.seq in live):
            # A reroll stays a reroll (never retracted); a table die read wrong is replaced while its correction
            # is in effect: neither is left lying on the table.
            taken.add(whole(p["roll_index"]))
        if e.seq not in live or e.type in NEVER_RETRACTED:
            continue
        live_commands.add(e.meta.get("command_id"))
        if e.type in ("timeline.command_issued", "rules.applied"):
            named.update(whole(i) for i in array(p.get("dice") or ()))
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


def rewind_at(events: Sequence[RecordedEvent], to_seq: int) -> list[RecordedEvent]:
    """``events`` with a rewind to ``to_seq`` appended (not stored): what the log would be."""
    last = events[-1]
    rewind = RecordedEvent(0, last.campaign_id, last.seq + 1, "timeline.rewound", 1, {"to_seq": to_seq}, {}, "", "")
    return [*events, rewind]


def as_recorded(group: CommandGroup, outcomes: list[RuleOutcome]) -> list[RuleOutcome]:
    """A re-run's outcomes as the version of the command that ``group`` recorded would have recorded them."""
    issued = group.issued
    if issued is None:
        return outcomes
    kind = command_type(str(issued.payload["command"]))
    version = maybe_whole(issued.payload.get("version")) or 0
    return [o.copy() for o in kind.recorded_by(version, outcomes)]


def edition_of(group: CommandGroup, info: CampaignInfo) -> str | None:
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


def decided(outcomes: list[RuleOutcome]) -> list[tuple[object, object]]:
    """What a rule decided, without the wording of its explanation."""
    return [(o["rule"], o["outcome"]) for o in outcomes]


def roll_seq(store: EventStore, campaign_id: str, roll: int, last_seq: int) -> int | None:
    """The seq of roll #``roll``, by point reads of the (campaign, type, seq) index: roll indexes only grow
    along the log (``verify`` holds it), so a binary search over seqs finds it in some twenty reads, however
    long the log. A log that breaks that order is searched through its dice in full."""
    lo, hi = 0, last_seq  # the roll, if any, has lo < seq <= hi
    while hi - lo > 256:
        mid = (lo + hi) // 2
        after = store.read_types(campaign_id, ["dice.rolled"], after_seq=mid, upto_seq=hi, limit=1)
        index = whole(after[0].payload["roll_index"]) if after else None
        if index == roll:
            return after[0].seq
        if index is None or index > roll:
            hi = mid
        else:
            lo = after[0].seq
    for window in ((lo, hi), (0, None)):  # the narrowed window; the whole log only if the order was broken
        found = [
            e.seq for e in store.read_types(campaign_id, ["dice.rolled"], *window) if e.payload["roll_index"] == roll
        ]
        if found:
            return found[0]
    return None


def command_of(store: EventStore, event: RecordedEvent) -> CommandGroup:
    """The command ``event`` belongs to, by a point read of its command's events."""
    command_id = event.meta.get("command_id")
    events = store.command_events(event.campaign_id, str(command_id)) if command_id is not None else None
    groups = command_groups(events or (event,))
    return next((g for g in groups if g.first_seq <= event.seq <= g.last_seq), CommandGroup((event,)))


def recorded_dice(
    store: EventStore, campaign_id: str, group: CommandGroup, known: dict[int, DiceRolled] | None = None
) -> list[DiceRolled]:
    """The dice ``group``'s command used, in the order it used them: its own, those in ``known``, and any other
    it names (dice it took off the table, rolled by an earlier command), read by the roll's seq."""
    own = {d.roll_index: d for d in group.dice}
    issued = group.issued
    for index in (whole(i) for i in array(issued.payload.get("dice") or () if issued is not None else ())):
        if index in own:
            continue
        if known is not None and index in known:
            own[index] = known[index]
            continue
        seq = roll_seq(store, campaign_id, index, group.first_seq - 1)
        for event in store.read(campaign_id, after_seq=(seq or 1) - 1, upto_seq=seq or 0):
            rolled = registry.decode(event)
            if isinstance(rolled, DiceRolled):
                own[rolled.roll_index] = rolled
    if known is not None and issued is not None and issued.payload.get("dice") is None:
        # Recorded before a command named its dice: its rule applications name them. A view, not a copy: copying
        # every roll of the log for each command made re-evaluation quadratic.
        return group.dice_used(ChainMap(own, known))
    return group.dice_used(own)


def decide_again(
    ledger: Ledger,
    info: CampaignInfo,
    group: CommandGroup,
    *,
    at_seq: int | None = None,
    state: Overridden | None = None,
) -> Decision:
    """A recorded command decided again through the executor's decide step, on its own inputs, ids and every one
    of its recorded dice, from the campaign as it stood before it (``at_seq``, or ``state`` as folded by the
    caller); refused (:class:`InvalidInputError`) when it now rolls fewer dice than it recorded."""
    issued = group.issued
    assert issued is not None and issued.payload.get("ids") is not None
    payload = issued.payload
    command = recorded_command(str(payload["command"]), maybe_whole(payload.get("version")), dict(obj(payload["args"])))
    recorded = recorded_dice(ledger.store, info.campaign_id, group)
    ids = [str(i) for i in array(payload["ids"])]
    decided = ledger.decide(info, command, ReplayDice(recorded), ids=ids, at_seq=at_seq, state=state)
    if decided.unused:
        raise InvalidInputError.saying(
            "it now rolls fewer dice than the {count} it was recorded with", count=len(recorded)
        )
    return decided


def redecide(ledger: Ledger, info: CampaignInfo, group: CommandGroup) -> list[dict[str, JsonValue]] | None:
    """A recorded command's rule outcomes decided again on its own inputs and dice, from the campaign as it stood
    before it (the nearest snapshot and the events since, not a copy of the log). None for a command recorded
    without the ids it generated (older logs): those re-run in a :class:`Sandbox`."""
    issued = group.issued
    if issued is None or issued.payload.get("ids") is None:
        return None
    decided = decide_again(ledger, info, group, at_seq=group.first_seq - 1)
    return [dict(registry.encode(e).payload) for e in decided.facts if isinstance(e, RuleApplied)]


_NOT_EFFECTS = frozenset({"timeline.command_issued", "dice.rolled"})


def rerun_in_place(ledger: Ledger, info: CampaignInfo) -> list[object] | None:
    """Every recorded command in effect decided again, in order, on its own inputs, ids and dice, against the
    campaign's state folded from the log as it streams by: ``[]`` when each decides exactly the events it
    recorded, None as soon as one does not (or cannot be re-run so: recorded without its ids, an error).

    Re-evaluation (``Timeline.reevaluate``) runs this first. While every command decides what it recorded, the
    state a sandbox would re-run the next one on is the state of the log itself (folds read only the facts'
    types and payloads, and re-run commands roll no dice), so this is the sandbox's verdict without copying the
    log or appending anything, in memory bounded by one command. On None the sandbox works out the drift."""
    campaign_id = info.campaign_id
    fold = fold_for(info.ruleset)
    if fold is None:
        return None  # a ruleset this version does not know: the sandbox says what cannot be re-run
    state = fold.initial()
    first = True
    for group in iter_command_groups(live_events(ledger.store, campaign_id)):
        issued = group.issued
        if first or issued is None:
            if not first and any(e.type not in NEVER_RETRACTED and e.type != CORRECTED for e in group.events):
                return None  # a command recorded without its inputs: the sandbox drops its facts
            first = False
        else:
            if issued.payload.get("ids") is None:
                return None
            try:
                decided = decide_again(ledger, info, group, state=state)
            except CampaignError:
                return None
            recorded = [(e.type, e.payload) for e in group.events if e.type not in _NOT_EFFECTS]
            if [(e.type, e.payload) for e in map(registry.encode, decided.facts)] != recorded:
                return None
        for event in group.events:
            state = fold.apply(state, event)
    return []
