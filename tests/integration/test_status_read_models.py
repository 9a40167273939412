"""``status`` at a campaign's head is served from the read models the inline projector keeps, not by decoding
and folding the campaign's state (start-up time). What they hold must be the ruleset's folded summary exactly: the
same units, battles, treasuries, careers and day, in the fold's order (units by side then name, battles in
the order fought, careers by name), for every ruleset, on SQLite and PostgreSQL; and ``status`` must print
the same bytes (words, Rich tables, ``--json``) either way."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, text
from typer.testing import CliRunner

from campaign.cli.main import app
from campaign.executor import Ledger
from campaign.read import views
from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from campaign.timeline import Timeline, branch
from projections.summaries import stored_summary
from tests.conftest import Backend, empty_tables, examples, make_ledger
from tests.integration.test_projections import (
    disorder_step,
    five_grade_step,
    grimdark_step,
    mass_step,
    play_disorder,
    play_five_grades,
    play_grimdark,
    play_mass_combat,
)

PLAYED = {
    # Each with battles fought and ended, money, days passed and (where the ruleset keeps them) careers; units
    # mustered in another order than the fold lists them, so that an order taken from the rows' keys shows.
    "Five": (
        play_five_grades,
        [("battle_start",), ("attack", 1, 1, False), ("battle_end",), ("days", "march", 3), ("pay", 100)],
    ),
    "Mass": (play_mass_combat, [("battle", 2), ("days", "rest", 3), ("month", 100), ("battle", -1)]),
    "Skirmish": (play_disorder, [("hit", "Fusiliers", 2, True), ("battle_end", "British", 1)]),
    "Match": (play_grimdark, [("shoot", "Squad", 3, "Warriors"), ("battle_end", "Saurians")]),
}


def play_all(ledger: Ledger) -> None:
    for play, steps in PLAYED.values():
        play(ledger, steps)


def as_json(value: Any) -> Any:
    """A value as JSON gives it back (a tuple a list): what the read models hold, and what ``status`` prints."""
    return orjson.loads(orjson.dumps(value))


def check_read_models_hold_the_fold(engine: Engine, ledger: Ledger) -> None:
    for info in ledger.directory.all():
        folded = views.summary(ledger, info)
        stored = stored_summary(engine, info.campaign_id, info.last_seq)
        assert stored is not None, f"{info.name}: no summary in the read models"
        # Lists: the same rows in the same order.
        assert stored.units == as_json(folded.units), f"{info.name}: units"
        assert stored.battles == as_json(folded.battles), f"{info.name}: battles"
        # Sides in no order of the fold's: a state read back from storage holds them sorted, one folded in memory
        # in the order first funded (``status`` prints them sorted, and JSON sorts its keys).
        assert stored.treasury == folded.treasury, f"{info.name}: treasuries"
        assert stored.careers == as_json(folded.careers), f"{info.name}: careers"
        assert stored.day == folded.day, f"{info.name}: day"


@pytest.mark.parametrize("sql_backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)
def test_the_read_models_hold_each_ruleset_s_folded_summary_in_the_fold_s_order(sql_backend: Backend) -> None:
    assert sql_backend.engine is not None
    ledger = make_ledger(sql_backend)
    play_all(ledger)
    summaries = {info.name: views.summary(ledger, info) for info in ledger.directory.all()}
    # What the plays must have made for the comparison to say anything (worked out from the steps above).
    assert [u["name"] for u in summaries["Mass"].units] == ["Blue foot", "Blue reserve", "Red foot"]  # not mustered
    assert [u["name"] for u in summaries["Skirmish"].units] == ["Line", "Rifles", "Fusiliers"]  # so
    assert [c["pc"] for c in summaries["Skirmish"].careers] == ["Dubreton", "Sharpe"]
    assert [c["pc"] for c in summaries["Match"].careers] == ["Hero"]
    assert summaries["Mass"].careers and summaries["Mass"].battles and summaries["Mass"].day >= 3
    assert summaries["Five"].day == 3 and summaries["Five"].treasury
    assert summaries["Mass"].treasury.keys() == {"Blue", "Red"}
    assert all(summaries[name].battles for name in PLAYED)
    check_read_models_hold_the_fold(sql_backend.engine, ledger)
    # An undo (a rewind: the projector refolds what is still in effect) and a branch (a campaign of copied
    # history) keep them equal.
    for name in ("Mass", "Skirmish"):
        Timeline(ledger).undo(ledger.resolve(name))
    branch(ledger, ledger.resolve("Match"), "What if", 19)  # before its battle ended (seqs 20–34)
    assert len(ledger.directory.all()) == 5
    check_read_models_hold_the_fold(sql_backend.engine, ledger)


@pytest.fixture(scope="module")
def hypo_engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    from campaign.bootstrap import ensure_schema
    from events.db import make_engine

    engine = make_engine(str(tmp_path_factory.mktemp("status") / "s.db"))
    ensure_schema(engine)
    return engine


@settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    five=st.lists(five_grade_step, max_size=10),
    mass=st.lists(mass_step, max_size=6),
    disorder=st.lists(disorder_step, max_size=12),
    grimdark=st.lists(grimdark_step, max_size=12),
)
def test_after_any_commands_of_any_ruleset_the_read_models_hold_the_folded_summary(
    hypo_engine: Engine,
    five: list[tuple[Any, ...]],
    mass: list[tuple[Any, ...]],
    disorder: list[tuple[Any, ...]],
    grimdark: list[tuple[Any, ...]],
) -> None:
    empty_tables(hypo_engine)
    ledger = make_ledger(Backend("sqlite", hypo_engine))
    play_five_grades(ledger, five)
    play_mass_combat(ledger, mass)
    play_disorder(ledger, disorder)
    play_grimdark(ledger, grimdark)
    check_read_models_hold_the_fold(hypo_engine, ledger)


def status_output(db: str, *args: str) -> str:
    result = CliRunner().invoke(app, ["--db", db, "status", *args], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    return result.output


def folded_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """``status`` as it was: every summary folded by the ruleset."""
    monkeypatch.setattr("projections.summaries.stored_summary", lambda *_: None)


def never_folded(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise AssertionError("status folded the campaign")

    monkeypatch.setattr(views, "summary", refuse)


def test_status_prints_the_same_words_tables_and_json_from_the_read_models_as_from_the_fold(
    sqlite_engine: Engine, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    play_all(make_ledger(Backend("sqlite", sqlite_engine, sqlite_url)))
    shown: dict[str, list[str]] = {}
    for way in (folded_only, never_folded):
        with monkeypatch.context() as patch:
            way(patch)
            shown[way.__name__] = [
                status_output(sqlite_url, "-c", name, *json) for name in PLAYED for json in ([], ["--json"])
            ]
    assert shown["never_folded"] == shown["folded_only"]
    assert "Officers" in shown["never_folded"][4] and "Sharpe" in shown["never_folded"][4]  # Skirmish, in words
    assert '"careers": [' in shown["never_folded"][3] and '"day": ' in shown["never_folded"][3]  # Mass, JSON


def test_status_at_a_seq_is_still_folded(
    sqlite_engine: Engine, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = make_ledger(Backend("sqlite", sqlite_engine, sqlite_url))
    play_mass_combat(ledger, [("days", "rest", 3)])
    head = ledger.resolve("Mass").last_seq
    never_folded(monkeypatch)
    with pytest.raises(AssertionError, match="status folded the campaign"):
        CliRunner().invoke(app, ["--db", sqlite_url, "status", "--at", str(head)], catch_exceptions=False)
    assert "day 3" in status_output(sqlite_url)


def test_a_database_made_before_the_summary_rows_is_migrated_and_then_served_from_them(
    sqlite_engine: Engine, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database of a version before (revision 0008, no ``campaign_summary``): a read command migrates it, as
    every command does at start-up; migration 0011 refolds the campaigns' read models from the log, so each
    campaign has its summary row at once; ``status`` shows what it showed before, from the read models, and
    ``verify --projections`` finds nothing differing."""
    from alembic import command
    from campaign.bootstrap import SCHEMA_HEAD, alembic_config, current_revision

    play_all(make_ledger(Backend("sqlite", sqlite_engine, sqlite_url)))
    shown = {name: status_output(sqlite_url, "-c", name) for name in PLAYED}
    config = alembic_config()
    with sqlite_engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0008")  # what the version before made: no summary rows, no table for them
    assert current_revision(sqlite_engine) == "0008"
    checked = CliRunner().invoke(app, ["--db", sqlite_url, "verify", "--all", "--projections", "--no-rules"])
    assert checked.exit_code == 0, checked.output
    assert current_revision(sqlite_engine) == SCHEMA_HEAD
    with sqlite_engine.connect() as conn:
        rows: dict[str, int] = dict(conn.execute(text("SELECT campaign_id, day FROM campaign_summary")).all())
    assert rows[campaign_id_of(sqlite_url, "Mass")] == 3 and len(rows) == len(PLAYED)
    never_folded(monkeypatch)
    assert {name: status_output(sqlite_url, "-c", name) for name in PLAYED} == shown


