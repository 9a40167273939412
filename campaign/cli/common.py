"""What every ``campaign`` command shares: the database it opened and the common options."""

from __future__ import annotations

import copy
import functools
import inspect
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from campaign.cli.options import CampaignOpt, CommandIdOpt, DiceOpt, JsonOpt
from campaign.cli.output import Output, handles_errors, print_tables
from campaign.cli.plain import escape
from campaign.cli.session import open_app, resolved
from campaign.executor import AskEntry, TableEntry
from campaign.rulesets.command import Command, Ruleset
from campaign.rulesets.tables import parse_value
from campaign.typed_as import typed
from events.dice import parse_table_dice
from events.errors import InvalidInputError
from events.store import AppendResult
from projections.campaign_state import entity_names
from projections.state.campaigns import CampaignInfo

if TYPE_CHECKING:  # --dice ask and --dice count only
    from events.dice.ask import DieRequest, Needed

C = TypeVar("C", bound=Command[Any, Any])
S = TypeVar("S")
T = TypeVar("T")


def in_force(campaign: str | None, plugin: Ruleset[S, T], at_seq: int | None = None) -> tuple[CampaignInfo, S, T]:
    """The campaign named (or the only one) as ``plugin``'s ruleset folds it now (or at ``at_seq``), and its
    tables in force: what a ruleset's views show."""
    ledger, info = resolved(campaign)
    state, tables = ledger.in_force(info, plugin, at_seq)
    return info, state, tables


def table_entry(dice: str | None) -> TableEntry | AskEntry | None:
    """What ``--dice`` says: faces typed in, ``ask`` (one prompt per die, on a terminal only), or nothing."""
    if dice is None:
        return None
    word = dice.strip().lower()
    if word == "ask":
        if not sys.stdin.isatty():
            raise InvalidInputError(
                "--dice ask asks for each die on a terminal, and this input is not one: "
                "give the faces instead (--dice 4,2), or leave --dice out to roll the campaign's dice"
            )
        return AskEntry(ask_die)
    if word == "count":
        raise InvalidInputError("--dice count is for the rules' commands: a roll needs the dice its notation says")
    return TableEntry(tuple(parse_table_dice(dice)))


def ask_die(request: DieRequest) -> int:
    """Prompt on the terminal for one die until a face of it is typed; Ctrl-D or Ctrl-C records nothing."""
    while True:
        try:
            typed = str(typer.prompt(request.question(), prompt_suffix=" ", err=True)).strip()
        except typer.Abort:
            raise InvalidInputError("stopped before every die was entered: nothing was recorded") from None
        if typed.isdigit() and 1 <= int(typed) <= request.sides:
            return int(typed)
        typer.echo(f"{typed!r} is not a face of a d{request.sides}: type a number from 1 to {request.sides}", err=True)


def make(model: type[C], **fields: Any) -> C:
    """A command built from what was typed; a value out of bounds refused in the program's words."""
    # Names are trimmed as typed, so " Alpha" and "Alpha" are one unit (and one recorded input).
    return model.build(**{k: v.strip() if isinstance(v, str) else v for k, v in fields.items()})


def execute(
    campaign: str | None,
    command: Command[Any, Any],
    *,
    dice: str | None = None,
    command_id: str | None = None,
    as_json: bool = False,
) -> None:
    """Run one command on the campaign named (or the only one) and show what it appended."""
    ledger, info = resolved(campaign)
    if dice is not None and dice.strip().lower() == "count":
        show_dice_needed(info, command, as_json)
        return
    before = standing_at(info.campaign_id, info.last_seq) if not as_json else None
    result = ledger.execute(info, command, table=table_entry(dice), command_id=command_id)
    show_appended(result, as_json, info)
    if before is not None and not result.duplicate:
        say_standing(before, info.campaign_id, result.head.seq)


def standing_at(campaign_id: str, seq: int) -> Any:
    """The campaign's summary at its head ``seq``, from the read models the append keeps (no fold): what a unit's
    standing is compared on before and after a command."""
    from projections.summaries import stored_summary

    return stored_summary(open_app().engine, campaign_id, seq)


