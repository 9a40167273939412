"""``campaign``: the command line. Every command takes ``--json``; errors exit non-zero and append nothing.

Start-up loads only what the command run uses: the commands are listed here with their one-line help, and the
module defining a command is imported when it runs (``campaign --help`` imports no database library).
"""

from __future__ import annotations

import functools
import gc
from typing import Annotated

import typer

from campaign.cli.argv import CampaignGroup
from campaign.i18n import N_
from campaign.rulesets import RULESETS

# name: (module, what registers it there, its help's first sentences). A test checks these against the modules.
COMMANDS = {
    "new": (
        "campaign.cli.basics",
        "register",
        N_("Start a campaign under a ruleset; its dice seed is committed, not revealed."),
    ),
    "list": (
        "campaign.cli.basics",
        "register",
        N_("The campaigns in this database, with their ruleset and head hash."),
    ),
    "status": (
        "campaign.cli.campaign_views",
        "register",
        N_("The campaign at a glance: day, units, battles fought, treasuries."),
    ),
    "unit": ("campaign.cli.campaign_views", "register", N_("One unit's record across all its battles.")),
    "battles": ("campaign.cli.campaign_views", "register", N_("The battle history.")),
    "treasury": (
        "campaign.cli.campaign_views",
        "register",
        N_("Each side's money, and who is owed pay (or that the ruleset has none)."),
    ),
    "career": (
        "campaign.cli.campaign_views",
        "register",
        N_("A career: a player character's battles, wounds, Reputation and rank, or an officer's Glory and rank."),
    ),
    "log": (
        "campaign.cli.basics",
        "register",
        N_("The campaign's log, each event with a readable explanation (retracted ones with --all)."),
    ),
    "roll": (
        "campaign.cli.basics",
        "register",
        N_("Roll dice (seeded, or the table's own with --dice) and record the roll."),
    ),
    "reveal": (
        "campaign.cli.basics",
        "register",
        N_(
            "Reveal the current dice seed and commit to a new one: past rolls become checkable, future ones stay "
            "secret."
        ),
    ),
    "entropy": (
        "campaign.cli.entropy_cli",
        "entropy",
        N_("Shares of entropy the group mixes into the dice seed, so that no single party chose it."),
    ),
    "verify": (
        "campaign.cli.verify_cli",
        "register",
        N_(
            "Check the hash chain, every event's schema and every die (roll indexes without gaps, the stored seed "
            "against its commitment), and re-evaluate every rule on its recorded inputs and dice (a difference is "
            "drift: reported, never written back); name the first failure."
        ),
    ),
    "checkpoint": (
        "campaign.cli.verify_cli",
        "register",
        N_(
            "Write the campaign's head (id, seq, hash) as one canonical JSON line, to publish outside the database; "
            "--sign KEY signs it too (`ssh-keygen -Y sign -n campaign-ledger`, written beside it as FILE.sig)."
        ),
    ),
    "audit": (
        "campaign.cli.timeline_cli",
        "register",
        N_(
            "A roll or rule application: who entered it and when, its inputs, its explanation and clause, and three "
            "checks (the chain up to it, the dice, the rule re-evaluated)."
        ),
    ),
    "rewind": (
        "campaign.cli.timeline_cli",
        "register",
        N_("Retract every event after SEQ. Nothing is deleted (see `log --all`); no die is rolled again."),
    ),
    "amend": (
        "campaign.cli.timeline_cli",
        "register",
        N_(
            "Correct a past command's inputs (or its table dice, --dice … --reason …): it and every later command are "
            "re-run on their own dice."
        ),
    ),
    "undo": (
        "campaign.cli.timeline_cli",
        "register",
        N_(
            "Take back the last command (or the last rewind, amendment or undo): nothing is deleted, and the dice it "
            "rolled stay rolled."
        ),
    ),
    "reroll": (
        "campaign.cli.timeline_cli",
        "register",
        N_(
            "Take the next die a retracted command left on the table off it, on the record: the next command that "
            "rolls those dice rolls new ones."
        ),
    ),
    "branch": (
        "campaign.cli.timeline_cli",
        "register_exchange",
        N_("A what-if campaign sharing this one's history up to SEQ; the original is untouched."),
    ),
    "export": (
        "campaign.cli.timeline_cli",
        "register_exchange",
        N_("Write the campaign as JSON Lines: lossless; the secret seeds only with --with-secrets."),
    ),
    "import": (
        "campaign.cli.timeline_cli",
        "register_exchange",
        N_(
            "Read a campaign exported as JSON Lines; the chain and every event's schema are checked first, and a file "
            "with any fault is refused whole."
        ),
    ),
    "backup": (
        "campaign.cli.timeline_cli",
        "register_exchange",
        "Copy the database to a new FILE while others may be writing, and check the copy before saying it is done.",
    ),
    "rebuild": (
        "campaign.cli.campaign_views",
        "register",
        N_("Drop every projection and refold it from the log (streamed, with progress)."),
    ),
    "chart": (
        "campaign.cli.chart",
        "register",
        N_("Chart morale, strength, treasury or glory over the campaign, from its log (retracted commands left out)."),
    ),
    "report": (
        "campaign.cli.report_cli",
        "register",
        N_(
            "The campaign's story for people: each battle with its sides, result, casualties, morale turns and "
            "careers, what happened between battles, pay and treasury, disputed rolls and amendments with their "
            "reasons, and the charts; in the campaign's own calendar."
        ),
    ),
    "rules": (
        "campaign.cli.rules_cli",
        "register",
        N_(
            "Print a clause of the rules (RULES.md, as cited by the log and by `audit`), with the errata that amend "
            "it; without a clause, list them all."
        ),
    ),
    "demo": (
        "campaign.cli.basics",
        "register",
        N_("Build a ready sample campaign under each ruleset on a new SQLite file, then verify it."),
    ),
    "serve": (
        "campaign.cli.server_cli",
        "register",
        N_("Serve the database to a group: the web page and the JSON API (OpenAPI at /openapi.json)."),
    ),
    "invite": (
        "campaign.cli.server_cli",
        "register",
        N_("Give an account a role in a campaign (the first game master is made here): a membership event."),
    ),
    "user": ("campaign.cli.server_cli", "users", N_("Accounts of the shared server (`campaign serve`).")),
}


