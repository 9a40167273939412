"""``campaign --show-completion SHELL`` and ``--install-completion SHELL``: the shell named wins.

Typer declares both as flags and finds the shell among the process's ancestors (shellingham): a shell named
after the flag was taken for a command and ignored, and with no shell among the ancestors (a script run by
cron or an editor, ``env -i`` under ``setsid``) it said "Shell  not supported". A shell named is used as given
(bash, zsh or fish; another is refused in words); without one, Typer detects it as before.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NoReturn

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