def say_standing(before: Any, campaign_id: str, seq: int) -> None:
    """Every change of a unit's standing (promoted, demoted, tired, exhausted, a trait, its Morale…) a command
    made, in words, as it is made: nobody has to find it in `status`."""
    from campaign.describe import standing_changes

    for line in standing_changes(before, standing_at(campaign_id, seq)):
        Output(False).console.print(f"[bold]standing[/] {escape(line)}")


RecordedCommand = Command[Any, Any]
"""Any ruleset's command, as a recorded command's function returns it."""
Build = Callable[..., RecordedCommand]
"""A recorded command's own function: what was typed (its own arguments and options) made into a Command."""


def _shared(name: str, annotation: Any, default: Any) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


SHARED = (
    _shared("campaign", CampaignOpt, None),
    _shared("command_id", CommandIdOpt, None),
    _shared("as_json", JsonOpt, False),
)
"""The options every recorded command takes after its own, in the order ``--help`` lists them."""
ROLLS = (_shared("dice", DiceOpt, None), *SHARED)
"""The same for a command that rolls dice: ``--dice`` first."""


def recorded(
    app: typer.Typer,
    name: str,
    *,
    rolls: bool = False,
    from_file: Ruleset[Any, Any] | None = None,
    **settings: Any,
) -> Callable[[Build], Build]:
    """Register ``build`` as the command ``name`` of ``app``: the options every recorded command shares
    (``--dice`` when it ``rolls``, then ``--campaign``, ``--command-id``, ``--json``) follow its own in its
    ``--help``, and the Command it makes of what was typed is run and what it appended shown. With
    ``from_file`` (a ruleset's muster), ``--from FILE.csv`` instead runs the command for every row of a file."""

    def register(build: Build) -> Build:
        app.command(name, **settings)(recording(build, rolls=rolls, from_file=from_file))
        return build

    return register


FROM = _shared(
    "from_",
    Annotated[
        Path | None,
        typer.Option("--from", help="A CSV file, a unit a row (the muster inputs as columns): muster them all."),
    ],
    None,
)


def recording(build: Build, *, rolls: bool = False, from_file: Ruleset[Any, Any] | None = None) -> Callable[..., None]:
    """``build`` as a command line command: its signature with the shared options added, run by :func:`execute`.
    With ``from_file``, its required inputs may be left out for ``--from`` (run by
    :func:`campaign.cli.interchange_cli.muster_from`)."""
    shared = ROLLS if rolls else SHARED
    own = inspect.signature(build, eval_str=True)
    own_parameters = list(own.parameters.values())
    required = [p for p in own_parameters if p.default is inspect.Parameter.empty]
    if from_file is not None:
        own_parameters = [_unless_from(p) if p in required else p for p in own_parameters]
        shared = (FROM, *shared)

    @functools.wraps(build)
    def run(**typed: Any) -> None:
        given = {p.name: typed.pop(p.name) for p in shared}
        if from_file is not None:
            source = given.pop("from_")
            if source is not None:
                from campaign.cli.interchange_cli import muster_from

                typed_too = [_said(p) for p in own_parameters if typed.get(p.name) not in (None, p.default, [])]
                if typed_too:
                    raise InvalidInputError(f"--from reads every unit from {source}: leave out {', '.join(typed_too)}")
                muster_from(from_file, source, given["campaign"], given["command_id"], given["as_json"])
                return
            missing = [_said(p) for p in required if typed.get(p.name) is None]
            if missing:
                raise InvalidInputError(
                    f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} needed "
                    "(or --from FILE.csv, a unit a row)"
                )
        command = build(**typed)
        execute(
            given["campaign"], command, dice=given.get("dice"), command_id=given["command_id"], as_json=given["as_json"]
        )

    parameters = [*own_parameters, *shared]
    run.__signature__ = own.replace(parameters=parameters, return_annotation=None)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": None}
    return handles_errors(run)


