"""Checks over a campaign's stored log: the hash chain, every event's schema, and every die.

Dice checks: faces within the die, totals that add up, roll indexes that follow each other with no gap
(a deleted roll is missed even when the chain was recomputed after it), and, for every seed that has been
revealed, each seeded roll re-derived from it. Rolls whose seed is still secret are counted as pending,
not passed; the seeds held in the database are checked against their commitments (:func:`check_held_seeds`).

Shares of entropy (``dice.share_committed``): each must follow its seed's commitment, come before the epoch's
first seeded roll and before its reveal, be the only one of its giver in the epoch, and be given by the actor
who entered it. The reveal must publish exactly the committed shares, in commit order, each matching its
SHA-256; the epoch's rolls are then re-derived from the seed and the shares (``events.dice.derive.dice_key``).

Anchors: a log whose chain was recomputed after an edit is consistent with itself, so only a hash kept
outside the database shows it: ``expect_head`` (the head must be exactly this hash) and ``checkpoint``
(a ``(seq, hash)`` published earlier: the log must still hold that event with that hash).

Flags are not failures but what a suspicious player wants to see: a seed its creator chose, rolls that no
rule consumed (whoever holds an unrevealed seed can burn such rolls to steer the next one), every reroll of a
die left on the table, and every table die corrected by an amendment (from what to what, by whom, why).
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol, TypedDict

import orjson
from pydantic import ValidationError

from events.dice.derive import derive_faces, dice_key, seed_commitment, share_commitment
from events.envelope import GENESIS_HASH, RecordedEvent, compute_hash
from events.errors import CampaignError, CorruptEventError
from events.registry import EventRegistry
from events.verify_parts import (
    Fields,
    FieldsValidator,
    PendingRolls,
    Schemas,
    changed_roll,
    digest,
    revealed_shares,
    roll_problem,
    share_problem,
    span,
)


class SaidAgain(Protocol):
    """A finding's message as a view can say it again, in the reader's language."""

    def said(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Finding:
    seq: int
    type: str
    check: str
    message: str
    words: SaidAgain | None = field(default=None, compare=False, repr=False)
    """Where a view can say the message again in the reader's language: an object whose ``said()`` does (the
    checker words every finding in English, as ``--json`` keeps it)."""

    def __str__(self) -> str:
        return f"seq {self.seq} ({self.type}): {self.check}: {self.message}"


@dataclass
class VerifyReport:
    campaign_id: str
    events: int = 0
    head_hash: str = GENESIS_HASH
    rolls_rederived: int = 0
    rolls_pending: int = 0
    table_rolls: int = 0
    offered_rolls: int = 0
    """Rolls that repeated the dice a retracted command left on the table (checked against that roll)."""
    last_seq: int = 0
    findings: list[Finding] = field(default_factory=list)
    flags: list[Finding] = field(default_factory=list)
    """Not failures: a chosen seed, rolls no rule consumed (see the module's docstring)."""
    commitments: dict[int, tuple[int, str, str]] = field(default_factory=dict, repr=False)
    """Seed epoch → (seq, event type, commitment) of the event that committed to it."""
    revealed_epochs: set[int] = field(default_factory=set, repr=False)
    shares: dict[int, list[tuple[int, str, str]]] = field(default_factory=dict, repr=False)
    """Seed epoch → the shares of entropy committed for it, in order: (seq, who gave it, commitment)."""
    held_unrevealed: list[int] = field(default_factory=list)
    """Epochs whose secret seed this database holds: its holder can compute their coming rolls."""

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def first(self) -> Finding | None:
        return min(self.findings, key=lambda f: f.seq) if self.findings else None

    def as_dict(self) -> VerifyData:
        return {
            "campaign_id": self.campaign_id,
            "ok": self.ok,
            "events": self.events,
            "head_hash": self.head_hash,
            "rolls_rederived": self.rolls_rederived,
            "rolls_pending_reveal": self.rolls_pending,
            "table_rolls": self.table_rolls,
            "offered_rolls": self.offered_rolls,
            "seeds_held_unrevealed": self.held_unrevealed,
            "flags": [vars_of(f) for f in self.flags],
            "first_failure": None if self.first is None else vars_of(self.first),
            "failures": [vars_of(f) for f in sorted(self.findings, key=lambda f: f.seq)],
        }


class FindingData(TypedDict):
    """A finding as data (``verify --json``)."""

    seq: int
    type: str
    check: str
    message: str


class VerifyData(TypedDict):
    """A :class:`VerifyReport` as data (what ``verify --json`` prints of it)."""

    campaign_id: str
    ok: bool
    events: int
    head_hash: str
    rolls_rederived: int
    rolls_pending_reveal: int
    table_rolls: int
    offered_rolls: int
    seeds_held_unrevealed: list[int]
    flags: list[FindingData]
    first_failure: FindingData | None
    failures: list[FindingData]


def vars_of(finding: Finding) -> FindingData:
    return {"seq": finding.seq, "type": finding.type, "check": finding.check, "message": finding.message}


def _readable(events: Iterable[RecordedEvent], report: VerifyReport) -> Iterator[RecordedEvent]:
    """The events, stopping with a finding (not a traceback) at one whose stored JSON cannot be read."""
    try:
        yield from events
    except CorruptEventError as exc:
        report.findings.append(Finding(exc.seq, exc.type, "stored bytes", exc.what))


def _checked_as_they_pass(
    events: Iterable[RecordedEvent], report: VerifyReport, on_checked: Callable[[RecordedEvent], None]
) -> Iterator[RecordedEvent]:
    for event in events:
        yield event  # resumed once the loop has checked it
        if report.ok:
            on_checked(event)


REROLL = "reroll"
CORRECTED = "table dice corrected"
"""The checks of two flags: a die a retracted command left on the table, rerolled (``dice.set_aside``); table dice
read wrong, corrected by an amendment (``dice.corrected``). Neither is a failure; a group wants to see both."""


def verify_events(
    campaign_id: str,
    events: Iterable[RecordedEvent],
    registry: EventRegistry,
    on_event: Callable[[RecordedEvent], None] | None = None,
    *,
    checkpoint: tuple[int, str] | None = None,
    expect_head: str | None = None,
    on_checked: Callable[[RecordedEvent], None] | None = None,
) -> VerifyReport:
    """Verify a campaign's events; ``on_checked`` sees each event once it passed its own checks, while the
    log has no failure so far (an import writes exactly those).

    One pass, in memory bounded by the rolls still open (awaiting their seed's reveal, or a rule), a few
    integers each: a long log is streamed, not held."""
    report = VerifyReport(campaign_id)
    check = _Pass(campaign_id, registry, report, checkpoint)
    chained, decoded, kind_of = check.chained, check.decoded, check.of_type.get  # once an event: bound once
    count = 0
    stream = _readable(events, report)
    for event in stream if on_checked is None else _checked_as_they_pass(stream, report, on_checked):
        if on_event is not None:
            on_event(event)
        count += 1
        if not chained(event):
            break  # past a broken link nothing can be trusted, nor checked
        if event.hash == expect_head:
            check.head_seen = True
        fields = decoded(event)
        kind = kind_of(event.type)
        if fields is not None and kind is not None:
            kind(event, fields)
    check.finish(count)
    _check_anchors(report, checkpoint, check.anchored, expect_head, check.head_seen)
    return report


_MIDDLE = b'","schema_version":%d,"seq":%d,"type":'
"""The envelope's bytes between ``prev_hash`` and the type, as ``compute_hash`` writes them."""
_dumps, _SORT_KEYS, _sha256 = orjson.dumps, orjson.OPT_SORT_KEYS, hashlib.sha256


class _Pass:
    """What one pass over a campaign's log carries from an event to the next, and the check of each kind of
    event. Held only until it can be settled, so that a long log is verified (and imported) in bounded memory:
    seeded rolls until their seed is revealed, a few bytes each; for each roll its seq, its dice's digest,
    whether a rule consumed it and whether it was entered at the table (roll indexes have no gaps, so a roll's
    index is its place in these arrays)."""

    def __init__(
        self, campaign_id: str, registry: EventRegistry, report: VerifyReport, checkpoint: tuple[int, str] | None
    ) -> None:
        self.report = report
        self.campaign_id = self.dice_id = campaign_id
        self.expected_seq, self.prev_hash = 1, GENESIS_HASH
        self.anchor_seq = checkpoint[0] if checkpoint is not None else -1
        self.anchored: str | None = None
        self.head_seen = False
        self.revealed: dict[int, bytes] = {}
        self.first_seeded: dict[int, tuple[int, int]] = {}
        """Seed epoch → (roll index, seq) of its first seeded roll: shares for it must come before."""
        self.last_roll_index = -1
        self.dice_of = array("q")
        """Each roll index's dice in a 64-bit digest (count, sides, modifier, faces): what a die offered again
        must repeat. Eight bytes a roll keeps verify's memory bounded on long logs."""
        self.pending = PendingRolls()
        self.roll_seqs = array("q")
        self.consumed = bytearray()
        self.entered = bytearray()
        """Each roll index: 1 for dice entered at the table (the only ones a correction may replace)."""
        # The chain hash of each event from its stored bytes, as compute_hash makes it (a test holds them equal):
        # the envelope's head made once per command (its events share campaign id and meta), each type once.
        self.head_id, self.head_meta, self.head = "", b"", b""
        self.types_json: dict[str, bytes] = {}
        self.schemas = Schemas(registry)
        self.validators: dict[tuple[str, int], FieldsValidator | None] = {}
        self.of_type: dict[str, Callable[[RecordedEvent, Fields], None]] = {
            "dice.rolled": self.rolled,
            "rules.applied": self.applied,
            "dice.set_aside": self.changed,
            "dice.corrected": self.changed,
            "campaign.created": self.created,
            "dice.seed_committed": self.seed_committed,
            "dice.share_committed": self.share_committed,
            "dice.seed_revealed": self.seed_revealed,
        }
        """The kinds whose fields a check reads; every other event's schema is checked alone."""

    def fail(self, event: RecordedEvent, check: str, message: str) -> None:
        self.report.findings.append(Finding(event.seq, event.type, check, message))

    # -- the chain ------------------------------------------------------------------------------------------

    def chained(self, event: RecordedEvent) -> bool:
        """Whether the event follows the one before it: its seq, its link, its hash, its canonical payload."""
        _, cid, seq, type_, version, payload, _, prev, hash_, payload_json, meta_json = event
        if seq != self.expected_seq:
            what = "missing" if seq > self.expected_seq else "out of order"
            self.fail(event, "sequence", f"expected seq {self.expected_seq}, found {seq} (an event is {what})")
            return False
        if prev != self.prev_hash:
            self.fail(event, "chain", "prev_hash does not match the hash of the event before it")
            return False
        if not (payload_json and meta_json):
            recomputed = compute_hash(event)
        else:  # from the stored bytes, as compute_hash makes it (a test holds them equal)
            if meta_json != self.head_meta or cid != self.head_id:
                self.head_id, self.head_meta = cid, meta_json
                self.head = b'{"campaign_id":' + _dumps(cid) + b',"meta":' + meta_json
            type_json = self.types_json.get(type_) or self.types_json.setdefault(type_, _dumps(type_))
            before = prev.encode("ascii")
            parts = (before, self.head, b',"payload":', payload_json, b',"prev_hash":"', before)
            recomputed = _sha256(b"".join((*parts, _MIDDLE % (version, seq), type_json, b"}"))).hexdigest()
        if recomputed != hash_:
            self.fail(
                event, "chain", "stored hash does not match the event's content: it was changed after it was written"
            )
            return False
        if payload_json and _dumps(payload, None, _SORT_KEYS) != payload_json:
            self.fail(event, "chain", "payload is not in canonical form")
            return False
        self.expected_seq, self.prev_hash = seq + 1, hash_
        if seq == self.anchor_seq:
            self.anchored = hash_
        return True

    def decoded(self, event: RecordedEvent) -> Fields | None:
        """The event's fields, held to its schema; None (and a finding) when they are not of it."""
        key = (event.type, event.schema_version)
        try:
            validate = self.validators[key]
        except KeyError:
            validate = self.validators[key] = self.schemas.validator(*key)
        if validate is not None and event.payload.__class__ is dict:
            try:
                fields: Fields | None = validate(event.payload, strict=False)[0]
            except ValidationError:
                fields = None  # the model says why, in its own words
            if fields is not None:
                return fields
        try:
            return self.schemas.decoded(event)
        except CampaignError as exc:
            self.fail(event, "schema", str(exc))
            return None

    # -- dice -----------------------------------------------------------------------------------------------

    def rolled(self, event: RecordedEvent, fields: Fields) -> None:
        problem = self.roll_problem(fields)
        if problem:
            self.fail(event, "dice", problem)
            return
        index, source, epoch = fields["roll_index"], fields["source"], fields["seed_epoch"]
        self.last_roll_index = index
        self.dice_of.append(digest(fields))
        self.roll_seqs.append(event.seq)
        self.consumed.append(0)
        self.entered.append(source == "table")
        if source == "offered":
            self.report.offered_rolls += 1
        elif source == "table":
            self.report.table_rolls += 1
        else:
            self.pending.add(epoch or 0, event.seq, index, fields["sides"], fields["faces"])
            self.first_seeded.setdefault(epoch or 0, (index, event.seq))

    def roll_problem(self, fields: Fields) -> str | None:
        """What is wrong with a roll: its dice, its place among the rolls, where its dice came from."""
        index, source, last = fields["roll_index"], fields["source"], self.last_roll_index
        problem = roll_problem(fields)
        if problem is None and index <= last:
            problem = f"roll index {index} reuses or goes back from {last}"
        if problem is None and index > last + 1:
            missing = range(last + 1, index)
            problem = (
                f"roll index {index} follows {last}: roll"
                f"{'s' if len(missing) > 1 else ''} {span(missing)} missing from the log (deleted?)"
            )
        if problem is None and source == "offered":
            origin = fields["offered_from"] if fields["offered_from"] is not None else -1
            if not 0 <= origin < len(self.dice_of):
                problem = f"offered again from roll {fields['offered_from']}, which was never rolled before it"
            elif self.dice_of[origin] != digest(fields):
                problem = f"offered again from roll {origin} but its dice differ from that roll's"
        epoch = fields["seed_epoch"]
        if problem is None and source == "seeded":
            if epoch not in self.report.commitments:
                problem = f"seed epoch {epoch} was never committed"
            elif epoch in self.revealed:
                problem = f"rolled with the seed of epoch {epoch} after it was revealed"
        return problem

    def applied(self, event: RecordedEvent, fields: Fields) -> None:
        for index in fields["dice"]:
            if 0 <= index < len(self.consumed):
                self.consumed[index] = 1

    def changed(self, event: RecordedEvent, fields: Fields) -> None:
        """A die set aside for a reroll, or table dice corrected: flagged, for the group to see."""
        problem, said = changed_roll(event.type, fields, event.meta.get("actor"), self.entered)
        if problem:
            self.fail(event, "dice", problem)
        elif said:  # a die of the corrected command re-entered as it was is carried over, not a correction
            flag = REROLL if event.type == "dice.set_aside" else CORRECTED
            self.report.flags.append(Finding(event.seq, event.type, flag, said))

    # -- seeds and shares -----------------------------------------------------------------------------------

    def created(self, event: RecordedEvent, fields: Fields) -> None:
        seq, type_ = event.seq, event.type
        if seq != 1:
            self.fail(event, "schema", "a campaign is created only by its first event")
        self.report.commitments[0] = (seq, type_, fields["seed_commitment"])
        self.dice_id = fields["dice_campaign_id"] or self.campaign_id
        if fields["seed_chosen"]:
            self.report.flags.append(
                Finding(
                    seq,
                    type_,
                    "chosen seed",
                    "the seed of epoch 0 was typed in by the campaign's creator (new --seed), not drawn: "
                    "whoever chose it knew every roll of that epoch in advance",
                )
            )

    def seed_committed(self, event: RecordedEvent, fields: Fields) -> None:
        self.report.commitments[fields["epoch"]] = (event.seq, event.type, fields["commitment"])

    def share_committed(self, event: RecordedEvent, fields: Fields) -> None:
        report = self.report
        misplaced = share_problem(
            fields, event.meta.get("actor"), report.commitments, report.shares, self.revealed, self.first_seeded
        )
        if misplaced:
            self.fail(event, "share", misplaced)
            return
        report.shares.setdefault(fields["epoch"], []).append((event.seq, fields["by"], fields["commitment"]))

    def seed_revealed(self, event: RecordedEvent, fields: Fields) -> None:
        epoch = fields["epoch"]
        try:
            seed = bytes.fromhex(fields["seed"])
        except ValueError:
            self.fail(event, "dice", "revealed seed is not hexadecimal")
            return
        committed = self.report.commitments.get(epoch)
        if committed is None or committed[2] != seed_commitment(seed):
            self.fail(event, "dice", f"revealed seed of epoch {epoch} does not match the commitment made for it")
            return
        problems = revealed_shares(epoch, fields["shares"], self.report.shares.get(epoch, []))
        for wrong in problems:
            self.fail(event, "share", wrong)
        self.revealed[epoch] = seed
        self.report.revealed_epochs.add(epoch)
        if not problems:  # forged or missing shares: the epoch's dice are not re-derived (still pending)
            self.rederive(epoch, dice_key(seed, self.dice_id, epoch, fields["shares"]))

    def rederive(self, epoch: int, seed: bytes) -> None:
        """Each seeded roll of ``epoch`` derived again from its seed: the faces it recorded, or a finding."""
        for seq, index, count, sides, faces in self.pending.pop(epoch):
            derived = derive_faces(seed, self.dice_id, index, count, sides)
            if derived != faces:
                said = f"roll {index} recorded {list(faces)} but the seed gives {list(derived)}"
                self.report.findings.append(Finding(seq, "dice.rolled", "dice", said))
            else:
                self.report.rolls_rederived += 1

    def finish(self, count: int) -> None:
        """The report's totals (``count`` events read), and a flag for each roll no rule consumed."""
        report = self.report
        report.events = count
        if self.expected_seq > 1:
            report.head_hash, report.last_seq = self.prev_hash, self.expected_seq - 1
        report.rolls_pending = self.pending.count
        for index in (i for i, used in enumerate(self.consumed) if not used):
            seq = self.roll_seqs[index]
            report.flags.append(Finding(seq, "dice.rolled", "throwaway roll", f"roll {index} was consumed by no rule"))
        report.flags.sort(key=lambda f: f.seq)


def _check_anchors(
    report: VerifyReport,
    checkpoint: tuple[int, str] | None,
    anchored: str | None,
    expect_head: str | None,
    head_seen: bool,
) -> None:
    """Compare the log with hashes kept outside the database (a checkpoint file, a published head)."""
    if checkpoint is not None:
        seq, expected = checkpoint
        if anchored is None and report.ok:
            report.findings.append(
                Finding(
                    seq,
                    "checkpoint",
                    "anchor",
                    f"the checkpoint records event #{seq} but the log ends at #{report.last_seq}: "
                    "events were removed (truncated)",
                )
            )
        elif anchored is not None and anchored != expected:
            report.findings.append(
                Finding(
                    seq,
                    "checkpoint",
                    "anchor",
                    f"event #{seq} has hash {anchored} but the checkpoint says {expected}: "
                    "the history up to it was rewritten",
                )
            )
    if expect_head is not None and report.head_hash != expect_head:
        why = (
            "the log has grown past it"
            if head_seen
            else "that hash is nowhere in this log: its history was rewritten or truncated"
        )
        report.findings.append(
            Finding(
                report.last_seq,
                "head",
                "anchor",
                f"the head is #{report.last_seq} {report.head_hash}, not the expected {expect_head} ({why})",
            )
        )


def check_held_seeds(report: VerifyReport, held: Callable[[int], bytes | None]) -> None:
    """Check each seed this database holds against the commitment in the log; note the unrevealed ones.

    ``held(epoch)`` is the stored seed of that epoch, or None when this database holds none (an import
    without secrets). A swapped seed would otherwise show only as a refused ``reveal``, after it had rolled.
    """
    for epoch, (seq, type_, commitment) in sorted(report.commitments.items()):
        seed = held(epoch)
        if seed is None:
            continue
        if seed_commitment(seed) != commitment:
            report.findings.append(
                Finding(
                    seq,
                    type_,
                    "stored seed",
                    f"the seed held in this database for epoch {epoch} does not match the commitment in the "
                    "log: it was replaced",
                )
            )
        elif epoch not in report.revealed_epochs:
            report.held_unrevealed.append(epoch)


def check_held_shares(report: VerifyReport, held: Callable[[], list[tuple[int, int, str]]]) -> None:
    """Check the shares of entropy this database holds against their commitments in the log.

    ``held()`` is every share held for the campaign as (epoch, seq of its commitment, share). An epoch whose seed
    is held must hold all its shares (its dice cannot be derived without them); a held share must match the
    commitment at its seq; a share matching no commitment was added."""
    committed = {seq: (epoch, by, commitment) for epoch, rows in report.shares.items() for seq, by, commitment in rows}
    kept: dict[int, str] = {}
    for epoch, seq, share in held():
        kept[seq] = share
        found = committed.get(seq)
        if found is None or found[0] != epoch:
            report.findings.append(
                Finding(seq, "dice.share_committed", "stored share",
                        f"a share of entropy held for epoch {epoch} at #{seq} matches no commitment in the log")
            )  # fmt: skip
        elif share_commitment(share) != found[2]:
            report.findings.append(
                Finding(seq, "dice.share_committed", "stored share",
                        f"the share of entropy held for {found[1]}'s commitment at #{seq} (epoch {epoch}) does "
                        "not match it: it was replaced")
            )  # fmt: skip
    seeds_held = set(report.held_unrevealed)
    for seq, (epoch, by, _) in sorted(committed.items()):
        if seq not in kept and epoch in seeds_held:
            report.findings.append(
                Finding(seq, "dice.share_committed", "stored share",
                        f"the share of entropy {by} committed at #{seq} (epoch {epoch}) is not held in this "
                        "database, though its seed is: it was deleted, and the epoch's dice cannot be derived")
            )  # fmt: skip


def first_damaged(events: Iterable[RecordedEvent], registry: EventRegistry) -> CorruptEventError | None:
    """The first event that cannot be read as its type (unreadable JSON, a payload not of its schema), or None.

    What a command that failed on a stored event calls to name it, instead of showing a traceback.
    """
    try:
        for event in events:
            try:
                registry.decode(event)
            except CampaignError as exc:
                return CorruptEventError(event.campaign_id, event.seq, event.type, str(exc).split("\n")[0])
    except CorruptEventError as exc:
        return exc
    return None
