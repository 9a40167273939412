"""verify checks each payload with its model's fields alone (building every model was most of verify's
time): the same verdict and the same values as the model, on every event type, for any payload."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import events.families  # noqa: F401 (registers every event type)
from campaign.executor import TableEntry
from events.registry import registry
from events.verify import verify_events
from events.verify_parts import fields_validator, roll_problem
from tests.conftest import Backend, examples, make_ledger

NAMES = registry.names()

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.integers(min_value=-3, max_value=7),
    st.text(max_size=4),
    st.sampled_from(["seeded", "table", "offered", "3d6", "d8", "1", "true", "0.5"]),
    st.floats(allow_nan=False),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=6,
)


def valid(schema: Any, refs: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """Values a pydantic core schema accepts as they are (what a genuine payload holds), from its nodes."""
    kind = schema["type"]
    if "ref" in schema and kind != "definitions":
        refs[schema["ref"]] = schema
    if kind == "definitions":
        for definition in schema["definitions"]:
            refs[definition["ref"]] = definition
        return valid(schema["schema"], refs, depth)
    if kind == "definition-ref":
        return st.none() if depth > 3 else st.deferred(lambda: valid(refs[schema["schema_ref"]], refs, depth + 1))
    if kind in ("model", "model-field", "default"):
        return valid(schema["schema"], refs, depth)
    if kind == "model-fields":
        fields = {n: valid(f, refs, depth) for n, f in schema["fields"].items()}
        required = {n: v for n, v in fields.items() if schema["fields"][n]["schema"]["type"] != "default"}
        optional = {n: v for n, v in fields.items() if n not in required}
        return st.fixed_dictionaries(required, optional=optional)
    simple: dict[str, st.SearchStrategy[Any]] = {
        "str": st.text(max_size=4),
        "int": st.integers(min_value=-9, max_value=2**64),
        "bool": st.booleans(),
        "none": st.none(),
    }
    if kind in simple:
        return simple[kind]
    if kind == "nullable":
        return st.none() | valid(schema["schema"], refs, depth)
    if kind == "literal":
        return st.sampled_from(schema["expected"])
    if kind in ("list", "tuple"):
        items = schema["items_schema"]
        return st.lists(valid(items[0] if isinstance(items, list) else items, refs, depth + 1), max_size=3)
    if kind == "dict":
        return st.dictionaries(st.text(max_size=3), valid(schema["values_schema"], refs, depth + 1), max_size=3)
    if kind == "union":
        return st.one_of([valid(c[0] if isinstance(c, tuple | list) else c, refs, depth) for c in schema["choices"]])
    raise AssertionError(f"a schema node the test does not know: {kind}")


def genuine(name: str) -> st.SearchStrategy[Any]:
    cls = registry.cls_for(name)
    cls.model_rebuild()
    return valid(cls.__pydantic_core_schema__, {})


@st.composite
def payloads(draw: st.DrawFn) -> tuple[str, Any]:
    """A type and a payload: a genuine one of its schema, often spoiled — a field holding any JSON, a field left
    out, a key it does not know — or (rarely) not an object at all."""
    name = draw(st.sampled_from(NAMES))
    if draw(st.integers(0, 19)) == 0:
        return name, draw(json_values)
    payload = draw(genuine(name))
    spoil = draw(st.integers(0, 5))
    if spoil == 1 and payload:
        payload[draw(st.sampled_from(sorted(payload)))] = draw(json_values)
    elif spoil == 2 and payload:
        del payload[draw(st.sampled_from(sorted(payload)))]
    elif spoil == 3:
        payload[draw(st.sampled_from(["x", "type", "seq", "extra"]))] = draw(json_values)
    return name, payload


def model_verdict(name: str, payload: Any) -> dict[str, Any] | None:
    try:
        return dict(registry.cls_for(name).model_validate(payload, strict=False))
    except ValidationError:
        return None


def fields_verdict(name: str, payload: Any) -> dict[str, Any] | None:
    validate = fields_validator(registry.cls_for(name))
    assert validate is not None  # every event type of today is its fields alone
    try:
        return dict(validate(payload, strict=False)[0])
    except ValidationError:
        return None


@settings(max_examples=examples(3000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payloads())
def test_the_fields_accept_exactly_what_the_model_accepts_with_the_same_values(case: tuple[str, Any]) -> None:
    name, payload = case
    assert fields_verdict(name, payload) == model_verdict(name, payload)


def test_every_event_of_a_played_campaign_gives_its_models_fields() -> None:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Ardennes", "fighting-spirit", seed=bytes(32))
    ledger.roll(ledger.resolve(None), "d8", "confidence")
    ledger.roll(ledger.resolve(None), "2d6", "table roll", table=TableEntry((3, 5)))
    ledger.reveal(ledger.resolve(None))
    events = list(ledger.store.read(ledger.resolve(None).campaign_id))
    assert {e.type for e in events} >= {"campaign.created", "dice.rolled", "dice.seed_revealed"}
    for event in events:
        assert fields_verdict(event.type, event.payload) == dict(registry.decode(event))
    assert verify_events(events[0].campaign_id, events, registry).ok


ROLL = {
    "roll_index": 0,
    "notation": "2d6+1",
    "count": 2,
    "sides": 6,
    "modifier": 1,
    "faces": (3, 5),
    "total": 9,
    "purpose": "p",
    "source": "seeded",
    "seed_epoch": 0,
}


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({}, None),
        ({"notation": "2d6"}, "2d6+1 does not match its notation 2d6"),
        ({"notation": "2q6"}, "does not parse"),
        ({"faces": (3, 5, 1)}, "3 faces recorded for 2 dice"),
        ({"faces": (0, 5), "total": 6}, "face 0 is impossible on a d6"),
        ({"faces": (1, 6), "total": 8}, None),  # 1 and 6: both edges of a d6
        ({"faces": (3, 7), "total": 11}, "face 7 is impossible on a d6"),
        ({"total": 8}, "total 8 is not the faces [3, 5] plus 1"),
        ({"total": 10}, "total 10 is not the faces [3, 5] plus 1"),
        ({"seed_epoch": None}, "a seeded roll without a seed epoch"),
        ({"seed_epoch": None, "source": "table"}, None),
    ],
)
def test_a_rolls_own_dice_are_checked_in_words(change: dict[str, Any], problem: str | None) -> None:
    found = roll_problem({**ROLL, **change})
    assert found == problem if problem is None else (found is not None and problem in found)


def test_pending_rolls_give_back_each_roll_of_an_epoch_as_it_was_added() -> None:
    from events.verify_parts import PendingRolls

    pending = PendingRolls()
    pending.add(1, 10, 0, 6, (1, 6, 3))
    pending.add(2, 12, 1, 100, (100,))
    pending.add(1, 14, 2, 20, (20, 1))
    pending.add(1, 16, 3, 1000, (255, 256))  # a face past a byte is kept as it is
    assert pending.count == 4
    assert list(pending.pop(1)) == [(10, 0, 3, 6, (1, 6, 3)), (14, 2, 2, 20, (20, 1)), (16, 3, 2, 1000, (255, 256))]
    assert pending.count == 1 and list(pending.pop(1)) == []
    assert list(pending.pop(2)) == [(12, 1, 1, 100, (100,))] and pending.count == 0
