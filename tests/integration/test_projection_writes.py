"""The inline projector writes what a command changed, not the whole read model, and its snapshots stay
smaller than the log they summarise; what it keeps still equals a rebuild."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlalchemy import event as sql_event

from campaign.executor import Ledger
from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from events.envelope import RecordedEvent
from events.errors import ConcurrencyError, InvalidInputError
from events.families.economy import FundsChanged
from projections import campaign_state
from projections.campaign_state import SNAPSHOT_EVERY, logged_bytes
from projections.fold import RulesetFold
from tests.conftest import Backend, make_ledger
from tests.integration.test_projections import check_inline_equals_rebuild, play_mass_combat

SUMMARY_TABLES = ("unit_records", "battle_history", "treasuries")


@pytest.fixture
def writes(sqlite_engine: Engine) -> Iterator[Engine]:
    """Every insert, update and delete on the summary tables, counted by SQLite triggers."""
    with sqlite_engine.begin() as conn:
        conn.execute(text("CREATE TABLE summary_writes (tbl TEXT, kind TEXT)"))
        for table in SUMMARY_TABLES:
            for kind in ("INSERT", "UPDATE", "DELETE"):
                conn.execute(
                    text(
                        f"CREATE TRIGGER count_{table}_{kind} AFTER {kind} ON {table} "
                        f"BEGIN INSERT INTO summary_writes VALUES ('{table}', '{kind}'); END"
                    )
                )
    yield sqlite_engine


def written(engine: Engine) -> list[tuple[str, str]]:
    with engine.begin() as conn:
        rows = [(str(t), str(k)) for t, k in conn.execute(text("SELECT tbl, kind FROM summary_writes"))]
        conn.execute(text("DELETE FROM summary_writes"))
    return sorted(rows)


def other_process(backend: Backend) -> Ledger:
    """A second ledger on the same database, as another process: with command ids of its own (two ledgers from
    ``make_ledger`` count ids alike, and a command id seen before is taken for a retry and appends nothing)."""
    ledger = make_ledger(backend)
    others = iter(range(10**6, 2 * 10**6))
    ledger._new_id = lambda: uuid.UUID(int=next(others)).hex
    return ledger


def test_a_command_writes_only_the_summary_rows_it_changed(writes: Engine, sqlite_url: str) -> None:
    ledger = make_ledger(Backend("sqlite", writes, sqlite_url))
    play_mass_combat(ledger, [("days", "rest", 2)])  # three units, two treasuries
    written(writes)
    ledger.execute(ledger.resolve("Mass"), mcal.Funds.build(side="Red", amount=10, reason="a ransom"))
    assert written(writes) == [("treasuries", "UPDATE")]
    ledger.execute(ledger.resolve("Mass"), mc.Disband.build(unit_name="Blue reserve", reason="sent home"))
    assert written(writes) == [("unit_records", "UPDATE")]
    ledger.execute(
        ledger.resolve("Mass"),
        mc.Raise.build(
            name="Red horse",
            side="Red",
            profile={"quality": "average", "men": 20, "troop_type": "LI", "armour": "light"},
        ),
    )
    assert written(writes) == [("treasuries", "UPDATE"), ("unit_records", "INSERT")]


def test_a_command_makes_and_encodes_again_only_the_summary_rows_whose_inputs_it_changed(
    sqlite_engine: Engine, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The units' rows of a Mass Combat campaign read each unit, the tables, the day, the month and the
    side-wide modifiers. Funds change a treasury only: no unit's row is made (its Troop Strength worked out) or
    encoded again; recruits join one unit: that unit's row only; a day passing: every unit's."""
    from campaign.rulesets.mass_combat import fold as mc_fold

    ledger = make_ledger(Backend("sqlite", sqlite_engine, sqlite_url))
    play_mass_combat(ledger, [])  # three units: Blue foot, Red foot, Blue reserve
    from campaign.rulesets.mass_combat.profile import UnitProfile
    from campaign.rulesets.mass_combat.strength import Strength, troop_strength
    from campaign.rulesets.mass_combat.tables import Tables

    made: list[int] = []
    encoded: list[Any] = []  # what the state's rows are encoded from: JSON values
    encode = campaign_state._json

    def making(tables: Tables, p: UnitProfile, *, men: int | None = None, quality: str | None = None) -> Strength:
        made.append(1)
        return troop_strength(tables, p, men=men, quality=quality)

    def encoding(value: Any) -> bytes:
        encoded.append(value)
        return encode(value)

    monkeypatch.setattr(mc_fold, "troop_strength", making)
    monkeypatch.setattr(campaign_state, "_json", encoding)

    def counted() -> tuple[int, list[str]]:
        out = (len(made), sorted(e["name"] for e in encoded))
        made.clear()
        encoded.clear()
        return out

    ledger.execute(ledger.resolve("Mass"), mcal.Funds.build(side="Red", amount=10, reason="a ransom"))
    assert counted() == (0, [])
    ledger.execute(ledger.resolve("Mass"), mc.Recruit.build(unit_name="Blue foot", men=5, quality="average"))
    assert counted() == (1, ["Blue foot"])
    ledger.execute(ledger.resolve("Mass"), mcal.Days.build(days=1, activity="rest"))
    assert counted() == (3, ["Blue foot", "Blue reserve", "Red foot"])
    check_inline_equals_rebuild(sqlite_engine, ledger)


