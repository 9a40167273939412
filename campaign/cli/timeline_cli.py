"""``rewind``, ``amend``, ``audit``: settling disputes and fixing mistakes without losing the record."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import orjson
import typer

from campaign.branch_dice import branch_point, made, made_in_words
from campaign.cli.common import show_appended, table_entry
from campaign.cli.options import CampaignOpt, CommandIdOpt, JsonOpt
from campaign.cli.output import Output, escape, handles_errors
from campaign.cli.session import open_app, resolved, state
from campaign.exchange import Reader, export_lines, import_campaign, read_lines
from campaign.executor import AskEntry
from campaign.i18n import _, ngettext
from campaign.read import views
from campaign.read.describe import amount, clause_list, count, kind, label, value, words
from campaign.rulesets.kinds import NEW_CAMPAIGN
from campaign.rulesets.tables import parse_value
from campaign.timeline import AmendReport, Fate, Timeline, branch
from campaign.timeline.reports import new_dice_words, paired
from campaign.typed_as import typed
from events.dice import parse_table_dice
from events.dice.rerun import AskedFaces, NewDice, TypedFaces
from events.errors import InvalidInputError

if TYPE_CHECKING:
    from campaign.executor import Ledger
    from campaign.replay import RuleOutcome


def _audit(seq: int | None, roll: int | None, campaign: str | None) -> views.Audit:
    ledger = open_app().ledger
    return views.audit(ledger, ledger.resolve(campaign), seq, roll)


def register(app: typer.Typer) -> None:  # noqa: C901 (its commands, nested, are counted in it)
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
    def amend(  # noqa: PLR0913 (the command's options, by keyword)
        seq: int,
        set_: Annotated[
            list[str] | None, typer.Option("--set", help="INPUT=VALUE: the corrected input (repeat).")
        ] = None,
        dice: Annotated[
            str | None,
            typer.Option(
                "--dice",
                help="FACES or ask: the table's dice for what the amendment rolls anew (dice none of a command's own "
                "and none on the table serve), in the order the preview lists them; left out, the campaign's dice "
                "roll them. With --reason: the faces the amended command's own table dice showed, corrected on the "
                "record (a seeded roll cannot be changed).",
            ),
        ] = None,
        reason: Annotated[
            str, typer.Option("--reason", help="Why the table dice are corrected (recorded; audit and verify show it).")
        ] = "",
        dry_run: Annotated[
            bool,
            typer.Option("--dry-run", help="Show what the amendment would do to each later command; append nothing."),
        ] = False,
        yes: Annotated[bool, typer.Option("--yes", "-y", help="Apply it without asking, as its preview says.")] = False,
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Correct a past command's inputs (or its table dice, --dice … --reason …): it and every later command are
        re-run on their own dice. A later command that no longer applies is skipped alone (its dice go back on the
        table) and every other is kept; one whose rules now ask for more dice takes those left on the table, then
        new ones (--dice FACES, --dice ask, or the campaign's). The preview lists each later command's fate
        (unchanged, changed, needs new dice, no longer applies); nothing is appended until it is accepted (asked
        at a terminal, or --yes), and the amendment is one append. A table die read wrong ("that was a 4, not a
        3"): `--dice 4 --reason "…"`; the roll as entered stays in the log, and `audit --roll`, `log` and `verify`
        show the correction, who made it and why."""
        ledger, info = resolved(campaign)
        changes = _amend_changes(set_ or [])
        timeline = Timeline(ledger)
        correction, new_dice = _amend_dice(dice, reason, changes, ledger.actor)
        report, batch = timeline.preview(info, seq, changes, table=correction, reason=reason, new_dice=new_dice)
        out = Output(as_json)
        if dry_run:
            out.json(report.as_dict()) if as_json else _show_amend(out, report, seq, _names(ledger, info.campaign_id))
            return
        if not yes:
            if not as_json:
                _show_amend(out, report, seq, _names(ledger, info.campaign_id))
            if as_json or not sys.stdin.isatty() or not typer.confirm(_("apply this amendment?"), default=False):
                if as_json:
                    raise InvalidInputError.saying(
                        "nothing was amended: an amendment is applied only once its preview is accepted; see it "
                        "with --dry-run, then run it with --yes"
                    )
                raise InvalidInputError.saying(
                    "nothing was amended: an amendment is applied only once its preview is accepted; the preview "
                    "above is what it would do: run it with --yes to apply it (or answer yes at a terminal)"
                )
        if batch is None:  # its new dice were not known to the preview: they are rolled now, as it said
            report, batch = timeline.amendment(info, seq, changes, table=correction, reason=reason, new_dice=new_dice)
        report = timeline.apply(info, report, batch, command_id)
        if as_json:
            out.json(report.as_dict())
            return
        _show_amend(out, report, seq, _names(ledger, info.campaign_id))

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
        out.console.print(_("{undone}; `campaign undo` again takes back this undo").format(undone=escape(said)))

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
            raise InvalidInputError.saying("audit a SEQ or a --roll INDEX")
        found = _audit(seq, roll, campaign)
        out = Output(as_json)
        if as_json:
            out.json({k: v for k, v in found.items() if k not in ("entered", "said")})
            return
        c = out.console
        retracted = " [yellow](" + _("retracted") + ")[/]" if found["retracted"] else ""
        c.print(f"#{found['seq']} {kind(found['type'])}{retracted}: {escape(found['what'])}")
        _in_force(out, found)
        c.print(
            _("entered by {actor} at {when}: {entered}").format(
                actor=escape(str(found["actor"])), when=_when(found["recorded_at"]), entered=escape(found["entered"])
            )
        )
        if found["clauses"]:
            c.print(_("rule: {clauses}").format(clauses=clause_list(found["clauses"])))
        c.print(_("chain: {check}").format(check=found["checks"]["chain"]))
        for rolls, check in _roll_runs(found["checks"]["dice"]):
            c.print(f"{rolls}: {escape(check)}")
        if found["seed_chosen"] and found["checks"]["dice"]:
            c.print(
                "[yellow]"
                + _("flagged")
                + "[/]: "
                + _("the campaign's first seed was chosen by its creator (new --seed), not drawn")
            )
        c.print(_("rule check: {check}").format(check=escape(found["checks"]["rule"])))


