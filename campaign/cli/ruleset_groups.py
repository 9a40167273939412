"""Each installed ruleset's command group, by its name: ``getattr(ruleset_groups, "disorder")``.

``campaign``'s command list names a ruleset's group by this module and the ruleset's name (``main.COMMANDS``);
the group is made when its command runs: the plug-in's own (``cli``, where it has hand-written parts), or one made
from its command models alone.
"""

from __future__ import annotations

import typer


def __getattr__(name: str) -> typer.Typer:
    from campaign.rulesets import RULESETS, load

    info = RULESETS.get(name)
    if info is None:
        raise AttributeError(name)
    if info.cli is not None:
        found: typer.Typer = load(info.cli)
        return found
    from campaign.cli.generated import ruleset_app
    from campaign.commands import plugin

    return ruleset_app(plugin(name), info.help)
