"""What a rule returns: the facts it caused, the dice it used, and an explanation a person can read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from events.dice import Roll
from events.registry import Event


@dataclass(frozen=True)
class Decision:
    rule: str
    clause: str
    unit_id: str | None
    inputs: Mapping[str, Any]
    outcome: Mapping[str, Any]
    explanation: str
    facts: tuple[Event, ...] = ()
    rolls: tuple[Roll, ...] = field(default=())
