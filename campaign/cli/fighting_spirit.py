"""``campaign fs …``: the five-grade morale ruleset (fighting-spirit) at the table.

Its commands are made from its command models (``campaign.cli.generated``); written here is only what differs:
the roster view, the tables view, the line ``rest``/``march``/… print after what they appended (whose fatigue
the days changed), and ``muster --from FILE.csv``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer

from campaign.cli.campaign_views import current_summary
from campaign.cli.common import add_tables_view
from campaign.cli.fighting_spirit_status import status
from campaign.cli.generated import ruleset_app
from campaign.cli.interchange_cli import muster_from_file
from campaign.cli.output import Output
from campaign.rulesets import RULESETS
from campaign.rulesets.fighting_spirit.plugin import PLUGIN


@contextmanager
def fatigue_shown(campaign: str | None, as_json: bool) -> Iterator[None]:
    """After days pass, whose fatigue they changed, so nobody has to work it out from the record; read from the
    read models the append keeps, as `status` reads them: no second fold of the campaign."""
    before = {u["name"]: u["fatigue"] for u in current_summary(campaign, None)[1].units}
    yield
    if not as_json:
        after = {u["name"]: u["fatigue"] for u in current_summary(campaign, None)[1].units}
        changed = [f"{n} {before.get(n, 'fresh')} → {f}" for n, f in after.items() if before.get(n) != f]
        Output(False).console.print("fatigue: " + ("; ".join(changed) if changed else "unchanged for every unit"))


def views(app: typer.Typer) -> None:
    app.command("roster", help="Every unit in the battle being fought (or the last one): grade, men, markers, status.")(
        status
    )
    app.command("battle-status", hidden=True)(status)  # its first name, kept for scripts and old notes
    add_tables_view(app, PLUGIN, "five-grade")


app = ruleset_app(
    PLUGIN,
    RULESETS["fighting-spirit"].help,
    around={"fs.days": fatigue_shown},
    extras={"fs.muster": muster_from_file(PLUGIN)},
    own=views,
)
