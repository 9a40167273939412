"""``campaign demo``: a ready sample campaign under each ruleset, built through the public commands.

The demo uses fixed seeds so two runs give the same log (only the informational wall-clock metadata
differs), then reveals them and verifies everything it wrote.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from rich.markup import escape

from campaign.bootstrap import App
from campaign.cli.output import Output
from campaign.describe import describe, unit_names
from campaign.fighting_spirit import Deployment, FightingSpirit
from campaign.ledger import TableEntry
from campaign.rulesets import RULESETS
from events.errors import InvalidInputError, VerificationError
from events.registry import registry
from events.verify import verify_events
from projections.state.campaigns import CampaignInfo

DEMO_ROLLS: dict[str, list[tuple[str, str, tuple[int, ...] | None]]] = {
    "fighting-spirit": [],
    "disorder": [("2d6", "morale check, 95th Rifles", None), ("2d6", "rally, line company", (4, 3))],
    "mass-combat": [
        ("3d", "Bannok's Strategy roll", None),
        ("3d", "Al-Wazif's Strategy roll", (5, 5, 4)),
        ("4d+20", "Al-Wazif casualties (row -3)", None),
    ],
    "grimdark": [
        ("d6", "Saurian Warriors morale test (Q4+)", None),
        ("d6", "casualty roll after the battle", (6,)),
    ],
}


def demo_seed(name: str) -> bytes:
    return hashlib.sha256(f"campaign-ledger demo {name}".encode()).digest()


def play_five_grade_battle(app: App, name: str) -> int:
    """A patrol at Hill 203 under the five-grade rules (RULES.md §0), seeded dice; returns commands run."""
    game = FightingSpirit(app.ledger)

    def info() -> CampaignInfo:
        return app.ledger.resolve(name)

    roster: list[tuple[str, str, dict[str, object], str | None]] = [
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
        game.muster(info(), unit, side, profile, reports_to, command_id=f"demo-fs-muster-{i}")
    game.start_battle(
        info(),
        "Patrol at Hill 203",
        {"Keno": "low", "Steel": "medium"},
        [
            Deployment("Keno 3rd Squad", "fresh"),
            Deployment("Barf-jat Master", "fresh"),
            Deployment("Company HQ", "tired"),
            Deployment("2nd Platoon HQ", "tired"),
            Deployment("Steel Veterans", "tired", in_cover=True),
        ],
        scenario="routine patrol meets a Steel outpost",
        command_id="demo-fs-battle",
    )
    steps: list[Callable[[], object]] = [
        lambda: game.attack(info(), "Keno 3rd Squad", killed=2, wounded=2, suppressing=True),
        lambda: game.attack(info(), "Steel Veterans", killed=1, wounded=2, artillery=True),
        lambda: game.psi(info(), "Barf-jat Master", "Steel Veterans", effect="psi_strike", distance=10, in_sight=True),
        lambda: game.react(info(), "Keno 3rd Squad", "go_prone_open"),
        lambda: game.rally(info(), "Steel Veterans", "Company HQ", distance=20, in_sight=True),
        lambda: game.next_turn(info()),
        lambda: game.wounded(info(), "Keno 3rd Squad", checked=2, abandoned=False),
        lambda: game.end_battle(info(), "the patrol withdrew", "Steel"),
    ]
    done = 0
    for step in steps:
        try:
            step()
            done += 1
        except InvalidInputError:
            pass  # the seeded dice decided otherwise (a unit already at its start grade needs no rally)
    return done


def build_demo(app: App, out: Output) -> dict[str, Any]:
    ledger = app.ledger
    summary: dict[str, Any] = {"campaigns": []}
    total = sum(len(rolls) + 2 for rolls in DEMO_ROLLS.values())
    with out.progress(total, "building the demo") as progress:
        task = progress.add_task("building the demo", total=total)
        for ruleset in RULESETS:
            name = f"Demo {ruleset}"
            ledger.create_campaign(name, ruleset, seed=demo_seed(name), command_id=f"demo-new-{ruleset}")
            progress.advance(task)
            if ruleset == "fighting-spirit":
                play_five_grade_battle(app, name)
                if not out.as_json:
                    names = unit_names(ledger.store.read(ledger.resolve(name).campaign_id))
                    for event in ledger.store.read(ledger.resolve(name).campaign_id):
                        if event.type in ("rules.applied", "battle.started", "battle.ended"):
                            out.console.print(f"[bold]{name}[/] #{event.seq}: {escape(describe(event, names))}")
            for i, (notation, purpose, table) in enumerate(DEMO_ROLLS[ruleset]):
                info = ledger.resolve(name)
                result = ledger.roll(
                    info,
                    notation,
                    purpose,
                    table=TableEntry(table) if table else None,
                    command_id=f"demo-roll-{ruleset}-{i}",
                )
                if not out.as_json:
                    out.console.print(
                        f"[bold]{name}[/] #{result.head.seq}: {purpose}: {notation} → "
                        f"{result.events[0].payload['faces']}"
                    )
                progress.advance(task)
            info = ledger.resolve(name)
            ledger.reveal(info, command_id=f"demo-reveal-{ruleset}")
            progress.advance(task)
            info = ledger.resolve(name)
            report = verify_events(info.campaign_id, ledger.store.read(info.campaign_id), registry)
            if not report.ok:
                raise VerificationError(f"the demo campaign {name} does not verify: {report.first}")
            summary["campaigns"].append({"name": name, "ruleset": ruleset, **report.as_dict()})
            if not out.as_json:
                out.console.print(
                    f"  [green]verified[/] {report.events} events, {report.rolls_rederived} rolls re-derived "
                    f"from the revealed seed, head {report.head_hash}"
                )
    return summary
