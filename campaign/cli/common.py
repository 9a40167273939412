"""What every ``campaign`` command shares: the database it opened and the common options."""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from campaign.cli.options import CampaignOpt, CommandIdOpt, DiceOpt, JsonOpt
from campaign.cli.output import Output, escape, handles_errors, print_tables, say, strong
from campaign.cli.session import open_app, resolved
from campaign.executor import AskEntry, TableEntry
from campaign.i18n import _
from campaign.rulesets.command import BaseCommand, Overridden, Ruleset
from campaign.rulesets.tables import RuleTables
from campaign.typed_as import typed
from events.dice import parse_table_dice
from events.errors import InvalidInputError
from events.store import AppendResult
from projections.campaign_state import entity_names
from projections.state.campaigns import CampaignInfo

if TYPE_CHECKING:  # --dice ask and --dice count only
    from events.dice.ask import DieRequest, Needed
    from projections.fold import Summary

C = TypeVar("C", bound=BaseCommand)
S = TypeVar("S", bound=Overridden)
T = TypeVar("T", bound=RuleTables)


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
            raise InvalidInputError.saying(
                "--dice ask asks for each die on a terminal, and this input is not one: "
                "give the faces instead (--dice 4,2), or leave --dice out to roll the campaign's dice"
            )
        return AskEntry(ask_die)
    if word == "count":
        raise InvalidInputError.saying(
            "--dice count is for the rules' commands: a roll needs the dice its notation says"
        )
    return TableEntry(tuple(parse_table_dice(dice)))


def ask_die(request: DieRequest) -> int:
    """Prompt on the terminal for one die until a face of it is typed; Ctrl-D or Ctrl-C records nothing."""
    from campaign.i18n.dice import die_said

    while True:
        try:
            typed = str(typer.prompt(question(request), prompt_suffix=" ", err=True)).strip()
        except typer.Abort:
            raise InvalidInputError.saying("stopped before every die was entered: nothing was recorded") from None
        if typed.isdigit() and 1 <= int(typed) <= request.sides:
            return int(typed)
        said = _("{typed!r} is not a face of a {die}: type a number from 1 to {sides}")
        typer.echo(said.format(typed=typed, die=die_said(request.sides), sides=request.sides), err=True)


def question(request: DieRequest) -> str:
    """What ``--dice ask`` asks for one die, in the reader's language and dice notation ("Тест на боевой дух:
    Keno 3rd Squad: к8?"); English asks as the dice layer words it (:meth:`DieRequest.question`)."""
    from campaign.i18n import DEFAULT, language

    if language() == DEFAULT:
        return request.question()
    from campaign.i18n.dice import die_said, notation_said
    from campaign.i18n.purposes import purpose_said

    die = die_said(request.sides)
    if request.count > 1 or request.notation not in (f"d{request.sides}", f"1d{request.sides}"):
        die = _("{die} ({number} of {count} for {notation})").format(
            die=die, number=request.number, count=request.count, notation=notation_said(request.notation)
        )
    if request.on_table is not None:
        die += " " + _("[still on the table: {face}]").format(face=request.on_table)
    purpose = purpose_said(request.purpose)
    return f"{purpose[:1].upper()}{purpose[1:]}: {die}?"


def make(model: type[C], **fields: Any) -> C:
    """A command built from what was typed; a value out of bounds refused in the program's words."""
    # Names are trimmed as typed, so " Alpha" and "Alpha" are one unit (and one recorded input).
    return model.build(**{k: v.strip() if isinstance(v, str) else v for k, v in fields.items()})


