"""Inline projections equal a full rebuild; ``--at SEQ`` equals a fold stopped at SEQ (SQLite and PostgreSQL)."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, select

from campaign.bootstrap import ensure_schema, projectors
from campaign.commands import fold_for
from campaign.executor import Ledger, TableEntry
from campaign.rulesets.disorder import battle_commands as dib
from campaign.rulesets.disorder import commands as dic
from campaign.rulesets.disorder.plugin import PLUGIN as DISORDER
from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.commands import Deployment
from campaign.rulesets.grimdark import commands as gd
from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from campaign.rulesets.mass_combat.commands import parse_setup
from campaign.timeline import Timeline
from events.db import make_engine
from events.errors import InvalidInputError
from events.recorded import obj
from events.store import AppendResult
from projections.campaign_state import CampaignStateProjector, FoldingCampaignStates, _summary_rows, dump, rebuild
from projections.state.campaigns import CampaignInfo
from projections.tables import battle_history, campaign_state, campaign_summary, treasuries, unit_records
from tests.conftest import Backend, empty_tables, examples, make_ledger

five_grade_step = st.one_of(
    st.tuples(st.just("attack"), st.integers(0, 2), st.integers(0, 2), st.booleans()),
    st.tuples(st.just("rally"), st.integers(1, 30)),
    st.tuples(st.just("days"), st.sampled_from(["rest", "march", "front", "forced_march"]), st.integers(1, 9)),
    st.tuples(st.just("recruit"), st.integers(1, 4)),
    st.tuples(st.just("transfer"), st.sampled_from([("Squad", "HQ"), ("HQ", "Squad")]), st.integers(1, 3)),
    st.tuples(
        st.just("battle_end"),
    ),
    st.tuples(
        st.just("battle_start"),
    ),
    st.tuples(st.just("pay"), st.sampled_from([0, 100])),
)
mass_step = st.one_of(
    st.tuples(st.just("battle"), st.integers(-3, 3)),
    st.tuples(st.just("days"), st.sampled_from(["rest", "march"]), st.integers(1, 9)),
    st.tuples(st.just("month"), st.sampled_from([0, 100, 200])),
    st.tuples(st.just("recruit"), st.integers(1, 12)),
    st.tuples(
        st.just("transfer"),
        st.sampled_from([("Blue foot", "Blue reserve"), ("Blue reserve", "Blue foot")]),
        st.integers(1, 60),
    ),
)

DIS_UNITS = ("Rifles", "Line", "Fusiliers")
disorder_step = st.one_of(
    st.tuples(st.just("hit"), st.sampled_from(DIS_UNITS), st.integers(1, 4), st.booleans()),
    st.tuples(st.just("check"), st.sampled_from(DIS_UNITS), st.sampled_from(["friend_removed", "force_half"])),
    st.tuples(st.just("rally"), st.sampled_from(DIS_UNITS), st.booleans()),
    st.tuples(st.just("retreat"), st.sampled_from(DIS_UNITS), st.integers(0, 40), st.integers(0, 40)),
    st.tuples(st.just("marker"), st.sampled_from(DIS_UNITS)),
    st.tuples(st.just("remove"), st.sampled_from(DIS_UNITS)),
    st.tuples(st.just("officer_down"), st.sampled_from(["British", "French"])),
    st.tuples(st.just("battle_end"), st.sampled_from(["British", "French", None]), st.integers(0, 2)),
    st.tuples(st.just("battle_start")),
    st.tuples(st.just("transfer"), st.sampled_from([("Rifles", "Line"), ("Line", "Rifles")]), st.integers(1, 3)),
)


def play_disorder(ledger: Ledger, steps: list[tuple[Any, ...]], after: Callable[[], None] = lambda: None) -> None:
    ledger.create_campaign("Skirmish", "disorder")

    def info() -> CampaignInfo:
        return ledger.resolve("Skirmish")

    ledger.execute(
        info(), dic.Muster.build(name="Rifles", side="British", profile={"models": 8, "troops": "rifles", "points": 90})
    )
    ledger.execute(
        info(), dic.Muster.build(name="Line", side="British", profile={"models": 10, "troops": "line", "points": 70})
    )
    ledger.execute(
        info(),
        dic.Muster.build(name="Fusiliers", side="French", profile={"models": 12, "troops": "line", "points": 80}),
    )
    ledger.execute(info(), dic.Appoint.build(side="British", officer="Sharpe"))
    ledger.execute(info(), dic.Appoint.build(side="French", officer="Dubreton"))
    # Deployed in another order than mustered (ids follow the muster): a rule leaning on a mapping's order shows.

    def start() -> AppendResult:
        return ledger.execute(info(), dib.StartBattle.build(name="Skirmish", units=list(reversed(DIS_UNITS))))

    start()
    actions: dict[str, Callable[..., Any]] = {
        "hit": lambda u, n, extra: ledger.execute(
            info(), dib.Hit.build(unit_name=u, lost=n, also=["friend_removed"] if extra else [])
        ),
        "check": lambda u, cause: ledger.execute(info(), dib.CheckMorale.build(unit_name=u, causes=[cause])),
        "rally": lambda u, near: ledger.execute(info(), dib.Rally.build(unit_name=u, officer_near=near)),
        "retreat": lambda u, need, moved: ledger.execute(
            info(), dib.Retreat.build(unit_name=u, needed=f"{need / 10:g}", moved=f"{min(moved, need) / 10:g}")
        ),
        "marker": lambda u: ledger.execute(info(), dib.AddMarker.build(unit_name=u, reason="lost a melee")),
        "remove": lambda u: ledger.execute(info(), dib.Remove.build(unit_name=u, reason="destroyed")),
        "officer_down": lambda side: ledger.execute(info(), dib.OfficerDown.build(side=side)),
        "battle_end": lambda winner, held: ledger.execute(
            info(), dib.EndBattle.build(winner=winner, objectives={"British": held})
        ),
        "battle_start": start,
        "transfer": lambda pair, n: ledger.execute(
            info(), dic.Transfer.build(from_unit=pair[0], to_unit=pair[1], men=n)
        ),
    }
    after()
    for step in steps:
        with contextlib.suppress(InvalidInputError):
            actions[step[0]](*step[1:])
        after()


GF_UNITS = ("Warriors", "Hero", "Squad", "Tank")
grimdark_step = st.one_of(
    st.tuples(st.just("shoot"), st.sampled_from(GF_UNITS), st.integers(1, 6), st.sampled_from([*GF_UNITS, None])),
    st.tuples(st.just("melee"), st.sampled_from(["Warriors", "Hero"]), st.integers(0, 4), st.integers(0, 4)),
    st.tuples(st.just("recover"), st.sampled_from(GF_UNITS)),
    st.tuples(st.just("remove"), st.sampled_from(GF_UNITS), st.sampled_from(["destroyed", "routed", "withdrawn"])),
    st.tuples(st.just("battle_end"), st.sampled_from(["Saurians", "Robots", None])),
    st.tuples(st.just("battle_start"), st.booleans()),
    st.tuples(st.just("round")),
)


def play_grimdark(ledger: Ledger, steps: list[tuple[Any, ...]], after: Callable[[], None] = lambda: None) -> None:
    ledger.create_campaign("Match", "grimdark")

    def info() -> CampaignInfo:
        return ledger.resolve("Match")

    ledger.execute(
        info(), gd.Muster.build(name="Warriors", side="Saurians", profile={"models": 10, "quality": 4, "points": 140})
    )
    ledger.execute(
        info(),
        gd.Muster.build(
            name="Hero", side="Saurians", profile={"models": 1, "quality": 3, "tough": 3, "hero": True, "points": 60}
        ),
    )
    ledger.execute(
        info(),
        gd.Muster.build(
            name="Squad", side="Robots", profile={"models": 8, "quality": 4, "points": 150, "fearless": True}
        ),
    )
    ledger.execute(
        info(),
        gd.Muster.build(name="Tank", side="Robots", profile={"models": 1, "quality": 4, "tough": 6, "points": 200}),
    )

    def start(join: bool) -> Any:
        return ledger.execute(
            info(),
            gd.StartBattle.build(
                name="Match", units=list(reversed(GF_UNITS)), joins={"Hero": "Warriors"} if join else {}
            ),
        )

    start(True)
    actions: dict[str, Callable[..., Any]] = {
        "shoot": lambda u, w, by: ledger.execute(info(), gd.Shoot.build(unit_name=u, wounds=w, by=by)),
        "melee": lambda u, a, b: ledger.execute(info(), gd.Melee.build(a=u, b="Squad", wounds_by_a=a, wounds_by_b=b)),
        "recover": lambda u: ledger.execute(info(), gd.Recover.build(unit_name=u)),
        "remove": lambda u, why: ledger.execute(info(), gd.Remove.build(unit_name=u, reason=why)),
        "battle_end": lambda winner: ledger.execute(info(), gd.EndBattle.build(winner=winner)),
        "battle_start": start,
        "round": lambda: ledger.execute(info(), gd.NextRound.build()),
    }
    after()
    for step in steps:
        with contextlib.suppress(InvalidInputError):
            actions[step[0]](*step[1:])
        after()


def play_five_grades(ledger: Ledger, steps: list[tuple[Any, ...]], after: Callable[[], None] = lambda: None) -> None:
    ledger.create_campaign("Five", "fighting-spirit")

    def info() -> CampaignInfo:
        return ledger.resolve("Five")

    ledger.execute(
        info(),
        fs.Muster.build(
            name="HQ", side="Keno", profile={"quality": "veteran", "leadership": 1, "size": 4, "radio": True}
        ),
    )
    ledger.execute(
        info(),
        fs.Muster.build(
            name="Squad",
            side="Keno",
            profile={"quality": "green", "leadership": 2, "size": 9, "radio": True},
            reports_to="HQ",
        ),
    )
    ledger.execute(
        info(), fs.Muster.build(name="Foe", side="Otlok", profile={"quality": "regular", "leadership": 2, "size": 8})
    )
    ledger.execute(info(), fs.Funds.build(side="Keno", amount=500, reason="purse"))
    actions: dict[str, Callable[..., Any]] = {
        "attack": lambda k, w, s: ledger.execute(
            info(), fsb.Attack.build(unit_name="Squad", killed=k, wounded=w, suppressing=s)
        ),
        "rally": lambda d: ledger.execute(
            info(), fsb.Rally.build(unit_name="Squad", officer_name="HQ", distance=d, in_sight=True)
        ),
        "days": lambda a, d: ledger.execute(info(), fs.PassDays.build(days=d, activity=a)),
        "recruit": lambda n: ledger.execute(info(), fs.Recruit.build(unit_name="Squad", men=n)),
        "transfer": lambda pair, n: ledger.execute(
            info(), fs.Transfer.build(from_unit=pair[0], to_unit=pair[1], men=n)
        ),
        "battle_end": lambda: ledger.execute(info(), fs.EndBattle.build(result="over", winner=None)),
        "battle_start": lambda: ledger.execute(
            info(),
            fs.StartBattle.build(
                name="Fight",
                motivation={"Keno": "medium", "Otlok": "low"},
                deployments=[Deployment(unit="HQ"), Deployment(unit="Squad"), Deployment(unit="Foe")],
            ),
        ),
        "pay": lambda pct: ledger.execute(info(), fs.MonthEnd.build(pay_pct={"Keno": pct})),
    }
    after()
    for step in steps:
        with contextlib.suppress(InvalidInputError):
            actions[step[0]](*step[1:])
        after()


def play_mass_combat(ledger: Ledger, steps: list[tuple[Any, ...]], after: Callable[[], None] = lambda: None) -> None:
    ledger.create_campaign("Mass", "mass-combat")

    def info() -> CampaignInfo:
        return ledger.resolve("Mass")

    ledger.execute(info(), mcal.Funds.build(side="Blue", amount=5_000_000, reason="chest"))
    ledger.execute(info(), mcal.Funds.build(side="Red", amount=5_000_000, reason="chest"))
    ledger.execute(
        info(),
        mc.Raise.build(
            name="Blue foot",
            side="Blue",
            profile={"quality": "average", "men": 150, "troop_type": "MI", "armour": "medium"},
        ),
    )
    ledger.execute(
        info(),
        mc.Raise.build(
            name="Red foot",
            side="Red",
            profile={"quality": "average", "men": 200, "troop_type": "LI", "armour": "light"},
        ),
    )
    ledger.execute(
        info(),
        mc.Raise.build(
            name="Blue reserve",
            side="Blue",
            profile={"quality": "average", "men": 50, "troop_type": "MI", "armour": "medium"},
            pay=False,
        ),
    )
    after()
    for step in steps:
        try:
            if step[0] == "battle":
                ledger.execute(
                    info(),
                    mc.Battle.build(
                        setup=parse_setup(
                            {
                                "name": "Clash",
                                "sides": [
                                    {
                                        "name": "Blue",
                                        "commander": {"strategy": 13},
                                        "units": [{"unit": "Blue foot"}],
                                        "misc": step[1],
                                    },
                                    {"name": "Red", "commander": {"strategy": 13}, "units": [{"unit": "Red foot"}]},
                                ],
                                "pcs": [
                                    {"name": "Hero", "side": "Blue", "unit": "Blue foot", "weapon": 14, "risk": step[1]}
                                ],
                            }
                        )
                    ),
                )
            elif step[0] == "days":
                ledger.execute(info(), mcal.Days.build(days=step[2], activity=step[1]))
            elif step[0] == "transfer":
                giver, taker = step[1]
                ledger.execute(info(), mc.Transfer.build(from_unit=giver, to_unit=taker, men=step[2]))
            elif step[0] == "month":
                ledger.execute(info(), mcal.MonthEnd.build(pay_pct={"Blue": step[1], "Red": 100}))
            else:
                ledger.execute(info(), mc.Recruit.build(unit_name="Blue foot", men=step[1], quality="average"))
        except InvalidInputError:
            pass
        after()


def check_summaries_equal_a_full_summary(engine: Engine, ledger: Ledger) -> None:
    """The summary the inline writer keeps, whose rows it makes again only where what they read changed, equals
    the summary made afresh from a fold of the log; the stored summary rows equal the rows made from that, and
    the stored state (its parts encoded again only where they changed) equals the fold's, encoded afresh."""
    projectors_: list[Any] = ledger.store._projectors  # type: ignore[attr-defined]
    writer = next(p for p in projectors_ if isinstance(p, CampaignStateProjector))
    folding = FoldingCampaignStates(ledger.store, fold_for)
    for info in ledger.directory.all():
        fold = fold_for(info.ruleset)
        assert fold is not None
        full = fold.summary(folding.get(info))
        held = writer._held.get(info.campaign_id)
        if held is not None and held.summary is not None:
            assert held.summary == full, f"{info.name}: the kept summary differs from one made afresh"
            assert ledger.states.summary(info, fold) is held.summary, f"{info.name}: the head's summary made again"
        assert ledger.states.summary(info, fold) == full, f"{info.name}: the head's summary differs from a fold's"
        if info.last_seq > 0:
            before = fold.summary(folding.get(info, info.last_seq - 1))
            assert ledger.states.summary(info, fold, info.last_seq - 1) == before, f"{info.name}: --at differs"
        expected = {t.name: rows for t, rows in _summary_rows(info.campaign_id, full).items()}
        with engine.connect() as conn:
            stored = {
                t.name: {
                    r._mapping[key]: {c: bytes(v) if isinstance(v, memoryview) else v for c, v in r._mapping.items()}
                    for r in conn.execute(select(t).where(t.c.campaign_id == info.campaign_id))
                }
                for t, key in (
                    (unit_records, "unit_id"),
                    (battle_history, "battle_id"),
                    (treasuries, "side"),
                    (campaign_summary, "campaign_id"),
                )
            }
        with engine.connect() as conn:
            stored_state = conn.execute(
                select(campaign_state.c.state).where(campaign_state.c.campaign_id == info.campaign_id)
            ).scalar()
        assert stored_state is not None, f"{info.name}: no stored state"
        assert bytes(stored_state) == fold.encode(folding.get(info)), f"{info.name}: the stored state differs"
        for name, rows in expected.items():
            assert {k: _decoded(r) for k, r in stored[name].items()} == {k: _decoded(r) for k, r in rows.items()}, (
                f"{info.name}: the stored {name} rows differ from those of a summary made afresh"
            )


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    return {c: orjson.loads(v) if c == "summary" else v for c, v in row.items()}


