"""``campaign fs …``: the five-grade morale ruleset (fighting-spirit) at the table.

Its commands are made from its command models (``campaign.cli.generated``); written here is only what differs:
the roster view, the tables view and ``muster --from FILE.csv``. (Whose fatigue days changed is said after
what they appended, as every command's changes of standing are: ``campaign.cli.common.execute``.)
"""

from __future__ import annotations

import typer

from campaign.cli.common import add_tables_view
from campaign.cli.fighting_spirit_status import status
from campaign.cli.generated import ruleset_app
from campaign.cli.interchange_cli import muster_from_file
from campaign.i18n import N_
from campaign.rulesets import RULESETS
from campaign.rulesets.fighting_spirit.plugin import PLUGIN


def views(app: typer.Typer) -> None:
    app.command("roster", help="Every unit in the battle being fought (or the last one): grade, men, markers, status.")(
        status
    )
    app.command("battle-status", hidden=True)(status)  # its first name, kept for scripts and old notes
    add_tables_view(app, PLUGIN, N_("five-grade"))


app = ruleset_app(
    PLUGIN,
    RULESETS["fighting-spirit"].help,
    extras={"fs.muster": muster_from_file(PLUGIN)},
    own=views,
)
