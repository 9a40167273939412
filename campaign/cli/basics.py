"""The commands every campaign has: ``new``, ``list``, ``roll``, ``reveal``, ``log``, ``verify``, ``demo``.

Loaded only when one of them runs (see ``campaign.cli.main``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from campaign.bootstrap import bootstrap
from campaign.cli.common import show_appended, table_entry
from campaign.cli.options import CampaignOpt, CommandIdOpt, DiceOpt, JsonOpt
from campaign.cli.output import Output, escape, handles_errors, head_line, say, strong
from campaign.cli.session import open_app, resolved, state
from campaign.i18n import DEFAULT, _, language, ngettext
from campaign.read.describe import amount, explained_by, reading_campaign, unit_names
from campaign.read.views import known_type, log_filter
from campaign.rulesets import RULESETS
from campaign.rulesets.kinds import BATTLE, NEW_CAMPAIGN, UNIT
from events.errors import InvalidInputError, NotFoundError

if TYPE_CHECKING:
    from events.envelope import RecordedEvent


def register(app: typer.Typer) -> None:  # noqa: C901, PLR0915 (its commands, nested, are counted in it)
    @app.command("new")
    @handles_errors
    def new(
        name: Annotated[str, NEW_CAMPAIGN],
        ruleset: Annotated[str, typer.Option("--ruleset", "-r", help=f"One of: {', '.join(RULESETS)}.")],
        seed: Annotated[
            str | None, typer.Option("--seed", help="Dice seed in hex (for reproducible demos and tests).")
        ] = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Start a campaign under a ruleset; its dice seed is committed, not revealed."""
        from campaign.executor import check_new_campaign

        seed_bytes = None
        if seed is not None:
            try:
                seed_bytes = bytes.fromhex(seed)
            except ValueError:
                raise InvalidInputError.saying("--seed must be hexadecimal") from None
        check_new_campaign(name, ruleset, seed_bytes)  # before the database is made: a refusal leaves none behind
        result = open_app(create=True).ledger.create_campaign(name, ruleset, seed=seed_bytes, command_id=command_id)
        said = _("Campaign {name} created ({ruleset}).")
        Output(as_json).appended(result, said.format(name=strong(name), ruleset=ruleset))

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

        table = Table(title=_("Campaigns"))
        for column in (_("name"), _("ruleset"), _("events"), _("rolls"), _("head hash")):
            table.add_column(column)
        for c in campaigns:
            table.add_row(escape(c.name), c.ruleset, str(c.last_seq), str(c.next_roll_index), c.head_hash)
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
        ledger, info = resolved(campaign)
        result = ledger.roll(info, notation, purpose, table=table_entry(dice), command_id=command_id)
        show_appended(result, as_json, info, named=False)

    @app.command("reveal")
    @handles_errors
    def reveal(campaign: CampaignOpt = None, command_id: CommandIdOpt = None, as_json: JsonOpt = False) -> None:
        """Reveal the current dice seed and commit to a new one: past rolls become checkable, future ones stay
        secret."""
        ledger, info = resolved(campaign)
        result = ledger.reveal(info, command_id=command_id)
        said = _("{campaign}: seed of epoch {epoch} revealed.")
        Output(as_json).appended(result, said.format(campaign=strong(info.name), epoch=info.seed_epoch))

    @app.command("log")
    @handles_errors
    def log_(  # noqa: PLR0913 (the command's options, by keyword)
        campaign: CampaignOpt = None,
        type_: Annotated[
            str | None, typer.Option("--type", help="Only events of this type (prefix, e.g. dice.).")
        ] = None,
        unit: Annotated[str | None, UNIT, typer.Option("--unit", help="Only events about this unit.")] = None,
        battle: Annotated[str | None, BATTLE, typer.Option("--battle", help="Only events of this battle.")] = None,
        after: Annotated[int, typer.Option("--after", help="Only events after this seq.")] = 0,
        upto: Annotated[int | None, typer.Option("--upto", "--at", help="Only events up to this seq.")] = None,
        limit: Annotated[int | None, typer.Option("--limit", help="At most this many events.")] = None,
        last: Annotated[int | None, typer.Option("--last", help="Only the last N events (of those chosen).")] = None,
        show_all: Annotated[bool, typer.Option("--all", help="Retracted events too, marked.")] = False,
        as_json: JsonOpt = False,
    ) -> None:
        """The campaign's log, each event with a readable explanation (retracted ones with --all)."""
        from campaign.read.log import dice_before, log_page, ref_index

        ledger, info = resolved(campaign)
        if (last is not None and last < 0) or (limit is not None and limit < 0):
            raise InvalidInputError.saying("--last and --limit take a number of events: 0 or more")
        if (unit is None and battle is None) or ref_index(ledger.store) is not None:
            # served by the store's indexes (by type, by unit and battle), page by page, never by decoding the whole log
            page = log_page(
                ledger.store, info.campaign_id, after=after, upto=upto, type_prefix=type_, unit=unit,
                battle=battle, last=last, limit=limit, show_all=show_all,
            )  # fmt: skip
            entries, names = page.entries, page.names
        else:
            every = list(ledger.store.read(info.campaign_id, upto_seq=upto))
            entries = [
                (e, gone)
                for e, gone in log_filter(every, show_all=show_all, unit=unit, battle=battle)
                if e.seq > after and (not type_ or e.type.startswith(type_))
            ]
            if last is not None:
                entries = entries[max(0, len(entries) - last) :]
            if limit is not None:
                entries = entries[:limit]
            names = unit_names(every)
        if not entries:
            known_type(type_)
            _known(names, info.name, upto, ("--unit", unit), ("--battle", battle))
        from campaign.branch_dice import origins

        origin = origins(ledger.store, info, [e for e, _ in entries])  # a branch's rolls: whence
        out = Output(as_json)
        if as_json:
            out.json(
                {
                    "campaign": info.name,
                    "head_hash": info.head_hash,
                    "events": [
                        {**e.as_dict(), "retracted": gone, **({"origin": origin[e.seq]} if e.seq in origin else {})}
                        for e, gone in entries
                    ],
                }
            )
            return
        # Each fact once: an outcome its rule's line, shown here too, already says is left out.
        said = explained_by([e for e, _ in entries])
        # a rule's sentence in another language says its dice: those rolled before the page are read too
        before = [] if language() == DEFAULT else dice_before(ledger.store, info.campaign_id, [e for e, _ in entries])
        with reading_campaign(info.ruleset):
            out.events_table(
                [e for e, _ in entries if e.seq not in said],
                escape(f"{info.name} ({info.ruleset})"),
                names,
                retracted={e.seq for e, gone in entries if gone},
                notes={seq: o["words"] for seq, o in origin.items()},
                dice=before,
            )
        if said:
            left_out = ngettext(
                "{n} event not shown, already said by a rule's line above (`--json` lists it)",
                "{n} events not shown, each already said by a rule's line above (`--json` lists them all)",
                len(said),
            )
            out.console.print(f"[dim]{escape(left_out.format(n=amount(len(said))))}[/]")
        # (with --limit, what is past the last entry shown may be in effect: counted up to it only)
        top = info.last_seq if limit is None or not entries else entries[-1][0].seq
        hidden = _not_in_effect(entries, top, upto, unfiltered=not (show_all or type_ or unit or battle))
        if hidden:
            gone = ngettext(
                "{n} entry from the first shown to the head not shown: undone or rewound, or an undo itself "
                "(`--all` shows it)",
                "{n} entries from the first shown to the head not shown: undone or rewound, or undos themselves "
                "(`--all` shows them)",
                hidden,
            )
            out.console.print(f"[dim]{escape(gone.format(n=amount(hidden)))}[/]")
        say(head_line(info.last_seq, info.head_hash))

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
        from campaign.cli.demo import build_demo, demo_ids, write_charts

        if "://" not in state.db and state.db != ":memory:":
            existing = [Path(state.db + s) for s in ("", "-wal", "-shm") if Path(state.db + s).exists()]
            if existing and not replace:
                raise InvalidInputError.saying(
                    "{db} already exists and may hold a real campaign: the demo writes to a new file. "
                    "Name one with `campaign --db demo.db demo`, or add --replace to overwrite {db}",
                    db=state.db,
                )
            for path in existing:
                os.remove(path)
        out = Output(as_json)
        state.app = bootstrap(state.db, actor=state.actor, new_id=demo_ids())
        summary = build_demo(state.app, out)
        summary["charts"] = write_charts(state.app, state.db, out, replace)
        if as_json:
            out.json(summary)