def check_inline_equals_rebuild(engine: Engine, ledger: Ledger) -> None:
    inline = dump(engine)
    folding = FoldingCampaignStates(ledger.store, fold_for)
    for info in ledger.directory.all():
        assert ledger.states.get(info) == folding.get(info), f"{info.name}: inline state differs from a fold"
    rebuild(engine, ledger.store, projectors())
    first = dump(engine)
    rebuild(engine, ledger.store, projectors())
    assert first == dump(engine), "two rebuilds must give byte-identical projections"
    assert first == inline, "the projections kept inline must equal a full rebuild"


@pytest.fixture(scope="module")
def hypo_engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    engine = make_engine(str(tmp_path_factory.mktemp("hypo") / "p.db"))
    ensure_schema(engine)
    return engine


@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    five=st.lists(five_grade_step, max_size=14),
    mass=st.lists(mass_step, max_size=8),
    disorder=st.lists(disorder_step, max_size=16),
    grimdark=st.lists(grimdark_step, max_size=16),
)
def test_inline_projections_equal_a_rebuild_after_any_commands(
    hypo_engine: Engine,
    five: list[tuple[Any, ...]],
    mass: list[tuple[Any, ...]],
    disorder: list[tuple[Any, ...]],
    grimdark: list[tuple[Any, ...]],
) -> None:
    empty_tables(hypo_engine)
    ledger = make_ledger(Backend("sqlite", hypo_engine))
    after = lambda: check_summaries_equal_a_full_summary(hypo_engine, ledger)  # noqa: E731  (after every command)
    play_five_grades(ledger, five, after)
    play_mass_combat(ledger, mass, after)  # several campaigns, each under its own ruleset, in one database
    play_disorder(ledger, disorder, after)
    play_grimdark(ledger, grimdark, after)
    check_inline_equals_rebuild(hypo_engine, ledger)


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    five=st.lists(five_grade_step, max_size=10),
    mass=st.lists(mass_step, max_size=6),
    disorder=st.lists(disorder_step, max_size=10),
    grimdark=st.lists(grimdark_step, max_size=10),
)
def test_summary_rows_made_again_only_where_what_they_read_changed_equal_rows_made_afresh(
    five: list[tuple[Any, ...]],
    mass: list[tuple[Any, ...]],
    disorder: list[tuple[Any, ...]],
    grimdark: list[tuple[Any, ...]],
) -> None:
    """After an append the inline writer makes again only the summary rows whose inputs changed: the
    parts of a state are replaced, never changed in place, so an unchanged part is the very same object. From
    any state of a play to a later one, and to that state with one part (the day, the roster, the records…)
    taken from another state of the play, the summary so made equals the summary made afresh: a row that read
    a part its ruleset does not name among what its rows read would be kept when that part alone changed. The
    state's encoding, made again only for the parts that changed, equals it made afresh."""
    ledger = make_ledger(Backend("memory"))
    plays = (
        ("Five", play_five_grades, five),
        ("Mass", play_mass_combat, mass),
        ("Skirmish", play_disorder, disorder),
        ("Match", play_grimdark, grimdark),
    )
    for name, play, steps in plays:
        states: list[Any] = []

        def record(name: str = name, states: list[Any] = states) -> None:
            states.append(ledger.states.get(ledger.resolve(name)))

        play(ledger, steps, record)
        fold = fold_for(ledger.resolve(name).ruleset)
        assert fold is not None
        assert len(states) == len(steps) + 1
        for earlier, later in itertools.pairwise(states):
            for start, other in ((earlier, later), (states[0], later), (later, earlier)):
                _, kept = fold.summarize(start, None)
                _, dumped = fold.encode_since(start, None)
                for state in (other, *(replace(start, **{f.name: getattr(other, f.name)}) for f in fields(start))):
                    assert fold.summarize(state, kept)[0] == fold.summary(state), f"{name}: {state}"
                    assert fold.encode_since(state, dumped)[0] == fold.encode(state), f"{name}: {state}"


@settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(steps=st.lists(mass_step, min_size=4, max_size=10), data=st.data())
def test_state_at_any_seq_equals_a_fold_stopped_there(
    hypo_engine: Engine, steps: list[tuple[Any, ...]], data: st.DataObject
) -> None:
    empty_tables(hypo_engine)
    ledger = make_ledger(Backend("sqlite", hypo_engine))
    play_mass_combat(ledger, steps)
    info = ledger.resolve("Mass")
    folding = FoldingCampaignStates(ledger.store, fold_for)
    for at in data.draw(st.lists(st.integers(0, info.last_seq), min_size=1, max_size=5)):
        assert ledger.states.get(info, at) == folding.get(info, at), f"--at {at}"


def test_snapshots_serve_long_campaigns_and_match_the_fold(sql_backend: Backend) -> None:
    assert sql_backend.engine is not None
    ledger = make_ledger(sql_backend)
    play_mass_combat(ledger, [("battle", 2), ("days", "rest", 3), ("battle", 0), ("month", 100), ("battle", -1)])
    assert len(ledger.states.get(ledger.resolve("Mass")).battles) >= 1
    for _ in range(400):  # months of campaigning until the log is past a snapshot
        ledger.execute(ledger.resolve("Mass"), mcal.Days.build(days=1, activity="rest"))
        if ledger.resolve("Mass").last_seq > 300:
            break
    info = ledger.resolve("Mass")
    assert info.last_seq > 256, "long enough for a snapshot"
    folding = FoldingCampaignStates(ledger.store, fold_for)
    for at in (1, 100, 256, 257, info.last_seq - 1, info.last_seq):
        assert ledger.states.get(info, at) == folding.get(info, at)
    check_inline_equals_rebuild(sql_backend.engine, ledger)


