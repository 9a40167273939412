"""``campaign demo``: a ready sample campaign under each ruleset, built through the public commands.

The demo uses fixed seeds and fixed entity ids (the dice derive from both), so two runs give the same log (only
the informational wall-clock metadata, and so the hashes, differ), then reveals them and verifies everything.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import shlex
from collections.abc import Callable
from pathlib import Path

from campaign.bootstrap import App
from campaign.cli.output import Output, escape
from campaign.i18n import _, ngettext
from campaign.read.describe import amount, count, describe, unit_names
from campaign.rulesets import RULESETS, load
from campaign.rulesets.command import BaseCommand
from campaign.rulesets.disorder import battle_commands as disb
from campaign.rulesets.disorder import commands as disc
from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fsc
from campaign.rulesets.grimdark import commands as gf
from campaign.rulesets.mass_combat import calendar_commands as mct
from campaign.rulesets.mass_combat import commands as mcc
from campaign.rulesets.mass_combat.commands import parse_setup
from campaign.rulesets.mass_combat.plugin import PLUGIN as MC
from campaign.rulesets.mass_combat.setup import BattleSetup
from events.errors import InvalidInputError, VerificationError
from events.extras import installed
from events.recorded import JsonValue
from events.registry import registry
from events.store import AppendResult
from events.verify import verify_events
from projections.state.campaigns import CampaignInfo


def demo_seed(name: str) -> bytes:
    return hashlib.sha256(f"campaign-ledger demo {name}".encode()).digest()


def demo_ids() -> Callable[[], str]:
    """Entity ids for the demo, the same on every run: seeded dice are derived from the campaign id as well as
    the seed, so random ids would roll other dice, and tell another story, each time."""
    counter = itertools.count(1)
    return lambda: hashlib.sha256(f"campaign-ledger demo id {next(counter)}".encode()).hexdigest()[:32]


def play_five_grade_battle(app: App, name: str) -> int:
    """A patrol at Hill 203 under the five-grade rules (RULES.md §0), seeded dice; returns commands run."""

    def run(command: BaseCommand, command_id: str | None = None) -> None:
        app.ledger.execute(app.ledger.resolve(name), command, command_id=command_id)

    roster: list[tuple[str, str, dict[str, JsonValue], str | None]] = [
        ("Company HQ", "Steel", {"quality": "veteran", "leadership": 2, "size": 5, "radio": True}, None),
        ("2nd Platoon HQ", "Steel", {"quality": "veteran", "leadership": 2, "size": 4, "radio": True}, "Company HQ"),
        (
            "Steel Veterans",
            "Steel",
            {"quality": "veteran", "leadership": 2, "size": 10, "radio": True},
            "2nd Platoon HQ",
        ),
        ("Keno 3rd Squad", "Keno", {"quality": "regular", "leadership": 2, "size": 7, "keno_guard": True}, None),
        ("Barf-jat Master", "Keno", {"quality": "regular", "leadership": 2, "size": 1, "psi_rank": "master"}, None),
    ]
    for i, (unit, side, profile, reports_to) in enumerate(roster):
        run(fsc.Muster(unit_name=unit, side=side, profile=profile, reports_to=reports_to), f"demo-fs-muster-{i}")
    run(
        fsc.StartBattle(
            battle_name="Patrol at Hill 203",
            motivation={"Keno": "low", "Steel": "medium"},
            deployments=(
                fsc.Deployment(unit="Keno 3rd Squad", fatigue="fresh"),
                fsc.Deployment(unit="Barf-jat Master", fatigue="fresh"),
                fsc.Deployment(unit="Company HQ", fatigue="tired"),
                fsc.Deployment(unit="2nd Platoon HQ", fatigue="tired"),
                fsc.Deployment(unit="Steel Veterans", fatigue="tired", in_cover=True),
            ),
            scenario="routine patrol meets a Steel outpost",
        ),
        "demo-fs-battle",
    )
    steps: list[BaseCommand] = [
        fsb.Attack(unit_name="Keno 3rd Squad", killed=2, wounded=2, suppressing=True),
        fsb.Attack(unit_name="Steel Veterans", killed=1, wounded=2, artillery=True),
        fsb.Psi(
            psion_name="Barf-jat Master", target_name="Steel Veterans", effect="psi_strike", distance=10, in_sight=True
        ),
        fsb.React(unit_name="Keno 3rd Squad", action="go_prone_open"),
        fsb.Rally(unit_name="Steel Veterans", officer_name="Company HQ", distance=20, in_sight=True),
        fsc.NextTurn(),
        fsc.Wounded(unit_name="Keno 3rd Squad", checked=2, abandoned=False),
        fsc.EndBattle(result="the patrol withdrew", winner="Steel"),
    ]
    done = 0
    for step in steps:
        try:
            run(step)
            done += 1
        except InvalidInputError:
            pass  # the seeded dice decided otherwise (a unit already at its start grade needs no rally)
    return done


def five_grade_campaign(app: App, name: str) -> None:
    """Two more five-grade battles after the patrol: days at the front and at rest, recruits, pay."""

    def run(command: BaseCommand) -> None:
        app.ledger.execute(app.ledger.resolve(name), command)

    run(fsc.Funds(side="Keno", amount=1000, reason="the regiment's chest"))
    schedule: tuple[tuple[fsc.Activity, int], ...] = (("march", 6), ("front", 10))
    for n, (activity, days) in enumerate(schedule, start=2):
        run(fsc.PassDays(days=days, activity=activity))
        if n == 3:
            run(fsc.Recruit(unit_name="Keno 3rd Squad", men=3))
            run(fsc.MonthEnd(pay_pct={"Keno": 100, "Steel": 0}))
        run(
            fsc.StartBattle(
                battle_name=f"Hill 203, battle {n}",
                motivation={"Keno": "medium", "Steel": "medium"},
                deployments=(
                    fsc.Deployment(unit="Keno 3rd Squad"),
                    fsc.Deployment(unit="Company HQ"),
                    fsc.Deployment(unit="2nd Platoon HQ"),
                    fsc.Deployment(unit="Steel Veterans", in_cover=True),
                ),
            )
        )
        with contextlib.suppress(InvalidInputError):  # a unit already broken may be beyond a test
            run(fsb.Attack(unit_name="Steel Veterans", killed=1, wounded=1, suppressing=True))
        with contextlib.suppress(InvalidInputError):
            run(fsb.Attack(unit_name="Keno 3rd Squad", killed=1, wounded=0, leader_hit=n == 3))
        run(fsc.EndBattle(result="both sides pull back", winner=None))


def five_grade_demo(app: App, name: str) -> None:
    """The five-grade ruleset's sample: a battle played out, then a campaign of a few weeks."""
    play_five_grade_battle(app, name)
    five_grade_campaign(app, name)


