"""Canonical JSON and the envelope bytes that the hash chain is computed over."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.canonical import canonical_json
from events.envelope import envelope_bytes
from events.errors import EventSchemaError

json_scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=20)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
payloads = st.dictionaries(st.text(max_size=10), json_values, max_size=6)


@given(payloads)
def test_canonical_json_is_sorted_compact_utf8_and_round_trips(payload: dict[str, Any]) -> None:
    data = canonical_json(payload)
    assert orjson.loads(data) == payload
    assert canonical_json(orjson.loads(data)) == data
    assert data == orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)
    data.decode("utf-8")


@given(payloads)
def test_key_order_does_not_change_the_bytes(payload: dict[str, Any]) -> None:
    reordered = dict(reversed(list(payload.items())))
    assert canonical_json(reordered) == canonical_json(payload)


@pytest.mark.parametrize("bad", [{"x": 1.5}, {"x": [1, 2.0]}, {"x": {"y": float("nan")}}, {"x": 2**64}, {"x": {1: 2}}])
def test_floats_huge_integers_and_non_string_keys_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(EventSchemaError):
        canonical_json(bad)


@given(
    campaign_id=st.text(min_size=1, max_size=40),
    seq=st.integers(1, 2**62),
    type_=st.text(min_size=1, max_size=30),
    version=st.integers(1, 1000),
    payload=payloads,
    meta=payloads,
    prev_hash=st.text(alphabet="0123456789abcdef", min_size=64, max_size=64),
)
def test_assembled_envelope_bytes_equal_canonical_json_of_the_envelope(
    campaign_id: str,
    seq: int,
    type_: str,
    version: int,
    payload: dict[str, Any],
    meta: dict[str, Any],
    prev_hash: str,
) -> None:
    assembled = envelope_bytes(
        campaign_id=campaign_id,
        seq=seq,
        type=type_,
        schema_version=version,
        payload_json=canonical_json(payload),
        meta_json=canonical_json(meta),
        prev_hash=prev_hash,
    )
    as_dict = {
        "campaign_id": campaign_id,
        "seq": seq,
        "type": type_,
        "schema_version": version,
        "payload": payload,
        "meta": meta,
        "prev_hash": prev_hash,
    }
    assert assembled == canonical_json(as_dict)
