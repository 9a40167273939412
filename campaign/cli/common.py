"""What every ``campaign`` command shares: the database it opened and the common options."""

from __future__ import annotations

from typing import Annotated, TypeVar

import typer
from rich.markup import escape

from campaign.bootstrap import App, bootstrap
from campaign.cli.output import Output, handles_errors, print_tables
from campaign.ledger import TableEntry
from campaign.ruleset_service import RulesetService
from campaign.rulesets.tables import parse_value
from events.dice import parse_table_dice
from events.limits import check_name, check_utf8
from events.store import AppendResult
from projections.campaign_state import entity_names
from projections.state.campaigns import CampaignInfo

S = TypeVar("S", bound=RulesetService)

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


class State:
    db: str = "campaign.db"
    actor: str | None = None
    app: App | None = None


state = State()


def open_app() -> App:
    """The database named by ``--db``, opened (and migrated) on first use by a command."""
    if state.app is None:
        check_utf8(state.db, "--db")
        actor = check_name(state.actor, "--actor") if state.actor is not None else None
        state.app = bootstrap(state.db, actor=actor)
    return state.app


def table_entry(dice: str | None) -> TableEntry | None:
    return TableEntry(tuple(parse_table_dice(dice))) if dice is not None else None


def ruleset_service(service: type[S], campaign: str | None) -> tuple[S, CampaignInfo]:
    """The campaign named (or the only one) and its ruleset's service, refusing a campaign of another ruleset."""
    ledger = open_app().ledger
    info = ledger.resolve(campaign)
    game = service(ledger)
    game.check(info)
    return game, info


def show_appended(result: AppendResult, as_json: bool, info: CampaignInfo) -> None:
    """What a ruleset command appended, each event explained with the names of the units and battles it names."""
    names = {} if as_json else entity_names(open_app().engine, info.campaign_id)
    Output(as_json).appended(result, f"[bold]{escape(info.name)}[/]:", names)


def add_roster_commands(app: typer.Typer, service: type[RulesetService], transfer_help: str) -> None:
    """``transfer`` and ``disband``, which every ruleset's roster offers alike (its service checks the rest)."""

    @app.command("transfer", help=transfer_help)
    @handles_errors
    def transfer(
        from_unit: str,
        to_unit: str,
        men: Annotated[int, typer.Option("--men", help="How many men move.")],
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        game, info = ruleset_service(service, campaign)
        show_appended(game.transfer(info, from_unit, to_unit, men, command_id), as_json, info)

    @app.command("disband", help="Disband a unit between battles: it is paid no more and fights no more.")
    @handles_errors
    def disband(
        unit: str,
        reason: Annotated[str, typer.Option("--reason")] = "disbanded",
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        game, info = ruleset_service(service, campaign)
        show_appended(game.disband(info, unit, reason, command_id), as_json, info)


def add_table_commands(app: typer.Typer, service: type[RulesetService], what: str, example: str) -> None:
    """``house-rule`` and ``tables``, alike for every ruleset: its tables in force, and a value replaced."""

    @app.command("house-rule")
    @handles_errors
    def house_rule(
        # Defaults, not Annotated: an annotation is read later, where ``example`` is not in scope.
        path: str = typer.Argument(..., help=f"Table path, e.g. {example} (see `tables`)."),
        value: str = typer.Argument(..., help="The new value: a whole number, NTR, true/false or a word."),
        note: Annotated[str, typer.Option("--note")] = "",
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Override one table value from now on (a house rule, recorded as an event)."""
        game, info = ruleset_service(service, campaign)
        show_appended(game.house_rule(info, path, parse_value(value), note, command_id), as_json, info)

    @app.command("tables")
    @handles_errors
    def tables(
        prefix: Annotated[str, typer.Argument(help="Only paths starting with this.")] = "",
        campaign: CampaignOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """The tables in force (house rules included), each value with its provenance."""
        game, info = ruleset_service(service, campaign)
        _, in_force = game.state(info)
        print_tables(Output(as_json), escape(f"{info.name}: {what} tables in force"), in_force.values, prefix)