def _known(names: dict[str, str], campaign: str, upto: int | None, *given: tuple[str, str | None]) -> None:
    """An empty log for ``--unit``/``--battle`` is said in words when no unit or battle goes by that name (or
    id): a typo is not "nothing happened to it"."""
    from campaign.rulesets.common import did_you_mean, same_name

    for flag, name in given:
        if name is None or name in names or any(same_name(v, name) for v in names.values()):
            continue
        hint = did_you_mean(name, sorted(set(names.values())))
        if upto is not None:
            raise NotFoundError.saying(
                "{flag}: no unit or battle named {name!r} in {campaign} up to seq {upto}{hint}",
                flag=flag,
                name=name.strip(),
                campaign=campaign,
                upto=upto,
                hint=hint,
            )
        raise NotFoundError.saying(
            "{flag}: no unit or battle named {name!r} in {campaign}{hint}",
            flag=flag,
            name=name.strip(),
            campaign=campaign,
            hint=hint,
        )


def _not_in_effect(entries: list[tuple[RecordedEvent, bool]], head: int, upto: int | None, *, unfiltered: bool) -> int:
    """How many entries between the first one shown and the head (or ``--upto``) the log leaves out as no longer
    in effect (retracted, and the undos and rewinds themselves): every seq there is an entry, and only those are
    left out of a log with no filter, so the count is what the seqs span less what is shown. None with a filter
    (it leaves out others too) or with ``--all`` (it leaves out nothing)."""
    if not unfiltered or not entries:
        return 0
    top = head if upto is None else min(upto, head)
    return max(0, top - entries[0][0].seq + 1 - len(entries))
