"""The folds' shortcuts (rebuild speed) give what folding every event one by one gives.

* A ruleset's fold hands its ``apply`` only events of :data:`FOLDED_FAMILIES`: every other family's event must
  leave any state of any ruleset as it was, whatever it holds.
* The directory's ``apply_all`` builds one entry per run of events that only move the head and the next roll
  index: it must equal :func:`apply` event by event, wherever a batch starts.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.rulesets import RULESETS, ruleset
from campaign.rulesets.fold import FOLDED_FAMILIES
from campaign.tables import base_values
from events.envelope import RecordedEvent
from events.registry import registry
from projections.state.campaigns import _ENTRY_FACTS, CampaignInfo, apply, apply_all
from tests.conftest import examples
from tests.unit.test_encode_plan import _instances

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs_2026_12_01"


def _recorded(type_: str, payload: Any, seq: int = 1, campaign: str = "c") -> RecordedEvent:
    return RecordedEvent(seq, campaign, seq, type_, 1, payload, {}, "0" * 64, f"{seq:064x}")


def _logs() -> dict[str, list[RecordedEvent]]:
    """The four demo campaigns (one per ruleset), as their events were stored."""
    logs: dict[str, list[RecordedEvent]] = {}
    for path in sorted(FIXTURES.glob("*.jsonl")):
        lines = [orjson.loads(line) for line in path.read_text().splitlines()]
        logs[lines[0]["ruleset"]] = [
            RecordedEvent(
                r["seq"],
                r["campaign_id"],
                r["seq"],
                r["type"],
                r["schema_version"],
                r["payload"],
                r["meta"],
                r["prev_hash"],
                r["hash"],
            )
            for r in lines[1:]
            if "type" in r
        ]
    return logs


LOGS = _logs()


def _raw_apply(name: str) -> tuple[Any, Any]:
    """The ruleset's own ``apply`` (every event handed to it) and a fold of a log with it."""
    package = ruleset(name).package
    state_module = importlib.import_module(f"{package}.state")
    tables = None
    if name in ("mass-combat", "fighting-spirit"):
        tables_module = importlib.import_module(f"{package}.tables")
        tables = tables_module.Tables.of(dict(base_values(package)))

    def raw(state: Any, event: RecordedEvent) -> Any:
        return state_module.apply(state, event) if tables is None else state_module.apply(state, event, tables)

    return state_module.CampaignState, raw


@functools.cache
def _states(name: str) -> list[Any]:
    """Every twentieth state the ruleset's demo campaign passes through, and its last."""
    initial, raw = _raw_apply(name)
    state, states = initial(), []
    for i, event in enumerate(LOGS[name]):
        state = raw(state, event)
        if i % 20 == 0:
            states.append(state)
    return [*states, state]


OTHER_TYPES = [n for n in registry.names() if n.partition(".")[0] not in FOLDED_FAMILIES]


def test_the_demo_logs_cover_every_ruleset_and_the_other_families_are_the_log_s_own() -> None:
    assert set(LOGS) == set(RULESETS)
    assert {n.partition(".")[0] for n in OTHER_TYPES} == {"campaign", "dice", "membership", "timeline"}


@pytest.mark.parametrize("name", sorted(RULESETS))
@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_event_of_a_family_no_ruleset_folds_changes_no_state(name: str, data: st.DataObject) -> None:
    """Drawn: one of those types with any values its schema allows, mixed with the demo logs' own events."""
    _, raw = _raw_apply(name)
    kind = data.draw(st.sampled_from(OTHER_TYPES))
    drawn = data.draw(_instances(registry.cls_for(kind)))
    payload = drawn.__pydantic_serializer__.to_python(drawn, mode="json")
    recorded = [e for log in LOGS.values() for e in log if e.type.partition(".")[0] not in FOLDED_FAMILIES]
    for event in (_recorded(kind, payload), data.draw(st.sampled_from(recorded))):
        for state in _states(name):
            assert raw(state, event) == state


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_fold_equals_the_ruleset_s_apply_on_every_event(name: str) -> None:
    from campaign.commands import fold_for

    fold = fold_for(name)
    assert fold is not None
    initial, raw = _raw_apply(name)
    state = initial()
    for event in LOGS[name]:
        state = raw(state, event)
    assert fold.fold(LOGS[name]) == state


