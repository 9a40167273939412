"""The append path makes the very bytes and hashes it always made (it was rewritten for speed).

DESIGN.md's chain: ``hash = sha256(prev_hash + canonical_json(envelope without hash))``. The store assembles those
bytes from pieces, encodes typed events without pydantic's serializer and inserts rows by multi-row statements;
none of it may change a byte. Held two ways, on every backend:

* the four demo campaigns exported by main on 2026-12-01, appended again command by command (their events given
  as the registry encodes them where it can, else as plain payloads) re-export line for line, hashes included;
* events of every registered type, in batches that cross the multi-row statement's sizes and mix types and
  schema versions, get the hash worked out from the definition above with ``canonical_json`` of the whole
  envelope (no piece of the store's own), and read back as appended.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import count, groupby
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import campaign.commands  # noqa: F401  (every ruleset's event families registered)
from events.canonical import canonical_json
from events.envelope import GENESIS_HASH, NewEvent, RecordedEvent, chain_hash
from events.errors import EventSchemaError
from events.registry import registry
from events.sql_write import MULTI_ROW_INSERT
from tests.conftest import Backend, examples
from tests.unit.test_encode_plan import _instances

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs_2026_12_01"
_CAMPAIGNS = count()


def _export_line(event: RecordedEvent) -> bytes:
    """What ``campaign export`` writes for an event (campaign.exchange.export_lines)."""
    envelope: dict[str, object] = {**event.as_dict()}
    del envelope["position"]
    return canonical_json(envelope)


def _by_definition(prev_hash: str, event: RecordedEvent, payload: Mapping[str, Any]) -> str:
    """DESIGN.md's hash, from canonical JSON of the whole envelope as a dict."""
    envelope = {
        "campaign_id": event.campaign_id,
        "seq": event.seq,
        "type": event.type,
        "schema_version": event.schema_version,
        "payload": dict(payload),
        "meta": dict(event.meta),
        "prev_hash": prev_hash,
    }
    return chain_hash(prev_hash, canonical_json(envelope))


def _as_encoded(row: dict[str, Any]) -> NewEvent:
    """The row's event as the application hands it to the store: encoded by the registry when that gives the
    stored payload back (current schema version), else the stored payload, unchecked."""
    cls = registry.cls_for(row["type"])
    if row["schema_version"] == cls.schema_version:
        encoded = registry.encode(registry.decode_payload(row["type"], row["schema_version"], row["payload"]))
        if encoded.payload == row["payload"]:
            return encoded
    return NewEvent(row["type"], row["payload"], row["schema_version"])


@pytest.mark.parametrize("log", sorted(p.stem for p in FIXTURES.glob("*.jsonl")))
def test_the_demo_logs_appended_again_re_export_line_for_line(backend: Backend, log: str) -> None:
    lines = (FIXTURES / f"{log}.jsonl").read_bytes().splitlines()
    header = orjson.loads(lines[0])
    events = [line for line in lines[1:] if b'"secret"' not in line[:12]]
    rows = [orjson.loads(line) for line in events]
    assert len(rows) == header["events"] > 70
    store = backend.store()
    appended: list[RecordedEvent] = []
    encoded = 0
    # One append per command, as the commands appended them: consecutive events sharing their meta.
    for _, group in groupby(rows, key=lambda row: canonical_json(row["meta"])):
        batch = list(group)
        meta = dict(batch[0]["meta"])
        command_id = meta.pop("command_id", None)
        new = [_as_encoded(row) for row in batch]
        encoded += sum(1 for e in new if e.checked)
        result = store.append(header["campaign_id"], new, len(appended), command_id=command_id, meta=meta)
        appended.extend(result.events)
    assert encoded > len(rows) // 2  # most of them through registry.encode
    assert [_export_line(e) for e in appended] == events
    assert [_export_line(e) for e in store.read(header["campaign_id"])] == events
    assert store.head(header["campaign_id"]).hash == header["head_hash"]


def _batches() -> st.SearchStrategy[list[list[Any]]]:
    names = registry.names()
    one = st.sampled_from(names).flatmap(lambda name: _instances(registry.cls_for(name)))
    # Sizes on both sides of every multi-row statement's size (64, 32, … 1 rows) and past the largest.
    size = st.sampled_from([1, 2, 3, MULTI_ROW_INSERT - 1, MULTI_ROW_INSERT, MULTI_ROW_INSERT + 1, 130])
    return st.lists(size.flatmap(lambda n: st.lists(one, min_size=n, max_size=n)), min_size=1, max_size=3)


@settings(
    max_examples=examples(10),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_every_type_in_batches_of_every_size_hashes_as_the_design_defines(backend: Backend, data: Any) -> None:
    batches = data.draw(_batches())
    store = backend.store()
    campaign_id = f"c-{next(_CAMPAIGNS)}"  # a stream of its own for each example: the backend outlives them
    prev, seq = GENESIS_HASH, 0
    appended: list[RecordedEvent] = []
    for number, typed in enumerate(batches):
        new: list[NewEvent] = []
        for event in typed:
            try:
                new.append(registry.encode(event))
            except EventSchemaError:  # a drawn integer past 64 bits: test_encode_plan holds that it is refused
                continue
        # An event of a type at another schema version, and a plain one, between the registry's.
        new.insert(len(new) // 2, NewEvent("test.happened", {"n": number, "list": [1, None, "x"]}, 2))
        new.append(NewEvent("test.happened", {"n": -number}, 1, False, b""))
        result = store.append(campaign_id, new, seq, command_id=f"cmd-{number}", meta={"actor": "ann"})
        for given_event, recorded in zip(new, result.events, strict=True):
            assert recorded.payload_json == canonical_json(dict(given_event.payload))
            assert recorded.prev_hash == prev
            assert recorded.hash == _by_definition(prev, recorded, given_event.payload)
            assert (recorded.type, recorded.schema_version) == (given_event.type, given_event.schema_version)
            prev = recorded.hash
        positions = [e.position for e in result.events]
        assert positions == list(range(positions[0], positions[0] + len(new)))
        seq += len(new)
        appended.extend(result.events)
    read = list(store.read(campaign_id))
    assert [e.seq for e in read] == list(range(1, seq + 1))
    assert [(e.position, _export_line(e)) for e in read] == [(e.position, _export_line(e)) for e in appended]
    assert store.head(campaign_id).hash == prev
