"""``verify`` and ``checkpoint``: what can be checked inside the database, and an anchor kept outside it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, TypedDict

import orjson
import typer

from campaign.bootstrap import projectors
from campaign.cli import signing
from campaign.cli.options import CampaignOpt, JsonOpt
from campaign.cli.output import Output, escape, handles_errors
from campaign.cli.session import open_app, resolved, state
from campaign.executor import Ledger
from campaign.i18n import _, lazy, ngettext
from campaign.i18n.formats import number
from campaign.read import verify as verify_views
from campaign.timeline import Change
from campaign.typed_as import typed
from events.canonical import canonical_json
from events.errors import InvalidInputError, VerificationError
from events.registry import registry
from events.verify import Finding, VerifyReport, verify_events
from projections.consistency import compare
from projections.state.campaigns import CampaignInfo

CHECKPOINT_FORMAT = "campaign-ledger/checkpoint"
CHECKPOINT_LIMIT = 64 * 1024
THROWAWAY = "throwaway roll"
OK, FAILED, NOTE, FLAGGED, SIGNED = lazy("ok"), lazy("FAILED"), lazy("note"), lazy("flagged"), lazy("signed")
"""The marks before a line of `verify` (translated when shown)."""
FLAGS_SHOWN = 5
"""Throwaway rolls printed one a line up to this many; more are summed up in words (a long campaign has
thousands), each listed by ``--all-flags`` and ``--json``."""


def _checkpoint_bytes(path: Path) -> bytes:
    """A checkpoint file's bytes, read no further than a checkpoint can be long."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(CHECKPOINT_LIMIT + 1)
    except OSError as exc:
        raise InvalidInputError.saying(
            "cannot read the checkpoint {path}: {why}", path=str(path), why=exc.strerror
        ) from None
    if len(raw) > CHECKPOINT_LIMIT:
        raise InvalidInputError.saying("{path} is not a checkpoint: a checkpoint is one short line", path=str(path))
    return raw


class Checkpoint(TypedDict):
    """What ``verify --checkpoint`` reads of a checkpoint: the campaign, and the head it vouches for."""

    campaign_id: str
    seq: int
    head_hash: str


def read_checkpoint(path: Path) -> Checkpoint:
    """A checkpoint file written by ``campaign checkpoint``, checked for shape (never trusted further)."""
    raw = _checkpoint_bytes(path)
    try:
        item = orjson.loads(raw.splitlines()[0] if raw.strip() else b"")
    except (orjson.JSONDecodeError, IndexError):
        raise InvalidInputError.saying(
            "{path} is not a checkpoint: its first line is not JSON", path=str(path)
        ) from None
    ok = (
        isinstance(item, dict)
        and item.get("format") == CHECKPOINT_FORMAT
        and isinstance(item.get("campaign_id"), str)
        and type(item.get("seq")) is int
        and item["seq"] >= 1
        and isinstance(item.get("head_hash"), str)
        and len(item["head_hash"]) == 64
    )
    if not ok:
        raise InvalidInputError.saying(
            "{path} is not a Campaign Ledger checkpoint (format {format}, campaign_id, seq, head_hash)",
            path=str(path),
            format=CHECKPOINT_FORMAT,
        )
    assert isinstance(item, dict)
    return {"campaign_id": item["campaign_id"], "seq": item["seq"], "head_hash": item["head_hash"]}


def signed_checkpoint(checkpoint: Path | None, signer: Path | None) -> str | None:
    """With ``--signer``: the checkpoint's signature checked (``FILE.sig``, that key's, over the file as it is
    now) before the checkpoint is read at all; the signer's fingerprint. Refused in words otherwise."""
    if signer is None:
        return None
    if checkpoint is None:
        raise InvalidInputError.saying(
            "--signer checks a signed checkpoint: give the checkpoint too, --checkpoint FILE"
        )
    data = _checkpoint_bytes(checkpoint)
    return signing.check(data, signing.signature_path(checkpoint), signer, str(checkpoint))