def mass_combat_campaign(app: App, name: str) -> None:
    """Three days of war on the Megalos border: money, a battle over two days, rest, pay, another battle."""

    def info() -> CampaignInfo:
        return app.ledger.resolve(name)

    def run(command: BaseCommand) -> AppendResult:
        return app.ledger.execute(info(), command)

    run(mct.Funds(side="Megalos", amount=2_000_000, reason="the city of Bannok's war chest"))
    run(mct.Funds(side="Al-Wazif", amount=1_500_000, reason="the border emir's treasury"))
    run(
        mcc.Raise(
            unit_name="5th Heavy Legion cohort",
            side="Megalos",
            profile={"men": 120, "troop_type": "HI", "armour": "heavy", "quality": "seasoned", "experience": 7},
            pay=False,
        )
    )
    run(
        mcc.Raise(
            unit_name="Militia archers",
            side="Megalos",
            profile={
                "men": 120,
                "troop_type": "LI",
                "armour": "light",
                "ranged": "crossbow",
                "irregular": True,
                "quality": "average",  # stated: a quality neither stated nor implied is rolled (R3-23)
            },
        )
    )
    gang: dict[str, JsonValue] = {
        "men": 15,
        "troop_type": "II",
        "armour": "light",
        "irregular": True,
        "quality": "inexperienced",
        "experience": 0,
    }
    run(mcc.Muster(unit_name="Caliburn's gang", side="Megalos", profile=gang))
    riders: dict[str, JsonValue] = {
        "men": 200,
        "troop_type": "LC",
        "armour": "light",
        "mount": "light_horse",
        "ranged": "bow",
        "quality": "average",
    }
    run(mcc.Raise(unit_name="Desert riders", side="Al-Wazif", profile=riders))
    foot: dict[str, JsonValue] = {"men": 400, "troop_type": "MI", "armour": "medium", "quality": "average"}
    run(mcc.Raise(unit_name="Al-Wazif foot", side="Al-Wazif", profile=foot, pay=False))

    def setup(n: int, day: int) -> BattleSetup:
        state, _ = app.ledger.in_force(info(), MC)
        serving = {u.name for u in state.roster.values() if not u.disbanded and u.fit > 0}

        def units(side: str) -> list[dict[str, object]]:
            return [{"unit": u.name} for u in state.roster.values() if u.side == side and u.name in serving]

        return parse_setup(
            {
                "name": f"Battle for Bannok {n}",
                "day": day,
                "sides": [
                    {
                        "name": "Megalos",
                        "commander": {"strategy": 14},
                        "units": units("Megalos"),
                        "circumstances": {"home_soil": 2},
                    },
                    {"name": "Al-Wazif", "commander": {"strategy": 16}, "units": units("Al-Wazif")},
                ],
                "pcs": [
                    {
                        "name": "Caliburn",
                        "side": "Megalos",
                        "iq": 12,
                        "weapon": 15,
                        "risk": -2,
                        "dr": 2,
                        "unit": "Caliburn's gang" if "Caliburn's gang" in serving else None,
                    }
                ],
            }
        )

    first = run(mcc.Battle(setup=setup(1, 1), final_day=False))
    battle_id = next(str(e.payload["battle_id"]) for e in first.events if e.type == "battle.started")
    run(mcc.Battle(setup=setup(1, 2), battle_id=battle_id))
    run(mct.Days(days=10, activity="rest"))
    run(mct.MonthEnd(pay_pct={"Megalos": 100, "Al-Wazif": 0}))
    run(mct.Days(days=5, activity="march"))
    run(mcc.Battle(setup=setup(2, 1)))


