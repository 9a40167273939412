"""A ruleset's campaign fold as the projections use it: its initial state, ``apply``, a JSON codec, and the
summary rows the read views show (made again only where they changed, for the inline writer). Each ruleset
declares its own (``campaign/rulesets/<name>/fold.py``) and the wiring hands them in: projections never import
the rulesets."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import orjson
from typing_extensions import TypeAliasType

from events.envelope import RecordedEvent

if TYPE_CHECKING:  # a ruleset's fold hands one in; reading the read models (``status``) needs no pydantic
    from pydantic import TypeAdapter

S = TypeVar("S")

Dumped = dict[str, tuple[object, object]]
"""A state's parts as :meth:`RulesetFold.encode_since` dumped them: each field's name → its value and its dump."""


RowValue = TypeAliasType(
    "RowValue", "int | str | bool | list[RowValue] | tuple[RowValue, ...] | dict[str, RowValue] | None"
)
"""A value of a summary's row: JSON, but a row made in memory may hold a tuple where the stored one has an array."""
SummaryRow = Mapping[str, RowValue]
"""A row of a summary (a unit, a battle, a career), as the summary table stores it; read-only, so a ruleset's
rows of narrower values (a plug-in's ``dict[str, int | str | None]``) are rows as they are."""


@dataclass(frozen=True)
class Summary:
    units: Sequence[SummaryRow]
    battles: Sequence[SummaryRow]
    treasury: dict[str, int]
    careers: Sequence[SummaryRow]
    day: int


@dataclass(frozen=True)
class RulesetFold(Generic[S]):
    ruleset: str
    initial: Callable[[], S]
    apply: Callable[[S, RecordedEvent], S]
    adapter: TypeAdapter[S]
    summarize: Callable[[S, Any], tuple[Summary, Any]]
    """The summary of a state, and what it was made from (opaque to the projections): handed that of an earlier
    state's summary (None for none), only the rows whose inputs changed since are made again; the summary is
    the same either way."""

    def summary(self, state: S) -> Summary:
        """The summary of ``state``, every row made afresh."""
        return self.summarize(state, None)[0]

    def encode(self, state: S) -> bytes:
        return orjson.dumps(self.adapter.dump_python(state, mode="json"), option=orjson.OPT_SORT_KEYS)

    def encode_since(self, state: S, before: Dumped | None) -> tuple[bytes, Dumped | None]:
        """``encode(state)``, and the parts it was made of: handed those of an earlier state's encoding, a part of
        the state (a field of its dataclass) that is the very object dumped then is not dumped again (a state is
        an immutable value: an event replaces the parts it changes). The bytes are those of :meth:`encode`."""
        if not is_dataclass(state):
            return self.encode(state), None
        names = [f.name for f in fields(state)]
        parts: Dumped = {}
        changed: set[str] = set()
        for name in names:
            value = getattr(state, name)
            was = before.get(name) if before is not None else None
            if was is not None and was[0] is value:
                parts[name] = was
            else:
                changed.add(name)
        if changed:
            dumped = self.adapter.dump_python(state, mode="json", include=changed)
            for name in changed:
                parts[name] = (getattr(state, name), dumped[name])
        data = orjson.dumps({name: parts[name][1] for name in names}, option=orjson.OPT_SORT_KEYS)
        return data, parts

    def decode(self, data: bytes) -> S:
        return self.adapter.validate_python(orjson.loads(data))

    def fold(self, events: Iterable[RecordedEvent], state: S | None = None) -> S:
        current = self.initial() if state is None else state
        for event in events:
            current = self.apply(current, event)
        return current


FoldFor = Callable[[str], "RulesetFold[Any] | None"]
"""The fold of a ruleset by its name (None for a name no ruleset has): what the wiring hands projections."""
