"""The database a ``campaign`` command opened, and the campaign it names: what every command needs, kept apart
from the command plumbing in :mod:`campaign.cli.common` so that a read served from the read models (``status``)
loads neither the executor nor a ruleset (start-up time)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign.directory import find_campaign
from events.limits import check_name, check_utf8

if TYPE_CHECKING:
    from campaign.bootstrap import App
    from campaign.executor import Ledger
    from projections.state.campaigns import CampaignInfo


class State:
    db: str = "campaign.db"
    actor: str | None = None
    app: App | None = None


state = State()


def open_app(*, create: bool = False) -> App:
    """The database named by ``--db``, opened (and migrated) on first use by a command. Only a command that
    starts a campaign (``create``) may create the database: any other refuses a missing one. Its ledger is
    wired when first used."""
    if state.app is None:
        from campaign.bootstrap import bootstrap

        check_utf8(state.db, "--db")
        actor = check_name(state.actor, "--actor") if state.actor is not None else None
        state.app = bootstrap(state.db, actor=actor, create=create, on_upgrade=_upgrading)
    return state.app


def close_app() -> None:
    """Close the database a command opened, its write-ahead log checkpointed into the file first (each command
    does, however it ends: a copy of the ``.db`` file alone then holds everything it acknowledged)."""
    app, state.app = state.app, None
    if app is not None:
        app.close()


def _upgrading(database: str, revision: str) -> None:
    """Said on stderr before a database made by an older version is brought up to date: the first command after
    an upgrade may take seconds on a long campaign (a migration that refolds its read models), once."""
    import sys

    print(
        f"{database} was written by an older version of Campaign Ledger (tables at revision {revision}): bringing "
        "them up to date, once; nothing in the log changes. A long campaign takes a few seconds.",
        file=sys.stderr,
        flush=True,
    )


def resolved(campaign: str | None) -> tuple[Ledger, CampaignInfo]:
    """The ledger, and the campaign named by ``--campaign`` (or the only one)."""
    ledger = open_app().ledger
    return ledger, ledger.resolve(campaign)


def named_campaign(campaign: str | None) -> CampaignInfo:
    """The campaign named by ``--campaign`` (or the only one), read from the directory without wiring the
    ledger."""
    from projections.campaign_directory import SqlCampaignDirectory

    return find_campaign(SqlCampaignDirectory(open_app().engine), campaign)