def disorder_campaign(app: App, name: str) -> None:
    """Two skirmishes of the Peninsular War under the disorder-marker rules (RULES.md §1), seeded dice: hits,
    checks, a rally, a blocked retreat, and each officer's Glory carried from the first scenario to the second."""

    def run(command: BaseCommand) -> None:
        app.ledger.execute(app.ledger.resolve(name), command)

    roster: tuple[tuple[str, str, dict[str, JsonValue]], ...] = (
        ("95th Rifles", "British", {"models": 10, "troops": "rifles", "points": 100}),
        ("Line company", "British", {"models": 12, "troops": "line", "points": 80}),
        ("Voltigeurs", "French", {"models": 10, "troops": "light", "points": 90}),
        ("Fusiliers", "French", {"models": 12, "troops": "line", "points": 80}),
    )
    for unit, side, profile in roster:
        run(disc.Muster(unit_name=unit, side=side, profile=profile))
    run(disc.Appoint(side="British", officer="Lt Sharpe"))
    run(disc.Appoint(side="French", officer="Capt Dubreton"))
    everyone = ("95th Rifles", "Line company", "Voltigeurs", "Fusiliers")
    run(disb.StartBattle(battle_name="The bridge at Sabugal", units=everyone, scenario="hold the bridge"))
    run(disb.Hit(unit_name="Voltigeurs", lost=2, close_order=False, officer_near=True))
    run(disb.Hit(unit_name="Line company", lost=3, cause="melee", close_order=True))
    with contextlib.suppress(InvalidInputError):  # only a unit that took a marker can rally
        run(disb.Rally(unit_name="Line company", officer_near=True))
    run(disb.NextTurn())
    run(disb.Hit(unit_name="Fusiliers", lost=4))
    with contextlib.suppress(InvalidInputError):  # a unit that fled is no longer on the table
        run(disb.Retreat(unit_name="Fusiliers", needed="3", moved="1.5"))
    run(disb.EndBattle(winner="British", objectives={"British": 1}))
    run(disb.StartBattle(battle_name="The convent at Fuentes", units=everyone, scenario="take the convent"))
    run(disb.Hit(unit_name="95th Rifles", lost=2))
    run(disb.OfficerDown(side="British"))
    with contextlib.suppress(InvalidInputError):
        run(disb.CheckMorale(unit_name="Line company", causes=("officer_removed",)))
    run(disb.EndBattle(winner="French", objectives={"French": 2}))