def test_refusals_append_nothing() -> None:
    ledger = make_ledger(Backend("memory"))
    play_five_grades(ledger, [])
    play_mass_combat(ledger, [])
    five, mass = ledger.resolve("Five"), ledger.resolve("Mass")
    before = {c: len(list(ledger.store.read(c.campaign_id))) for c in (five, mass)}
    with pytest.raises(InvalidInputError, match="runs fighting-spirit, not mass-combat"):
        ledger.execute(five, mc.Muster.build(name="Knights", side="Keno", profile={"quality": "average", "men": 10}))
    with pytest.raises(InvalidInputError, match="not a five-grade unit profile"):
        ledger.execute(five, fs.Muster.build(name="Knights", side="Keno", profile={"men": 10, "armour": "heavy"}))
    with pytest.raises(InvalidInputError, match="no unit of this campaign fights for Atlantis"):
        ledger.execute(
            five,
            fs.StartBattle.build(
                name="Nowhere", motivation={"Keno": "low", "Atlantis": "high"}, deployments=[Deployment(unit="Squad")]
            ),
        )
    with pytest.raises(InvalidInputError, match="cannot cover"):
        ledger.execute(mass, mcal.Funds.build(side="Blue", amount=-10_000_000, reason="a palace"))
    with pytest.raises(InvalidInputError, match="time only moves forward"):
        ledger.execute(five, fs.PassDays.build(days=-3, activity="rest"))
    with pytest.raises(InvalidInputError, match="time only moves forward"):
        ledger.execute(mass, mcal.Days.build(days=0, activity="march"))
    assert {c: len(list(ledger.store.read(c.campaign_id))) for c in (five, mass)} == before
    assert fold_for("no-such-ruleset") is None


