"""``registry.encode`` reads most event types' payloads off the model's own values instead of running pydantic's
serializer (the batch append's largest cost after the insert). The two ways must give the same payload and the
same canonical bytes for every registered type, with every shape of value its fields allow."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import campaign.commands  # noqa: F401  (every ruleset's event families registered)
from events.canonical import canonical_json
from events.errors import EventSchemaError
from events.registry import Event, EventRegistry, _EncodePlan, registry
from tests.conftest import examples

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs_2026_12_01"
_INT64 = 2**63


def _serialized(event: Event) -> dict[str, Any]:
    """The serializer's JSON form: what encode returned for every type before it had plans."""
    return event.__pydantic_serializer__.to_python(event, mode="json")  # type: ignore[no-any-return]


def _json_values() -> st.SearchStrategy[Any]:
    scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8)
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        max_leaves=12,
    )


def _values(schema: Mapping[str, Any], definitions: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    """Values a field of this pydantic core schema accepts in strict mode."""
    kind = schema["type"]
    if kind == "int":
        return st.integers(-(2**70), 2**70)  # past 64 bits too: both ways must refuse them alike
    if kind == "str":
        return st.text(max_size=10)
    if kind == "bool":
        return st.booleans()
    if kind == "none":
        return st.none()
    if kind == "literal":
        return st.sampled_from(schema["expected"])
    if kind == "nullable":
        return st.none() | _values(schema["schema"], definitions)
    if kind == "default":
        return _values(schema["schema"], definitions)
    if kind == "definition-ref":
        return _json_values()
    if kind == "union":
        return st.one_of([_values(c[0] if isinstance(c, tuple) else c, definitions) for c in schema["choices"]])
    if kind == "dict":
        return st.dictionaries(st.text(max_size=5), _values(schema["values_schema"], definitions), max_size=3)
    if kind == "list":
        return st.lists(_values(schema["items_schema"], definitions), max_size=3)
    if kind == "tuple":
        items = schema["items_schema"]
        if "variadic_item_index" in schema:
            return st.lists(_values(items[0], definitions), max_size=3).map(tuple)
        return st.tuples(*(_values(item, definitions) for item in items))
    raise AssertionError(f"a field schema this test cannot fill: {kind}")


def _instances(cls: type[Event]) -> st.SearchStrategy[Event]:
    cls.model_rebuild()
    core: Mapping[str, Any] = cls.__pydantic_core_schema__
    definitions = {d["ref"]: d for d in core.get("definitions", [])}
    fields = (core["schema"] if core["type"] == "definitions" else core)["schema"]["fields"]
    return st.fixed_dictionaries({name: _values(f["schema"], definitions) for name, f in fields.items()}).map(
        lambda values: cls(**values)
    )


def _containers(value: Any) -> set[int]:
    """The identities of every dict, list and tuple inside ``value``."""
    if isinstance(value, dict):
        return {id(value)}.union(*(_containers(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return {id(value)}.union(*(_containers(v) for v in value))
    return set()


def _same_as_the_serializer(event: Event) -> None:
    try:
        expected: bytes | None = canonical_json(_serialized(event))
    except EventSchemaError:
        expected = None  # a number past 64 bits: encode must refuse it too
    if expected is None:
        with pytest.raises(EventSchemaError, match="64 bits"):
            registry.encode(event)
        return
    encoded = registry.encode(event)
    assert encoded.payload == _serialized(event)
    assert orjson.dumps(encoded.payload) == orjson.dumps(_serialized(event))  # lists, not tuples, and key order
    assert encoded.payload_json == expected
    # A copy, as the serializer's is: changing the payload cannot reach into the (frozen) event.
    assert not _containers(dict(encoded.payload)) & _containers(event.__dict__)
    assert (encoded.type, encoded.schema_version) == (type(event).event_name, type(event).schema_version)


@pytest.mark.parametrize("name", registry.names())
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_registered_type_encodes_as_its_serializer_does(name: str, data: st.DataObject) -> None:
    _same_as_the_serializer(data.draw(_instances(registry.cls_for(name))))


def test_the_recorded_demo_logs_encode_as_the_serializer_does() -> None:
    """Every event of the four demo campaigns exported on 2026-12-01 (values as real commands make them), decoded
    and encoded again both ways."""
    checked = 0
    for path in sorted(FIXTURES.glob("*.jsonl")):
        for line in path.read_text().splitlines()[1:]:
            row = orjson.loads(line)
            if "type" not in row:  # the secrets' lines
                continue
            event = registry.decode_payload(row["type"], row["schema_version"], row["payload"])
            _same_as_the_serializer(event)
            checked += 1
    assert checked == 450  # every event line of the four files


def test_every_type_but_free_values_and_a_serializer_of_its_own_takes_the_plain_way() -> None:
    """campaign.created holds free house-rule values; dice.seed_revealed leaves out its shares when it has none."""
    slow = [n for n in registry.names() if not _EncodePlan.of(registry.cls_for(n)).fields]
    assert slow == ["campaign.created", "dice.seed_revealed"]


def test_a_type_the_plain_way_cannot_read_takes_the_serializer() -> None:
    """A nested model is not plain: its payload is the serializer's, a dict."""
    from pydantic import BaseModel, ConfigDict

    class Inner(BaseModel):
        model_config = ConfigDict(frozen=True, strict=True)
        x: int

    class Outer(Event):
        event_name = "test.outer"
        inner: Inner
        faces: tuple[int, ...] = ()

    local = EventRegistry()
    local.register(Outer)
    assert _EncodePlan.of(Outer).fields == 0
    encoded = local.encode(Outer(inner=Inner(x=3), faces=(2, 1)))
    assert encoded.payload == {"inner": {"x": 3}, "faces": [2, 1]}
    assert encoded.payload_json == b'{"faces":[2,1],"inner":{"x":3}}'