def grimdark_campaign(app: App, name: str) -> None:
    """Two Grimdark Future matches (RULES.md §4), seeded dice: shooting and melee at half strength, a hero joined
    to its unit, and after each match the casualty rolls, XP and the mission rewards."""

    def run(command: BaseCommand) -> None:
        app.ledger.execute(app.ledger.resolve(name), command)

    roster: tuple[tuple[str, str, dict[str, JsonValue]], ...] = (
        ("Saurian Warriors", "Saurians", {"models": 10, "quality": 4, "points": 140}),
        ("Saurian Hero", "Saurians", {"models": 1, "quality": 3, "tough": 3, "hero": True, "points": 60}),
        ("Robot Squad", "Robots", {"models": 10, "quality": 4, "points": 150}),
        ("Robot Tank", "Robots", {"models": 1, "quality": 4, "tough": 12, "fearless": True, "points": 200}),
    )
    for unit, side, profile in roster:
        run(gf.Muster(unit_name=unit, side=side, profile=profile))
    everyone = ("Saurian Warriors", "Saurian Hero", "Robot Squad", "Robot Tank")
    run(gf.StartBattle(battle_name="The ruins of Kessel", units=everyone, joins={"Saurian Hero": "Saurian Warriors"}))
    run(gf.Shoot(unit_name="Saurian Warriors", wounds=5, by="Robot Squad"))
    run(gf.Melee(a="Saurian Warriors", b="Robot Squad", wounds_by_a=4, wounds_by_b=2))
    run(gf.NextRound())
    run(gf.Shoot(unit_name="Robot Tank", wounds=7, by="Saurian Warriors"))
    with contextlib.suppress(InvalidInputError):  # only a Shaken unit recovers
        run(gf.Recover(unit_name="Robot Squad"))
    run(gf.EndBattle(winner="Saurians"))
    run(gf.StartBattle(battle_name="The spire", units=everyone))
    run(gf.Melee(a="Robot Squad", b="Saurian Warriors", wounds_by_a=3, wounds_by_b=1))
    run(gf.Shoot(unit_name="Saurian Hero", wounds=2, by="Robot Tank"))
    run(gf.EndBattle(winner="Robots"))


