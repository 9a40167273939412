"""The commands every campaign has: ``new``, ``list``, ``roll``, ``reveal``, ``log``, ``verify``, ``demo``.

Loaded only when one of them runs (see ``campaign.cli.main``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from campaign.bootstrap import bootstrap
from campaign.cli.common import CampaignOpt, CommandIdOpt, DiceOpt, JsonOpt, open_app, state, table_entry
from campaign.cli.output import Output, handles_errors
from campaign.cli.timeline_cli import log_filter
from campaign.describe import unit_names
from campaign.rulesets import RULESETS
from events.errors import InvalidInputError, VerificationError


def register(app: typer.Typer) -> None:
    @app.command("new")
    @handles_errors
    def new(
        name: str,
        ruleset: Annotated[str, typer.Option("--ruleset", "-r", help=f"One of: {', '.join(RULESETS)}.")],
        seed: Annotated[
            str | None, typer.Option("--seed", help="Dice seed in hex (for reproducible demos and tests).")
        ] = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Start a campaign under a ruleset; its dice seed is committed, not revealed."""
        seed_bytes = None
        if seed is not None:
            try:
                seed_bytes = bytes.fromhex(seed)
            except ValueError:
                raise InvalidInputError("--seed must be hexadecimal") from None
        result = open_app(create=True).ledger.create_campaign(name, ruleset, seed=seed_bytes, command_id=command_id)
        Output(as_json).appended(result, f"Campaign [bold]{name}[/] created ({ruleset}).")

    @app.command("list")
    @handles_errors
    def list_(as_json: JsonOpt = False) -> None:
        """The campaigns in this database, with their ruleset and head hash."""
        out = Output(as_json)
        campaigns = open_app().ledger.directory.all()
        if as_json:
            out.json(
                [
                    {
                        "campaign_id": c.campaign_id,
                        "name": c.name,
                        "ruleset": c.ruleset,
                        "events": c.last_seq,
                        "head_hash": c.head_hash,
                        "next_roll_index": c.next_roll_index,
                        "seed_epoch": c.seed_epoch,
                    }
                    for c in campaigns
                ]
            )
            return
        from rich.table import Table

        table = Table(title="Campaigns")
        for column in ("name", "ruleset", "events", "rolls", "head hash"):
            table.add_column(column)
        for c in campaigns:
            table.add_row(c.name, c.ruleset, str(c.last_seq), str(c.next_roll_index), c.head_hash)
        out.console.print(table)

    @app.command("roll")
    @handles_errors
    def roll(
        notation: Annotated[str, typer.Argument(help="d6, 2d6, 3d (GURPS), 4d+20, d10-1step …")],
        purpose: Annotated[str, typer.Option("--purpose", "-p", help="What the roll is for.")],
        dice: DiceOpt = None,
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Roll dice (seeded, or the table's own with --dice) and record the roll."""
        ledger = open_app().ledger
        info = ledger.resolve(campaign)
        result = ledger.roll(info, notation, purpose, table=table_entry(dice), command_id=command_id)
        Output(as_json).appended(result, f"[bold]{info.name}[/]:")

    @app.command("reveal")
    @handles_errors
    def reveal(campaign: CampaignOpt = None, command_id: CommandIdOpt = None, as_json: JsonOpt = False) -> None:
        """Reveal the current dice seed and commit to a new one: past rolls become checkable, future ones stay
        secret."""
        ledger = open_app().ledger
        info = ledger.resolve(campaign)
        result = ledger.reveal(info, command_id=command_id)
        Output(as_json).appended(result, f"[bold]{info.name}[/]: seed of epoch {info.seed_epoch} revealed.")

    @app.command("log")
    @handles_errors
    def log_(
        campaign: CampaignOpt = None,
        type_: Annotated[
            str | None, typer.Option("--type", help="Only events of this type (prefix, e.g. dice.).")
        ] = None,
        unit: Annotated[str | None, typer.Option("--unit", help="Only events about this unit.")] = None,
        battle: Annotated[str | None, typer.Option("--battle", help="Only events of this battle.")] = None,
        after: Annotated[int, typer.Option("--after", help="Only events after this seq.")] = 0,
        upto: Annotated[int | None, typer.Option("--upto", "--at", help="Only events up to this seq.")] = None,
        limit: Annotated[int | None, typer.Option("--limit", help="At most this many events.")] = None,
        show_all: Annotated[bool, typer.Option("--all", help="Retracted events too, marked.")] = False,
        as_json: JsonOpt = False,
    ) -> None:
        """The campaign's log, each event with a readable explanation (retracted ones with --all)."""
        ledger = open_app().ledger
        info = ledger.resolve(campaign)
        every = list(ledger.store.read(info.campaign_id, upto_seq=upto))
        entries = [
            (e, gone)
            for e, gone in log_filter(every, show_all=show_all, unit=unit, battle=battle)
            if e.seq > after and (not type_ or e.type.startswith(type_))
        ]
        if limit is not None:
            entries = entries[:limit]
        out = Output(as_json)
        if as_json:
            out.json(
                {
                    "campaign": info.name,
                    "head_hash": info.head_hash,
                    "events": [{**e.as_dict(), "retracted": gone} for e, gone in entries],
                }
            )
            return
        out.events_table(
            [e for e, _ in entries],
            f"{info.name} ({info.ruleset})",
            unit_names(every),
            retracted={e.seq for e, gone in entries if gone},
        )
        out.console.print(f"[dim]head #{info.last_seq} {info.head_hash}[/]")

    @app.command("verify")
    @handles_errors
    def verify(
        campaign: CampaignOpt = None,
        every: Annotated[bool, typer.Option("--all", help="Verify every campaign in the database.")] = False,
        rules: Annotated[bool, typer.Option("--rules/--no-rules", help="Re-evaluate every rule on its dice.")] = True,
        as_json: JsonOpt = False,
    ) -> None:
        """Check the hash chain, every event's schema and every die, and re-evaluate every rule on its recorded
        inputs and dice (a difference is drift: reported, never written back); name the first failure."""
        from campaign.timeline import Change, Timeline
        from events.registry import registry
        from events.verify import Finding, verify_events

        ledger = open_app().ledger
        targets = ledger.directory.all() if every else [ledger.resolve(campaign)]
        out = Output(as_json)
        reports = []
        editions: dict[str, list[Change]] = {}
        """Differences expected because the rules changed since they were recorded: reported, not failures."""
        for info in targets:
            with out.progress(info.last_seq, f"verifying {info.name}") as progress:
                task = progress.add_task(f"verifying {info.name}", total=info.last_seq)
                report = verify_events(
                    info.campaign_id,
                    ledger.store.read(info.campaign_id),
                    registry,
                    on_event=lambda _e, t=task: progress.advance(t),  # type: ignore[misc]
                )
            if rules and report.ok:
                for change in Timeline(ledger).reevaluate(info):
                    if change.recorded_under is not None:
                        editions.setdefault(info.name, []).append(change)
                        continue
                    report.findings.append(
                        Finding(
                            change.seq,
                            change.command,
                            "drift",
                            "re-evaluated now, the rule gives a different outcome: "
                            f"{change.after[-1] if change.after else 'nothing'}",
                        )
                    )
            reports.append((info, report))
        if as_json:
            out.json(
                [
                    {
                        "campaign": info.name,
                        **report.as_dict(),
                        "rules_changed_since": [
                            {"seq": c.seq, "command": c.command, "recorded_under": c.recorded_under}
                            for c in editions.get(info.name, [])
                        ],
                    }
                    for info, report in reports
                ]
            )
        else:
            for info, report in reports:
                if report.ok:
                    out.console.print(
                        f"[green]ok[/] {info.name}: {report.events} events, chain intact to {report.head_hash}; "
                        f"{report.rolls_rederived} rolls re-derived, {report.rolls_pending} awaiting a seed reveal, "
                        f"{report.table_rolls} table rolls in range"
                    )
                else:
                    out.console.print(
                        f"[red]FAILED[/] {escape(info.name)}: first bad event {escape(str(report.first))}"
                    )
                for change in editions.get(info.name, []):
                    out.console.print(
                        f"  note: #{change.seq} {change.command} was recorded under ruleset version "
                        f"{change.recorded_under}; today's rules (RULES.md, second edition) decide it differently — "
                        "expected after a rules change, not a sign the log was altered"
                    )
                    for finding in report.findings[1:]:
                        out.console.print(f"  also: {escape(str(finding))}")
        failed = [r for _, r in reports if not r.ok]
        if failed:
            first = failed[0].first
            raise (
                VerificationError(f"verification failed at {first}")
                if not as_json
                else typer.Exit(VerificationError.exit_code)
            )

    @app.command("demo")
    @handles_errors
    def demo(
        replace: Annotated[
            bool, typer.Option("--replace", help="Replace the database file if it exists (its campaigns are lost).")
        ] = False,
        as_json: JsonOpt = False,
    ) -> None:
        """Build a ready sample campaign under each ruleset on a new SQLite file, then verify it.

        An existing database is never touched unless ``--replace`` says so: it may hold a real campaign."""
        from campaign.cli.demo import build_demo, demo_ids

        if "://" not in state.db and state.db != ":memory:":
            existing = [Path(state.db + s) for s in ("", "-wal", "-shm") if Path(state.db + s).exists()]
            if existing and not replace:
                raise InvalidInputError(
                    f"{state.db} already exists and may hold a real campaign: the demo writes to a new file. "
                    f"Name one with `campaign --db demo.db demo`, or add --replace to overwrite {state.db}"
                )
            for path in existing:
                os.remove(path)
        out = Output(as_json)
        state.app = bootstrap(state.db, actor=state.actor, new_id=demo_ids())
        summary = build_demo(state.app, out)
        if as_json:
            out.json(summary)