def _unless_from(parameter: inspect.Parameter) -> inspect.Parameter:
    """A required input as one that ``--from`` may stand for: optional, its help saying so."""
    annotation = parameter.annotation
    metadata: tuple[Any, ...] = ()
    if typing.get_origin(annotation) is Annotated:
        annotation, *rest = typing.get_args(annotation)
        metadata = tuple(_helped(m) for m in rest)
    else:  # a plain parameter is an argument: kept one (a default would make Typer read it as an option)
        metadata = (typer.Argument(help="Required, unless --from."),)
    return parameter.replace(default=None, annotation=Annotated[annotation | None, *metadata])


def _helped(info: Any) -> Any:
    if isinstance(info, typer.models.OptionInfo):
        info = copy.copy(info)
        info.help = f"{info.help or ''} Required, unless --from.".strip()
    return info


def _said(parameter: inspect.Parameter) -> str:
    """An input as the command line names it: its option (``--side``) or its argument (``NAME``)."""
    if typing.get_origin(parameter.annotation) is Annotated:
        for info in typing.get_args(parameter.annotation)[1:]:
            if isinstance(info, typer.models.OptionInfo):
                # Under Annotated, Typer reads an option's first name from where its default would be.
                names = info.param_decls or (info.default,)
                if isinstance(names[0], str) and names[0].startswith("-"):
                    return names[0]
    return parameter.name.upper()


def show_dice_needed(info: CampaignInfo, command: Command[Any, Any], as_json: bool) -> None:
    """``--dice count``: the command's decision run on stand-in dice (every die at its lowest face, then at its
    highest), appending nothing, to tell which dice to roll before anyone rolls them."""
    from events.dice.ask import CountingDice, tally

    ledger = open_app().ledger
    runs: list[list[Needed]] = []
    for face in ("low", "high") if command.rolls else ():
        counting = CountingDice(face, info.next_roll_index, ledger.on_table(info))
        ledger.dry_run(info, command, counting)
        runs.append(counting.needed)
    low, high = (runs[0], runs[1]) if runs else ([], [])
    out = Output(as_json)
    if as_json:
        out.json({"command": command.name, "dice": [vars_of(n) for n in low], "if_highest": [vars_of(n) for n in high]})
        return
    console = out.console
    same = [(n.count, n.sides) for n in low] == [(n.count, n.sides) for n in high]
    if same:
        console.print(
            f"[bold]{escape(info.name)}[/]: {escape(typed(command.name))} needs {tally(low)} (nothing was recorded)"
        )
    else:
        console.print(
            f"[bold]{escape(info.name)}[/]: how many dice {escape(typed(command.name))} needs depends on the rolls "
            "(nothing was recorded)"
        )
    for title, needed in (
        (("", low),) if same else (("every die at its lowest", low), ("every die at its highest", high))
    ):
        if title:
            console.print(f" with {title}: {tally(needed)}")
        for i, n in enumerate(needed, 1):
            still = " [yellow](still on the table: enter the same faces again)[/]" if n.on_table else ""
            console.print(f"  {i}. {n.notation} for {escape(n.purpose)}{still}")
    if low or high:
        console.print("Roll them and give the faces in this order with --dice, or use --dice ask to be asked for each.")


def vars_of(needed: Needed) -> dict[str, Any]:
    return {"notation": needed.notation, "count": needed.count, "sides": needed.sides, "purpose": needed.purpose}


def show_appended(result: AppendResult, as_json: bool, info: CampaignInfo, *, named: bool = True) -> None:
    """What a command appended, each event explained (a ruleset's with the names of the units and battles it
    names: ``named``)."""
    names = entity_names(open_app().engine, info.campaign_id) if named and not as_json else {}
    Output(as_json).appended(result, f"[bold]{escape(info.name)}[/]:", names)


