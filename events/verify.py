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
from typing import Any

import orjson
from pydantic import ValidationError

from events.dice.derive import derive_faces, dice_key, seed_commitment, share_commitment
from events.envelope import GENESIS_HASH, RecordedEvent, compute_hash
from events.errors import CampaignError, CorruptEventError
from events.registry import EventRegistry
from events.verify_parts import (
    PendingRolls,
    Schemas,
    changed_roll,
    digest,
    revealed_shares,
    roll_problem,
    share_problem,
    span,
)


@dataclass(frozen=True, slots=True)
class Finding:
    seq: int
    type: str
    check: str
    message: str

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

    def as_dict(self) -> dict[str, object]:
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


def vars_of(finding: Finding) -> dict[str, object]:
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


_HANDLED = frozenset(
    {
        "campaign.created",
        "dice.seed_committed",
        "dice.seed_revealed",
        "dice.share_committed",
        "rules.applied",
        "dice.set_aside",
        "dice.corrected",
    }
)
"""The types besides ``dice.rolled`` whose fields a check reads; every other event's schema is checked alone."""


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
    expected_seq, prev_hash = 1, GENESIS_HASH
    revealed: dict[int, bytes] = {}
    first_seeded: dict[int, tuple[int, int]] = {}
    """Seed epoch → (roll index, seq) of its first seeded roll: shares for it must come before."""
    last_roll_index = -1
    dice_of = array("q")
    """Each roll index's dice in a 64-bit digest (count, sides, modifier, faces): what a die offered again must
    repeat. Eight bytes a roll keeps verify's memory bounded on long logs."""
    # Held only until they can be settled, so that a long log is verified (and imported) in bounded memory:
    # seeded rolls until their seed is revealed, a few bytes each; and for each roll its seq and whether a rule
    # consumed it (nine bytes: roll indexes have no gaps, so a roll's index is its place in these arrays).
    pending = PendingRolls()
    roll_seqs = array("q")
    consumed = bytearray()
    entered = bytearray()
    """Each roll index: 1 for dice entered at the table (the only ones a correction may replace)."""
    anchor_seq = checkpoint[0] if checkpoint is not None else -1
    anchored: str | None = None
    head_seen = False
    dice_id = campaign_id
    # The chain hash of each event from its stored bytes, as compute_hash makes it (a test holds them equal): the
    # envelope's head made once per command (its events share campaign id and meta), each type's name once.
    head_id, head_meta, head = "", b"", b""
    types_json: dict[str, bytes] = {}
    middle = b'","schema_version":%d,"seq":%d,"type":'
    schemas = Schemas(registry)
    validators: dict[tuple[str, int], Callable[..., Any] | None] = {}
    dumps, sort_keys, sha256 = orjson.dumps, orjson.OPT_SORT_KEYS, hashlib.sha256
    count = 0

    def fail(event: RecordedEvent, check: str, message: str) -> None:
        report.findings.append(Finding(event.seq, event.type, check, message))

    def rederive(epoch: int, seed: bytes) -> None:
        for seq, index, count, sides, faces in pending.pop(epoch):
            derived = derive_faces(seed, dice_id, index, count, sides)
            if derived != faces:
                report.findings.append(
                    Finding(
                        seq,
                        "dice.rolled",
                        "dice",
                        f"roll {index} recorded {list(faces)} but the seed gives {list(derived)}",
                    )
                )
            else:
                report.rolls_rederived += 1

    stream = _readable(events, report)
    for event in stream if on_checked is None else _checked_as_they_pass(stream, report, on_checked):
        if on_event is not None:
            on_event(event)
        count += 1
        _, cid, seq, type_, version, payload, _, prev, hash_, payload_json, meta_json = event
        if seq != expected_seq:
            what = "missing" if seq > expected_seq else "out of order"
            fail(event, "sequence", f"expected seq {expected_seq}, found {seq} (an event is {what})")
            break
        if prev != prev_hash:
            fail(event, "chain", "prev_hash does not match the hash of the event before it")
            break
        if payload_json and meta_json:
            if meta_json != head_meta or cid != head_id:
                head_id, head_meta = cid, meta_json
                head = b'{"campaign_id":' + dumps(cid) + b',"meta":' + meta_json
            type_json = types_json.get(type_) or types_json.setdefault(type_, dumps(type_))
            before = prev.encode("ascii")
            recomputed = sha256(
                b"".join(
                    (
                        before,
                        head,
                        b',"payload":',
                        payload_json,
                        b',"prev_hash":"',
                        before,
                        middle % (version, seq),
                        type_json,
                        b"}",
                    )
                )
            ).hexdigest()
        else:
            recomputed = compute_hash(event)
        if recomputed != hash_:
            fail(event, "chain", "stored hash does not match the event's content: it was changed after it was written")
            break
        if payload_json and dumps(payload, None, sort_keys) != payload_json:
            fail(event, "chain", "payload is not in canonical form")
            break
        expected_seq, prev_hash = seq + 1, hash_
        if hash_ == expect_head:
            head_seen = True
        if seq == anchor_seq:
            anchored = hash_
        try:
            validate = validators[type_, version]
        except KeyError:
            validate = validators[type_, version] = schemas.validator(type_, version)
        fields = None
        if validate is not None and payload.__class__ is dict:
            try:  # noqa: SIM105 (a `with suppress` costs more, once an event)
                fields = validate(payload, strict=False)[0]
            except ValidationError:
                pass  # the model says why, in its own words
        if fields is None:
            try:
                fields = schemas.decoded(event)
            except CampaignError as exc:
                fail(event, "schema", str(exc))
                continue
        if type_ == "dice.rolled":
            index, source = fields["roll_index"], fields["source"]
            problem = roll_problem(fields)
            if problem is None and index <= last_roll_index:
                problem = f"roll index {index} reuses or goes back from {last_roll_index}"
            if problem is None and index > last_roll_index + 1:
                missing = range(last_roll_index + 1, index)
                problem = (
                    f"roll index {index} follows {last_roll_index}: roll"
                    f"{'s' if len(missing) > 1 else ''} {span(missing)} missing from the log (deleted?)"
                )
            if problem is None and source == "offered":
                origin = fields["offered_from"] if fields["offered_from"] is not None else -1
                if not 0 <= origin < len(dice_of):
                    problem = f"offered again from roll {fields['offered_from']}, which was never rolled before it"
                elif dice_of[origin] != digest(fields):
                    problem = f"offered again from roll {origin} but its dice differ from that roll's"
            epoch = fields["seed_epoch"]
            if problem is None and source == "seeded":
                if epoch not in report.commitments:
                    problem = f"seed epoch {epoch} was never committed"
                elif epoch in revealed:
                    problem = f"rolled with the seed of epoch {epoch} after it was revealed"
            if problem:
                fail(event, "dice", problem)
                continue
            last_roll_index = index
            dice_of.append(digest(fields))
            roll_seqs.append(seq)
            consumed.append(0)
            entered.append(source == "table")
            if source == "offered":
                report.offered_rolls += 1
            elif source == "table":
                report.table_rolls += 1
            else:
                pending.add(epoch or 0, seq, index, fields["sides"], fields["faces"])
                first_seeded.setdefault(epoch or 0, (index, seq))
        elif type_ not in _HANDLED:
            continue
        elif type_ == "rules.applied":
            for index in fields["dice"]:
                if 0 <= index < len(consumed):
                    consumed[index] = 1
        elif type_ in ("dice.set_aside", "dice.corrected"):
            problem, said = changed_roll(type_, fields, event.meta.get("actor"), entered)
            if problem:
                fail(event, "dice", problem)
                continue
            if said:  # a die of the corrected command re-entered as it was is carried over, not a correction
                report.flags.append(Finding(seq, type_, REROLL if type_ == "dice.set_aside" else CORRECTED, said))
        elif type_ == "campaign.created":
            if seq != 1:
                fail(event, "schema", "a campaign is created only by its first event")
            report.commitments[0] = (seq, type_, fields["seed_commitment"])
            dice_id = fields["dice_campaign_id"] or campaign_id
            if fields["seed_chosen"]:
                report.flags.append(
                    Finding(
                        seq,
                        type_,
                        "chosen seed",
                        "the seed of epoch 0 was typed in by the campaign's creator (new --seed), not drawn: "
                        "whoever chose it knew every roll of that epoch in advance",
                    )
                )
        elif type_ == "dice.seed_committed":
            report.commitments[fields["epoch"]] = (seq, type_, fields["commitment"])
        elif type_ == "dice.share_committed":
            misplaced = share_problem(
                fields, event.meta.get("actor"), report.commitments, report.shares, revealed, first_seeded
            )
            if misplaced:
                fail(event, "share", misplaced)
                continue
            report.shares.setdefault(fields["epoch"], []).append((seq, fields["by"], fields["commitment"]))
        else:  # dice.seed_revealed
            epoch = fields["epoch"]
            try:
                seed = bytes.fromhex(fields["seed"])
            except ValueError:
                fail(event, "dice", "revealed seed is not hexadecimal")
                continue
            committed = report.commitments.get(epoch)
            if committed is None or committed[2] != seed_commitment(seed):
                fail(event, "dice", f"revealed seed of epoch {epoch} does not match the commitment made for it")
                continue
            problems = revealed_shares(epoch, fields["shares"], report.shares.get(epoch, []))
            for wrong in problems:
                fail(event, "share", wrong)
            revealed[epoch] = seed
            report.revealed_epochs.add(epoch)
            if not problems:  # forged or missing shares: the epoch's dice are not re-derived (still pending)
                rederive(epoch, dice_key(seed, dice_id, epoch, fields["shares"]))

    report.events = count
    if expected_seq > 1:
        report.head_hash, report.last_seq = prev_hash, expected_seq - 1
    report.rolls_pending = pending.count
    for index in (i for i, used in enumerate(consumed) if not used):
        seq = roll_seqs[index]
        report.flags.append(Finding(seq, "dice.rolled", "throwaway roll", f"roll {index} was consumed by no rule"))
    report.flags.sort(key=lambda f: f.seq)
    _check_anchors(report, checkpoint, anchored, expect_head, head_seen)
    return report


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