def verify_one(
    ledger: Ledger,
    info: CampaignInfo,
    out: Output,
    *,
    rules: bool,
    projections: bool,
    checkpoint: tuple[int, str] | None,
    expect_head: str | None,
    editions: list[Change],
) -> VerifyReport:
    """Every check of one campaign; ``editions`` receives the differences expected because the rules changed
    since they were recorded (notes, not failures)."""
    with out.progress(info.last_seq, _("verifying {name}").format(name=info.name)) as progress:
        task = progress.add_task(_("verifying {name}").format(name=escape(info.name)), total=info.last_seq)
        report = verify_events(
            info.campaign_id,
            ledger.store.read(info.campaign_id),
            registry,
            on_event=lambda _e: progress.advance(task),
            checkpoint=checkpoint,
            expect_head=expect_head,
        )
    verify_views.check_held(ledger, info.campaign_id, report)
    if projections and report.ok:
        for difference in compare(open_app().engine, info.campaign_id, ledger.store.read(info.campaign_id), projectors):
            report.findings.append(Finding(info.last_seq, "projection", "projection", str(difference)))
    if rules:
        editions.extend(verify_views.rule_drift(ledger, info, report))
    return report


def _print(
    out: Output, info: CampaignInfo, report: VerifyReport, every_flag: bool = False, rules: bool = True, older: int = 0
) -> None:
    name = escape(info.name)
    if report.ok:
        checked = _(
            "{events}, chain intact to {head}; {rolls} re-derived, {pending} awaiting a seed reveal, {table}"
        ).format(
            events=ngettext("{n} event", "{n} events", report.events).format(n=number(report.events)),
            head=report.head_hash,
            rolls=ngettext("{n} roll", "{n} rolls", report.rolls_rederived).format(n=number(report.rolls_rederived)),
            pending=number(report.rolls_pending),
            table=ngettext("{n} table roll in range", "{n} table rolls in range", report.table_rolls).format(
                n=number(report.table_rolls)
            ),
        )
        ruled = (
            _("rules not re-run (--no-rules)")
            if not rules
            else _("every rule re-run on its dice, same outcomes")
            if not older
            else ngettext(
                "every rule re-run on its dice, same outcomes but for {n} command recorded under an older version "
                "of the rules (below)",
                "every rule re-run on its dice, same outcomes but for {n} commands recorded under an older version "
                "of the rules (below)",
                older,
            ).format(n=number(older))
        )
        out.console.print(f"[green]{OK}[/] {name}: {checked}; {ruled}")
    else:
        out.console.print(
            f"[red]{FAILED}[/] {name}: " + _("first bad event {finding}").format(finding=escape(said(report.first)))
        )
        for finding in sorted(report.findings, key=lambda f: f.seq)[1:]:
            out.console.print("  " + _("also: {finding}").format(finding=escape(said(finding))))
    if report.held_unrevealed:
        epochs = ", ".join(str(e) for e in report.held_unrevealed)
        out.console.print(
            f"[yellow]{NOTE}[/]: "
            + _(
                "this database holds the secret seed of epoch {epochs}: whoever holds the file can compute the "
                "coming rolls. Steering shows as throwaway rolls and chosen seeds, flagged here."
            ).format(epochs=epochs)
        )
    throwaway = [f for f in report.flags if f.check == THROWAWAY]
    summed = not every_flag and len(throwaway) > FLAGS_SHOWN
    for flag in report.flags:
        if not (summed and flag.check == THROWAWAY):
            out.console.print(f"[yellow]{FLAGGED}[/] {escape(flag_words(flag))}")
    if summed:
        out.console.print(throwaway_summary(throwaway))


def flag_words(flag: Finding) -> str:
    """A flag as a person reads it: "#3 (dice · rolled): throwaway roll: roll 0 …" (it said "seq 3 (dice.rolled):
    …": the event type as recorded). The check's own words are the log's checker's, in English."""
    return verify_views.finding_said(flag, seq_word=False)


def said(finding: Finding | None) -> str:
    """A finding in the reader's language (``--json`` keeps the checker's English)."""
    return verify_views.finding_said(finding) if finding is not None else ""


def throwaway_summary(throwaway: list[Finding]) -> str:
    """Many throwaway rolls in one paragraph: how many, the first few, and how to see them all."""
    first = ", ".join(str(f.seq) for f in throwaway[:FLAGS_SHOWN])
    return f"[yellow]{FLAGGED}[/] " + ngettext(
        "{n} throwaway roll, consumed by no rule (whoever holds an unrevealed seed can burn such rolls to steer the "
        "next one): the rolls at seq {first} and {more} more. `campaign verify --all-flags` lists each one; "
        "`--json` lists them all.",
        "{n} throwaway rolls, consumed by no rule (whoever holds an unrevealed seed can burn such rolls to steer the "
        "next one): the rolls at seq {first} and {more} more. `campaign verify --all-flags` lists each one; "
        "`--json` lists them all.",
        len(throwaway),
    ).format(n=number(len(throwaway)), first=first, more=number(len(throwaway) - FLAGS_SHOWN))