def add_shared_commands(
    app: typer.Typer,
    plugin: Ruleset[Any, Any],
    tables: tuple[str, str],
    transfer_help: str | None = None,
    *,
    edit: bool = True,
) -> None:
    """The commands every ruleset offers alike, each running the ruleset's command of that stable name:
    ``transfer`` (with ``transfer_help``) and ``disband`` when the ruleset's roster moves men between units,
    ``edit`` (unless the ruleset's takes more: ``edit`` false), and ``house-rule`` and ``tables`` (``tables``:
    what the tables are called, and an example path)."""
    named = {command.name.partition(".")[2]: command for command in plugin.commands}
    if transfer_help is not None:
        _add_roster_commands(app, named["transfer"], named["disband"], transfer_help)
    if edit:
        _add_edit_command(app, named["edit"])
    _add_table_commands(app, plugin, named["house_rule"], *tables)


def _add_roster_commands(
    app: typer.Typer, transfer: type[Command[Any, Any]], disband: type[Command[Any, Any]], transfer_help: str
) -> None:
    """``transfer`` and ``disband``, which every ruleset's roster offers alike (its command checks the rest)."""

    @recorded(app, "transfer", help=transfer_help)
    def transfer_(
        from_unit: str, to_unit: str, men: Annotated[int, typer.Option("--men", help="How many men move.")]
    ) -> RecordedCommand:
        return make(transfer, from_unit=from_unit, to_unit=to_unit, men=men)

    @recorded(app, "disband", help="Disband a unit between battles: it is paid no more and fights no more.")
    def disband_(unit: str, reason: Annotated[str, typer.Option("--reason")] = "disbanded") -> RecordedCommand:
        return make(disband, unit_name=unit, reason=reason)


def _add_edit_command(app: typer.Typer, model: type[Command[Any, Any]]) -> None:
    """``edit UNIT --set KEY=VALUE …``: a recorded change of a unit's profile, checked as a muster is."""

    @recorded(app, "edit")
    def edit_(
        unit: str,
        set_: Annotated[list[str], typer.Option("--set", help="A profile field and its new value: KEY=VALUE.")],
    ) -> RecordedCommand:
        """Change fields of a unit's profile (recorded: the log keeps what it was before)."""
        return make(model, unit_name=unit, changes=profile_changes(set_))


def profile_changes(set_: list[str]) -> dict[str, Any]:
    """``--set KEY=VALUE …`` as a profile's changes, each value read as a house rule's is."""
    changes: dict[str, Any] = {}
    for item in set_:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise InvalidInputError(f"--set takes KEY=VALUE, not {item!r}")
        changes[key.strip().replace("-", "_")] = parse_value(raw.strip())
    return changes


def _add_table_commands(
    app: typer.Typer, plugin: Ruleset[Any, Any], house_rule: type[RecordedCommand], what: str, example: str
) -> None:
    """``house-rule`` and ``tables``, alike for every ruleset: its tables in force, and a value replaced."""

    @recorded(app, "house-rule")
    def house_rule_(
        # Defaults, not Annotated: an annotation is read later, where ``example`` is not in scope.
        path: str = typer.Argument(..., help=f"Table path, e.g. {example} (see `tables`)."),
        value: str = typer.Argument(..., help="The new value: a whole number, NTR, true/false or a word."),
        note: Annotated[str, typer.Option("--note")] = "",
    ) -> RecordedCommand:
        """Override one table value from now on (a house rule, recorded as an event)."""
        return make(house_rule, path=path, value=parse_value(value), note=note)

    @app.command("tables")
    @handles_errors
    def tables(
        prefix: Annotated[str, typer.Argument(help="Only paths starting with this.")] = "",
        campaign: CampaignOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """The tables in force (house rules included), each value with its provenance."""
        info, _, in_force_now = in_force(campaign, plugin)
        print_tables(Output(as_json), escape(f"{info.name}: {what} tables in force"), in_force_now.values, prefix)


def parse_pairs(values: list[str], what: str) -> list[tuple[str, list[str]]]:
    out = []
    for value in values:
        name, sep, rest = value.rpartition("=")
        if not sep or not name.strip():
            raise InvalidInputError(f"{what} must look like NAME=VALUE, not {value!r}")
        out.append((name.strip(), [p.strip() for p in rest.split(",") if p.strip()]))
    return out