def _when(recorded_at: object) -> str:
    """A recorded moment (ISO 8601, UTC) as the reader's locale writes it; as recorded in English, which the
    tests and scripts read, and when it is not a moment at all."""
    from datetime import datetime

    from campaign.i18n import DEFAULT, language
    from campaign.i18n.formats import moment

    if language() == DEFAULT:
        return str(recorded_at)
    try:
        return moment(int(datetime.fromisoformat(str(recorded_at).replace("Z", "+00:00")).timestamp()))
    except ValueError:
        return str(recorded_at)


def _in_force(out: Output, found: views.Audit) -> None:
    """The rulings on an audited roll (or of an audited command): the one in force first, then each retracted one,
    marked so, and superseded where an amendment re-ran it on the same dice."""
    c = out.console
    if not found["in_force"] and not found["superseded"]:
        return
    amended = found["amended_by"]
    amendment = amended["seq"] if amended else None
    said: dict[int, str] = found.get("said") or {}

    def ruling_words(ruling: views.InForce) -> str:
        return escape(said.get(ruling["seq"]) or words(ruling["explanation"]))

    in_force_seqs = {r["seq"] for r in found["in_force"]}
    in_place = [r for r in (amended["in_force"] if amended else []) if r["seq"] not in in_force_seqs]
    if not found["in_force"] and not amended:
        c.print(_("in force: nothing (every ruling on it was taken back)"))
    elif not found["in_force"] and not in_place:
        c.print(_("in force: the amendment at #{seq}, which rules nothing on these dice").format(seq=amendment))
    for ruling in found["in_force"]:
        c.print(_("in force: #{seq}: {ruling}").format(seq=ruling["seq"], ruling=ruling_words(ruling)))
    for ruling in in_place:
        c.print(
            _("in force in its place (the amendment at #{amendment}): #{seq}: {ruling}").format(
                amendment=amendment, seq=ruling["seq"], ruling=ruling_words(ruling)
            )
        )
    for ruling in found["superseded"]:
        by = ruling["superseded_by"]
        mark = (
            _("superseded by #{seq}").format(seq=by[0])
            if by
            else _("amended at #{seq}").format(seq=amendment)
            if amended
            else _("retracted")
        )
        c.print(f"  [yellow]{mark}[/]: #{ruling['seq']}: {ruling_words(ruling)}")


