"""``campaign demo``: a ready sample campaign under each ruleset, built through the public commands.

The demo uses fixed seeds so two runs give the same log (only the informational wall-clock metadata
differs), then reveals them and verifies everything it wrote.
"""

from __future__ import annotations

import hashlib
from typing import Any

from campaign.bootstrap import App
from campaign.cli.output import Output
from campaign.ledger import TableEntry
from campaign.rulesets import RULESETS
from events.errors import VerificationError
from events.registry import registry
from events.verify import verify_events

DEMO_ROLLS: dict[str, list[tuple[str, str, tuple[int, ...] | None]]] = {
    "fighting-spirit": [
        ("d8", "3rd Squad confidence test after MG fire", None),
        ("d10-1step", "company CO communication test (one link bypassed)", None),
        ("d10", "rally test, Steel Veterans", (8,)),
    ],
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
