"""What an amendment and a re-evaluation report: each command whose rules decide otherwise (a ``Change``), each
later command's fate under an amendment (a ``Fate``), and an amendment's whole account (``AmendReport``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from events.dice.rerun import NewDie
from events.envelope import RecordedEvent
from events.errors import Words
from events.families.dice import DiceCorrected
from events.recorded import JsonValue
from events.store import AppendResult

if TYPE_CHECKING:
    from campaign.i18n.explain import Beside
    from campaign.replay import RuleOutcome


@dataclass
class Change:
    seq: int
    command: str
    before: list[RuleOutcome]
    after: list[RuleOutcome]
    recorded_under: str | None = None
    """The ruleset version its rules were recorded under, when that is not today's: the rules changed since (a
    new edition of RULES.md), so a different outcome is expected, not a sign that the log was altered."""
    recorded: tuple[RecordedEvent, ...] = field(default=(), repr=False, compare=False)
    rerun: tuple[RecordedEvent, ...] = field(default=(), repr=False, compare=False)
    """The command's events as recorded and as re-run (a re-evaluation's), so that a view can say each decision
    in the reader's language from what it recorded (its outcomes above are the English sentences)."""


FateKind = Literal["unchanged", "changed", "new dice", "no longer applies", "depends on the new dice"]
"""What an amendment does to a command it re-runs: decides as recorded; decides otherwise; rolls dice it did not
roll before; is skipped alone (its dice go back on the table); or, in a preview that cannot know the new dice yet,
decides differently at their lowest and their highest faces."""

IN_EFFECT: frozenset[str] = frozenset({"unchanged", "changed", "new dice"})
"""The fates of the commands an amendment keeps in effect."""


class NewDieData(TypedDict):
    """A :class:`~events.dice.rerun.NewDie` as data."""

    notation: str
    purpose: str
    from_table: int | None


class FateData(TypedDict):
    """A :class:`Fate` as data (:meth:`Fate.as_dict`)."""

    seq: int
    command: str
    args: dict[str, JsonValue]
    fate: FateKind
    why: str
    new_dice: list[NewDieData]
    back_on_table: int
    before: list[RuleOutcome]
    after: list[RuleOutcome]
    before_said: NotRequired[list[str]]
    after_said: NotRequired[list[str]]
    """Each outcome's sentence in the reader's language, when the names were handed."""
    why_said: NotRequired[str]
    """Why it no longer applies, in the reader's language, when the names were handed."""


class ChangedData(TypedDict):
    seq: int
    command: str
    before: list[RuleOutcome]
    after: list[RuleOutcome]


class DroppedData(TypedDict):
    seq: int
    command: str
    why: str


class InputData(TypedDict):
    input: str
    was: JsonValue
    now: object


class CorrectedData(TypedDict):
    roll: int
    notation: str
    faces_before: list[int]
    faces: list[int]
    replaced_by: int | None
    reason: str


class AmendData(TypedDict):
    """An :class:`AmendReport` as data (:meth:`AmendReport.as_dict`: what ``amend --json`` prints)."""

    amended_seq: int
    command: str
    args: dict[str, object]
    rerun: int
    exact: bool
    amended: FateData | None
    fates: list[FateData]
    changed: list[ChangedData]
    retracted: list[int]
    dropped: list[DroppedData]
    inputs: list[InputData]
    corrected: list[CorrectedData]
    dry_run: bool
    appended: list[int]


def paired(
    before: Sequence[RuleOutcome], after: Sequence[RuleOutcome]
) -> list[tuple[RuleOutcome | None, RuleOutcome | None]]:
    """A command's rule outcomes as recorded beside those its re-run gives, each beside the one of the same rule
    for the same unit (None where the other side has none: a morale test the re-run now calls for, or no longer
    does), in the order they happen. Paired by place alone, one outcome more in the middle put every later one
    beside the wrong one (a battle's end said "no longer" while it still ended so)."""
    keys = [[(o.get("rule"), o.get("unit_id")) for o in side] for side in (before, after)]
    out: list[tuple[RuleOutcome | None, RuleOutcome | None]] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=keys[0], b=keys[1], autojunk=False).get_opcodes():
        both = min(i2 - i1, j2 - j1) if tag in ("equal", "replace") else 0
        out += zip(before[i1 : i1 + both], after[j1 : j1 + both], strict=True)
        out += [(b, None) for b in before[i1 + both : i2]]
        out += [(None, a) for a in after[j1 + both : j2]]
    return out