@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    five=st.lists(five_grade_step, max_size=10),
    mass=st.lists(mass_step, max_size=5),
    disorder=st.lists(disorder_step, max_size=14),
    grimdark=st.lists(grimdark_step, max_size=14),
)
def test_any_play_of_any_ruleset_re_evaluates_without_drift(
    hypo_engine: Engine,
    five: list[tuple[Any, ...]],
    mass: list[tuple[Any, ...]],
    disorder: list[tuple[Any, ...]],
    grimdark: list[tuple[Any, ...]],
) -> None:
    """Every recorded rule, re-run on its recorded inputs and dice over a fresh fold, gives what was recorded:
    no rule may depend on anything but the log. The commands ran on states read back from the SQL projection
    (JSON, keys sorted), the re-run on an in-memory fold: a rule that leaned on a mapping's order would drift."""
    empty_tables(hypo_engine)
    ledger = make_ledger(Backend("sqlite", hypo_engine))
    play_five_grades(ledger, five)
    play_mass_combat(ledger, mass)
    play_disorder(ledger, disorder)
    play_grimdark(ledger, grimdark)
    timeline = Timeline(ledger)
    for name in ("Five", "Mass", "Skirmish", "Match"):
        assert timeline.reevaluate(ledger.resolve(name)) == [], name


