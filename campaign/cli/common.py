"""What every ``campaign`` command shares: the database it opened and the common options."""

from __future__ import annotations

from typing import Annotated

import typer

from campaign.bootstrap import App, bootstrap
from campaign.ledger import TableEntry
from events.dice import parse_table_dice

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
        state.app = bootstrap(state.db, actor=state.actor)
    return state.app


def table_entry(dice: str | None) -> TableEntry | None:
    return TableEntry(tuple(parse_table_dice(dice))) if dice is not None else None