def campaign_id_of(db: str, name: str) -> str:
    result = CliRunner().invoke(app, ["--db", db, "list", "--json"])
    return str(next(c["campaign_id"] for c in orjson.loads(result.output) if c["name"] == name))


def test_an_append_rewrites_the_summary_row_only_when_the_day_the_careers_or_the_order_changed(
    sqlite_engine: Engine, sqlite_url: str
) -> None:
    """Like the unit, battle and treasury rows, the summary row is written only when it changes."""

    ledger = make_ledger(Backend("sqlite", sqlite_engine, sqlite_url))
    play_mass_combat(ledger, [("days", "rest", 2)])
    with sqlite_engine.begin() as conn:
        conn.execute(text("CREATE TABLE summary_writes (kind TEXT)"))
        for kind in ("INSERT", "UPDATE", "DELETE"):
            conn.execute(
                text(
                    f"CREATE TRIGGER count_{kind} AFTER {kind} ON campaign_summary "
                    f"BEGIN INSERT INTO summary_writes VALUES ('{kind}'); END"
                )
            )

    def written() -> list[str]:
        with sqlite_engine.begin() as conn:
            kinds = [str(k) for (k,) in conn.execute(text("SELECT kind FROM summary_writes"))]
            conn.execute(text("DELETE FROM summary_writes"))
        return kinds

    ledger.execute(
        ledger.resolve("Mass"), mcal.Funds.build(side="Red", amount=10, reason="a ransom")
    )  # a treasury: not this row
    assert written() == []
    ledger.execute(ledger.resolve("Mass"), mcal.Days.build(days=1, activity="rest"))  # the day
    assert written() == ["UPDATE"]
    ledger.execute(
        ledger.resolve("Mass"),
        mc.Raise.build(name="Red horse", side="Red", profile={"men": 20, "troop_type": "LI", "armour": "light"}),
    )
    assert written() == ["UPDATE"]  # a unit more: the order of the rows
    check_read_models_hold_the_fold(sqlite_engine, ledger)


