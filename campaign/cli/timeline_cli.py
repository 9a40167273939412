"""``rewind``, ``amend``, ``audit``: settling disputes and fixing mistakes without losing the record."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import orjson
import typer
from rich.markup import escape

from campaign.cli.common import CampaignOpt, CommandIdOpt, JsonOpt, open_app
from campaign.cli.output import Output, handles_errors
from campaign.describe import describe, unit_names
from campaign.exchange import export_lines, import_campaign
from campaign.replay import Sandbox, command_groups
from campaign.rulesets.tables import parse_value
from campaign.timeline import AmendReport, Timeline, branch
from events.dice.derive import derive_faces
from events.envelope import RecordedEvent
from events.errors import CampaignError, InvalidInputError, NotFoundError
from events.registry import registry
from events.timeline import effective, retracted
from events.verify import verify_events


def _audit(seq: int | None, roll: int | None, campaign: str | None) -> dict[str, Any]:
    ledger = open_app().ledger
    info = ledger.resolve(campaign)
    events = list(ledger.store.read(info.campaign_id))
    gone = retracted(events)
    if roll is not None:
        dice = [e for e in events if e.type == "dice.rolled" and e.payload["roll_index"] == roll]
        if not dice:
            raise NotFoundError(f"no roll #{roll} in this campaign")
        seq = dice[0].seq
    if seq is None or not 1 <= seq <= len(events):
        raise NotFoundError(f"no event {seq} in this campaign (it has {len(events)})")
    event = events[seq - 1]
    groups = command_groups(events)
    group = next(g for g in groups if g.first_seq <= seq <= g.last_seq)
    names = unit_names(events)
    chain = verify_events(info.campaign_id, events[:seq], registry)
    revealed = {e.payload["epoch"]: bytes.fromhex(e.payload["seed"]) for e in events if e.type == "dice.seed_revealed"}
    dice_checks = []
    for d in (e for e in group.events if e.type == "dice.rolled"):
        p = d.payload
        if p["source"] == "table":
            dice_checks.append({"roll": p["roll_index"], "check": f"table dice entered by {p['entered_by']}"})
        elif p["seed_epoch"] in revealed:
            again = derive_faces(
                revealed[p["seed_epoch"]], info.dice_id or info.campaign_id, p["roll_index"], p["count"], p["sides"]
            )
            dice_checks.append(
                {
                    "roll": p["roll_index"],
                    "check": "re-derived from the revealed seed: "
                    + ("matches" if list(again) == list(p["faces"]) else f"MISMATCH {list(again)}"),
                }
            )
        else:
            dice_checks.append({"roll": p["roll_index"], "check": "seed not revealed yet: checkable after `reveal`"})
    users = []
    indexes = {e.payload["roll_index"] for e in group.events if e.type == "dice.rolled"}
    for e in events:  # every rule application that used these dice, retracted or re-run by an amendment
        if e.type == "rules.applied" and indexes & set(e.payload["dice"]):
            users.append({"seq": e.seq, "retracted": e.seq in gone, "explanation": e.payload["explanation"]})
    rule_check = "no rule applied"
    if group.issued is not None and group.outcomes:
        before = [e for e in events if e.seq < group.first_seq]
        sandbox = Sandbox(ledger, before)
        try:
            rerun = sandbox.run(info.campaign_id, group)
            same = [o["outcome"] for o in command_groups(rerun)[0].outcomes] == [o["outcome"] for o in group.outcomes]
            rule_check = "re-evaluated on its recorded inputs and dice: " + ("same outcome" if same else "DRIFT")
        except CampaignError as exc:
            rule_check = f"cannot be re-evaluated: {exc}"
    clauses = sorted({str(e.payload["clause"]) for e in group.events if e.type == "rules.applied"})
    return {
        "seq": seq,
        "type": event.type,
        "retracted": seq in gone,
        "what": describe(event, names),
        "actor": event.meta.get("actor"),
        "recorded_at": event.meta.get("recorded_at"),
        "command": group.issued.payload["command"] if group.issued else event.meta.get("command"),
        "inputs": group.issued.payload["args"] if group.issued else None,
        "explanations": [o["explanation"] for o in group.outcomes],
        "clauses": clauses,
        "checks": {
            "chain": "intact up to here" if chain.ok else f"BROKEN: {chain.first}",
            "dice": dice_checks,
            "rule": rule_check,
        },
        "dice_used_by": users,
        "hash": event.hash,
    }


def register(app: typer.Typer) -> None:
    @app.command("rewind")
    @handles_errors
    def rewind(
        to: Annotated[int, typer.Option("--to", help="The last seq to keep in effect.")],
        reason: Annotated[str, typer.Option("--reason")] = "",
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Retract every event after SEQ. Nothing is deleted (see `log --all`); no die is rolled again."""
        ledger = open_app().ledger
        info = ledger.resolve(campaign)
        Output(as_json).appended(Timeline(ledger).rewind(info, to, reason, command_id), f"[bold]{info.name}[/]:")

    @app.command("amend")
    @handles_errors
    def amend(
        seq: int,
        set_: Annotated[list[str], typer.Option("--set", help="INPUT=VALUE: the corrected input (repeat).")],
        dry_run: Annotated[
            bool, typer.Option("--dry-run", help="Show what would change and what would be dropped; append nothing.")
        ] = False,
        yes: Annotated[
            bool, typer.Option("--yes", "-y", help="Go ahead even if later commands would be dropped.")
        ] = False,
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Correct a past command's inputs: it and every later command are re-run on their own dice. If a later
        command would no longer apply, it and those after it are dropped: shown first, asked or --yes."""
        ledger = open_app().ledger
        info = ledger.resolve(campaign)
        changes = _amend_changes(set_)
        timeline = Timeline(ledger)
        preview = timeline.amend(info, seq, changes, command_id, dry_run=True)
        out = Output(as_json)
        if not dry_run and preview.dropped and not yes:
            _show_amend(out, preview, seq)
            if (
                as_json
                or not sys.stdin.isatty()
                or not typer.confirm(f"drop these {len(preview.dropped)} later commands?", default=False)
            ):
                raise InvalidInputError(
                    f"this amendment would drop {len(preview.dropped)} later commands that no longer apply "
                    "(listed above): nothing was changed; run it with --yes to go ahead, or --dry-run to look first"
                )
        report = preview if dry_run else timeline.amend(ledger.resolve(campaign), seq, changes, command_id)
        if as_json:
            out.json(report.as_dict())
            return
        _show_amend(out, report, seq)

    @app.command("reroll")
    @handles_errors
    def reroll(
        reason: Annotated[str, typer.Option("--reason", help="Why the table agreed to roll again (recorded).")],
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Take the next die a retracted command left on the table off it, on the record: the next command that
        rolls those dice rolls new ones. `audit` and `verify` list every reroll."""
        ledger = open_app().ledger
        info = ledger.resolve(campaign)
        Output(as_json).appended(ledger.reroll(info, reason, command_id), f"[bold]{escape(info.name)}[/]:")

    @app.command("undo")
    @handles_errors
    def undo(campaign: CampaignOpt = None, command_id: CommandIdOpt = None, as_json: JsonOpt = False) -> None:
        """Take back the last command (or the last rewind, amendment or undo): nothing is deleted, and the dice
        it rolled stay rolled."""
        ledger = open_app().ledger
        info = ledger.resolve(campaign)
        result, what, start = Timeline(ledger).undo(info, command_id)
        out = Output(as_json)
        if as_json:
            out.appended(result, "")
            return
        out.console.print(f"undid {escape(what)} (from #{start}); `campaign undo` again takes back this undo")

    @app.command("audit")
    @handles_errors
    def audit(
        seq: Annotated[int | None, typer.Argument(help="An event's seq.")] = None,
        roll: Annotated[int | None, typer.Option("--roll", help="A roll index instead of a seq.")] = None,
        campaign: CampaignOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """A roll or rule application: who entered it and when, its inputs, its explanation and clause,
        and three checks (the chain up to it, the dice, the rule re-evaluated)."""
        if (seq is None) == (roll is None):
            raise InvalidInputError("audit a SEQ or a --roll INDEX")
        found = _audit(seq, roll, campaign)
        out = Output(as_json)
        if as_json:
            out.json(found)
            return
        c = out.console
        c.print(
            f"#{found['seq']} {found['type']}{' [yellow](retracted)[/]' if found['retracted'] else ''}: {found['what']}"
        )
        c.print(
            f"entered by {found['actor']} at {found['recorded_at']}; command {found['command']} {found['inputs'] or ''}"
        )
        for text in found["explanations"]:
            c.print(f"  {text}")
        if found["clauses"]:
            c.print(f"rule: {', '.join(found['clauses'])}")
        c.print(f"chain: {found['checks']['chain']}")
        for d in found["checks"]["dice"]:
            c.print(f"roll #{d['roll']}: {d['check']}")
        c.print(f"rule check: {found['checks']['rule']}")
        for use in found["dice_used_by"]:
            c.print(f"  used at #{use['seq']}{' (retracted)' if use['retracted'] else ''}: {use['explanation']}")


def register_exchange(app: typer.Typer) -> None:
    @app.command("branch")
    @handles_errors
    def branch_(
        name: str,
        at: Annotated[int, typer.Option("--at", help="The last seq the branch shares.")],
        campaign: CampaignOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """A what-if campaign sharing this one's history up to SEQ; the original is untouched."""
        ledger = open_app().ledger
        parent = ledger.resolve(campaign)
        result = branch(ledger, parent, name, at)
        Output(as_json).appended(result, f"[bold]{name}[/] branches from {parent.name} at #{at}:")

    @app.command("export")
    @handles_errors
    def export(
        output: Annotated[
            Path | None, typer.Option("--output", "-o", help="A file (default: standard output).")
        ] = None,
        with_secrets: Annotated[bool, typer.Option("--with-secrets", help="Include the secret dice seeds.")] = False,
        campaign: CampaignOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Write the campaign as JSON Lines: lossless; the secret seeds only with --with-secrets."""
        ledger = open_app().ledger
        info = ledger.resolve(campaign)
        lines = list(export_lines(ledger, info, with_secrets=with_secrets))
        data = b"".join(line + b"\n" for line in lines)
        out = Output(as_json)
        if output is None:
            sys.stdout.buffer.write(data)  # the export itself is the output
            sys.stdout.flush()
            return
        output.write_bytes(data)
        if as_json:
            out.json({"file": str(output), "events": len(lines) - 1})
        else:
            out.console.print(f"wrote {len(lines) - 1} events of {info.name} to {output}")

    @app.command("import")
    @handles_errors
    def import_(path: Path, as_json: JsonOpt = False) -> None:
        """Read a campaign exported as JSON Lines; the chain and every event's schema are checked first, and a
        file with any fault is refused whole."""
        try:
            raw = path.read_bytes().splitlines()
        except OSError as exc:
            raise InvalidInputError(f"cannot read {path}: {exc.strerror}") from None
        out = Output(as_json)
        with out.progress(len(raw), "checking and importing") as progress:
            task = progress.add_task("checking and importing", total=len(raw))

            def lines() -> Any:
                for line in raw:
                    progress.advance(task)
                    yield line

            result = import_campaign(open_app(create=True).ledger, lines())
        if as_json:
            out.json(
                {
                    "campaign_id": result.events[0].campaign_id,
                    "events": len(result.events),
                    "head_hash": result.head.hash,
                }
            )
        else:
            out.console.print(f"imported {len(result.events)} events; head {result.head.hash}")


def _amend_changes(items: list[str]) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise InvalidInputError(f"--set takes INPUT=VALUE, not {item!r}")
        if raw[:1] in "[{":
            try:
                changes[key.strip()] = orjson.loads(raw)
            except orjson.JSONDecodeError:
                raise InvalidInputError(f"--set {key.strip()}=…: {raw!r} is not a valid list or mapping") from None
        else:
            changes[key.strip()] = parse_value(raw)
    return changes


def _show_amend(out: Output, report: AmendReport, seq: int) -> None:
    verb = "would amend" if report.result is None else "amended"
    out.console.print(f"{verb} {report.command} at #{seq}; {report.rerun} later commands re-run on their dice")
    for change in report.changes:
        out.console.print(f"  #{change.seq} {change.command}:")
        for before, after in zip(change.before, change.after, strict=False):
            if before != after:
                out.console.print(f"    was: {escape(before['explanation'])}\n    now: {escape(after['explanation'])}")
    if report.stopped_at is not None:
        out.console.print(
            f"[yellow]#{report.stopped_at} no longer applies[/]: {escape(report.stopped_because or '')}; "
            + ("it and the commands after it are dropped (enter them again):" if report.result else "would drop:")
        )
        for dropped_seq, command in report.dropped:
            out.console.print(f"    #{dropped_seq} {command}")


def log_filter(events: list[RecordedEvent], *, show_all: bool, unit: str | None, battle: str | None) -> list[Any]:
    """The entries ``log`` shows: in effect (or all, retracted marked), for a unit or a battle."""
    names = unit_names(events)
    gone = retracted(events)
    chosen = events if show_all else effective(events)
    if unit is not None:
        ids = {k for k, v in names.items() if v == unit} | {unit}
        chosen = [e for e in chosen if e.payload.get("unit_id") in ids or e.payload.get("officer_id") in ids]
    if battle is not None:
        ids = {k for k, v in names.items() if v == battle} | {battle}
        chosen = [e for e in chosen if e.payload.get("battle_id") in ids]
    return [(e, e.seq in gone) for e in chosen]