def test_a_command_encodes_again_only_the_parts_of_the_state_it_changed(
    sqlite_engine: Engine, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Funds change a treasury: of the stored state only the treasuries are dumped again; a roll
    changes no part of the state: none is, and the stored state is left as it was."""
    from pydantic import TypeAdapter

    ledger = make_ledger(Backend("sqlite", sqlite_engine, sqlite_url))
    play_mass_combat(ledger, [])
    dumped: list[Any] = []
    dump = TypeAdapter.dump_python

    def counted(self: TypeAdapter[Any], value: Any, **kw: Any) -> Any:
        dumped.append(kw.get("include"))
        return dump(self, value, **kw)

    monkeypatch.setattr(TypeAdapter, "dump_python", counted)
    ledger.execute(ledger.resolve("Mass"), mcal.Funds.build(side="Red", amount=10, reason="a ransom"))
    assert dumped == [{"treasury"}]
    dumped.clear()
    ledger.roll(ledger.resolve("Mass"), "3d", "a test")
    assert dumped == []
    check_inline_equals_rebuild(sqlite_engine, ledger)


def test_a_projector_that_did_not_write_last_rereads_the_stored_state(writes: Engine, sqlite_url: str) -> None:
    """Two processes on one database: each append after the other's starts from what is stored."""
    backend = Backend("sqlite", writes, sqlite_url)
    first, second = make_ledger(backend), other_process(backend)
    play_mass_combat(first, [("days", "rest", 2)])
    results = []
    for n in range(3):
        results.append(
            first.execute(first.resolve("Mass"), mcal.Funds.build(side="Blue", amount=n + 1, reason="first"))
        )
        results.append(
            second.execute(second.resolve("Mass"), mcal.Funds.build(side="Blue", amount=-(n + 1), reason="second"))
        )
    first.execute(first.resolve("Mass"), mcal.Funds.build(side="Blue", amount=7, reason="first again"))
    assert [r.duplicate for r in results] == [False] * 6
    check_inline_equals_rebuild(writes, first)


def test_a_command_in_a_process_that_did_not_write_last_reads_and_decodes_the_stored_state_once(
    sqlite_engine: Engine, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state loaded once per command: a command run by a fresh process (every CLI command) reads the
    campaign's state row once, to decide, and its append folds into that same state instead of reading and
    decoding the row again; what it writes still equals a rebuild."""
    backend = Backend("sqlite", sqlite_engine, sqlite_url)
    play_mass_combat(make_ledger(backend), [("days", "rest", 2)])
    fresh = make_ledger(backend)
    reads: list[str] = []
    decodes: list[int] = []

    def count(conn: object, cursor: object, statement: str, *rest: object) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "campaign_state.state" in statement:
            reads.append(statement)

    decode = RulesetFold.decode

    def decoding(self: RulesetFold[Any], data: bytes) -> Any:
        decodes.append(1)
        return decode(self, data)

    monkeypatch.setattr(RulesetFold, "decode", decoding)
    sql_event.listen(sqlite_engine, "before_cursor_execute", count)
    try:
        fresh.execute(fresh.resolve("Mass"), mcal.Funds.build(side="Blue", amount=5, reason="a patron"))
    finally:
        sql_event.remove(sqlite_engine, "before_cursor_execute", count)
    assert (len(reads), len(decodes)) == (1, 1)
    fresh.execute(
        fresh.resolve("Mass"), mcal.Funds.build(side="Red", amount=3, reason="a ransom")
    )  # the writer's own state: none read
    check_inline_equals_rebuild(sqlite_engine, fresh)


def test_a_state_read_before_another_process_appended_is_not_folded_into_and_the_append_is_refused(
    sqlite_engine: Engine, sqlite_url: str
) -> None:
    """The state a command decides from is the head its append checks: read by one process, then outrun by
    another's append, the first's command is refused as stale, and its next one starts from what is stored."""
    backend = Backend("sqlite", sqlite_engine, sqlite_url)
    first = make_ledger(backend)
    play_mass_combat(first, [("days", "rest", 2)])
    with sqlite_engine.connect() as conn:
        blue = conn.execute(text("SELECT balance FROM treasuries WHERE side = 'Blue'")).scalar()
    assert blue is not None
    second = other_process(backend)
    stale = second.resolve("Mass")
    second.states.get(stale)  # read and decoded at the head as it was
    first.execute(first.resolve("Mass"), mcal.Funds.build(side="Blue", amount=1, reason="first"))
    with pytest.raises(ConcurrencyError):
        second.execute(stale, mcal.Funds.build(side="Blue", amount=100, reason="stale"))
    second.execute(second.resolve("Mass"), mcal.Funds.build(side="Blue", amount=2, reason="second"))
    first.execute(first.resolve("Mass"), mcal.Funds.build(side="Blue", amount=4, reason="first again"))
    check_inline_equals_rebuild(sqlite_engine, first)
    with sqlite_engine.connect() as conn:
        assert conn.execute(text("SELECT balance FROM treasuries WHERE side = 'Blue'")).scalar() == blue + 7


def snapshots(engine: Engine) -> list[tuple[int, int]]:
    with engine.connect() as conn:
        return [(int(s), int(n)) for s, n in conn.execute(text("SELECT seq, length(state) FROM campaign_snapshots"))]


@pytest.mark.parametrize("grid", [8, SNAPSHOT_EVERY])
def test_snapshots_fall_on_the_grid_once_the_log_grew_twice_the_last_one_and_never_outweigh_it(
    sqlite_engine: Engine, sqlite_url: str, grid: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A grid of 8 events makes the state outweigh what is logged between grid seqs: snapshots are skipped.
    monkeypatch.setattr(campaign_state, "SNAPSHOT_EVERY", grid)
    ledger = make_ledger(Backend("sqlite", sqlite_engine, sqlite_url))
    play_mass_combat(ledger, [("battle", 2), ("days", "rest", 3), ("battle", 0), ("month", 100)])
    while ledger.resolve("Mass").last_seq < 1280:
        ledger.execute(ledger.resolve("Mass"), mcal.Days.build(days=1, activity="rest"))
    events: list[RecordedEvent] = list(ledger.store.read(ledger.resolve("Mass").campaign_id))
    taken = dict(snapshots(sqlite_engine))
    assert taken, "a campaign this long has snapshots"
    # The rule, from the log alone: on each grid seq, a snapshot iff the bytes logged since the last one
    # reach twice its size (the first one: at the first grid seq).
    logged, last_size, skipped = 0, 0, 0
    for event in events:
        logged += logged_bytes(event)
        if event.seq % grid == 0:
            due = logged >= 2 * last_size
            assert (event.seq in taken) == due, (event.seq, logged, last_size)
            if due:
                logged, last_size = 0, taken[event.seq]
            skipped += not due
    assert (skipped > 0) == (grid == 8), skipped
    assert sum(taken.values()) <= sum(logged_bytes(e) for e in events)
    check_inline_equals_rebuild(sqlite_engine, ledger)


def test_a_rebuild_turns_the_cyclic_collector_back_on_even_when_it_fails(
    sqlite_engine: Engine, sqlite_url: str
) -> None:
    import gc

    from projections.campaign_state import rebuild

    ledger = make_ledger(Backend("sqlite", sqlite_engine, sqlite_url))
    play_mass_combat(ledger, [])

    class Failing:
        def reset(self, connection: object) -> None:
            raise RuntimeError("disk full")

        def project(self, connection: object, events: object) -> None:
            raise AssertionError("a rebuild whose reset failed folds nothing")

    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        rebuild(sqlite_engine, ledger.store, [Failing()])
    assert gc.isenabled()
    assert rebuild(sqlite_engine, ledger.store, []) == ledger.resolve("Mass").last_seq and gc.isenabled()


def test_a_treasury_past_64_bits_is_refused_in_words_and_nothing_is_appended(sql_backend: Backend) -> None:
    """No command a person can enter gets a treasury near 2**63 (numbers are within ±10**9), but a rule's
    product could: the balance column would overflow on either database, and that is a refusal, not a crash."""
    ledger = make_ledger(sql_backend)
    created = ledger.create_campaign("Purse", "mass-combat")
    info = ledger.directory.get(created.events[0].campaign_id)
    assert info is not None
    ledger.record(info, [FundsChanged(side="Megalos", amount=2**63 - 2, reason="a dragon's hoard")], "test")
    info = ledger.directory.get(info.campaign_id)
    assert info is not None
    ledger.record(info, [FundsChanged(side="Megalos", amount=1, reason="one more")], "test")  # 2**63 − 1: held
    info = ledger.directory.get(info.campaign_id)
    assert info is not None
    with pytest.raises(InvalidInputError, match="a number past 64 bits: nothing was appended"):
        ledger.record(info, [FundsChanged(side="Megalos", amount=1, reason="the last coin")], "test")
    assert ledger.store.head(info.campaign_id).seq == info.last_seq == 3