def build_demo(app: App, out: Output) -> dict[str, object]:
    ledger = app.ledger
    campaigns: list[dict[str, object]] = []
    total = 2 * len(RULESETS)
    with out.progress(total, "building the demo") as progress:
        task = progress.add_task("building the demo", total=total)
        for ruleset, declared in RULESETS.items():
            name = f"Demo {ruleset}"
            ledger.create_campaign(name, ruleset, seed=demo_seed(name), command_id=f"demo-new-{ruleset}")
            progress.advance(task)
            if declared.demo is not None:  # its plug-in's sample campaign; without one, a campaign with no command
                load(declared.demo)(app, name)
            if not out.as_json:
                names = unit_names(ledger.store.read(ledger.resolve(name).campaign_id))
                for event in ledger.store.read(ledger.resolve(name).campaign_id):
                    if event.type in ("battle.started", "battle.ended") or (
                        event.type == "rules.applied"
                        and event.payload["rule"]
                        in (
                            "morale_test",
                            "morale_check",
                            "melee",
                            "casualty",
                            "experience",
                            "level_up",
                            "rewards",
                            "rally",
                            "retreat",
                            "force_half",
                            "force_flees",
                            "strategy_contest",
                            "result",
                            "survival",
                            "glory",
                            "payday",
                        )
                    ):
                        out.console.print(f"[bold]{name}[/] #{event.seq}: {escape(describe(event, names))}")
            info = ledger.resolve(name)
            ledger.reveal(info, command_id=f"demo-reveal-{ruleset}")
            progress.advance(task)
            info = ledger.resolve(name)
            report = verify_events(info.campaign_id, ledger.store.read(info.campaign_id), registry)
            if not report.ok:
                raise VerificationError.saying(
                    "the demo campaign {name} does not verify: {first}", name=name, first=report.first
                )
            campaigns.append({"name": name, "ruleset": ruleset, **report.as_dict()})
            if not out.as_json:
                rolls = ngettext(
                    "{n} roll re-derived from the revealed seed",
                    "{n} rolls re-derived from the revealed seed",
                    report.rolls_rederived,
                ).format(n=amount(report.rolls_rederived))
                said = _("{verified} {events}, {rolls}, head {hash}").format(
                    verified=f"[green]{escape(_('verified'))}[/]",
                    events=count(report.events, "events"),
                    rolls=rolls,
                    hash=report.head_hash,
                )
                out.console.print(f"  {said}")
    return {"campaigns": campaigns}


DEMO_CHARTS = (
    ("fighting-spirit", "morale"),
    ("fighting-spirit", "strength"),
    ("mass-combat", "treasury"),
    ("disorder", "glory"),
)
"""The charts the demo draws next to its database: a grade line, casualties, money and Glory."""


def write_charts(app: App, db: str, out: Output, replace: bool) -> list[str]:
    """Draw :data:`DEMO_CHARTS` as SVG files beside a database file (none for a server URL or in memory); a file
    already there is left alone unless ``replace`` (``demo --replace``) says so."""
    if "://" in db or db == ":memory:":
        return []
    if not installed("charts"):
        if not out.as_json:
            out.console.print(
                escape(_("No charts drawn: that needs the 'charts' extra (pip install 'campaign-ledger[charts]')."))
            )
        return []
    from campaign.cli.chart import draw
    from campaign.read.charts import chart

    base = Path(db)
    written: list[str] = []
    for ruleset, measure in DEMO_CHARTS:
        if ruleset not in RULESETS:
            continue
        path = base.with_name(f"{base.stem}-{ruleset}-{measure}.svg")
        if path.exists() and not replace:
            left = escape(_("left {file} as it was").format(file=path))
            out.console.print(f"  [yellow]{left}[/] " + escape(_("(add --replace to draw it again)")))
            continue
        info = app.ledger.resolve(f"Demo {ruleset}")
        draw(chart(info.name, info.ruleset, app.ledger.store.read(info.campaign_id), measure), path)
        written.append(str(path))
    if written and not out.as_json:
        out.console.print(_("Charts drawn from the demo's logs:"))
        for path_name in written:
            out.console.print(f"  {escape(path_name)}")
        hint = f"campaign --db {shlex.quote(db)} chart strength -c 'Demo grimdark' -o strength.png"
        out.console.print(escape(_("Draw your own with e.g. `{command}`.").format(command=hint)))
    return written
