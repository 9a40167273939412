"""Checks over a campaign's stored log: the hash chain, every event's schema, and every die.

Dice checks: faces within the die, totals that add up, roll indexes that only grow, and, for every seed
that has been revealed, each seeded roll re-derived from it. Rolls whose seed is still secret are
counted as pending, not passed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from events.canonical import dumps_trusted
from events.dice.derive import derive_faces, seed_commitment
from events.dice.notation import parse
from events.envelope import GENESIS_HASH, RecordedEvent, compute_hash
from events.errors import CampaignError
from events.families.dice import DiceRolled
from events.registry import EventRegistry


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
    """Rolls that repeated the dice of a retracted command (dice stay on the table)."""
    findings: list[Finding] = field(default_factory=list)

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
            "first_failure": None if self.first is None else vars_of(self.first),
            "failures": [vars_of(f) for f in sorted(self.findings, key=lambda f: f.seq)],
        }


def vars_of(finding: Finding) -> dict[str, object]:
    return {"seq": finding.seq, "type": finding.type, "check": finding.check, "message": finding.message}


def check_roll(roll: DiceRolled) -> str | None:
    """What is wrong with a recorded roll on its own, or None."""
    try:
        spec = parse(roll.notation)
    except CampaignError as exc:
        return f"notation {roll.notation!r} does not parse: {exc}"
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


def verify_events(
    campaign_id: str,
    events: Iterable[RecordedEvent],
    registry: EventRegistry,
    on_event: Callable[[RecordedEvent], None] | None = None,
) -> VerifyReport:
    report = VerifyReport(campaign_id)
    expected_seq, prev_hash = 1, GENESIS_HASH
    commitments: dict[int, str] = {}
    revealed: dict[int, bytes] = {}
    last_roll_index = -1
    pending: list[tuple[RecordedEvent, DiceRolled]] = []
    faces_of: dict[int, tuple[int, int, int, tuple[int, ...]]] = {}
    """Each roll index: count, sides, modifier and faces (what a die offered again must repeat)."""
    dice_id = campaign_id

    def fail(event: RecordedEvent, check: str, message: str) -> None:
        report.findings.append(Finding(event.seq, event.type, check, message))

    for event in events:
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
        if compute_hash(event) != event.hash:
            fail(
                event,
                "chain",
                "stored hash does not match the event's content: it was changed after it was written",
            )
            break
        if event.payload_json and dumps_trusted(event.payload) != event.payload_json:
            fail(event, "chain", "payload is not in canonical form")
            break
        expected_seq, prev_hash = event.seq + 1, event.hash
        report.head_hash = event.hash
        try:
            typed = registry.decode(event)
        except CampaignError as exc:
            fail(event, "schema", str(exc))
            continue
        if event.type == "campaign.created":
            if event.seq != 1:
                fail(event, "schema", "a campaign is created only by its first event")
            commitments[0] = event.payload["seed_commitment"]
            dice_id = event.payload.get("dice_campaign_id") or campaign_id
        elif event.type == "dice.seed_committed":
            commitments[event.payload["epoch"]] = event.payload["commitment"]
        elif event.type == "dice.seed_revealed":
            epoch = event.payload["epoch"]
            try:
                seed = bytes.fromhex(event.payload["seed"])
            except ValueError:
                fail(event, "dice", "revealed seed is not hexadecimal")
                continue
            if commitments.get(epoch) != seed_commitment(seed):
                fail(event, "dice", f"revealed seed of epoch {epoch} does not match the commitment made for it")
                continue
            revealed[epoch] = seed
        elif isinstance(typed, DiceRolled):
            problem = check_roll(typed)
            if problem is None and typed.roll_index <= last_roll_index:
                problem = f"roll index {typed.roll_index} reuses or goes back from {last_roll_index}"
            if problem is None and typed.source == "offered":
                original = faces_of.get(typed.offered_from if typed.offered_from is not None else -1)
                mine = (typed.count, typed.sides, typed.modifier, tuple(typed.faces))
                if original is None:
                    problem = f"offered again from roll {typed.offered_from}, which was never rolled before it"
                elif original != mine:
                    problem = f"offered again from roll {typed.offered_from} but its dice differ from that roll's"
            if problem is None and typed.source == "seeded":
                if typed.seed_epoch not in commitments:
                    problem = f"seed epoch {typed.seed_epoch} was never committed"
                elif typed.seed_epoch in revealed:
                    problem = f"rolled with the seed of epoch {typed.seed_epoch} after it was revealed"
            if problem:
                fail(event, "dice", problem)
                continue
            last_roll_index = typed.roll_index
            faces_of[typed.roll_index] = (typed.count, typed.sides, typed.modifier, tuple(typed.faces))
            if typed.source == "offered":
                report.offered_rolls += 1
            elif typed.source == "table":
                report.table_rolls += 1
            else:
                pending.append((event, typed))

    for event, roll in pending:
        revealed_seed = revealed.get(roll.seed_epoch or 0)
        if revealed_seed is None:
            report.rolls_pending += 1
            continue
        derived = derive_faces(revealed_seed, dice_id, roll.roll_index, roll.count, roll.sides)
        if derived != tuple(roll.faces):
            fail(
                event,
                "dice",
                f"roll {roll.roll_index} recorded {list(roll.faces)} but the seed gives {list(derived)}",
            )
        else:
            report.rolls_rederived += 1
    return report
