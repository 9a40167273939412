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

from campaign.cli.argv import field_name, label_english, named_by_us
from campaign.cli.main import app
from campaign.i18n.catalogs import CONTEXT


def command_help(groups: Iterable[str]) -> dict[str, str]:
    """Each help text of the commands under ``groups``, as the command line looks it up (one line), → where it is
    shown (``dis muster --troops``); the group ``""`` is the program's own help and global options."""
    found: dict[str, str] = {}

    def shown(thing: object, where: str) -> None:
        for attribute in ("help", "short_help"):
            text = getattr(thing, f"{attribute}_source", None) or getattr(thing, attribute, None)
            if text:
                found.setdefault(" ".join(str(text).split()), where)

    def walk(command: Command, path: str) -> None:
        shown(command, path)
        helps = command.get_help_option(Context(command))  # Click's own "--help" help, said as ours
        for param in (*command.params, *([helps] if helps is not None else [])):
            shown(param, f"{path} {param.name}")
            if named_by_us(param) and field_name(param):  # its name in a usage line, a help and an error
                found.setdefault(f"field{CONTEXT}{label_english(field_name(param))}", f"{path} {param.name}")
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
        if not group:  # the program's own help and options, not its commands'
            shown(root, "campaign")
            for param in root.params:
                shown(param, f"campaign {param.name}")
            continue
        command = root.get_command(context, group)
        if command is not None:
            walk(command, group)
    return found | field_labels()


def field_labels() -> dict[str, str]:
    """Each command's field names as a view labels them (:func:`campaign.read.describe.label`: ``enemy_within`` →
    "enemy within"), in context "field" (``field`` EOT ``enemy within``), → a command that has it: the words a log,
    an audit page and a command's line say its inputs by, generated from the models, so no call marks them."""
    from campaign.commands import _by_name
    from campaign.i18n import reading_in
    from campaign.read.describe import label
    from campaign.rulesets import RULESETS

    found: dict[str, str] = {}
    with reading_in("en"):
        for prefix in ("ledger", *sorted(info.prefix for info in RULESETS.values())):
            for name, command in sorted(_by_name(prefix).items()):
                for field in command.model_fields:
                    found.setdefault(f"field{CONTEXT}{label(field)}", name)
    return found