def _roll_runs(checks: list[views.DiceCheck]) -> list[tuple[str, str]]:
    """Consecutive rolls with the same check, said once: "rolls #0–#16: re-derived …: matches"."""
    runs: list[tuple[int, int, str]] = []
    for d in checks:
        check = d["check"] + (f"; {d['origin']['words']}" if "origin" in d else "")  # a branch's: whence
        if runs and runs[-1][2] == check and runs[-1][1] == d["roll"] - 1:
            runs[-1] = (runs[-1][0], d["roll"], check)
        else:
            runs.append((d["roll"], d["roll"], check))
    return [
        (_("roll #{n}").format(n=a) if a == b else _("rolls #{first}–#{last}").format(first=a, last=b), check)
        for a, b, check in runs
    ]


def register_exchange(app: typer.Typer) -> None:  # noqa: C901, PLR0915 (its commands, nested, are counted in it)
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
        branched = ngettext(
            "{name} branches from {parent} at #{at}: {n} event shared, head #{seq} {hash}",
            "{name} branches from {parent} at #{at}: {n} events shared, head #{seq} {hash}",
            at,
        )
        c.print(
            branched.format(
                name=f"[bold]{escape(name)}[/]",
                parent=escape(parent.name),
                at=at,
                n=amount(at),
                seq=result.head.seq,
                hash=result.head.hash,
            )
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
        from events.backup import written_whole

        count = -1
        try:
            with written_whole(output) as handle:  # whole or not at all: an interrupted export leaves no file
                for line in export_lines(ledger, info, with_secrets=with_secrets):
                    handle.write(line + b"\n")
                    count += not line.startswith((b'{"secret"', b'{"share"'))
        except OSError as exc:
            raise InvalidInputError.saying("cannot write {path}: {why}", path=str(output), why=exc.strerror) from None
        if as_json:
            out.json({"file": str(output), "events": count})
        else:
            out.console.print(escape(f"wrote {count} events of {info.name} to {output}"))

    @app.command("backup")
    @handles_errors
    def backup_(
        file: Annotated[Path, typer.Argument(help="A new file for the copy (an existing one is never replaced).")],
        campaign: CampaignOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Copy the database to a new FILE while others may be writing, and check the copy before saying it is
        done. On SQLite the copy is the database file itself (SQLite's online backup API: one consistent state,
        every commit acknowledged before it began), checked page by page and as `verify` checks a log: restore it
        by copying it where the database was, or name it with --db. On PostgreSQL it is the campaign's export with
        its secrets (--campaign picks one of several), read back and checked: `import` restores it."""
        from campaign.backup import backup, restore_hint

        opened = open_app()
        info = None if opened.engine.dialect.name == "sqlite" else opened.ledger.resolve(campaign)
        out = Output(as_json)
        with out.progress(None, "copying and checking") as progress:
            task = progress.add_task("copying and checking", total=None)
            report = backup(opened, file, info, on_event=lambda n: progress.advance(task, n))
        if as_json:
            out.json(
                {
                    "file": str(file),
                    "kind": report.kind,
                    "campaigns": [{"name": n, "events": e, "head_hash": h} for n, e, h in report.campaigns],
                    "checked": True,
                }
            )
            return
        names = ", ".join(n for n, _, _ in report.campaigns) or "no campaign yet"
        out.console.print(
            escape(
                f"backed up {state.db} to {file} ({names}: {count(report.events, 'events')}), checked: every page, "
                f"chain, schema, die and seed. {restore_hint(report, state.db)}"
            )
        )

    @app.command("import")
    @handles_errors
    def import_(path: Path, as_json: JsonOpt = False) -> None:
        """Read a campaign exported as JSON Lines; the chain and every event's schema are checked first, and a
        file with any fault is refused whole."""
        try:
            handle = path.open("rb")
        except OSError as exc:
            raise InvalidInputError.saying("cannot read {path}: {why}", path=str(path), why=exc.strerror) from None
        out = Output(as_json)
        with handle, out.progress(None, "checking and importing") as progress:
            task = progress.add_task("checking and importing", total=None)

            def lines() -> Iterator[bytes]:
                for line in read_lines(handle):
                    progress.advance(task)
                    yield line

            try:
                reader = Reader(lines())  # its header read before the database is opened, or made
                sink = import_campaign(open_app(create=True).ledger, reader)
            except OSError as exc:
                raise InvalidInputError.saying("cannot read {path}: {why}", path=str(path), why=exc.strerror) from None
        assert sink.last is not None
        if as_json:
            out.json({"campaign_id": sink.last.campaign_id, "events": sink.count, "head_hash": sink.last.hash})
        else:
            imported = ngettext("imported {n} event; head {hash}", "imported {n} events; head {hash}", sink.count)
            out.console.print(imported.format(n=sink.count, hash=sink.last.hash))


def _amend_changes(items: list[str]) -> dict[str, object]:
    changes: dict[str, object] = {}
    for item in items:
        typed_key, sep, raw = item.partition("=")
        key = typed_key.replace("-", "_")  # as the option is typed (leader-hit) or recorded (leader_hit)
        if not sep or not key or not raw.strip():
            raise InvalidInputError.saying("--set takes INPUT=VALUE, e.g. --set men=12, not {item!r}", item=item)
        if raw[:1] in "[{":
            try:
                changes[key] = orjson.loads(raw)
            except orjson.JSONDecodeError:
                raise InvalidInputError.saying(
                    "--set {key}=…: {raw!r} is not a valid list or object", key=key, raw=raw
                ) from None
        else:
            changes[key] = parse_value(raw)
    return changes


def _amend_dice(
    dice: str | None, reason: str, changes: Mapping[str, object], actor: str
) -> tuple[list[int] | None, NewDice | None]:
    """What amend's ``--dice`` says: the amended command's own table dice corrected (with ``--reason``, or with
    nothing else to amend), or the faces (``ask``: asked at the terminal) of the dice the amendment rolls anew."""
    if dice is None:
        return None, None
    word = dice.strip().lower()
    if word == "count":
        raise InvalidInputError.saying("amend --dry-run lists every die the amendment needs: --dice takes FACES or ask")
    if word == "ask":
        if reason.strip():
            raise InvalidInputError.saying(
                "a correction of table dice names the faces the table agreed: --dice 4 --reason …"
            )
        entry = table_entry("ask")  # refused in words off a terminal
        assert isinstance(entry, AskEntry)
        return None, AskedFaces(entry.ask, actor)
    faces = parse_table_dice(dice)
    if reason.strip() or not changes:
        return faces, None
    return None, TypedFaces(faces, actor)


def _names(ledger: Ledger, campaign_id: str) -> dict[str, str]:
    """The units' names an amendment's preview says its decisions with (read only for a reader of another
    language than English: the English reads the recorded sentences, which hold them)."""
    from campaign.i18n import DEFAULT, language

    if language() == DEFAULT:
        return {}
    from campaign.read.describe import unit_names

    return unit_names(ledger.store.read(campaign_id))


def _show_amend(out: Output, report: AmendReport, seq: int, names: dict[str, str]) -> None:
    c = out.console
    done = report.result is not None
    skipped = len(report.dropped)
    # the header counts every later command the lines below list: one whose fate waits on new dice is neither
    # re-run on its dice nor skipped, and a count that left it out read as fewer commands than were listed
    waiting = sum(1 for f in report.fates if f.kind == "depends on the new dice")
    command = typed(report.command, report.args)
    parts = [
        (_("amended {command} at #{seq}") if done else _("would amend {command} at #{seq}")).format(
            command=command, seq=seq
        )
        + "; "
        + ngettext(
            "{n} later command re-run on its dice", "{n} later commands re-run on their dice", report.rerun
        ).format(n=amount(report.rerun))
    ]
    if skipped:
        parts.append(
            ngettext(
                "{n} later command skipped (no longer applies)", "{n} later commands skipped (no longer apply)", skipped
            ).format(n=amount(skipped))
        )
    if waiting:
        parts.append(
            ngettext(
                "{n} later command decided when the new dice are rolled",
                "{n} later commands decided when the new dice are rolled",
                waiting,
            ).format(n=amount(waiting))
        )
    c.print(escape(", ".join(parts)))
    for key, was, now in report.inputs:
        c.print(f"  {escape(label(key))}: {escape(_input(was))} → {escape(_input(now))}")
    for fixed in (c for c in report.corrected if tuple(c.faces) != tuple(c.faces_before)):  # the ones changed
        faces = ", ".join(map(str, fixed.faces))
        now = _("{faces} (roll #{roll})").format(faces=faces, roll=fixed.replaced_by) if fixed.faces else _("no die")
        c.print(
            "  "
            + escape(
                _("table dice of roll #{roll} ({notation}) corrected: {was} → {now}, by {by}: {reason}").format(
                    roll=fixed.roll_index,
                    notation=fixed.notation,
                    was=", ".join(map(str, fixed.faces_before)),
                    now=now,
                    by=fixed.by,
                    reason=fixed.reason,
                )
            )
        )
    if report.amended is not None:
        _show_fate(out, report.amended, report.exact, names, own=True)
    run: list[Fate] = []  # later commands that decide as before, said in one line for each run of them
    for fate in [*report.fates, None]:
        if fate is not None and fate.kind == "unchanged":
            run.append(fate)
            continue
        if run:
            commands = ", ".join(f"#{f.seq} {typed(f.command, f.args)}" for f in run)
            c.print("  " + escape(_("unchanged: {commands}").format(commands=commands)))
            run = []
        if fate is not None:
            _show_fate(out, fate, report.exact, names)
    if not report.exact:
        c.print(
            _(
                "[yellow]the new dice are not rolled yet[/]: the campaign's dice roll them when the amendment is "
                "applied (--dice FACES or --dice ask to give the table's, and see exactly what follows)"
            )
        )


def _show_fate(out: Output, fate: Fate, exact: bool, names: dict[str, str], *, own: bool = False) -> None:
    """One re-run command and what becomes of it; the amended command itself only where its rules decide
    otherwise (its inputs' change is said above)."""
    c = out.console
    said = escape(f"#{fate.seq} {typed(fate.command, fate.args)}")
    if fate.kind == "no longer applies":
        c.print(
            "  "
            + _("{command}: [yellow]no longer applies[/] ({why}): skipped, its dice back on the table").format(
                command=said, why=escape(fate.why_said())
            )
        )
        return
    if fate.kind == "depends on the new dice":
        c.print("  " + _("{command}: depends on the new dice (decided when they are rolled)").format(command=said))
        return
    differ = [(b, a) for b, a in paired(fate.before, fate.after) if b != a]
    if own and not (differ or fate.new_dice):
        return
    if fate.new_dice:
        dice = new_dice_words(fate.as_dict()["new_dice"])
        n = len(fate.new_dice)
        needs = ngettext(
            "{command}: needs new dice, {n} roll: {dice}", "{command}: needs new dice, {n} rolls: {dice}", n
        )
        c.print("  " + needs.format(command=said, n=amount(n), dice=escape(dice)))
    else:
        c.print(f"  {said}:" if own else "  " + _("{command}: changed").format(command=said))
    if fate.back_on_table:
        n = fate.back_on_table
        back = ngettext(
            "{n} roll of its own no longer asked for: back on the table",
            "{n} rolls of its own no longer asked for: back on the table",
            n,
        )
        c.print("    " + back.format(n=amount(n)))
    if fate.new_dice and not exact:
        return  # what it decides on stand-in dice is no outcome
    # each outcome's sentence in the reader's language, as the page's preview says it (campaign.timeline.reports)
    was_said, now_said = fate.said(names)
    sentence = {id(o): text for o, text in zip(fate.before, was_said, strict=True)}
    sentence |= {id(o): text for o, text in zip(fate.after, now_said, strict=True)}

    def was(o: RuleOutcome) -> str:
        return escape(sentence[id(o)])

    def now(o: RuleOutcome) -> str:
        return escape(sentence[id(o)])

    for before, after in differ:
        if before is None and after is not None:
            c.print("    " + _("now also: {decision}").format(decision=now(after)))
        elif after is None and before is not None:
            c.print("    " + _("no longer: {decision}").format(decision=was(before)))
        elif before is not None and after is not None:
            c.print("    " + _("was: {decision}").format(decision=was(before)))
            c.print("    " + _("now: {decision}").format(decision=now(after)))


def _input(v: object) -> str:
    """An input's value as a person reads it: a number with its thousands separated."""
    return amount(v) if isinstance(v, int) and not isinstance(v, bool) else value(v)
