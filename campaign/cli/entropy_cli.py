"""``entropy commit`` and ``entropy show``: the group's own shares of entropy, mixed into each dice seed."""

from __future__ import annotations

from typing import Annotated

import typer

from campaign.cli.options import CampaignOpt, JsonOpt
from campaign.cli.output import Output, escape, handles_errors, strong
from campaign.cli.session import resolved
from campaign.i18n import _
from campaign.read import views

entropy = typer.Typer(
    help="Shares of entropy the group mixes into the dice seed, so that no single party chose it.",
    no_args_is_help=True,
)


@entropy.command("commit")
@handles_errors
def commit(
    share: Annotated[
        str | None,
        typer.Argument(help="Your share: any line of text (1–200 characters). Left out, one is drawn and shown once."),
    ] = None,
    campaign: CampaignOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Commit a share of entropy for the current seed epoch: the log records only its SHA-256 (and who gave it)
    until `campaign reveal` publishes it with the seed. One share per person per epoch, before the epoch's first
    seeded roll."""
    ledger, info = resolved(campaign)
    drawn = share is None
    given = ledger.draw_share() if share is None else share
    result = ledger.commit_share(info, given)
    out = Output(as_json)
    if as_json:
        out.json(
            {
                "epoch": info.seed_epoch,
                "by": ledger.actor,
                "commitment": result.events[0].payload["commitment"],
                "seq": result.head.seq,
                **({"share": given} if drawn else {}),
            }
        )
        return
    said = _("{campaign}: share of entropy committed for epoch {epoch}.")
    out.appended(result, said.format(campaign=strong(info.name), epoch=info.seed_epoch))
    if drawn:
        out.console.print(_("your share, drawn for you (shown once): {share}").format(share=given))


@entropy.command("show")
@handles_errors
def show(
    epoch: Annotated[int | None, typer.Option("--epoch", help="Another seed epoch (default: the current one).")] = None,
    campaign: CampaignOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Which shares of entropy are committed for the current seed epoch, and by whom (the shares themselves only
    once the seed is revealed with them); whether the epoch still takes shares."""
    ledger, info = resolved(campaign)
    shown = views.entropy(ledger, info, epoch)
    out = Output(as_json)
    if as_json:
        out.json(shown)
        return
    console = out.console
    if shown["open"]:
        state = _("open: shares are taken until its first seeded roll")
    elif shown["current"] and (closed := shown["closed_by_roll"]) is not None:  # a current epoch not open
        state = _("closed by roll {roll} (#{seq}): shares now go to the next epoch, after reveal").format(
            roll=closed["roll"], seq=closed["seq"]
        )
    else:
        state = _("revealed") if shown["revealed"] else _("past")
    said = _("{campaign}, seed epoch {epoch}: {state}")
    console.print(said.format(campaign=f"[bold]{escape(info.name)}[/]", epoch=shown["epoch"], state=state))
    if not shown["shares"]:
        console.print("  " + _("no shares committed: its dice are derived from the seed alone"))
    for entry in shown["shares"]:
        text = f"  #{entry['seq']} {escape(entry['by'])}: {entry['commitment']}"
        if "share" in entry:
            text += f" = “{escape(entry['share'])}”"  # the share as it was given, exactly (it is hashed)
        console.print(text)