def _file_is_sound(as_json: bool) -> bool:
    """A SQLite file's own integrity, every page read (``PRAGMA quick_check``): True when it is sound, False when
    there is no file to check (PostgreSQL; a file not there yet is refused by the open that follows); a damaged
    file fails verification here, its damage said in words (exit 3)."""
    from events.backup import damage_in_words, integrity_problems, is_sqlite_file

    if "://" in state.db or state.db == ":memory:":
        return False
    path = Path(state.db).expanduser()
    try:
        if not path.is_file() or not path.stat().st_size:
            return False
    except OSError:
        return False
    problems = integrity_problems(path) if is_sqlite_file(path) else []
    if not problems:
        return is_sqlite_file(path)
    said = damage_in_words(state.db, problems)
    if as_json:
        Output(True).json([{"file": {"database": state.db, "ok": False, "damage": problems}, "ok": False}])
        raise typer.Exit(VerificationError.exit_code)
    raise VerificationError(said)


def register(app: typer.Typer) -> None:  # noqa: C901, PLR0915 (its commands, nested, are counted in it)
    @app.command("verify")
    @handles_errors
    def verify(  # noqa: PLR0913 (the command's options, by keyword)
        campaign: CampaignOpt = None,
        every: Annotated[bool, typer.Option("--all", help="Verify every campaign in the database.")] = False,
        rules: Annotated[bool, typer.Option("--rules/--no-rules", help="Re-evaluate every rule on its dice.")] = True,
        projections: Annotated[
            bool, typer.Option("--projections", help="Compare the projection tables with a fresh fold of the log.")
        ] = False,
        expect_head: Annotated[
            str | None, typer.Option("--expect-head", help="The head hash the log must end at (kept elsewhere).")
        ] = None,
        checkpoint_file: Annotated[
            Path | None,
            typer.Option("--checkpoint", help="A checkpoint file (`campaign checkpoint`): the log must still hold it."),
        ] = None,
        signer: Annotated[
            Path | None,
            typer.Option("--signer", help="The signer's OpenSSH public key: the checkpoint's FILE.sig must be theirs."),
        ] = None,
        all_flags: Annotated[
            bool, typer.Option("--all-flags", help="Print every throwaway roll, one a line (--json lists them all).")
        ] = False,
        as_json: JsonOpt = False,
    ) -> None:
        """Check the hash chain, every event's schema and every die (roll indexes without gaps, the stored seed
        against its commitment), and re-evaluate every rule on its recorded inputs and dice (a difference is
        drift: reported, never written back); name the first failure. Flag chosen seeds, rolls no rule
        consumed, rerolls and corrected table dice. A recomputed chain is only caught against an anchor:
        --expect-head or --checkpoint (with --signer, its signature FILE.sig is checked first: it must be that
        key's, over the file as it is)."""
        sound = _file_is_sound(as_json)  # before the database is opened: a damaged file is named as such
        ledger = open_app().ledger
        anchor: tuple[int, str] | None = None
        signed_by = signed_checkpoint(checkpoint_file, signer)
        if checkpoint_file is not None:
            item = read_checkpoint(checkpoint_file)
            anchor = (item["seq"], item["head_hash"])
            if campaign is None:
                campaign = item["campaign_id"]
        if (anchor is not None or expect_head is not None) and every:
            raise InvalidInputError.saying("an anchor (--expect-head, --checkpoint) belongs to one campaign, not --all")
        targets = ledger.directory.all() if every else [ledger.resolve(campaign)]
        if checkpoint_file is not None and targets[0].campaign_id != item["campaign_id"]:
            raise InvalidInputError.saying(
                "{file} is the checkpoint of another campaign ({campaign_id})",
                file=str(checkpoint_file),
                campaign_id=item["campaign_id"],
            )
        out = Output(as_json)
        editions: dict[str, list[Change]] = {}
        reports = [
            (
                info,
                verify_one(
                    ledger,
                    info,
                    out,
                    rules=rules,
                    projections=projections,
                    checkpoint=anchor,
                    expect_head=expect_head,
                    editions=editions.setdefault(info.campaign_id, []),
                ),
            )
            for info in targets
        ]
        if as_json:
            out.json(
                [
                    {
                        "campaign": info.name,
                        **report.as_dict(),
                        **({"checkpoint_signed_by": signed_by} if signed_by else {}),
                        **({"file": {"database": state.db, "ok": True}} if sound else {}),
                        "rules_changed_since": [
                            {"seq": c.seq, "command": c.command, "recorded_under": c.recorded_under}
                            for c in editions.get(info.campaign_id, [])
                        ],
                    }
                    for info, report in reports
                ]
            )
        else:
            if sound:
                out.console.print(
                    f"[green]{OK}[/] "
                    + _("the file {path}: every page sound (SQLite's own check of its pages)").format(
                        path=escape(state.db)
                    )
                )
            if signed_by is not None:
                shown = _("{checkpoint} is signed by {signer} ({fingerprint})").format(
                    checkpoint=checkpoint_file, signer=signer, fingerprint=signed_by
                )
                out.console.print(f"[green]{SIGNED}[/]: {escape(shown)}")
            for info, report in reports:
                older = editions.get(info.campaign_id, [])
                _print(out, info, report, all_flags, rules, len(older))
                for change in older:
                    out.console.print(
                        "  "
                        + _(
                            "note: #{seq} {command} was recorded under ruleset version {version}; today's rules "
                            "(RULES.md, third edition) decide it differently — expected after a rules change, not a "
                            "sign the log was altered"
                        ).format(seq=change.seq, command=escape(typed(change.command)), version=change.recorded_under)
                    )
        failed = [r for _, r in reports if not r.ok]
        if failed:
            first = failed[0].first
            raise (
                VerificationError(_("verification failed at {finding}").format(finding=said(first)))
                if not as_json
                else typer.Exit(VerificationError.exit_code)
            )

    @app.command("checkpoint")
    @handles_errors
    def checkpoint(
        output: Annotated[
            Path | None, typer.Option("--output", "-o", help="Write it to this file (default: standard output).")
        ] = None,
        sign: Annotated[
            Path | None,
            typer.Option("--sign", help="Sign it with this OpenSSH private key (ssh-keygen -Y sign): FILE.sig."),
        ] = None,
        campaign: CampaignOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Write the campaign's head (id, seq, hash) as one canonical JSON line, to publish outside the database;
        --sign KEY signs it too (`ssh-keygen -Y sign -n campaign-ledger`, written beside it as FILE.sig).
        `verify --checkpoint FILE [--signer KEY.pub]` later shows whether the log still holds that event with that
        hash (truncation and rewritten history are caught) and whether the file is still what that key signed."""
        if sign is not None and output is None:
            raise InvalidInputError.saying(
                "--sign needs --output FILE: the signature is written beside it, as FILE.sig"
            )
        ledger, info = resolved(campaign)
        report = verify_events(info.campaign_id, ledger.store.read(info.campaign_id), registry)
        if not report.ok:
            raise VerificationError.saying(
                "the log fails verification ({first}): no checkpoint of a broken log", first=report.first
            )
        line = canonical_json(
            {
                "format": CHECKPOINT_FORMAT,
                "version": 1,
                "campaign_id": info.campaign_id,
                "name": info.name,
                "seq": report.last_seq,
                "head_hash": report.head_hash,
                "recorded_at": ledger.now(),
            }
        )
        if output is None:
            typer.echo(line.decode())
            return
        signature = signing.sign(line + b"\n", sign) if sign is not None else None  # before writing anything
        written = [(output, line + b"\n")] + ([(signing.signature_path(output), signature)] if signature else [])
        for path, data in written:
            try:
                path.write_bytes(data)
            except OSError as exc:
                raise InvalidInputError.saying("cannot write {path}: {why}", path=str(path), why=exc.strerror) from None
        out = Output(as_json)
        signer = signing.signer_of(signature) if signature else None
        if as_json:
            signed = {"signature": str(written[-1][0]), "signed_by": signer} if signature else {}
            out.json({"file": str(output), "seq": report.last_seq, "head_hash": report.head_hash, **signed})
        else:
            where = escape(str(output))
            said = _("checkpoint of {campaign} at #{seq} written to {file}")
            out.console.print(said.format(campaign=escape(info.name), seq=report.last_seq, file=where))
            if signature:
                said = _("signed by {signer} in {file}")
                out.console.print(said.format(signer=escape(str(signer)), file=escape(str(written[-1][0]))))
