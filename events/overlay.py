"""A store over one campaign's real log that holds what is appended after it in memory: what an amendment's
sandbox re-runs on, without a copy of a long log. Nothing is ever written to the real store."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence

from events.envelope import NewEvent, RecordedEvent
from events.errors import ConcurrencyError, InvalidInputError
from events.store import AppendResult, EventStore, Head, limited, prepare_events

CORRECTED = "dice.corrected"
"""A table die corrected by an amendment (``amend SEQ --dice``): retracted with it, kept as it is by a later
amendment that re-runs past it, and a group of its own (not a fact of the command before it)."""


class OverlayStore(EventStore):
    """One campaign's real log (read from ``base``, up to ``head``) with what a sandbox appends after it held in
    memory: a sandbox over a long log without a copy of it. Nothing is ever written to ``base``."""

    keeps = False

    def __init__(self, base: EventStore, campaign_id: str, head: Head) -> None:
        self._base = base
        self._campaign_id = campaign_id
        self._base_head = head
        self._tail: list[RecordedEvent] = []
        self._commands: dict[str, tuple[RecordedEvent, ...]] = {}

    def _mine(self, campaign_id: str) -> None:
        if campaign_id != self._campaign_id:
            raise InvalidInputError(f"a sandbox of campaign {self._campaign_id} holds no campaign {campaign_id}")

    def append(
        self,
        campaign_id: str,
        events: Sequence[NewEvent],
        expected_seq: int,
        *,
        command_id: str | None = None,
        meta: Mapping[str, object] | None = None,
    ) -> AppendResult:
        self._mine(campaign_id)
        if command_id is not None and (seen := self._commands.get(command_id)):
            return AppendResult(seen, duplicate=True)
        head = self.head(campaign_id)
        if head.seq != expected_seq:
            raise ConcurrencyError(f"campaign {campaign_id} is at seq {head.seq}, not {expected_seq}")
        recorded = tuple(prepare_events(campaign_id, events, head, 0, command_id, meta))
        self._tail.extend(recorded)
        if command_id is not None:
            self._commands[command_id] = recorded
        return AppendResult(recorded, duplicate=False)

    def read(self, campaign_id: str, after_seq: int = 0, upto_seq: int | None = None) -> Iterator[RecordedEvent]:
        self._mine(campaign_id)
        base = self._base_head.seq
        if after_seq < base and (upto_seq is None or upto_seq > after_seq):
            yield from self._base.read(campaign_id, after_seq, base if upto_seq is None else min(upto_seq, base))
        stop = None if upto_seq is None else max(0, upto_seq - base)
        yield from self._tail[max(0, after_seq - base) : stop]

    def read_last(self, campaign_id: str, count: int, upto_seq: int | None = None) -> list[RecordedEvent]:
        stop = self.head(campaign_id).seq if upto_seq is None else upto_seq
        return list(self.read(campaign_id, max(0, stop - count), stop)) if count > 0 else []

    def read_types(
        self,
        campaign_id: str,
        types: Collection[str],
        after_seq: int = 0,
        upto_seq: int | None = None,
        *,
        limit: int | None = None,
        last: bool = False,
    ) -> list[RecordedEvent]:
        base = self._base_head.seq
        mine = [e for e in self.read(campaign_id, max(after_seq, base), upto_seq) if e.type in types]
        if after_seq >= base:
            return limited(mine, limit, last)
        upto = base if upto_seq is None else min(upto_seq, base)
        # The real store reads by its (campaign, type, seq) index only what the limit still leaves to find.
        if limit is not None and last:
            more = max(limit - len(mine), 0)
            earlier = self._base.read_types(campaign_id, types, after_seq, upto, limit=more, last=True) if more else []
        else:
            earlier = self._base.read_types(campaign_id, types, after_seq, upto, limit=limit)
        return limited(earlier + mine, limit, last)

    def read_all(
        self, after_position: int = 0, limit: int | None = None, *, writers_excluded: bool = False
    ) -> list[RecordedEvent]:
        raise InvalidInputError("a sandbox reads one campaign, not the whole database")

    def head(self, campaign_id: str) -> Head:
        self._mine(campaign_id)
        return Head(self._tail[-1].seq, self._tail[-1].hash) if self._tail else self._base_head

    def campaign_ids(self) -> list[str]:
        return [self._campaign_id]

    def command_events(self, campaign_id: str, command_id: str) -> tuple[RecordedEvent, ...] | None:
        self._mine(campaign_id)
        return self._commands.get(command_id)

    def import_stream(self, campaign_id: str, events: Sequence[RecordedEvent]) -> AppendResult:
        raise InvalidInputError("a sandbox imports nothing")
