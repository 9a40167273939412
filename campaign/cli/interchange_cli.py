"""The command line of what comes from other programs' files: a ruleset's ``import-list`` (an army list, read by
its plug-in's ``army_list``), rosters as CSV. Thin: the file is read by the ruleset's reader or
``campaign.interchange``, the command run by the executor like any typed command."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from campaign.cli.options import CampaignOpt, CommandIdOpt, JsonOpt
from campaign.cli.output import Output, escape, handles_errors, head_line, say
from campaign.cli.session import resolved
from events.errors import InvalidInputError, Words

if TYPE_CHECKING:
    from campaign.cli.generated import Extra, Typing
    from campaign.rulesets.command import Overridden, Ruleset
    from campaign.rulesets.common import Profiled
    from campaign.rulesets.state import Named
    from campaign.rulesets.tables import RuleTables
    from projections.state.campaigns import CampaignInfo

S = TypeVar("S", bound="Overridden")
T = TypeVar("T", bound="RuleTables")

ListFile = Annotated[
    Path, typer.Argument(help="The Army Forge list: its JSON as exported for TTS or served by /api/tts.")
]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Show what the import would do; append nothing.")]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Go ahead when the import changes units already listed.")]


def read_file(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InvalidInputError.saying("cannot read {path}: {why}", path=str(path), why=exc.strerror) from None


def import_list_of(ruleset: str, help_text: str) -> Callable[..., None]:
    """``import-list`` of the ruleset's command group (``help_text`` its help): a list file read by its plug-in's
    ``army_list``, previewed, then run by the executor like any typed command."""

    @handles_errors
    def import_list(
        list_file: ListFile,
        side: Annotated[str, typer.Option("--side", help="The army it is: its units fight for this side.")],
        dry_run: DryRunOpt = False,
        yes: YesOpt = False,
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        from campaign.commands import plugin
        from campaign.interchange.army_lists import lists_of, preview

        owner = plugin(ruleset)
        lists = lists_of(owner)
        ledger, info = resolved(campaign)
        read = lists.read(read_file(list_file), side, what=str(list_file))
        plan = preview(ledger, info, owner, read.command)
        out = Output(as_json)
        if not plan.events:
            raise InvalidInputError.saying(
                "{list}: every unit is on the army sheet of {side} as the list has it: nothing to change",
                list=plan.list_name,
                side=plan.side,
            )
        if dry_run or (plan.changes_units and not yes):
            if as_json:
                out.json({"dry_run": True, **lists.as_json(plan, read.notes)})
            else:
                for line in lists.in_words(plan, read.notes):
                    out.console.print(escape(line))
            if dry_run:
                return
            if as_json or not sys.stdin.isatty() or not typer.confirm(f"update these {len(plan.updated)} units?"):
                raise InvalidInputError.counting(
                    "this import changes {n} unit already on the roster (listed above): nothing was changed; run "
                    "it with --yes to go ahead, or --dry-run to look first",
                    "this import changes {n} units already on the roster (listed above): nothing was changed; run "
                    "it with --yes to go ahead, or --dry-run to look first",
                    n=len(plan.updated),
                )
        result = ledger.execute(info, read.command, command_id=command_id)
        said = lists.in_words(plan, read.notes)
        if as_json:
            out.json(
                {
                    **lists.as_json(plan, read.notes),
                    "events": [e.as_dict() for e in result.events],
                    "head": {"seq": result.head.seq, "hash": result.head.hash},
                }
            )
            return
        out.console.print(f"[bold]{escape(info.name)}[/]: " + escape(said[0]))
        for line in said[1:]:
            out.console.print(escape(line))
        say(head_line(result.head.seq, result.head.hash))

    import_list.__doc__ = help_text  # as a docstring: its --help laid out as every command's
    return import_list


def print_roster_csv(
    plugin: Ruleset[S, T], rows: Sequence[Mapping[str, object]], units: Sequence[Profiled], roster: Mapping[str, Named]
) -> None:
    """A roster view's rows (its ``--json`` rows) as CSV on standard output, each with its unit's muster inputs."""
    from campaign.interchange.rosters import roster_columns, roster_csv_of

    names = {unit_id: u.name for unit_id, u in roster.items()}
    typer.echo(roster_csv_of(plugin, roster_columns(plugin.info.name), rows, units, names), nl=False)


def muster_from_file(plugin: Ruleset[S, T]) -> Extra:
    """``--from FILE.csv`` on a ruleset's generated ``muster``: every row of the file mustered instead of the unit
    typed (whose required inputs may then be left out)."""
    from campaign.cli.generated import Extra

    def run(typing: Typing) -> None:
        source = typing.extra["from_"]
        if source is None:
            if typing.missing:
                missing: str | Words = typing.missing[0]
                for more in typing.missing[1:-1]:
                    missing = Words("{head}, {next}", head=missing, next=more)
                if len(typing.missing) > 1:
                    missing = Words("{some} and {last}", some=missing, last=typing.missing[-1])
                if len(typing.missing) == 1:
                    raise InvalidInputError.saying(
                        "{inputs} is needed (or --from FILE.csv, a unit a row)", inputs=missing
                    )
                raise InvalidInputError.saying("{inputs} are needed (or --from FILE.csv, a unit a row)", inputs=missing)
            typing.run()
            return
        if typing.given:
            raise InvalidInputError.saying(
                "--from reads every unit from {source}: leave out {inputs}",
                source=str(source),
                inputs=", ".join(typing.given),
            )
        shared = typing.shared
        muster_from(plugin, source, shared["campaign"], shared["command_id"], shared["as_json"])

    return Extra((FROM,), run, unless="Required, unless --from.")


FROM = inspect.Parameter(
    "from_",
    inspect.Parameter.KEYWORD_ONLY,
    annotation=Annotated[
        Path | None,
        typer.Option("--from", help="A CSV file, a unit a row (the muster inputs as columns): muster them all."),
    ],
    default=None,
)


def muster_from(
    plugin: Ruleset[S, T], source: Path, campaign: str | None, command_id: str | None, as_json: bool
) -> None:
    """``muster --from FILE.csv``: every row of the file mustered, in one append (all or none)."""
    from campaign.cli.common import show_appended
    from campaign.interchange.rosters import read_muster_file

    ledger, info = resolved(campaign)
    what = str(source)
    commands, read = read_muster_file(plugin, read_file(source), what)
    numbers = [number for number, _ in read.rows]
    result = ledger.execute_all(info, commands, command_id=command_id, called=lambda i: f"{what}, row {numbers[i]}")
    show_appended(result, as_json, info)
    if not as_json:
        out = Output(as_json)
        for line in read.left_out_in_words():
            out.console.print(escape(line))


def _cell(column: str, row: Mapping[str, object]) -> object:
    return row.get(column)


def print_status_csv(
    info: CampaignInfo, units: Sequence[Mapping[str, object]], columns: Sequence[str], at: int | None
) -> None:
    """``status --format csv``: the units table's columns, then each unit's muster inputs the table lacks."""
    from campaign.cli.session import open_app
    from campaign.commands import plugin
    from campaign.interchange.rosters import roster_csv_of
    from campaign.rulesets.hooks import CsvColumn

    state = open_app().ledger.states.get(info, at)
    names = {unit_id: u.name for unit_id, u in state.roster.items()}
    shown = [CsvColumn(c, partial(_cell, c)) for c in columns]
    roster = [state.roster[u["unit_id"]] for u in units]
    typer.echo(roster_csv_of(plugin(info.ruleset), shown, units, roster, names), nl=False)
