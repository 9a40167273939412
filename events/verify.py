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

Flags are not failures but what a suspicious player wants to see: a seed its creator chose, and rolls
that no rule consumed (whoever holds an unrevealed seed can burn such rolls to steer the next one).
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import orjson
from pydantic import ValidationError

from events.canonical import dumps_trusted
from events.dice.derive import derive_faces, dice_key, seed_commitment, share_commitment
from events.dice.notation import DiceSpec, parse
from events.envelope import GENESIS_HASH, RecordedEvent, compute_hash
from events.errors import CampaignError, CorruptEventError, EventSchemaError
from events.families.campaign import CampaignCreated
from events.families.dice import DiceRolled, SeedRevealed, ShareCommitted
from events.families.rules import RuleApplied
from events.registry import Event, EventRegistry


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


@lru_cache(maxsize=256)
def _parsed(notation: str) -> DiceSpec | str:
    """A notation's dice, or why it does not parse: a campaign rolls a handful of notations over and over."""
    try:
        return parse(notation)
    except CampaignError as exc:
        return f"notation {notation!r} does not parse: {exc}"


def check_roll(roll: DiceRolled) -> str | None:
    """What is wrong with a recorded roll on its own, or None."""
    spec = _parsed(roll.notation)
    if isinstance(spec, str):
        return spec
    if (spec.count, spec.sides, spec.modifier) != (roll.count, roll.sides, roll.modifier):
        return f"{roll.count}d{roll.sides}{roll.modifier:+d} does not match its notation {roll.notation}"
    if len(roll.faces) != roll.count:
        return f"{len(roll.faces)} faces recorded for {roll.count} dice"
    bad = [f for f in roll.faces if not 1 <= f <= roll.sides]
    if bad:
        return f"face {bad[0]} is impossible on a d{roll.sides}"
    if sum(roll.faces) + roll.modifier != roll.total:
        return f"total {roll.total} is not the faces {list(roll.faces)} plus {roll.modifier}"
    if roll.source == "seeded" and roll.seed_epoch is None:
        return "a seeded roll without a seed epoch"
    return None


def _readable(events: Iterable[RecordedEvent], report: VerifyReport) -> Iterator[RecordedEvent]:
    """The events, stopping with a finding (not a traceback) at one whose stored JSON cannot be read."""
    try:
        yield from events
    except CorruptEventError as exc:
        report.findings.append(Finding(exc.seq, exc.type, "stored bytes", exc.what))


