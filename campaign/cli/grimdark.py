"""``campaign gf …``: One Page Rules Grimdark Future (grimdark) at the table and between matches.

Its commands are made from its command models (``campaign.cli.generated``); written here are its views (the
roster: every unit, each army's value, underdog points and VP; the tables), ``import-list`` (an Army Forge list
read from its file) and ``muster --from FILE.csv``.
"""

from __future__ import annotations

from collections.abc import Mapping

import typer

from campaign.cli.common import add_tables_view, in_force
from campaign.cli.generated import ruleset_app
from campaign.cli.interchange_cli import muster_from_file, print_roster_csv
from campaign.cli.options import CampaignOpt, FormatOpt, JsonOpt, wants_csv
from campaign.cli.output import Output, escape, handles_errors, print_rows
from campaign.i18n import N_, _, ngettext
from campaign.i18n.formats import number
from campaign.i18n.terms import shown as term
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
    title = (  # `gf turn` begins one
        _("{campaign} — {battle}, turn {turn}").format(campaign=info.name, battle=battle.name, turn=battle.round)
        if battle
        else info.name
    )
    columns = [_(c) for c in COLUMNS]
    print_rows(out, title, columns, (_cells(r) for r in units))
    for side, a in armies.items():
        said = _("{side}: army {value}, {underdog}, {vp} VP, {campaign}").format(
            side=escape(side),
            value=ngettext("{n} pt", "{n} pts", a["value"]).format(n=number(a["value"])),
            underdog=ngettext("{n} underdog point", "{n} underdog points", a["underdog_points"]).format(
                n=number(a["underdog_points"])
            ),
            vp=number(a["victory_points"]),
            campaign=ngettext("{n} campaign point", "{n} campaign points", a["campaign_points"]).format(
                n=number(a["campaign_points"])
            ),
        )
        out.console.print(said)


COLUMNS = (N_("unit"), N_("side"), N_("models"), N_("Q"), N_("pts"), N_("XP"), N_("traits"), N_("on the table"))
"""The roster's headings (translated when shown)."""


def _cells(r: Mapping[str, object]) -> tuple[object, ...]:
    on_table = r.get("in_battle")
    shown = ""
    if isinstance(on_table, dict):
        removed = on_table["removed"]
        shown = (
            term("grimdark", "casualty", str(removed))
            if removed
            else ngettext("{n} model", "{n} models", on_table["models"]).format(n=number(on_table["models"]))
            + (", " + term("grimdark", "status", "shaken") if on_table["shaken"] else "")
        )
    traits = ", ".join(r["traits"]) if isinstance(r["traits"], list) else ""
    shown = shown or (_("off the roster") if r["off_roster"] is True else str(r["off_roster"] or ""))
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
