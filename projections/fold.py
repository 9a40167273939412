"""A ruleset's campaign fold as the projections use it: its initial state, ``apply``, a JSON codec, and the
summary rows the read views show. Each ruleset declares its own (``campaign/rulesets/<name>/fold.py``) and the
wiring hands them in: projections never import the rulesets."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import orjson

from events.envelope import RecordedEvent

if TYPE_CHECKING:  # a ruleset's fold hands one in; reading the read models (``status``) needs no pydantic
    from pydantic import TypeAdapter

S = TypeVar("S")


@dataclass(frozen=True)
class Summary:
    units: list[dict[str, Any]]
    battles: list[dict[str, Any]]
    treasury: dict[str, int]
    careers: list[dict[str, Any]]
    day: int


@dataclass(frozen=True)
class RulesetFold(Generic[S]):
    ruleset: str
    initial: Callable[[], S]
    apply: Callable[[S, RecordedEvent], S]
    adapter: TypeAdapter[S]
    summary: Callable[[S], Summary]

    def encode(self, state: S) -> bytes:
        return orjson.dumps(self.adapter.dump_python(state, mode="json"), option=orjson.OPT_SORT_KEYS)

    def decode(self, data: bytes) -> S:
        return self.adapter.validate_python(orjson.loads(data))

    def fold(self, events: Iterable[RecordedEvent], state: S | None = None) -> S:
        current = self.initial() if state is None else state
        for event in events:
            current = self.apply(current, event)
        return current


FoldFor = Callable[[str], "RulesetFold[Any] | None"]
"""The fold of a ruleset by its name (None for a name no ruleset has): what the wiring hands projections."""