def _checked_as_they_pass(
    events: Iterable[RecordedEvent], report: VerifyReport, on_checked: Callable[[RecordedEvent], None] | None
) -> Iterator[RecordedEvent]:
    for event in events:
        yield event  # resumed once the loop has checked it
        if on_checked is not None and report.ok:
            on_checked(event)


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
    log has no failure so far (an import writes exactly those)."""
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
    # seeded rolls until their seed is revealed, rolls until a rule consumes them.
    pending: dict[int, list[tuple[int, int, int, int, tuple[int, ...]]]] = {}
    """Seeded rolls awaiting their seed's reveal, each as five integers (seq, index, count, sides, faces)."""
    unconsumed: dict[int, int] = {}
    """Roll index → seq of the rolls no rule has consumed yet (two integers a roll)."""
    anchored: str | None = None
    seen_hashes: set[str] = set()
    dice_id = campaign_id
    hashes = _Hashes()
    decode = _Decoder(registry).decode
    dumps, sort_keys = orjson.dumps, orjson.OPT_SORT_KEYS

    def fail(event: RecordedEvent, check: str, message: str) -> None:
        report.findings.append(Finding(event.seq, event.type, check, message))

    def rederive(epoch: int, seed: bytes) -> None:
        for seq, index, count, sides, faces in pending.pop(epoch, []):
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

    for event in _checked_as_they_pass(_readable(events, report), report, on_checked):
        if on_event is not None:
            on_event(event)
        report.events += 1
        if event.seq != expected_seq:
            what = "missing" if event.seq > expected_seq else "out of order"
            fail(event, "sequence", f"expected seq {expected_seq}, found {event.seq} (an event is {what})")
            break
        if event.prev_hash != prev_hash:
            fail(event, "chain", "prev_hash does not match the hash of the event before it")
            break
        if hashes.of(event) != event.hash:
            fail(
                event,
                "chain",
                "stored hash does not match the event's content: it was changed after it was written",
            )
            break
        if event.payload_json and dumps(event.payload, None, sort_keys) != event.payload_json:
            fail(event, "chain", "payload is not in canonical form")
            break
        expected_seq, prev_hash = event.seq + 1, event.hash
        report.head_hash, report.last_seq = event.hash, event.seq
        if expect_head is not None:
            seen_hashes.add(event.hash)
        if checkpoint is not None and event.seq == checkpoint[0]:
            anchored = event.hash
        try:
            typed = decode(event)
        except CampaignError as exc:
            fail(event, "schema", str(exc))
            continue
        if isinstance(typed, CampaignCreated):
            if event.seq != 1:
                fail(event, "schema", "a campaign is created only by its first event")
            report.commitments[0] = (event.seq, event.type, typed.seed_commitment)
            dice_id = typed.dice_campaign_id or campaign_id
            if typed.seed_chosen:
                report.flags.append(
                    Finding(
                        event.seq,
                        event.type,
                        "chosen seed",
                        "the seed of epoch 0 was typed in by the campaign's creator (new --seed), not drawn: "
                        "whoever chose it knew every roll of that epoch in advance",
                    )
                )
        elif event.type == "dice.seed_committed":
            report.commitments[event.payload["epoch"]] = (event.seq, event.type, event.payload["commitment"])
        elif isinstance(typed, SeedRevealed):
            epoch = typed.epoch
            try:
                seed = bytes.fromhex(typed.seed)
            except ValueError:
                fail(event, "dice", "revealed seed is not hexadecimal")
                continue
            committed = report.commitments.get(epoch)
            if committed is None or committed[2] != seed_commitment(seed):
                fail(event, "dice", f"revealed seed of epoch {epoch} does not match the commitment made for it")
                continue
            problems = _revealed_shares(epoch, typed.shares, report.shares.get(epoch, []))
            for wrong in problems:
                fail(event, "share", wrong)
            revealed[epoch] = seed
            report.revealed_epochs.add(epoch)
            if not problems:  # forged or missing shares: the epoch's dice are not re-derived (still pending)
                rederive(epoch, dice_key(seed, dice_id, epoch, typed.shares))
        elif isinstance(typed, ShareCommitted):
            misplaced = _share_problem(typed, event, report, revealed, first_seeded)
            if misplaced:
                fail(event, "share", misplaced)
                continue
            report.shares.setdefault(typed.epoch, []).append((event.seq, typed.by, typed.commitment))
        elif isinstance(typed, RuleApplied):
            for index in typed.dice:
                unconsumed.pop(index, None)
        elif isinstance(typed, DiceRolled):
            problem = check_roll(typed)
            if problem is None and typed.roll_index <= last_roll_index:
                problem = f"roll index {typed.roll_index} reuses or goes back from {last_roll_index}"
            if problem is None and typed.roll_index > last_roll_index + 1:
                missing = range(last_roll_index + 1, typed.roll_index)
                problem = (
                    f"roll index {typed.roll_index} follows {last_roll_index}: roll"
                    f"{'s' if len(missing) > 1 else ''} {_span(missing)} missing from the log (deleted?)"
                )
            if problem is None and typed.source == "offered":
                origin = typed.offered_from if typed.offered_from is not None else -1
                if not 0 <= origin < len(dice_of):
                    problem = f"offered again from roll {typed.offered_from}, which was never rolled before it"
                elif dice_of[origin] != _digest(typed):
                    problem = f"offered again from roll {origin} but its dice differ from that roll's"
            if problem is None and typed.source == "seeded":
                if typed.seed_epoch not in report.commitments:
                    problem = f"seed epoch {typed.seed_epoch} was never committed"
                elif typed.seed_epoch in revealed:
                    problem = f"rolled with the seed of epoch {typed.seed_epoch} after it was revealed"
            if problem:
                fail(event, "dice", problem)
                continue
            last_roll_index = typed.roll_index
            dice_of.append(_digest(typed))
            unconsumed[typed.roll_index] = event.seq
            if typed.source == "offered":
                report.offered_rolls += 1
            elif typed.source == "table":
                report.table_rolls += 1
            else:
                roll = (event.seq, typed.roll_index, typed.count, typed.sides, tuple(typed.faces))
                pending.setdefault(typed.seed_epoch or 0, []).append(roll)
                first_seeded.setdefault(typed.seed_epoch or 0, (typed.roll_index, event.seq))

    report.rolls_pending = sum(len(rolls) for rolls in pending.values())
    for index, seq in sorted(unconsumed.items()):
        report.flags.append(
            Finding(seq, "dice.rolled", "throwaway roll", f"roll {index} (at seq {seq}) was consumed by no rule")
        )
    report.flags.sort(key=lambda f: f.seq)
    _check_anchors(report, checkpoint, anchored, expect_head, seen_hashes)
    return report


