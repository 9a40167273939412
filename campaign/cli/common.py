"""What every ``campaign`` command shares: the database it opened and the common options."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

import typer

from campaign.bootstrap import App, bootstrap
from campaign.cli.output import Output, handles_errors, print_tables
from campaign.executor import TableEntry
from campaign.rulesets.command import Command, Ruleset
from campaign.rulesets.common import HouseRule
from campaign.rulesets.tables import parse_value
from events.dice import parse_table_dice
from events.errors import InvalidInputError
from events.store import AppendResult
from projections.campaign_state import entity_names
from projections.state.campaigns import CampaignInfo

C = TypeVar("C", bound=Command[Any, Any])

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of tables.")]
CampaignOpt = Annotated[
    str | None,
    typer.Option("--campaign", "-c", envvar="CAMPAIGN", help="Campaign name or id (default: the only one)."),
]
CommandIdOpt = Annotated[
    str | None,
    typer.Option("--command-id", help="Idempotency key: a command id seen before appends nothing again."),
]
DiceOpt = Annotated[
    str | None, typer.Option("--dice", help="Physical dice rolled at the table, e.g. 4,2 (checked, then recorded).")
]


SizeOpt = Annotated[int | None, typer.Option("--size", help="Men or models in the unit at full strength.")]


def size_of(size: int | None, *old: int | None) -> int:
    """The unit's size from ``--size``, or from the option a ruleset first named it by (``--men``, ``--models``,
    still accepted, unlisted): one vocabulary, and the README and scripts of before keep working."""
    given = {v for v in (size, *old) if v is not None}
    if not given:
        raise InvalidInputError("--size is required: how many men or models the unit has")
    if len(given) > 1:
        raise InvalidInputError("the unit's size was given twice, with different numbers")
    return given.pop()


class State:
    db: str = "campaign.db"
    actor: str | None = None
    app: App | None = None


state = State()


def open_app() -> App:
    """The database named by ``--db``, opened (and migrated) on first use by a command."""
    if state.app is None:
        state.app = bootstrap(state.db, actor=state.actor)
    return state.app


def table_entry(dice: str | None) -> TableEntry | None:
    return TableEntry(tuple(parse_table_dice(dice))) if dice is not None else None


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
    ledger = open_app().ledger
    info = ledger.resolve(campaign)
    result = ledger.execute(info, command, table=table_entry(dice), command_id=command_id)
    show_appended(result, as_json, info)


def show_appended(result: AppendResult, as_json: bool, info: CampaignInfo) -> None:
    """What a ruleset command appended, each event explained with the names of the units and battles it names."""
    names = {} if as_json else entity_names(open_app().engine, info.campaign_id)
    Output(as_json).appended(result, f"[bold]{info.name}[/]:", names)


def add_roster_commands(
    app: typer.Typer, transfer: type[Command[Any, Any]], disband: type[Command[Any, Any]], transfer_help: str
) -> None:
    """``transfer`` and ``disband``, which every ruleset's roster offers alike (its command checks the rest)."""

    @app.command("transfer", help=transfer_help)
    @handles_errors
    def transfer_(
        from_unit: str,
        to_unit: str,
        men: Annotated[int, typer.Option("--men", help="How many men move.")],
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        command = make(transfer, from_unit=from_unit, to_unit=to_unit, men=men)
        execute(campaign, command, command_id=command_id, as_json=as_json)

    @app.command("disband", help="Disband a unit between battles: it is paid no more and fights no more.")
    @handles_errors
    def disband_(
        unit: str,
        reason: Annotated[str, typer.Option("--reason")] = "disbanded",
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        execute(campaign, make(disband, unit_name=unit, reason=reason), command_id=command_id, as_json=as_json)


def add_edit_command(app: typer.Typer, model: type[Command[Any, Any]]) -> None:
    """``edit UNIT --set KEY=VALUE …``: a recorded change of a unit's profile, checked as a muster is."""

    @app.command("edit")
    @handles_errors
    def edit_(
        unit: str,
        set_: Annotated[list[str], typer.Option("--set", help="A profile field and its new value: KEY=VALUE.")],
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Change fields of a unit's profile (recorded: the log keeps what it was before)."""
        changes: dict[str, Any] = {}
        for item in set_:
            key, sep, raw = item.partition("=")
            if not sep or not key.strip():
                raise InvalidInputError(f"--set takes KEY=VALUE, not {item!r}")
            changes[key.strip().replace("-", "_")] = parse_value(raw.strip())
        execute(campaign, make(model, unit_name=unit, changes=changes), command_id=command_id, as_json=as_json)


def add_table_commands(
    app: typer.Typer, plugin: Ruleset[Any, Any], house_rule: type[HouseRule[Any, Any]], what: str, example: str
) -> None:
    """``house-rule`` and ``tables``, alike for every ruleset: its tables in force, and a value replaced."""

    @app.command("house-rule")
    @handles_errors
    def house_rule_(
        # Defaults, not Annotated: an annotation is read later, where ``example`` is not in scope.
        path: str = typer.Argument(..., help=f"Table path, e.g. {example} (see `tables`)."),
        value: str = typer.Argument(..., help="The new value: a whole number, NTR, true/false or a word."),
        note: Annotated[str, typer.Option("--note")] = "",
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Override one table value from now on (a house rule, recorded as an event)."""
        command = make(house_rule, path=path, value=parse_value(value), note=note)
        execute(campaign, command, command_id=command_id, as_json=as_json)

    @app.command("tables")
    @handles_errors
    def tables(
        prefix: Annotated[str, typer.Argument(help="Only paths starting with this.")] = "",
        campaign: CampaignOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """The tables in force (house rules included), each value with its provenance."""
        ledger = open_app().ledger
        info = ledger.resolve(campaign)
        _, in_force = ledger.in_force(info, plugin)
        print_tables(Output(as_json), f"{info.name}: {what} tables in force", in_force.values, prefix)