def test_a_force_that_breaks_flees_in_deployment_order_wherever_its_state_was_read(sql_backend: Backend) -> None:
    """The units that flee with their force are listed in the order they were deployed, whether the state came
    from the SQL projection (JSON, keys sorted) or from a fold; so re-evaluating the command finds no drift."""
    ledger = make_ledger(sql_backend)
    play_disorder(ledger, [])  # deployed: Fusiliers, Line, Rifles (not their muster order)

    def info() -> CampaignInfo:
        return ledger.resolve("Skirmish")

    ledger.execute(
        info(), dib.Hit.build(unit_name="Rifles", lost=3), table=TableEntry((6, 6))
    )  # British: 90 × 3/8 = 33 of 160
    ledger.execute(
        info(), dib.Hit.build(unit_name="Line", lost=7), table=TableEntry((6, 6))
    )  # + 70 × 7/10 = 49: 82 (51%), every unit tests
    broke = ledger.execute(
        info(), dib.Hit.build(unit_name="Rifles", lost=4)
    )  # 90 × 7/8 = 78 + 49 = 127 (79%) > 75%: they flee, nobody checks (R2-7)
    fled = next(e.payload for e in broke.events if e.type == "rules.applied" and e.payload["rule"] == "force_flees")
    state, _ = ledger.in_force(info(), DISORDER)
    battle = state.battles[state.active_battle]  # type: ignore[index]
    assert obj(fled["outcome"])["fled"] == [uid for uid in battle.order if battle.units[uid].side == "British"]
    assert Timeline(ledger).reevaluate(info()) == []