def execute(
    campaign: str | None,
    command: BaseCommand,
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
        say_standing(before, info.campaign_id, result.head.seq, info.ruleset)


def standing_at(campaign_id: str, seq: int) -> Summary | None:
    """The campaign's summary at its head ``seq``, from the read models the append keeps (no fold): what a unit's
    standing is compared on before and after a command."""
    from projections.summaries import stored_summary

    return stored_summary(open_app().engine, campaign_id, seq)


def say_standing(before: Summary | None, campaign_id: str, seq: int, ruleset: str | None = None) -> None:
    """Every change of a unit's standing (promoted, demoted, tired, exhausted, a trait, its Morale…) a command
    made, in words, as it is made: nobody has to find it in `status`."""
    from campaign.i18n import _
    from campaign.read.describe import standing_changes

    word = strong(_("standing"))
    for line in standing_changes(before, standing_at(campaign_id, seq), ruleset):
        say(f"{word} {line}")


RecordedCommand = BaseCommand
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


def recorded(app: typer.Typer, name: str, *, rolls: bool = False, **settings: Any) -> Callable[[Build], Build]:
    """Register ``build`` as the command ``name`` of ``app``: the options every recorded command shares
    (``--dice`` when it ``rolls``, then ``--campaign``, ``--command-id``, ``--json``) follow its own in its
    ``--help``, and the Command it makes of what was typed is run and what it appended shown."""

    def register(build: Build) -> Build:
        app.command(name, **settings)(recording(build, rolls=rolls))
        return build

    return register


def recording(build: Build, *, rolls: bool = False) -> Callable[..., None]:
    """``build`` as a command line command: its signature with the shared options added, run by :func:`execute`."""
    shared = ROLLS if rolls else SHARED
    own = inspect.signature(build, eval_str=True)

    @functools.wraps(build)
    def run(**typed: Any) -> None:
        given = {p.name: typed.pop(p.name) for p in shared}
        command = build(**typed)
        execute(
            given["campaign"], command, dice=given.get("dice"), command_id=given["command_id"], as_json=given["as_json"]
        )

    parameters = [*own.parameters.values(), *shared]
    run.__signature__ = own.replace(parameters=parameters, return_annotation=None)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": None}
    return handles_errors(run)


def show_dice_needed(info: CampaignInfo, command: BaseCommand, as_json: bool) -> None:
    """``--dice count``: the command's decision run on stand-in dice (every die at its lowest face, then at its
    highest), appending nothing, to tell which dice to roll before anyone rolls them."""
    from campaign.i18n.dice import notation_said
    from campaign.i18n.purposes import purpose_said
    from events.dice.ask import CountingDice

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
    where = f"[bold]{escape(info.name)}[/]"
    same = [(n.count, n.sides) for n in low] == [(n.count, n.sides) for n in high]
    if same:
        said = _("{campaign}: {command} needs {dice} (nothing was recorded)")
        console.print(said.format(campaign=where, command=escape(typed(command.name)), dice=tally(low)))
    else:
        said = _("{campaign}: how many dice {command} needs depends on the rolls (nothing was recorded)")
        console.print(said.format(campaign=where, command=escape(typed(command.name))))
    for title, needed in (
        (("", low),)
        if same
        else ((_(" with every die at its lowest: {dice}"), low), (_(" with every die at its highest: {dice}"), high))
    ):
        if title:
            console.print(title.format(dice=tally(needed)))
        for i, n in enumerate(needed, 1):
            faces = ", ".join(map(str, n.faces_on_table))
            still = _("(still on the table: {faces}; enter them again)").format(faces=faces) if n.on_table else ""
            still = f" [yellow]{escape(still)}[/]" if still else ""
            said = _("{i}. {notation} for {purpose}").format(
                i=i, notation=notation_said(n.notation), purpose=escape(purpose_said(n.purpose))
            )
            console.print(f"  {said}{still}")
    if low or high:
        console.print(
            _("Roll them and give the faces in this order with --dice, or use --dice ask to be asked for each.")
        )


def tally(needed: Sequence[Needed]) -> str:
    """ "3 dice: 2 d6, 1 d8" in the reader's language, each die as its players write it ("1 к8", "1 k8": dice left
    on the table by a retracted command counted too: they are entered again)."""
    from campaign.i18n import ngettext
    from campaign.i18n.dice import die_said

    kinds: dict[int, int] = {}
    for n in needed:
        kinds[n.sides] = kinds.get(n.sides, 0) + n.count
    total = sum(kinds.values())
    if not total:
        return _("no dice")
    parts = ", ".join(f"{count} {die_said(sides)}" for sides, count in sorted(kinds.items()))
    return ngettext("{n} die: {parts}", "{n} dice: {parts}", total).format(n=total, parts=parts)


def vars_of(needed: Needed) -> dict[str, Any]:
    return {"notation": needed.notation, "count": needed.count, "sides": needed.sides, "purpose": needed.purpose}


def show_appended(result: AppendResult, as_json: bool, info: CampaignInfo, *, named: bool = True) -> None:
    """What a command appended, each event explained (a ruleset's with the names of the units and battles it
    names: ``named``)."""
    names = entity_names(open_app().engine, info.campaign_id) if named and not as_json else {}
    Output(as_json).appended(result, f"{strong(info.name)}:", names)


def add_tables_view(app: typer.Typer, plugin: Ruleset[S, T], what: str) -> None:
    """``tables [PREFIX]``, alike for every ruleset: its tables in force (``what``: what they are called)."""

    @app.command("tables")
    @handles_errors
    def tables(
        prefix: Annotated[str, typer.Argument(help="Only paths starting with this.")] = "",
        campaign: CampaignOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """The tables in force (house rules included), each value with its provenance."""
        info, _state, in_force_now = in_force(campaign, plugin)
        title = _("{campaign}: {ruleset} tables in force").format(campaign=info.name, ruleset=_(what))
        print_tables(Output(as_json), escape(title), in_force_now.values, prefix)
