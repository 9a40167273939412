"""``campaign --show-completion SHELL`` and ``--install-completion SHELL``: the shell named wins.

Typer declares both as flags and finds the shell among the process's ancestors (shellingham): a shell named
after the flag was taken for a command and ignored, and with no shell among the ancestors (a script run by
cron or an editor, ``env -i`` under ``setsid``) it said "Shell  not supported". A shell named is used as given
(bash, zsh or fish; another is refused in words); without one, Typer detects it as before.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, NoReturn

import typer

SHELLS = ("bash", "zsh", "fish")
FLAGS = ("--show-completion", "--install-completion")
PROG = "campaign"
COMPLETE_VAR = "_CAMPAIGN_COMPLETE"


def named_shell(args: Sequence[str], commands: Collection[str]) -> tuple[str, str] | None:
    """``(flag, shell)`` when a shell is named after a completion flag (``--show-completion bash`` or
    ``--show-completion=bash``) before any command; None when none is (Typer then detects the shell)."""
    for i, token in enumerate(args):
        if token in commands:
            return None
        flag, equals, value = token.partition("=")
        if flag not in FLAGS:
            continue
        if equals:
            return flag, value
        following = args[i + 1] if i + 1 < len(args) else None
        if following is None or following.startswith("-") or following in commands:
            return None
        return flag, following
    return None


def answer(flag: str, shell: str) -> NoReturn:
    """Print the completion script of ``shell``, or install it; exit 0. An unknown shell: exit 2, in words."""
    from typer._completion_shared import get_completion_script, install

    name = shell.strip().lower()
    if name not in SHELLS:
        typer.echo(f"error: unknown shell {shell!r}: completion is offered for {', '.join(SHELLS)}", err=True)
        raise SystemExit(2)
    if flag == "--show-completion":
        typer.echo(get_completion_script(prog_name=PROG, complete_var=COMPLETE_VAR, shell=name))
    else:
        _, path = install(shell=name, prog_name=PROG, complete_var=COMPLETE_VAR)
        typer.echo(f"{name} completion installed in {path}; it takes effect in a new terminal")
    raise SystemExit(0)


def completer(kind: Any) -> Callable[..., list[str]]:
    """What completes an argument or option naming a thing of ``kind`` (see :func:`names_of`)."""

    def complete(ctx: Any, incomplete: str) -> list[str]:  # Typer hands them in by these names
        return names_of(kind, ctx, incomplete)

    return complete


def names_of(kind: Any, ctx: Any, incomplete: str) -> list[str]:
    """The campaign's names of ``kind`` (units, sides, officers, battles, campaigns) that begin with what was typed,
    for the shell to complete an argument or option naming one. Read from the database ``--db`` names (or
    ``CAMPAIGN_DB``) and the campaign ``--campaign`` names (or ``CAMPAIGN``, or the only one), from the read
    models ``status`` reads; a database that is not there, or any failure, completes nothing (tab completion
    never prints an error nor makes or changes a database)."""
    import os

    from campaign.rulesets.kinds import Kind

    root = ctx.find_root()
    db = root.params.get("db") or os.environ.get("CAMPAIGN_DB") or "campaign.db"
    campaign = ctx.params.get("campaign") or os.environ.get("CAMPAIGN")
    try:
        names = sorted(_names(kind, str(db), campaign, Kind))
    except Exception:  # completion is a convenience: whatever goes wrong, offer nothing
        return []
    return [n for n in names if n.startswith(incomplete)]  # as Typer filters them: letter case counts


def _names(kind: Any, db: str, campaign: str | None, kinds: Any) -> set[str]:
    from pathlib import Path

    from campaign.cli import session

    if "://" not in db and not Path(db).is_file():
        return set()
    session.state.db = db
    if kind is kinds.CAMPAIGN:
        return {c.name for c in session.open_app().ledger.directory.all()}
    from campaign.cli.campaign_views import current_summary

    _, summary = current_summary(campaign, None)
    if kind is kinds.UNIT:
        return {str(u["name"]) for u in summary.units}
    if kind is kinds.SIDE:
        return {str(u["side"]) for u in summary.units} | set(summary.treasury)
    if kind is kinds.OFFICER:
        return {str(c["pc"]) for c in summary.careers}
    if kind is kinds.BATTLE:
        return {str(b["name"]) for b in summary.battles}
    return set()
