"""``amend`` reads from the amended command on, not the whole log: the amended command's group and the later ones by the
store's index, the state before it from the nearest snapshot, a sandbox that keeps only what it appends. Before,
it read and grouped the whole log, copied it into an in-memory sandbox and refolded it (29 s CPU and 3.0 GB for
an amend eight commands from the end of a 1,000,000-event campaign).

Two promises: the new way gives exactly what the whole-log way gives (the same report, the same events to append,
the same refusal) on any play with rewinds, undos and amendments interleaved; and what it reads does not grow
with the log before the amended command."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from campaign.executor import Ledger
from campaign.replay import command_groups
from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.timeline import Timeline
from events.envelope import RecordedEvent
from events.errors import CampaignError
from events.recorded import obj
from events.timeline import effective
from projections.campaign_state import SNAPSHOT_EVERY
from tests.conftest import Backend, empty_tables, examples, make_ledger
from tests.integration.test_projections import hypo_engine, play_five_grades  # noqa: F401  (a fixture)
from tests.integration.test_timeline_properties import PLAYS, apply_op, timeline_op


def _fresh_ids(ledger: Ledger) -> None:
    """The same fresh ids for each way of amending (a changed input may create what was never created)."""
    counter = itertools.count(10**6)
    ledger._new_id = lambda: uuid.UUID(int=next(counter)).hex


def _amendment(ledger: Ledger, name: str, seq: int, changes: dict[str, Any], *, whole_log: bool) -> Any:
    _fresh_ids(ledger)
    try:
        report, batch = Timeline(ledger).amendment(ledger.resolve(name), seq, changes, whole_log=whole_log)
    except CampaignError as exc:
        return ("refused", type(exc).__name__, str(exc))
    return ("amended", report.as_dict(), [(e.type, e.payload, e.schema_version) for e in batch])


def _changed(value: Any, delta: int) -> Any:
    return value + delta if isinstance(value, int) and not isinstance(value, bool) else value


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data(), ruleset=st.sampled_from(sorted(PLAYS)))
def test_amending_from_the_command_on_gives_what_the_whole_log_gives(
    hypo_engine: Engine,  # noqa: F811
    data: st.DataObject,
    ruleset: str,
) -> None:
    """Any play of the four rulesets with timeline operations interleaved, then an amendment of each command
    (its inputs changed by a few, or left as they were) and of a few seqs drawn at random (mid-command, retracted,
    out of range): the report, the events it would append (the rewind's dice left on the table included) and
    any refusal are those of the whole-log way."""
    empty_tables(hypo_engine)
    ledger = make_ledger(Backend("sqlite", hypo_engine))
    name, play, step = PLAYS[ruleset]
    play(ledger, data.draw(st.lists(step, max_size=8), label="play"))
    for op in data.draw(st.lists(timeline_op, max_size=5), label="timeline"):
        apply_op(ledger, name, op)
    info = ledger.resolve(name)
    groups = command_groups(effective(ledger.store.read(info.campaign_id)))
    commands = [g for g in groups if g.issued is not None and g.issued.payload["args"]]
    delta = data.draw(st.integers(-3, 3), label="delta")
    seqs = [g.first_seq for g in commands[-8:]]
    seqs += data.draw(st.lists(st.integers(0, info.last_seq + 2), max_size=4), label="seqs")
    for seq in seqs:
        group = next((g for g in groups if g.first_seq <= seq <= g.last_seq), None)
        args = dict(obj(group.issued.payload["args"])) if group is not None and group.issued is not None else {}
        changes = {k: _changed(v, delta) for k, v in args.items()}
        if group is not None and group.issued is not None and group.issued.payload.get("ids") is not None:
            assert Timeline(ledger)._from_command(info, seq) is not None, "read from the command on, not whole"
        whole = _amendment(ledger, name, seq, changes, whole_log=True)
        assert _amendment(ledger, name, seq, changes, whole_log=False) == whole, seq
    assert ledger.resolve(name).last_seq == info.last_seq, "an amendment worked out is not appended"


ROLLS = 1500


@pytest.fixture
def long_campaign(hypo_engine: Engine) -> Ledger:  # noqa: F811
    empty_tables(hypo_engine)
    ledger = make_ledger(Backend("sqlite", hypo_engine))
    ledger.create_campaign("Long", "fighting-spirit")
    for i in range(ROLLS):
        ledger.roll(ledger.resolve("Long"), "d6", f"roll {i}")
    return ledger


def _counting_reads(ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every event the store hands out, by any of its reads (in order, by range, by type, by command)."""
    pulled: list[int] = []
    store = type(ledger.store)

    def wrap(method: Callable[..., Any]) -> Callable[..., Any]:
        def counting(self: object, *args: Any, **kwargs: Any) -> Any:
            found = method(self, *args, **kwargs)
            if found is None:
                return None
            events = list(found)
            pulled.extend(e.seq for e in events if isinstance(e, RecordedEvent))
            return iter(events) if method.__name__ == "read" else type(found)(events)

        return counting

    for name in ("read", "read_types", "read_last", "command_events"):
        monkeypatch.setattr(store, name, wrap(getattr(store, name)))
    return pulled


def test_amending_a_late_command_reads_what_follows_it_not_the_log(
    long_campaign: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A roll five commands from the end of a 3,001-event log (each roll: its command and its die), its purpose
    amended: the amendment reads its own command and the four after it (10 events), a few by index (the rewinds,
    the command record before it) and the state before it (the nearest snapshot and the events since, fewer than
    SNAPSHOT_EVERY): nothing of the first 2,700 events; the whole-log way read all 3,001, twice. The
    amendment appends the rewind and the five re-run commands (their records; their dice stay where they are)."""
    ledger = long_campaign
    info = ledger.resolve("Long")
    assert info.last_seq == 1 + 2 * ROLLS
    seq = info.last_seq - 9  # the fifth roll's record from the end
    pulled = _counting_reads(ledger, monkeypatch)
    report = Timeline(ledger).amend(info, seq, {"purpose": "amended"}, dry_run=True)
    assert report.rerun == 4
    assert report.retracted == (seq, info.last_seq)
    # The state before it: the nearest snapshot (every SNAPSHOT_EVERY seqs here) and the events since.
    assert min(pulled) > info.last_seq - SNAPSHOT_EVERY - 20, min(pulled)
    assert len(pulled) < SNAPSHOT_EVERY + 100, len(pulled)
    pulled.clear()
    done = Timeline(ledger).amend(ledger.resolve("Long"), seq, {"purpose": "amended"})
    assert done.result is not None
    assert [e.type for e in done.result.events] == ["timeline.rewound"] + ["timeline.command_issued"] * 5
    assert min(pulled) > info.last_seq - SNAPSHOT_EVERY - 20, min(pulled)
    assert len(pulled) < SNAPSHOT_EVERY + 150, len(pulled)


def test_amending_a_command_midway_reads_the_half_that_follows_it(
    long_campaign: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Halfway along the same log, the amendment re-runs the 749 later rolls and so reads the 1,500 events after
    the amended command, and not many more (the state before it: fewer than SNAPSHOT_EVERY events); the whole-log
    way read all 3,001."""
    ledger = long_campaign
    info = ledger.resolve("Long")
    seq = 2 + 2 * (ROLLS // 2)  # the record of roll 750 (of 0–1499)
    pulled = _counting_reads(ledger, monkeypatch)
    report = Timeline(ledger).amend(info, seq, {"purpose": "amended"}, dry_run=True)
    assert report.rerun == ROLLS // 2 - 1
    after = info.last_seq - seq + 1
    assert after <= len(pulled) < after + SNAPSHOT_EVERY + 100, len(pulled)


def test_amending_with_dice_on_the_table_gives_what_the_whole_log_gives(hypo_engine: Engine) -> None:  # noqa: F811
    """An amendment re-run (its rally naming a die rolled before it), dice left on the table by undos, one taken
    off it by a later attack, a command after them that rolls nothing, and every command then amended (its numbers
    up or down by one, or as they were), and the re-run attack amended so that a later command is skipped: the
    dice the amendment's rewind leaves on the table, and all else, are the whole-log way's. (The plays drawn above
    seldom leave a die on the table.) Without the dice on the table before the amended command in what is read,
    the amendment of the last command leaves them off the table: this fails."""
    empty_tables(hypo_engine)
    ledger = make_ledger(Backend("sqlite", hypo_engine))
    play_five_grades(ledger, [("battle_start",), ("attack", 1, 1, False), ("rally", 5)])
    first_attack = next(
        g
        for g in command_groups(effective(ledger.store.read(ledger.resolve("Five").campaign_id)))
        if g.issued is not None and g.issued.payload["command"] == "fs.attack"
    )
    assert first_attack.issued is not None
    # Re-run as they were: the re-run rally names the die its first run rolled, before the amendment.
    Timeline(ledger).amend(
        ledger.resolve("Five"), first_attack.first_seq, dict(obj(first_attack.issued.payload["args"]))
    )
    ledger.execute(ledger.resolve("Five"), fsb.Attack.build(unit_name="Squad", killed=0, wounded=1, suppressing=True))
    Timeline(ledger).undo(ledger.resolve("Five"))  # the last attack's dice go on the table
    assert ledger.resolve("Five").on_table
    ledger.execute(
        ledger.resolve("Five"), fsb.Attack.build(unit_name="Squad", killed=1, wounded=1, suppressing=False)
    )  # takes one off it
    ledger.execute(ledger.resolve("Five"), fsb.Attack.build(unit_name="Squad", killed=1, wounded=0, suppressing=False))
    Timeline(ledger).undo(ledger.resolve("Five"))
    ledger.execute(
        ledger.resolve("Five"), fs.Funds.build(side="Keno", amount=50, reason="a later purse")
    )  # rolls nothing: the dice stay on the table
    info = ledger.resolve("Five")
    assert info.on_table and min(info.on_table) < info.last_seq - 1
    log = list(ledger.store.read(info.campaign_id))
    assert any(e.type == "dice.rolled" and e.payload.get("offered_from") is not None for e in log)
    groups = command_groups(effective(log))
    outcomes = []
    for group in groups:
        for delta in (0, 1, -1):
            args = dict(obj(group.issued.payload["args"])) if group.issued is not None else {}
            changes = {k: _changed(v, delta) for k, v in args.items()}
            whole = _amendment(ledger, "Five", group.first_seq, changes, whole_log=True)
            assert _amendment(ledger, "Five", group.first_seq, changes, whole_log=False) == whole, group.first_seq
            outcomes.append(whole)
    left = [o[2][0][1]["on_table"] for o in outcomes if o[0] == "amended"]
    assert any(left) and any(pair not in info.on_table for pairs in left for pair in pairs), left
    # The re-run attack amended to hurt more: the attack after the re-run rally no longer applies and is skipped
    # alone; the funds after it stay in effect, and its die (offered again from the table) is left on it.
    rerun_attack = next(g for g in groups if g.issued is not None and g.issued.payload.get("amends"))
    for harder in ({"killed": 7}, {"killed": 8, "wounded": 0}):
        whole = _amendment(ledger, "Five", rerun_attack.first_seq, harder, whole_log=True)
        assert _amendment(ledger, "Five", rerun_attack.first_seq, harder, whole_log=False) == whole
        assert whole[0] == "amended" and [d["command"] for d in whole[1]["dropped"]] == ["fs.attack"]
        assert [f["command"] for f in whole[1]["fates"] if f["fate"] != "no longer applies"][-1] == "fs.funds"