def _share_problem(
    share: ShareCommitted,
    event: RecordedEvent,
    report: VerifyReport,
    revealed: dict[int, bytes],
    first_seeded: dict[int, tuple[int, int]],
) -> str | None:
    """What is wrong with a share's commitment where it stands in the log, or None."""
    epoch = share.epoch
    if epoch not in report.commitments:
        return f"a share of entropy for epoch {epoch} committed before its seed's commitment (early)"
    if epoch in revealed:
        return f"a share of entropy for epoch {epoch} committed after its seed was revealed"
    earlier = next((seq for seq, by, _ in report.shares.get(epoch, []) if by == share.by), None)
    if earlier is not None:
        return f"a second share of entropy from {share.by} for epoch {epoch} (the first is #{earlier}): one per person"
    if epoch in first_seeded:
        index, seq = first_seeded[epoch]
        return (
            f"a share of entropy for epoch {epoch} committed after roll {index} (#{seq}) had used its seed (late): "
            "the shares make the key of every roll of the epoch"
        )
    actor = event.meta.get("actor")
    if actor != share.by:
        return f"a share of entropy in the name of {share.by} entered by {actor}"
    return None


def _revealed_shares(epoch: int, shares: tuple[str, ...], committed: list[tuple[int, str, str]]) -> list[str]:
    """What is wrong with the shares a reveal publishes, against those committed for its epoch (in order)."""
    problems = []
    for i, (seq, by, commitment) in enumerate(committed):
        if i >= len(shares):
            problems.append(f"the share of entropy {by} committed at #{seq} (epoch {epoch}) was not revealed (missing)")
        elif share_commitment(shares[i]) != commitment:
            problems.append(
                f"the share of entropy revealed as {by}'s (committed at #{seq}, epoch {epoch}) does not match its "
                "commitment (forged)"
            )
    for extra in shares[len(committed) :]:
        problems.append(f"a share of entropy revealed for epoch {epoch} that was never committed ({extra[:20]!r})")
    return problems


class _Hashes:
    """Each event's hash recomputed from its stored parts (as :func:`events.envelope.compute_hash` does), with the
    envelope's bytes up to the payload made once per command rather than per event: every event of a command
    shares its campaign id and meta. Equal to compute_hash, byte for byte (a test holds it)."""

    def __init__(self) -> None:
        self._head: tuple[str, bytes, bytes] = ("", b"", b"")

    def of(self, event: RecordedEvent) -> str:
        if not event.payload_json or not event.meta_json:
            return compute_hash(event)
        campaign_id, meta_json, head = self._head
        if campaign_id != event.campaign_id or meta_json != event.meta_json:
            head = b'{"campaign_id":' + dumps_trusted(event.campaign_id) + b',"meta":' + event.meta_json
            self._head = (event.campaign_id, event.meta_json, head)
        prev = event.prev_hash.encode("ascii")
        return hashlib.sha256(
            b"".join(
                (
                    prev,
                    head,
                    b',"payload":',
                    event.payload_json,
                    b',"prev_hash":"',
                    prev,
                    b'","schema_version":%d,"seq":%d,"type":' % (event.schema_version, event.seq),
                    dumps_trusted(event.type),
                    b"}",
                )
            )
        ).hexdigest()


class _Decoder:
    """``registry.decode`` with the model's validator called straight for payloads of the current version (no
    upcast, no copy of the payload): the same checks, the same errors, a third less time on a long log."""

    def __init__(self, registry: EventRegistry) -> None:
        self._registry = registry
        self._current: dict[tuple[str, int], Any] = {}

    def decode(self, event: RecordedEvent) -> Event:
        key = (event.type, event.schema_version)
        validator = self._current.get(key)
        if validator is None:
            cls = self._registry.cls_for(event.type)  # an unknown type raises here, as decode does
            if cls.schema_version != event.schema_version or not isinstance(event.payload, dict):
                return self._registry.decode(event)
            validator = self._current[key] = cls.__pydantic_validator__
        if type(event.payload) is not dict:
            return self._registry.decode(event)
        try:
            return validator.validate_python(event.payload, strict=False)  # type: ignore[no-any-return]
        except ValidationError as exc:
            raise EventSchemaError(
                f"{event.type} v{event.schema_version} payload does not match its schema: {exc}"
            ) from None


def _digest(roll: DiceRolled) -> int:
    """A roll's dice as one signed 64-bit number (deterministic: ints hash to themselves, tuples of ints alike)."""
    return hash((roll.count, roll.sides, roll.modifier, tuple(roll.faces)))


def _span(indexes: range) -> str:
    return str(indexes.start) if len(indexes) == 1 else f"{indexes.start}–{indexes.stop - 1}"


def _check_anchors(
    report: VerifyReport,
    checkpoint: tuple[int, str] | None,
    anchored: str | None,
    expect_head: str | None,
    seen_hashes: set[str],
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
            if expect_head in seen_hashes
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