@pytest.mark.parametrize("sql_backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)
def test_rows_read_across_another_process_s_append_are_not_taken_for_a_summary(
    sql_backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read models are read in several queries: an append committed between them (its rows of a later seq)
    makes them no summary of one seq, and the caller folds instead."""
    from projections import driver, summaries

    assert sql_backend.engine is not None
    ledger = make_ledger(sql_backend)
    play_mass_combat(ledger, [("days", "rest", 2)])
    info = ledger.resolve("Mass")
    read = driver.execute  # the function summaries reads through, under that name

    def with_an_append_between(conn: Any, sql: str, params: tuple[Any, ...]) -> list[Any]:
        rows = read(conn, sql, params)
        if sql == summaries._UNITS:  # the head row and the units read; another process appends
            make_ledger(sql_backend).execute(info, mcal.Days.build(days=1, activity="rest"))
        return rows

    monkeypatch.setattr(summaries, "execute", with_an_append_between)
    assert stored_summary(sql_backend.engine, info.campaign_id, info.last_seq) is None
    monkeypatch.setattr(summaries, "execute", read)
    now = ledger.resolve("Mass")
    assert now.last_seq > info.last_seq
    stored = stored_summary(sql_backend.engine, now.campaign_id, now.last_seq)
    assert stored is not None and stored.day == 3


def _as_0010_wrote_them(engine: Engine) -> None:
    """The read models as the version before 0011 wrote them: five-grade battles without their day and winner
    (in the stored states, snapshots and battle rows), Mass Combat units without Morale, arrears and pay owed."""

    def old_state(data: bytes) -> bytes:
        state = orjson.loads(data)
        for battle in (state.get("battles") or {}).values():
            if isinstance(battle, dict) and "motivation" in battle:  # a five-grade battle
                battle.pop("day", None)
                battle.pop("winner", None)
        return orjson.dumps(state, option=orjson.OPT_SORT_KEYS)

    def old_row(data: bytes, drop: tuple[str, ...]) -> bytes:
        row = orjson.loads(data)
        return orjson.dumps({k: v for k, v in row.items() if k not in drop}, option=orjson.OPT_SORT_KEYS)

    with engine.begin() as conn:
        for table, key in (("campaign_state", "campaign_id"), ("campaign_snapshots", "seq")):
            for k, c, data in conn.execute(text(f"SELECT {key}, campaign_id, state FROM {table}")).all():
                conn.execute(
                    text(f"UPDATE {table} SET state = :s WHERE campaign_id = :c AND {key} = :k"),
                    {"s": old_state(bytes(data)), "c": c, "k": k},
                )
        for table, key, drop in (
            ("unit_records", "unit_id", ("morale", "arrears", "pay_owed")),
            ("battle_history", "battle_id", ("day", "winner")),
        ):
            for k, c, data in conn.execute(text(f"SELECT {key}, campaign_id, summary FROM {table}")).all():
                ruleset = conn.execute(
                    text("SELECT ruleset FROM campaign_state WHERE campaign_id = :c"), {"c": c}
                ).scalar_one()
                if (ruleset, table) in (("mass-combat", "unit_records"), ("fighting-spirit", "battle_history")):
                    conn.execute(
                        text(f"UPDATE {table} SET summary = :s WHERE campaign_id = :c AND {key} = :k"),
                        {"s": old_row(bytes(data), drop), "c": c, "k": k},
                    )
        conn.execute(text("UPDATE alembic_version SET version_num = '0010'"))


def test_a_database_made_before_0011_gets_its_rows_refolded_and_verifies(
    sqlite_engine: Engine, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The five-grade battle rows now carry their day and winner and the Mass Combat unit rows their
    Morale, arrears and pay owed. A database whose read models the version before wrote (0010) is brought up to
    date by the first command: ``verify --projections`` finds nothing differing from the log, ``status`` and
    ``battles`` are served from the read models, with the new columns."""
    from campaign.bootstrap import SCHEMA_HEAD, current_revision

    play_all(make_ledger(Backend("sqlite", sqlite_engine, sqlite_url)))

    def cli(*args: str) -> str:
        result = CliRunner().invoke(app, ["--db", sqlite_url, *args], env={"COLUMNS": "160"})
        assert result.exit_code == 0, result.output
        return result.output

    cli("new", "Otlok", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Keno", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7", "-c", "Otlok")
    cli("fs", "muster", "HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5", "-c", "Otlok")
    cli("fs", "rest", "4", "-c", "Otlok")
    cli("fs", "battle-start", "Hill", "--side", "Keno=low", "--side", "Steel=low", "--unit", "Keno=fresh",
        "--unit", "HQ=fresh", "-c", "Otlok")  # fmt: skip
    cli("fs", "battle-end", "--result", "Steel held", "--winner", "Steel", "-c", "Otlok")
    fresh = {name: status_output(sqlite_url, "-c", name) for name in [*PLAYED, "Otlok"]}
    battles = orjson.loads(cli("battles", "--json", "-c", "Otlok"))
    assert [(b["day"], b["winner"]) for b in battles] == [(4, "Steel")]
    _as_0010_wrote_them(sqlite_engine)
    info = make_ledger(Backend("sqlite", sqlite_engine, sqlite_url)).resolve("Mass")
    old = stored_summary(sqlite_engine, info.campaign_id, info.last_seq)
    assert old is not None and "morale" not in old.units[0]  # what the version before kept
    assert current_revision(sqlite_engine) == "0010"
    checked = CliRunner().invoke(app, ["--db", sqlite_url, "verify", "--all", "--projections", "--no-rules"])
    assert checked.exit_code == 0, checked.output  # the first command migrated it: nothing differs from the log
    assert "differ" not in checked.output and current_revision(sqlite_engine) == SCHEMA_HEAD
    never_folded(monkeypatch)
    assert {name: status_output(sqlite_url, "-c", name) for name in [*PLAYED, "Otlok"]} == fresh
    assert "Morale" in fresh["Mass"] and "arrears" in fresh["Mass"]  # its headings as status writes them
    monkeypatch.undo()
    assert orjson.loads(cli("battles", "--json", "-c", "Otlok")) == battles
