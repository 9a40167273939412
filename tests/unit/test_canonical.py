"""Canonical JSON and the envelope bytes that the hash chain is computed over."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, PlainSerializer

from events.canonical import canonical_json, model_holds_event_json, payload_bytes
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


class _Kind(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    name: str
    level: int = 1


class _Plain(BaseModel):
    """Only event JSON: the registry may skip the value walk and check integers' size alone."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)
    count: int
    label: str | None = None
    faces: tuple[int, ...] = ()
    tags: list[str] = Field(default_factory=list)
    kind: Literal["a", "b"] = "a"
    inner: _Kind | None = None
    scores: dict[str, int] = Field(default_factory=dict)


def _payload(model: BaseModel) -> dict[str, Any]:
    return model.__pydantic_serializer__.to_python(model, mode="json")  # type: ignore[no-any-return]


def test_a_model_of_only_event_json_is_trusted_and_its_bytes_are_canonical() -> None:
    assert model_holds_event_json(_Plain)
    value = _Plain(count=2**53, label="x", faces=(1, 6), tags=["t"], inner=_Kind(name="k"), scores={"b": 1, "a": 2})
    assert payload_bytes(_payload(value), True) == canonical_json(_payload(value))


@pytest.mark.parametrize("big", [2**63, -(2**63) - 1, 2**64, 2**70])
def test_a_trusted_payload_beyond_64_bits_is_refused(big: int) -> None:
    with pytest.raises(EventSchemaError, match="64 bits"):
        payload_bytes(_payload(_Plain(count=big)), True)


@pytest.mark.parametrize("edge", [2**63 - 1, -(2**63), 2**53 + 1, -(2**53) - 1])
def test_a_trusted_payload_at_the_64_bit_edges_is_kept(edge: int) -> None:
    """Beyond 2**53 orjson's strict integers refuse; the full check then lets what fits 64 bits through."""
    payload = _payload(_Plain(count=edge))
    assert orjson.loads(payload_bytes(payload, True))["count"] == edge


def _serialized_as_float(value: int) -> float:
    return value / 2


class _Floaty(BaseModel):
    x: float


class _Anything(BaseModel):
    x: Any


class _Serialized(BaseModel):
    x: Annotated[int, PlainSerializer(_serialized_as_float)]


class _Factory(BaseModel):
    x: list[int] = Field(default_factory=lambda: [1])


class _FloatDefault(BaseModel):
    x: int = 1.5  # type: ignore[assignment]  # pydantic does not validate defaults


class _BareDict(BaseModel):
    x: dict  # type: ignore[type-arg]


class _FloatLiteral(BaseModel):
    x: Literal[1.5]  # type: ignore[valid-type]  # a float Literal is the input the canonical check must refuse


@pytest.mark.parametrize("model", [_Floaty, _Anything, _Serialized, _Factory, _FloatDefault, _BareDict, _FloatLiteral])
def test_a_model_that_could_hold_a_float_keeps_the_full_check(model: type[BaseModel]) -> None:
    assert not model_holds_event_json(model)


def test_an_untrusted_payload_with_a_float_is_refused() -> None:
    with pytest.raises(EventSchemaError, match="floats"):
        payload_bytes(_payload(_Serialized(x=3)), False)
