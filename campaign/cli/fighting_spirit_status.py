"""``campaign fs battle-status``: the battle being fought (or the last one), as the five-grade rules see it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

import typer

from campaign.cli.common import in_force
from campaign.cli.interchange_cli import print_roster_csv
from campaign.cli.options import CampaignOpt, FormatOpt, JsonOpt, wants_csv
from campaign.cli.output import Output, handles_errors, print_rows
from campaign.i18n import N_, _, pgettext
from campaign.i18n.terms import shown
from campaign.rulesets.fighting_spirit.plugin import PLUGIN
from campaign.rulesets.state import last_started
from events.errors import InvalidInputError
from events.recorded import text


@handles_errors
def status(
    campaign: CampaignOpt = None,
    at: Annotated[int | None, typer.Option("--at", help="As it was at this seq.")] = None,
    as_json: JsonOpt = False,
    fmt: FormatOpt = "table",
) -> None:
    """Every unit's grade, men, markers and status in the battle being fought (or the last one)."""
    csv = wants_csv(fmt, as_json)
    _ledger, state, _tables = in_force(campaign, PLUGIN, at)
    battle = state.battles[state.active_battle] if state.active_battle else last_started(state.battles)
    if battle is None:
        raise InvalidInputError.saying("no battle has been fought in this campaign yet")
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
    title = (_("{battle} — turn {turn} (ended)") if battle.ended else _("{battle} — turn {turn}")).format(
        battle=battle.name, turn=battle.turn
    )
    print_rows(out, title, _headings(), (_cells(r) for r in rows))


def _headings() -> tuple[str, ...]:
    """The table's headings in the reader's language (each a literal call, so the catalogs find it)."""
    return (
        pgettext("roster", "unit"), pgettext("roster", "side"), pgettext("roster", "grade"),
        pgettext("roster", "start"), pgettext("roster", "men"), pgettext("roster", "unverified"),
        pgettext("roster", "dead"), pgettext("roster", "supp."), pgettext("roster", "position"),
        pgettext("roster", "status"),
    )  # fmt: skip


_STATES = {"panicking": N_("panicking"), "immune": N_("immune to panic")}


def _grade(grade: str) -> str:
    """A grade in the seed's words for the reader ("no step back" is the last stand, R3-2's, not a grade)."""
    return _("no step back") if grade == "no step back" else shown("fighting-spirit", "grade", grade)


def _cells(r: Mapping[str, object]) -> tuple[object, ...]:
    where = [_(p) for p, on in ((N_("prone"), r["prone"]), (N_("cover"), r["in_cover"])) if on]
    recorded = text(r["panic"])
    panic = _(_STATES[recorded]) if recorded in _STATES else ("" if recorded == "none" else recorded)
    status_text = r["removed"] or panic or (_("abandoned wounded") if r["abandoned_wounded"] else "")
    counts = ("men", "unverified", "dead", "suppression")
    return (
        r["unit"], r["side"], _grade(text(r["grade"])), _grade(text(r["start_grade"])), *(r[k] for k in counts),
        ", ".join(where) or _("open"), status_text,
    )  # fmt: skip