def _one_by_one(info: CampaignInfo | None, events: list[RecordedEvent]) -> CampaignInfo | None:
    for event in events:
        info = apply(info, event)
    return info


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_directory_folded_in_runs_equals_event_by_event_wherever_a_batch_starts(name: str) -> None:
    log = LOGS[name]
    for cut in range(0, len(log), 7):
        before = _one_by_one(None, log[:cut])
        assert apply_all(before, log[cut:]) == _one_by_one(before, log[cut:])
        assert apply_all(before, iter(log[cut : cut + 5])) == _one_by_one(before, log[cut : cut + 5])


def test_the_directory_takes_offered_dice_off_the_table_and_keeps_reveals_in_runs() -> None:
    """Worked by hand: two dice left on the table (rolls 3 and 4), the first offered again as roll 6, then a
    seed revealed and the next committed, with plain rolls between; the set-aside takes roll 4 off."""
    created = _recorded(
        "campaign.created",
        {"name": "A", "ruleset": "grimdark", "ruleset_version": "1", "seed_commitment": "x" * 64},
        seq=1,
    )
    events = [
        created,
        _recorded("dice.rolled", {"roll_index": 5}, seq=2),
        _recorded("timeline.rewound", {"to_seq": 1, "reason": "r", "on_table": [[7, 3], [8, 4]]}, seq=3),
        _recorded("timeline.command_issued", {"command": "roll", "args": {}}, seq=4),
        _recorded("dice.rolled", {"roll_index": 6, "offered_from": 3}, seq=5),
        _recorded("dice.rolled", {"roll_index": 2}, seq=6),
        _recorded("dice.seed_revealed", {"epoch": 0, "seed": "s"}, seq=7),
        _recorded("dice.seed_committed", {"epoch": 1, "commitment": "y" * 64}, seq=8),
        _recorded("dice.set_aside", {"roll_index": 4, "reason": "fell"}, seq=9),
        _recorded("dice.rolled", {"roll_index": 7}, seq=10),
    ]
    info = apply_all(None, events)
    assert info is not None
    assert (info.next_roll_index, info.last_seq, info.head_hash) == (8, 10, f"{10:064x}")
    assert (info.on_table, info.on_table_index) == ((), ())
    assert (info.seed_epoch, info.seed_commitment, info.revealed_epochs) == (1, "y" * 64, (0,))
    middle = apply_all(None, events[:5])
    assert middle is not None
    assert (middle.on_table, middle.on_table_index, middle.next_roll_index) == ((8,), (4,), 7)
    assert apply_all(None, events) == _one_by_one(None, events)
    assert apply_all(None, [_recorded("dice.rolled", {"roll_index": 1})]) is None


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_type_outside_the_entry_s_facts_only_moves_its_head(data: st.DataObject) -> None:
    """What ``apply_all`` assumes of every type it folds in runs: any event of a type not in ``_ENTRY_FACTS`` (a
    roll taken off no table apart) changes a directory entry's head and nothing else, whatever it holds."""
    kind = data.draw(st.sampled_from([n for n in registry.names() if n not in _ENTRY_FACTS]))
    drawn = data.draw(_instances(registry.cls_for(kind)))
    payload = drawn.__pydantic_serializer__.to_python(drawn, mode="json")
    if kind == "dice.rolled":
        payload = {**payload, "offered_from": None}
    name = data.draw(st.sampled_from(sorted(LOGS)))
    before = _one_by_one(None, LOGS[name][: data.draw(st.integers(1, len(LOGS[name])))])
    assert before is not None
    if "epoch" in payload and data.draw(st.booleans()):  # a fact of the entry's own seed epoch
        payload = {**payload, "epoch": before.seed_epoch}
    event = _recorded(kind, payload, seq=before.last_seq + 1)
    after = apply(before, event)
    assert after is not None
    moved = dataclasses.replace(before, last_seq=event.seq, head_hash=event.hash)
    if kind == "dice.rolled":
        moved = dataclasses.replace(moved, next_roll_index=max(before.next_roll_index, payload["roll_index"] + 1))
    assert after == moved
    assert apply_all(before, [event]) == after
