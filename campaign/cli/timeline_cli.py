"""``rewind``, ``amend``, ``audit``: settling disputes and fixing mistakes without losing the record."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import orjson
import typer

from campaign import views
from campaign.branch_dice import branch_point, made, made_in_words
from campaign.cli.common import show_appended
from campaign.cli.options import CampaignOpt, CommandIdOpt, JsonOpt
from campaign.cli.output import Output, handles_errors
from campaign.cli.plain import escape
from campaign.cli.session import open_app, resolved
from campaign.describe import clause_list, count, kind, label, value, words
from campaign.exchange import Reader, export_lines, import_campaign, read_lines
from campaign.rulesets.kinds import NEW_CAMPAIGN
from campaign.rulesets.tables import parse_value
from campaign.timeline import AmendReport, Timeline, branch
from campaign.typed_as import typed
from events.dice import parse_table_dice
from events.errors import InvalidInputError


def _audit(seq: int | None, roll: int | None, campaign: str | None) -> dict[str, Any]:
    ledger = open_app().ledger
    return views.audit(ledger, ledger.resolve(campaign), seq, roll)


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
        ledger, info = resolved(campaign)
        show_appended(Timeline(ledger).rewind(info, to, reason, command_id), as_json, info, named=False)

    @app.command("amend")
    @handles_errors
    def amend(
        seq: int,
        set_: Annotated[
            list[str] | None, typer.Option("--set", help="INPUT=VALUE: the corrected input (repeat).")
        ] = None,
        dice: Annotated[
            str | None,
            typer.Option(
                "--dice",
                help="The faces the table agrees its dice showed, e.g. 4 or 4,2: the command's table dice, corrected "
                "on the record (needs --reason; a seeded roll cannot be changed).",
            ),
        ] = None,
        reason: Annotated[
            str, typer.Option("--reason", help="Why the table dice are corrected (recorded; audit and verify show it).")
        ] = "",
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
        """Correct a past command's inputs (or its table dice, --dice … --reason …): it and every later command are
        re-run on their own dice. If a later command would no longer apply, it and those after it are dropped:
        shown first, asked or --yes. A table die read wrong ("that was a 4, not a 3"): `--dice 4 --reason "…"`
        re-runs the command on the dice the table agrees, with or without --set; the roll as entered stays in the
        log, and `audit --roll`, `log` and `verify` show the correction, who made it and why. Only table dice can
        be corrected: a seeded roll cannot be changed."""
        ledger, info = resolved(campaign)
        changes = _amend_changes(set_ or [])
        faces = parse_table_dice(dice) if dice is not None else None
        timeline = Timeline(ledger)
        preview = timeline.amend(info, seq, changes, command_id, dry_run=True, dice=faces, reason=reason)
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
        report = (
            preview
            if dry_run
            else timeline.amend(ledger.resolve(campaign), seq, changes, command_id, dice=faces, reason=reason)
        )
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
        ledger, info = resolved(campaign)
        show_appended(ledger.reroll(info, reason, command_id), as_json, info, named=False)

    @app.command("undo")
    @handles_errors
    def undo(campaign: CampaignOpt = None, command_id: CommandIdOpt = None, as_json: JsonOpt = False) -> None:
        """Take back the last command (or the last rewind, amendment or undo): nothing is deleted, and the dice
        it rolled stay rolled."""
        ledger, info = resolved(campaign)
        result, what, start = Timeline(ledger).undo(info, command_id)
        out = Output(as_json)
        if as_json:
            out.appended(result, "")
            return
        said = Timeline(ledger).undone_in_words(info, what, start)
        out.console.print(f"{escape(said)}; `campaign undo` again takes back this undo")

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
            out.json({k: v for k, v in found.items() if k != "entered"})
            return
        c = out.console
        retracted = " [yellow](retracted)[/]" if found["retracted"] else ""
        c.print(f"#{found['seq']} {kind(found['type'])}{retracted}: {escape(found['what'])}")
        c.print(f"entered by {escape(str(found['actor']))} at {found['recorded_at']}: {escape(found['entered'])}")
        for text in found["explanations"]:
            c.print(f"  {escape(words(text))}")
        if found["clauses"]:
            c.print(f"rule: {clause_list(found['clauses'])}")
        c.print(f"chain: {found['checks']['chain']}")
        for rolls, check in _roll_runs(found["checks"]["dice"]):
            c.print(f"{rolls}: {escape(check)}")
        if found["seed_chosen"] and found["checks"]["dice"]:
            c.print("[yellow]flagged[/]: the campaign's first seed was chosen by its creator (new --seed), not drawn")
        c.print(f"rule check: {found['checks']['rule']}")
        # The explanations of this command are printed above: only other commands' (retracted ones, re-runs).
        for use in found["dice_used_by"]:
            if use["explanation"] not in found["explanations"] or use["retracted"]:
                gone = " (retracted)" if use["retracted"] else ""
                c.print(f"  also used at #{use['seq']}{gone}: {escape(words(use['explanation']))}")


def _roll_runs(checks: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Consecutive rolls with the same check, said once: "rolls #0–#16: re-derived …: matches"."""
    runs: list[tuple[int, int, str]] = []
    for d in checks:
        check = d["check"] + (f"; {d['origin']['words']}" if "origin" in d else "")  # a branch's: whence
        if runs and runs[-1][2] == check and runs[-1][1] == d["roll"] - 1:
            runs[-1] = (runs[-1][0], d["roll"], check)
        else:
            runs.append((d["roll"], d["roll"], check))
    return [(f"roll #{a}" if a == b else f"rolls #{a}–#{b}", check) for a, b, check in runs]