def every_command() -> dict[str, tuple[str, str, str]]:
    """The commands, and each installed ruleset's command group with the help its plug-in declares."""
    return COMMANDS | {r.prefix: ("campaign.cli.ruleset_groups", r.name, r.help) for r in RULESETS.values()}


class Campaign(CampaignGroup):
    @functools.cached_property
    def lazy(self) -> dict[str, tuple[str, str, str]]:  # type: ignore[override]
        return every_command()


app = typer.Typer(
    name="campaign",
    help=N_("Campaign Ledger: run long tabletop wargame campaigns on an auditable, replayable event log."),
    no_args_is_help=True,
    cls=Campaign,
    pretty_exceptions_enable=False,
)


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"campaign {version('campaign-ledger')}")
        raise typer.Exit()


@app.callback()
def _options(
    ctx: typer.Context,
    db: Annotated[
        str,
        typer.Option(
            "--db", envvar="CAMPAIGN_DB", metavar=N_("FILE|URL"), help=N_("SQLite file or postgresql:// URL.")
        ),
    ] = "campaign.db",
    actor: Annotated[
        str | None,
        typer.Option("--actor", envvar="CAMPAIGN_ACTOR", metavar=N_("ACTOR"), help=N_("Who is entering commands.")),
    ] = None,
    verbose: Annotated[int, typer.Option("--verbose", "-v", count=True, help=N_("Log more (repeatable)."))] = 0,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="en|ru|pl",
            help=N_(
                "The language to read in: en, ru or pl (default: CAMPAIGN_LANG, then the locale, then English). "
                "--json is language-neutral."
            ),
        ),
    ] = None,
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=_show_version, help=N_("Print the version and exit.")),
    ] = False,
) -> None:
    from campaign.cli.session import close_app, state
    from campaign.logging import configure_logging

    configure_logging(verbose)
    state.db, state.actor, state.app = db, actor, None
    ctx.call_on_close(close_app)  # however the command ends: the file alone then holds what it acknowledged
    _collector_back_on()


def _collector_back_on() -> None:
    """Start-up is over (the command's group is loaded, the options read): what it made is kept for good,
    never walked by the cyclic collector again, and the collector runs again for what the command's own work
    makes, so a long command (verify, rebuild, serve) keeps its memory bounded. Under a test's CliRunner the
    collector was never off (``main`` was not run) and nothing is frozen."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def main() -> None:
    # Start-up (Typer, the ruleset's models, pydantic's schemas, SQLAlchemy's dialect) makes some hundred
    # thousand objects and throws few away: the cyclic collector, run every 700 allocations, only walks them
    # again and again. It is off until the command's own work begins (``_collector_back_on``, from the options'
    # callback), and back on on the way out of anything that never got there (--help, a usage error).
    # Measured (bench/cli_latency.py, CPU time, best of 7, one run each way): `fs rest 1` at 1.80× the floor with
    # the collector on throughout, 1.56× with it off through start-up; `status` 1.45× and 1.32×.
    gc.disable()
    try:
        app()
    finally:
        gc.enable()


if __name__ == "__main__":
    main()
