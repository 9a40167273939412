"""``campaign dis …``: the disorder-marker ruleset (seed 001) at the table.

Its commands are made from its command models (``campaign.cli.generated``); written here are its views: the
roster (units, their markers in the battle being fought, every officer's Glory and rank) and the tables; and
``muster --from FILE.csv``.
"""

from __future__ import annotations

from collections.abc import Mapping

import typer

from campaign.cli.common import add_tables_view, in_force
from campaign.cli.generated import ruleset_app
from campaign.cli.interchange_cli import muster_from_file, print_roster_csv
from campaign.cli.options import CampaignOpt, FormatOpt, JsonOpt, wants_csv
from campaign.cli.output import Output, escape, handles_errors, print_rows
from campaign.i18n import N_, _, ngettext, pgettext
from campaign.i18n.terms import shown as term
from campaign.read.describe import amount, count
from campaign.rulesets import RULESETS
from campaign.rulesets.disorder.fold import make_fold
from campaign.rulesets.disorder.plugin import PLUGIN
from campaign.rulesets.disorder.rules import state_name
from events.recorded import obj, seq, text, whole


@handles_errors
def roster(campaign: CampaignOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "table") -> None:
    """Every unit (and, during a battle, its models and markers) and every officer's Glory and rank."""
    csv = wants_csv(fmt, as_json)
    info, state, _tables = in_force(campaign, PLUGIN)
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
    title = (
        _("{campaign} — {battle}, turn {turn}").format(campaign=info.name, battle=battle.name, turn=battle.turn)
        if battle
        else info.name
    )
    # TRANSLATORS: the disorder roster's unit: the seed's own word (подразделение), as its force is another (отряд)
    headings = [pgettext("disorder", "unit"), *(_(c) for c in COLUMNS)]
    print_rows(out, title, headings, (_cells(r) for r in units))
    for o in officers:
        rank = term("disorder", "rank", str(o["rank"])) if o["rank"] != "—" else "—"
        said = _("{officer} ({side}): {glory} {points}, {rank}, {battles}").format(
            officer=o["officer"],
            side=o["side"],
            glory=term("disorder", "glory", "glory"),
            points=amount(whole(o["glory"])),
            rank=rank,
            battles=count(whole(o["battles"]), "battles"),
        )
        out.console.print(escape(said))


COLUMNS = (N_("side"), N_("troops"), N_("models"), N_("points"), N_("battles"), N_("on the table"))
"""The roster's headings after the unit's (translated when shown)."""


def _state(state: str) -> str:
    """A unit's state on the table in the seed's words (in order, disordered, broken; fled), or as recorded."""
    key = state.replace(" ", "_")
    return term("disorder", "state", key) if key in ("in_order", "disordered", "broken", "fled") else state


def _cells(r: Mapping[str, object]) -> tuple[object, ...]:
    on_table = r.get("in_battle")
    if on_table:
        held = obj(on_table)
        n = whole(held["models"])
        models = ngettext("{n} model", "{n} models", n).format(n=amount(n))
        shown = f"{models}, {_state(str(held['state']))}" + (", " + _("must rally") if held["must_rally"] else "")
    else:
        shown = str(r["disbanded"] or "")
    troops = term("disorder", "troops", str(r["troops"]))
    return (r["unit"], r["side"], troops, r["models"], r["points"], r["battles"], shown)


def own(app: typer.Typer) -> None:
    app.command("roster")(roster)
    add_tables_view(app, PLUGIN, N_("disorder-marker"))


app = ruleset_app(PLUGIN, RULESETS["disorder"].help, extras={"dis.muster": muster_from_file(PLUGIN)}, own=own)
