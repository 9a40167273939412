"""``campaign fs battle-status``: the battle being fought (or the last one), as the five-grade rules see it."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from campaign.cli.common import in_force
from campaign.cli.interchange_cli import print_roster_csv
from campaign.cli.options import CampaignOpt, FormatOpt, JsonOpt, wants_csv
from campaign.cli.output import Output, handles_errors, print_rows
from campaign.rulesets.fighting_spirit.plugin import PLUGIN
from events.errors import InvalidInputError


@handles_errors
def status(
    campaign: CampaignOpt = None,
    at: Annotated[int | None, typer.Option("--at", help="As it was at this seq.")] = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "table",
) -> None:
    """Every unit's grade, men, markers and status in the battle being fought (or the last one)."""
    csv = wants_csv(fmt, as_json)
    _, state, _ = in_force(campaign, PLUGIN, at)
    battle_id = state.active_battle or (list(state.battles)[-1] if state.battles else None)
    if battle_id is None:
        raise InvalidInputError("no battle has been fought in this campaign yet")
    battle = state.battles[battle_id]
    rows = []
    for unit_id, u in battle.units.items():
        roster = state.roster[unit_id]
        rows.append(
            {
                "unit": roster.name,
                "side": u.side,
                "grade": "no step back" if u.last_stand else u.grade,
                "start_grade": u.start_grade,
                "men": u.men,
                "unverified": u.unverified,
                "dead": u.dead,
                "suppression": u.suppression,
                "prone": u.prone,
                "in_cover": u.in_cover,
                "panic": u.panic,
                "abandoned_wounded": u.abandoned_wounded,
                "removed": u.removed,
            }
        )
    out = Output(as_json)
    if csv:
        print_roster_csv(PLUGIN, rows, [state.roster[unit_id] for unit_id in battle.units], state.roster)
        return
    if as_json:
        out.json(
            {
                "battle": battle.name,
                "turn": battle.turn,
                "ended": battle.ended,
                "motivation": dict(battle.motivation),
                "units": rows,
            }
        )
        return
    title = f"{battle.name} — turn {battle.turn}" + (" (ended)" if battle.ended else "")
    columns = ("unit", "side", "grade", "start", "men", "unverified", "dead", "supp.", "position", "status")
    print_rows(out, title, columns, (_cells(r) for r in rows))


def _cells(r: dict[str, Any]) -> tuple[object, ...]:
    position = ", ".join(p for p, on in (("prone", r["prone"]), ("cover", r["in_cover"])) if on) or "open"
    status_text = (
        r["removed"]
        or (r["panic"] if r["panic"] != "none" else "")
        or ("abandoned wounded" if r["abandoned_wounded"] else "")
    )
    keys = ("unit", "side", "grade", "start_grade", "men", "unverified", "dead", "suppression")
    return (*(r[k] for k in keys), position, status_text)