def register_exchange(app: typer.Typer) -> None:
    @app.command("branch")
    @handles_errors
    def branch_(
        name: Annotated[str, NEW_CAMPAIGN],
        at: Annotated[
            int | None, typer.Option("--at", help="The last seq the branch shares (default: the head, all of it).")
        ] = None,
        campaign: CampaignOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """A what-if campaign sharing this one's history up to SEQ; the original is untouched. It keeps the
        parent's dice for the shared history, offers again the dice left on the table at SEQ, and says from which
        roll on its dice are new (its own seed)."""
        ledger, parent = resolved(campaign)
        if at is None:
            at = parent.last_seq
        result = branch(ledger, parent, name, at)
        info = ledger.resolve(result.events[0].campaign_id)
        point = branch_point(ledger.store, info.campaign_id)
        assert point is not None
        story = made(point, name, zip(info.on_table, ledger.on_table(info), strict=True))
        out = Output(as_json)
        if as_json:
            out.json(
                {
                    "campaign": name,
                    "duplicate": result.duplicate,
                    "shared": at,  # events copied from the parent (not printed: a branch streams them)
                    "events": [e.as_dict() for e in result.events],  # the branch's own: branched, its seed
                    "head": {"seq": result.head.seq, "hash": result.head.hash},
                    "dice": story,
                }
            )
            return
        c = out.console
        c.print(
            f"[bold]{escape(name)}[/] branches from {escape(parent.name)} at #{at}: "
            f"{at} event{'s' if at > 1 else ''} shared, "
            f"head #{result.head.seq} {result.head.hash}"
        )
        for line in made_in_words(story, name):
            c.print(escape(line))

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
        ledger, info = resolved(campaign)
        out = Output(as_json)
        if output is None:
            for line in export_lines(ledger, info, with_secrets=with_secrets):
                sys.stdout.buffer.write(line + b"\n")  # the export itself is the output
            sys.stdout.flush()
            return
        count = -1
        try:
            with output.open("wb") as handle:
                for line in export_lines(ledger, info, with_secrets=with_secrets):
                    handle.write(line + b"\n")
                    count += not line.startswith((b'{"secret"', b'{"share"'))
        except OSError as exc:
            raise InvalidInputError(f"cannot write {output}: {exc.strerror}") from None
        if as_json:
            out.json({"file": str(output), "events": count})
        else:
            out.console.print(escape(f"wrote {count} events of {info.name} to {output}"))

    @app.command("import")
    @handles_errors
    def import_(path: Path, as_json: JsonOpt = False) -> None:
        """Read a campaign exported as JSON Lines; the chain and every event's schema are checked first, and a
        file with any fault is refused whole."""
        try:
            handle = path.open("rb")
        except OSError as exc:
            raise InvalidInputError(f"cannot read {path}: {exc.strerror}") from None
        out = Output(as_json)
        with handle, out.progress(None, "checking and importing") as progress:
            task = progress.add_task("checking and importing", total=None)

            def lines() -> Any:
                for line in read_lines(handle):
                    progress.advance(task)
                    yield line

            try:
                reader = Reader(lines())  # its header read before the database is opened, or made
                sink = import_campaign(open_app(create=True).ledger, reader)
            except OSError as exc:
                raise InvalidInputError(f"cannot read {path}: {exc.strerror}") from None
        assert sink.last is not None
        if as_json:
            out.json({"campaign_id": sink.last.campaign_id, "events": sink.count, "head_hash": sink.last.hash})
        else:
            out.console.print(f"imported {sink.count} events; head {sink.last.hash}")


def _amend_changes(items: list[str]) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for item in items:
        typed_key, sep, raw = item.partition("=")
        key = typed_key.replace("-", "_")  # as the option is typed (leader-hit) or recorded (leader_hit)
        if not sep or not key or not raw.strip():
            raise InvalidInputError(f"--set takes INPUT=VALUE, e.g. --set men=12, not {item!r}")
        if raw[:1] in "[{":
            try:
                changes[key] = orjson.loads(raw)
            except orjson.JSONDecodeError:
                raise InvalidInputError(f"--set {key}=…: {raw!r} is not a valid list or object") from None
        else:
            changes[key] = parse_value(raw)
    return changes


def _show_amend(out: Output, report: AmendReport, seq: int) -> None:
    verb = "would amend" if report.result is None else "amended"
    out.console.print(
        f"{verb} {typed(report.command)} at #{seq}; {count(report.rerun, 'later commands')} re-run on "
        f"{'its' if report.rerun == 1 else 'their'} dice"
    )
    for key, was, now in report.inputs:
        out.console.print(f"  {escape(label(key))}: {escape(_input(was))} → {escape(_input(now))}")
    for fixed in (c for c in report.corrected if tuple(c.faces) != tuple(c.faces_before)):  # the ones changed
        now = f"{', '.join(map(str, fixed.faces))} (roll #{fixed.replaced_by})" if fixed.faces else "no die"
        out.console.print(
            escape(
                f"  table dice of roll #{fixed.roll_index} ({fixed.notation}) corrected: "
                f"{', '.join(map(str, fixed.faces_before))} → {now}, by {fixed.by}: {fixed.reason}"
            )
        )
    for change in report.changes:
        shown = [(b, a) for b, a in zip(change.before, change.after, strict=False) if b != a]
        extra = change.after[len(change.before) :]
        gone = change.before[len(change.after) :]
        if not (shown or extra or gone):
            continue  # the amended command decides as it did (its inputs' change is said above)
        out.console.print(f"  #{change.seq} {typed(change.command)}:")
        for before, after in shown:
            was, now = words(before["explanation"]), words(after["explanation"])
            out.console.print(f"    was: {escape(was)}\n    now: {escape(now)}")
        for after in extra:
            out.console.print(f"    now also: {escape(words(after['explanation']))}")
        for before in gone:
            out.console.print(f"    no longer: {escape(words(before['explanation']))}")
    if report.stopped_at is not None:
        out.console.print(
            f"[yellow]#{report.stopped_at} no longer applies[/]: {escape(report.stopped_because or '')}; "
            + ("it and the commands after it are dropped (enter them again):" if report.result else "would drop:")
        )
        for dropped_seq, command in report.dropped:
            out.console.print(f"    #{dropped_seq} {typed(command)}")


def _input(v: Any) -> str:
    """An input's value as a person reads it: a number with its thousands separated."""
    return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else value(v)
