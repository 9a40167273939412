"""The in-memory event store: the fake that unit tests use, with the same contract as the SQL store."""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterator, Mapping, Sequence

from events.envelope import NewEvent, RecordedEvent
from events.errors import ConcurrencyError
from events.store import EMPTY_HEAD, AppendResult, EventStore, Head, InlineProjector, limited, prepare_events


class InMemoryEventStore(EventStore):
    def __init__(self, projectors: Sequence[InlineProjector] = ()) -> None:
        self._lock = threading.Lock()
        self._all: list[RecordedEvent] = []
        self._streams: dict[str, list[RecordedEvent]] = {}
        self._commands: dict[tuple[str, str], tuple[RecordedEvent, ...]] = {}
        self._projectors = list(projectors)

    def append(
        self,
        campaign_id: str,
        events: Sequence[NewEvent],
        expected_seq: int,
        *,
        command_id: str | None = None,
        meta: Mapping[str, object] | None = None,
    ) -> AppendResult:
        with self._lock:
            if command_id is not None and (seen := self._commands.get((campaign_id, command_id))):
                return AppendResult(seen, duplicate=True)
            head = self._head(campaign_id)
            if head.seq != expected_seq:
                raise ConcurrencyError.saying(
                    "campaign {campaign} is at seq {seq}, not {expected}: re-read and retry",
                    campaign=campaign_id,
                    seq=head.seq,
                    expected=expected_seq,
                )
            recorded = tuple(prepare_events(campaign_id, events, head, len(self._all) + 1, command_id, meta))
            for projector in self._projectors:
                projector.project(self, recorded)
            self._all.extend(recorded)
            self._streams.setdefault(campaign_id, []).extend(recorded)
            if command_id is not None:
                self._commands[(campaign_id, command_id)] = recorded
            return AppendResult(recorded, duplicate=False)

    def import_stream(self, campaign_id: str, events: Sequence[RecordedEvent]) -> AppendResult:
        if self._streams.get(campaign_id):
            raise ConcurrencyError.saying("campaign {campaign} already has events here", campaign=campaign_id)
        start = len(self._all)
        self.load(events)
        recorded = tuple(self._all[start:])
        for projector in self._projectors:
            projector.project(self, recorded)
        return AppendResult(recorded, duplicate=False)

    def load(self, events: Sequence[RecordedEvent]) -> None:
        """Take recorded events as they are (a sandbox copy of a real log); they must continue each stream."""
        with self._lock:
            for event in events:
                stream = self._streams.setdefault(event.campaign_id, [])
                if event.seq != len(stream) + 1:
                    raise ValueError(f"event {event.seq} does not continue stream {event.campaign_id}")
                copied = event._replace(position=len(self._all) + 1)
                stream.append(copied)
                self._all.append(copied)
                command_id = event.meta.get("command_id")
                if command_id is not None:
                    key = (event.campaign_id, str(command_id))
                    self._commands[key] = (*self._commands.get(key, ()), copied)

    def read(self, campaign_id: str, after_seq: int = 0, upto_seq: int | None = None) -> Iterator[RecordedEvent]:
        with self._lock:  # only the slice asked for is copied: a sandbox reads its tail after every command
            stream = self._streams.get(campaign_id, [])
            stop = len(stream) if upto_seq is None else min(upto_seq, len(stream))
            chosen = stream[after_seq:stop]
        yield from chosen

    def read_last(self, campaign_id: str, count: int, upto_seq: int | None = None) -> list[RecordedEvent]:
        with self._lock:
            stream = self._streams.get(campaign_id, [])
            stop = len(stream) if upto_seq is None else max(0, min(upto_seq, len(stream)))
            return stream[max(0, stop - count) : stop] if count > 0 else []

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
        return limited([e for e in self.read(campaign_id, after_seq, upto_seq) if e.type in types], limit, last)

    def read_all(
        self, after_position: int = 0, limit: int | None = None, *, writers_excluded: bool = False
    ) -> list[RecordedEvent]:
        start = max(0, after_position)
        end = None if limit is None else start + limit
        return list(self._all[start:end])

    def head(self, campaign_id: str) -> Head:
        with self._lock:
            return self._head(campaign_id)

    def _head(self, campaign_id: str) -> Head:
        stream = self._streams.get(campaign_id)
        if not stream:
            return EMPTY_HEAD
        return Head(stream[-1].seq, stream[-1].hash)

    def campaign_ids(self) -> list[str]:
        return list(self._streams)

    def command_events(self, campaign_id: str, command_id: str) -> tuple[RecordedEvent, ...] | None:
        return self._commands.get((campaign_id, command_id))
