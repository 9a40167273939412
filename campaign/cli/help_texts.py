"""The help texts the command line shows, read off its command tree: what the message catalogs translate of it.

The help of a command generated from its model (its docstring, its fields' descriptions, what the generator adds
to them) is marked by no call, so the catalogs' extractor cannot find it in the sources; the developer's command
(``scripts/catalogs.py``) and the catalogs' tests hand it these, and the i18n layer never imports the CLI.
"""

from __future__ import annotations

from collections.abc import Iterable

from typer._click.core import Command, Context  # Typer's own click: the classes its command tree is built of
from typer.core import TyperGroup
from typer.main import get_command

from campaign.cli.main import app


def command_help(groups: Iterable[str]) -> dict[str, str]:
    """Each help text of the commands under ``groups``, as the command line looks it up (one line), → where it is
    shown (``dis muster --troops``)."""
    found: dict[str, str] = {}

    def shown(thing: object, where: str) -> None:
        for attribute in ("help", "short_help"):
            text = getattr(thing, f"{attribute}_source", None) or getattr(thing, attribute, None)
            if text:
                found.setdefault(" ".join(str(text).split()), where)

    def walk(command: Command, path: str) -> None:
        shown(command, path)
        for param in command.params:
            shown(param, f"{path} {param.name}")
        if isinstance(command, TyperGroup):
            context = Context(command)
            for name in command.list_commands(context):
                sub = command.get_command(context, name)
                if sub is not None:
                    walk(sub, f"{path} {name}".strip())

    root = get_command(app)
    if not isinstance(root, TyperGroup):
        return found
    context = Context(root)
    for group in groups:
        command = root.get_command(context, group)
        if command is not None:
            walk(command, group)
    return found