@dataclass
class Fate:
    """One command an amendment re-runs, and what becomes of it."""

    seq: int
    command: str
    args: dict[str, JsonValue]
    kind: FateKind
    before: list[RuleOutcome] = field(default_factory=list)
    """Its rule outcomes as recorded."""
    after: list[RuleOutcome] = field(default_factory=list)
    """Its rule outcomes re-run (none when it no longer applies)."""
    why: str = ""
    """Why it no longer applies, in the rules' words (English, as ``--json`` says it)."""
    why_words: Words | None = None
    """The same refusal as the rules raised it, to be said in the reader's language (None: it has only its text)."""
    new_dice: list[NewDie] = field(default_factory=list)
    """The dice it rolls that it did not roll before: each taken off the table, or new."""
    back_on_table: int = 0
    """How many of its own dice its rules no longer ask for (they go back on the table)."""
    recorded: tuple[RecordedEvent, ...] = ()
    """Its events as recorded, and below those its re-run gives: what says each outcome in the reader's
    language (a rule's renderer reads the whole record, with its dice); not part of ``as_dict``."""
    rerun: tuple[RecordedEvent, ...] = ()

    def as_dict(self, names: Mapping[str, str] | None = None) -> FateData:
        """The fate as data; with ``names`` (the units' and battles' names by id), each outcome's sentence too,
        in the reader's language (``before_said``, ``after_said``: the page's words; the API's are the record's)."""
        data: FateData = {
            "seq": self.seq,
            "command": self.command,
            "args": self.args,
            "fate": self.kind,
            "why": self.why,
            "new_dice": [
                {"notation": d.notation, "purpose": d.purpose, "from_table": d.from_table} for d in self.new_dice
            ],
            "back_on_table": self.back_on_table,
            "before": self.before,
            "after": self.after,
        }
        if names is not None:
            data["before_said"], data["after_said"] = self.said(names)
            data["why_said"] = self.why_said()
        return data

    def why_said(self) -> str:
        """Why it no longer applies, in the reader's language (its recorded text where it has no words)."""
        from campaign.i18n import words_said

        return words_said(self.why_words) if self.why_words is not None else self.why

    def said(self, names: Mapping[str, str]) -> tuple[list[str], list[str]]:
        """Its outcomes as recorded and as re-run, each its rule's sentence in the reader's language rendered from
        the record (as the log says it), or the recorded English where it cannot be."""
        from campaign.i18n.explain import Beside
        from campaign.read.describe import dice_of

        rolls, faces = dice_of([*self.recorded, *self.rerun])  # a re-run rolls no dice the record does not hold
        beside = Beside(dict(names), rolls, faces)
        return (
            [decision_said(o, self.recorded, beside) for o in self.before],
            [decision_said(o, self.rerun, beside) for o in self.after],
        )


def decision_said(outcome: RuleOutcome, events: Sequence[RecordedEvent], beside: Beside) -> str:
    """A rule outcome of an amendment in the reader's language: its rule application's sentence rendered from
    the record among ``events`` (as the log says it), or the recorded English where it cannot be."""
    from campaign.i18n.explain import explained
    from campaign.read.describe import words

    found = next(
        (
            e.payload
            for e in events
            if e.type == "rules.applied"
            and (e.payload.get("rule"), e.payload.get("unit_id"), e.payload.get("explanation"))
            == (outcome.get("rule"), outcome.get("unit_id"), outcome.get("explanation"))
        ),
        None,
    )
    return words(explained(found, beside) if found is not None else str(outcome["explanation"]))


