"""``log --unit`` and ``--battle`` (and ``unit NAME``'s history) page through the ``event_refs`` index
(kept inline in every append, filled by migration 0010 for a log written before it) and show exactly what
filtering (or streaming) the whole log showed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, func, select

import campaign.read.log as log_view
from alembic import command
from campaign.bootstrap import alembic_config, ensure_schema
from campaign.executor import Ledger
from campaign.read.describe import unit_names
from campaign.read.log import log_page, ref_index
from campaign.read.views import log_filter, unit_history
from campaign.rulesets.mass_combat import commands as mc
from events.db import make_engine
from events.envelope import RecordedEvent
from events.memory import InMemoryEventStore
from projections.event_refs import refs_of
from projections.tables import event_refs
from tests.conftest import Backend, empty_tables, examples, make_ledger
from tests.integration.test_projections import hypo_engine, play_mass_combat  # noqa: F401  (a fixture)
from tests.integration.test_timeline_properties import PLAYS, apply_op, timeline_op
from tests.integration.test_timeline_windows import _decoded


def reference(
    events: list[RecordedEvent],
    *,
    unit: str | None,
    battle: str | None,
    after: int,
    upto: int | None,
    type_prefix: str | None,
    last: int | None,
    limit: int | None,
    show_all: bool,
) -> list[tuple[int, bool]]:
    """What ``log --unit/--battle`` showed before the index: the whole log up to ``upto`` filtered by
    ``log_filter``, then after, type, the last N, the first M (the CLI's order)."""
    chosen = [e for e in events if upto is None or e.seq <= upto]
    entries = [
        (e.seq, gone)
        for e, gone in log_filter(chosen, show_all=show_all, unit=unit, battle=battle)
        if e.seq > after and (not type_prefix or e.type.startswith(type_prefix))
    ]
    if last is not None:
        entries = entries[max(0, len(entries) - last) :]
    return entries if limit is None else entries[:limit]


def variants(name: str) -> list[str]:
    """A name as a person may type it (``same_name`` matches case and spacing loosely)."""
    return [name, name.upper(), f" {name.lower()} "]


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data(), ruleset=st.sampled_from(sorted(PLAYS)), page=st.sampled_from([1, 3, 500]))
def test_log_by_unit_or_battle_from_the_index_equals_the_whole_log_filtered(
    hypo_engine: Engine,  # noqa: F811
    data: st.DataObject,
    ruleset: str,
    page: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(log_view, "PAGE", page)
    empty_tables(hypo_engine)
    ledger = make_ledger(Backend("sqlite", hypo_engine))
    assert ref_index(ledger.store) is not None
    name, play, step = PLAYS[ruleset]
    play(ledger, data.draw(st.lists(step, max_size=10), label="play"))
    for op in data.draw(st.lists(timeline_op, max_size=6), label="timeline"):
        apply_op(ledger, name, op)
    info = ledger.resolve(name)
    events = list(ledger.store.read(info.campaign_id))
    names = unit_names(events)
    ids = {v for e in events for k, v in e.payload.items() if k in ("unit_id", "officer_id", "battle_id")}
    asked = sorted({*map(str, ids), *names.values(), "nobody"})
    end = info.last_seq
    for _ in range(12):
        who = data.draw(st.sampled_from(asked), label="who")
        who = data.draw(st.sampled_from(variants(who)), label="typed")
        unit, battle = data.draw(
            st.sampled_from([(who, None), (None, who), (who, data.draw(st.sampled_from(asked), label="battle"))]),
            label="filter",
        )
        options: dict[str, Any] = {
            "after": data.draw(st.integers(0, end), label="after"),
            "upto": data.draw(st.one_of(st.none(), st.integers(0, end)), label="upto"),
            "type_prefix": data.draw(st.sampled_from([None, "dice.", "roster.", "battle."]), label="type"),
            "last": data.draw(st.one_of(st.none(), st.integers(0, 8)), label="last"),
            "limit": data.draw(st.one_of(st.none(), st.integers(0, 5)), label="limit"),
            "show_all": data.draw(st.booleans(), label="all"),
        }
        got = log_page(ledger.store, info.campaign_id, unit=unit, battle=battle, **options)
        expected = reference(events, unit=unit, battle=battle, **options)
        assert [(e.seq, gone) for e, gone in got.entries] == expected, (unit, battle, options)
    # `unit NAME`'s history, from the commands the index names, equals the history streamed from the whole log
    # (a store in memory keeps no index: the same events there are read whole).
    whole = InMemoryEventStore()
    whole.import_stream(info.campaign_id, events)
    assert ref_index(whole) is None
    for unit_id in sorted(k for k, v in names.items() if any(e.payload.get("unit_id") == k for e in events)):
        at = data.draw(st.one_of(st.none(), st.integers(0, end)), label="at")
        got_history = unit_history(ledger.store, info.campaign_id, unit_id, at)
        assert got_history == unit_history(whole, info.campaign_id, unit_id, at), (unit_id, at)
    # The index holds each event's refs, no more: what a rebuild gives (checked beside the other projections).
    with hypo_engine.connect() as conn:
        stored = {
            (r.ref, r.seq) for r in conn.execute(select(event_refs).where(event_refs.c.campaign_id == info.campaign_id))
        }
    assert stored == {(ref, e.seq) for e in events for ref in refs_of(e.payload)}


@pytest.fixture
def long_war(sql_backend: Backend) -> Ledger:
    """A Mass Combat campaign: three units raised, 300 rolls, then Blue foot recruits four times."""

    ledger = make_ledger(sql_backend)
    play_mass_combat(ledger, [])
    for i in range(300):
        ledger.roll(ledger.resolve("Mass"), "d6", f"roll {i}")
    for _ in range(4):
        ledger.execute(ledger.resolve("Mass"), mc.Recruit.build(unit_name="Blue foot", men=5, quality="average"))
    return ledger


def test_log_by_unit_decodes_only_the_units_events_not_the_whole_log(
    long_war: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Names come from the mustering events and retractions from the rewinds (both read by type); the entries
    from the index: no event of the 600 rolls is decoded."""
    ledger = long_war
    info = ledger.resolve("Mass")
    events = list(ledger.store.read(info.campaign_id))
    blue = {k for k, v in unit_names(events).items() if v == "Blue foot"}
    about = {e.seq for e in events if e.payload.get("unit_id") in blue or e.payload.get("officer_id") in blue}
    assert len(about) == 5, "the fixture raises Blue foot and recruits it four times after the rolls"
    rolls = {e.seq for e in events if e.type.startswith("dice.")}
    assert len(rolls) >= 300
    read_by_type = {e.seq for e in events if e.type in ("roster.unit_mustered", "battle.started", "timeline.rewound")}
    seqs = _decoded(monkeypatch)
    got = log_page(ledger.store, info.campaign_id, unit="blue FOOT", last=3)
    assert [e.seq for e, _ in got.entries] == sorted(about)[-3:]
    assert seqs and set(seqs) <= about | read_by_type, sorted(set(seqs) - about - read_by_type)[:5]
    seqs.clear()
    every = log_page(ledger.store, info.campaign_id, unit="Blue foot", show_all=True)
    assert [e.seq for e, _ in every.entries] == sorted(about)
    assert set(seqs) <= about | read_by_type
    # `unit NAME`'s history reads the commands of the unit's events (a recruit: its issue, rule and outcome).
    seqs.clear()
    (unit_id,) = blue
    history = unit_history(ledger.store, info.campaign_id, unit_id)
    assert [h["seq"] for h in history] == sorted(about)[1:]  # the raising itself aside
    assert seqs and not set(seqs) & rolls, sorted(set(seqs) & rolls)[:5]


def test_migration_0010_fills_the_index_of_a_log_written_before_it(tmp_path: Path) -> None:
    """A database at 0009 with a campaign in it: upgrading writes each event's refs, as the inline writer would."""
    path = tmp_path / "old.db"
    engine = make_engine(str(path))
    config = alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
    ledger = make_ledger(Backend("sqlite", engine))
    play_mass_combat(ledger, [("recruit", 5), ("battle", 1)])
    info = ledger.resolve("Mass")
    events = list(ledger.store.read(info.campaign_id))
    written = {(r.ref, r.seq) for r in engine.connect().execute(select(event_refs))}
    assert written and written == {(ref, e.seq) for e in events for ref in refs_of(e.payload)}
    with engine.begin() as conn:  # back to what 0009 held: the log, no index
        config.attributes["connection"] = conn
        command.downgrade(config, "0009")
    with engine.connect() as conn:
        assert "event_refs" not in {r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master")}
    ensure_schema(engine, create=False)  # what any command does first
    with engine.connect() as conn:
        assert {(r.ref, r.seq) for r in conn.execute(select(event_refs))} == written
        assert conn.execute(select(func.count()).select_from(event_refs)).scalar_one() == len(written)
    engine.dispose()
