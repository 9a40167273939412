"""What an amendment and a re-evaluation report: each command whose rules decide otherwise (a ``Change``), and an
amendment's whole account (``AmendReport``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from events.families.dice import DiceCorrected
from events.store import AppendResult


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
    corrected: list[DiceCorrected] = field(default_factory=list)
    """The amended command's table dice, corrected (``--dice``): each roll as entered, and as the table agreed."""
    result: AppendResult | None = None
    inputs: list[tuple[str, Any, Any]] = field(default_factory=list)
    """The amended command's inputs that change: name, recorded value, corrected value."""

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