@dataclass
class AmendReport:
    amended_seq: int
    command: str
    args: dict[str, object] = field(default_factory=dict)
    """The amended command's inputs, corrected (as asked: the command's model has judged them, not made them)."""
    amended: Fate | None = None
    """The amended command's own re-run: changed, unchanged, or rolling new dice."""
    fates: list[Fate] = field(default_factory=list)
    """Every later command the amendment re-runs, in order, with its fate."""
    exact: bool = True
    """False for a preview whose commands roll new dice not known yet (the campaign's seeded dice, or dice to be
    asked for): what depends on them is said so, and decided when they are rolled."""
    retracted: tuple[int, int] = (0, 0)
    corrected: list[DiceCorrected] = field(default_factory=list)
    """The amended command's table dice, corrected (``--dice``): each roll as entered, and as the table agreed."""
    result: AppendResult | None = None
    inputs: list[tuple[str, JsonValue, object]] = field(default_factory=list)
    """The amended command's inputs that change: name, recorded value, corrected value."""

    @property
    def rerun(self) -> int:
        """How many later commands stay in effect, re-run on their dice."""
        return sum(1 for f in self.fates if f.kind in IN_EFFECT)

    @property
    def dropped(self) -> list[tuple[int, str]]:
        """Later commands that no longer apply, skipped alone: seq and command."""
        return [(f.seq, f.command) for f in self.fates if f.kind == "no longer applies"]

    @property
    def new_dice(self) -> list[tuple[int, NewDie]]:
        """Every die the amendment rolls that no command rolled before, by the seq of the command rolling it."""
        return [(f.seq, d) for f in [*([self.amended] if self.amended else []), *self.fates] for d in f.new_dice]

    @property
    def changes(self) -> list[Change]:
        """The amended command's outcomes, then each later command's that differ."""
        out = [Change(f.seq, f.command, f.before, f.after) for f in [self.amended] if f is not None]
        return out + [Change(f.seq, f.command, f.before, f.after) for f in self.fates if f.kind == "changed"]

    def kept(self) -> list[int]:
        """The seqs of the later commands this amendment keeps in effect (re-run)."""
        return [f.seq for f in self.fates if f.kind in IN_EFFECT]

    def as_dict(self, names: Mapping[str, str] | None = None) -> AmendData:
        """The report as data; with ``names``, each fate's outcomes said too (:meth:`Fate.as_dict`)."""
        return {
            "amended_seq": self.amended_seq,
            "command": self.command,
            "args": self.args,
            "rerun": self.rerun,
            "exact": self.exact,
            "amended": self.amended.as_dict(names) if self.amended else None,
            "fates": [f.as_dict(names) for f in self.fates],
            "changed": [
                {"seq": c.seq, "command": c.command, "before": c.before, "after": c.after} for c in self.changes
            ],
            "retracted": list(self.retracted),
            "dropped": [
                {"seq": f.seq, "command": f.command, "why": f.why} for f in self.fates if f.kind == "no longer applies"
            ],
            "inputs": [{"input": key, "was": was, "now": now} for key, was, now in self.inputs],
            "corrected": [
                {
                    "roll": c.roll_index,
                    "notation": c.notation,
                    "faces_before": list(c.faces_before),
                    "faces": list(c.faces),
                    "replaced_by": c.replaced_by,
                    "reason": c.reason,
                }
                for c in self.corrected
            ],
            "dry_run": self.result is None,
            "appended": [e.seq for e in self.result.events] if self.result else [],
        }


def new_dice_words(entries: Sequence[NewDieData]) -> str:
    """The dice a re-run command rolls that it did not roll before, as a person reads them (a ``Fate``'s
    ``new_dice`` as its ``as_dict`` gives them): "3d6 for Morale roll …, 5 times (new); d6 for … (roll #26's, left
    on the table)"."""
    runs: list[tuple[str, int]] = []
    for d in entries:
        where = f"roll #{d['from_table']}'s, left on the table" if d["from_table"] is not None else "new"
        said = f"{d['notation']} for {d['purpose']}"
        if d["from_table"] is None and runs and runs[-1][0] == f"{said} ({where})":
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((f"{said} ({where})", 1))
    return "; ".join(text if n == 1 else text.replace(" (new)", f", {n} times (new)") for text, n in runs)
