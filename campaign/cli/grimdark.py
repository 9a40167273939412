"""``campaign gf …``: One Page Rules Grimdark Future (grimdark) at the table and between matches.

Its commands are made from its command models (``campaign.cli.generated``); written here are its views (the
roster: every unit, each army's value, underdog points and VP; the tables), ``import-list`` (an Army Forge list
read from its file) and ``muster --from FILE.csv``.
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
from campaign.rulesets.grimdark.plugin import PLUGIN
from campaign.rulesets.grimdark.rules import underdog_points


@handles_errors
def army(campaign: CampaignOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "table") -> None:
    """Every unit (XP, traits, cost; on the table: models, Shaken), each army's value, underdog points and VP."""
    csv = wants_csv(fmt, as_json)
    info, state, tables = in_force(campaign, PLUGIN)
    battle = state.battles[state.active_battle] if state.active_battle else None
    units = []
    for u in sorted(state.roster.values(), key=lambda u: (u.side, u.name)):
        row: dict[str, object] = {
            "unit": u.name,
            "side": u.side,
            "models": u.profile.models,
            "quality": u.profile.quality,
            "tough": u.tough,
            "points": u.points,
            "xp": u.xp,
            "traits": list(u.traits),
            "battles": u.battles,
            "off_roster": u.disbanded,
        }
        if battle is not None and u.unit_id in battle.units:
            b = battle.units[u.unit_id]
            row["in_battle"] = {"models": b.models, "shaken": b.shaken, "removed": b.removed}
        units.append(row)
    values = state.army_values()
    underdog = underdog_points(tables, values)
    armies = {
        side: {
            "value": values.get(side, 0),
            "underdog_points": underdog.get(side, 0),
            "victory_points": state.victory_points.get(side, 0),
            "campaign_points": state.treasury.get(side, 0),
        }
        for side in sorted({u.side for u in state.roster.values()})
    }
    out = Output(as_json)
    if csv:
        print_roster_csv(PLUGIN, units, sorted(state.roster.values(), key=lambda u: (u.side, u.name)), state.roster)
        return
    if as_json:
        out.json({"battle": battle.name if battle else None, "units": units, "armies": armies})
        return
    title = f"{info.name}" + (f" — {battle.name}, turn {battle.round}" if battle else "")  # `gf turn` begins one
    columns = ("unit", "side", "models", "Q", "pts", "XP", "traits", "on the table")
    print_rows(out, title, columns, (_cells(r) for r in units))
    for side, a in armies.items():
        out.console.print(
            f"{escape(side)}: army {a['value']} pts, {count(a['underdog_points'], 'underdog points')}, "
            f"{a['victory_points']} VP, "
            f"{a['campaign_points']} campaign points"
        )


def _cells(r: dict[str, Any]) -> tuple[object, ...]:
    on_table = r.get("in_battle")
    shown = ""
    if isinstance(on_table, dict):
        shown = on_table["removed"] or f"{on_table['models']} models" + (", Shaken" if on_table["shaken"] else "")
    traits = ", ".join(r["traits"]) if isinstance(r["traits"], list) else ""
    shown = shown or str(r["off_roster"] or "")
    return (r["unit"], r["side"], r["models"], f"{r['quality']}+", r["points"], r["xp"], traits, shown)


def own(app: typer.Typer) -> None:
    """The views: `roster` as in the other rulesets (its first name, `army`, still works, unlisted), `tables`
    (its `import-list`, an Army Forge list read from its file, is its plug-in's `army_list`)."""
    app.command("roster")(army)
    app.command("army", hidden=True)(army)
    add_tables_view(app, PLUGIN, "Grimdark Future")


app = ruleset_app(
    PLUGIN,
    RULESETS["grimdark"].help,
    extras={"gf.muster": muster_from_file(PLUGIN)},
    own=own,
)
