"""``campaign dis …``: the disorder-marker ruleset (seed 001) at the table.

Its commands are made from its command models (``campaign.cli.generated``); written here are its views: the
roster (units, their markers in the battle being fought, every officer's Glory and rank) and the tables; and
``muster --from FILE.csv``.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.markup import escape

from campaign.cli.common import add_tables_view, in_force
from campaign.cli.generated import ruleset_app
from campaign.cli.interchange_cli import muster_from_file, print_roster_csv
from campaign.cli.options import CampaignOpt, FormatOpt, JsonOpt, wants_csv
from campaign.cli.output import Output, handles_errors, print_rows
from campaign.read.describe import count
from campaign.rulesets import RULESETS
from campaign.rulesets.disorder.fold import make_fold
from campaign.rulesets.disorder.plugin import PLUGIN
from campaign.rulesets.disorder.rules import state_name
from events.recorded import seq, text, whole


@handles_errors
def roster(campaign: CampaignOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "table") -> None:
    """Every unit (and, during a battle, its models and markers) and every officer's Glory and rank."""
    csv = wants_csv(fmt, as_json)
    info, state, _ = in_force(campaign, PLUGIN)
    battle = state.battles[state.active_battle] if state.active_battle else None
    summary = make_fold({}).summary(state)  # the rows every view of the campaign shows
    units = []
    for u in summary.units:
        row: dict[str, object] = {"unit": u["name"], **{k: v for k, v in u.items() if k not in ("unit_id", "name")}}
        if battle is not None and (unit_id := text(u["unit_id"])) in battle.units:
            b = battle.units[unit_id]
            row["in_battle"] = {
                "models": b.models,
                "markers": b.markers,
                "permanent": b.permanent,
                "state": b.removed or state_name(b.markers + b.permanent),
                "must_rally": b.removed is None and b.must_rally is not None and b.must_rally <= battle.turn,
            }
        units.append(row)
    officers = [
        {"officer": c["pc"], "side": c["side"], "glory": c["glory"], "rank": c["rank"] or "—"}
        | {"battles": len(seq(c["battles"]))}
        for c in summary.careers
    ]
    out = Output(as_json)
    if csv:
        print_roster_csv(PLUGIN, units, [state.roster[text(u["unit_id"])] for u in summary.units], state.roster)
        return
    if as_json:
        out.json({"battle": battle.name if battle else None, "units": units, "officers": officers})
        return
    title = f"{info.name}" + (f" — {battle.name}, turn {battle.turn}" if battle else "")
    columns = ("unit", "side", "troops", "models", "points", "battles", "on the table")
    print_rows(out, title, columns, (_cells(r) for r in units))
    for o in officers:
        who = escape(f"{o['officer']} ({o['side']})")
        out.console.print(f"{who}: Glory {o['glory']}, {o['rank']}, {count(whole(o['battles']), 'battles')}")


def _cells(r: dict[str, Any]) -> tuple[object, ...]:
    on_table = r.get("in_battle")
    shown = (
        f"{on_table['models']} models, {on_table['state']}" + (", must rally" if on_table["must_rally"] else "")
        if on_table
        else str(r["disbanded"] or "")
    )
    return (*(r[k] for k in ("unit", "side", "troops", "models", "points", "battles")), shown)


def own(app: typer.Typer) -> None:
    app.command("roster")(roster)
    add_tables_view(app, PLUGIN, "disorder-marker")


app = ruleset_app(PLUGIN, RULESETS["disorder"].help, extras={"dis.muster": muster_from_file(PLUGIN)}, own=own)
