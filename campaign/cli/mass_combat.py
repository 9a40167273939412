"""``campaign mc …``: GURPS Mass Combat — units, battles from a set-up file, pay, time and money.

Its commands are made from its command models (``campaign.cli.generated``); written here is only what differs:
``battle`` reads its set-up from a file (a PC's GURPS Character Sheet too), ``ransom`` is money in for a prisoner
(a ``funds`` of its own words), ``muster --from FILE.csv``, and the views (troop strength, the roster, ES, a
battle day re-run, the tables).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from campaign.cli import mass_combat_views
from campaign.cli.common import RecordedCommand, add_tables_view, in_force, make, recorded
from campaign.cli.generated import ruleset_app
from campaign.cli.interchange_cli import muster_from_file, print_roster_csv
from campaign.cli.options import CampaignOpt, FormatOpt, JsonOpt, wants_csv
from campaign.cli.output import Output, escape, handles_errors, print_rows
from campaign.i18n import DEFAULT, _, language, pgettext
from campaign.i18n.terms import shown
from campaign.read.describe import words
from campaign.rulesets import RULESETS
from campaign.rulesets.common import find_unit
from campaign.rulesets.inputs import meaning_of
from campaign.rulesets.kinds import BATTLE, NAME, SIDE, UNIT
from campaign.rulesets.mass_combat import calendar_commands as mct
from campaign.rulesets.mass_combat import commands as mcc
from campaign.rulesets.mass_combat.commands import parse_setup
from campaign.rulesets.mass_combat.economy import current_penalty
from campaign.rulesets.mass_combat.plugin import PLUGIN
from campaign.rulesets.mass_combat.state import CampaignState
from campaign.rulesets.mass_combat.strength import Strength, troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from events.errors import InvalidInputError


def _strength(state: CampaignState, tables: Tables, name: str, *, full: bool = False) -> Strength:
    """A unit's TS now: its fit men (or, with ``full``, every man alive once the wounded return)."""
    unit = find_unit(state, name, active=False)
    return troop_strength(tables, unit.profile, men=unit.profile.men if full else unit.fit)


@handles_errors
def ts(
    unit: Annotated[str, UNIT],
    full: Annotated[bool, typer.Option("--full", help="With the wounded back.")] = False,
    campaign: CampaignOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A unit's troop strength, with how it is made up."""
    _, state, tables = in_force(campaign, PLUGIN)
    strength = _strength(state, tables, unit, full=full)
    out = Output(as_json)
    if as_json:
        out.json(
            {
                "unit": unit,
                "ts": strength.total,
                "per_man": strength.per_man,
                "men": strength.men,
                "specials": strength.specials,
                "quality_pct": strength.quality_pct,
                "parts": list(strength.parts),
            }
        )
    else:
        out.console.print(f"{escape(unit)}: {escape(words(str(strength)))}")


@handles_errors
def roster(campaign: CampaignOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "table") -> None:
    """Every unit: men, wounded, quality, experience, TS, campaign Morale, arrears; and the treasuries."""
    csv = wants_csv(fmt, as_json)
    info, state, tables = in_force(campaign, PLUGIN)
    rows = []
    for u in state.roster.values():
        strength = _strength(state, tables, u.unit_id)
        rows.append(
            {
                "unit": u.name,
                "side": u.side,
                "men": u.profile.men,
                "wounded": u.wounded,
                "quality": u.profile.quality,
                "experience": u.profile.experience,
                "ts": strength.total,
                "campaign_morale": state.campaign_morale(u, tables, set()),
                "pay_penalty": u.pay.penalty,
                # the penalty in force now, as `status` shows it (the stored one does not decay after payment)
                "arrears": current_penalty(tables, u.pay, state.day),
                "modifiers": {m.name: m.value for m in u.modifiers.values()},
                "disbanded": u.disbanded,
            }
        )
    out = Output(as_json)
    if csv:
        print_roster_csv(PLUGIN, rows, list(state.roster.values()), state.roster)
        return
    if as_json:
        out.json({"units": rows, "treasury": dict(state.treasury), "day": state.day, "month": state.month})
        return
    columns = roster_columns()
    keys = ("unit", "side", "men", "wounded")
    cells = (
        (
            *(r[k] for k in keys),
            _quality(str(r["quality"])),
            r["experience"],
            r["ts"],
            f"{r['campaign_morale']:+d}",
            r["arrears"],
            _("disbanded") if r["disbanded"] else "",
        )
        for r in rows
    )
    # The month in progress as a game master counts it (the first is month 1), as the log's "month 1 of the
    # campaign ends" does; the state and --json count from 0.
    title = _("{campaign} — day {day}, month {month}").format(campaign=info.name, day=state.day, month=state.month + 1)
    print_rows(out, title, columns, cells)
    for side, money in sorted(state.treasury.items()):
        said = _("treasury of {side}: {amount}").format(side=escape(side), amount=_dollars(money))
        out.console.print(said)


def roster_columns() -> tuple[str, ...]:
    """The roster's columns in the reader's language (each in context "roster": a column's word, not a sentence's)."""
    return (
        pgettext("roster", "unit"), pgettext("roster", "side"), pgettext("roster", "men"),
        pgettext("roster", "wounded"), pgettext("roster", "quality"), pgettext("roster", "exp."),
        pgettext("roster", "TS"), pgettext("roster", "Morale ±"), pgettext("roster", "arrears"),
        pgettext("roster", "status"),
    )  # fmt: skip


def _quality(value: str) -> str:
    """A troop quality in the seed's words (Зеленые) for a Russian or Polish reader, as recorded in English."""
    return value if language() == DEFAULT else shown("mass-combat", "quality", value)


def _dollars(amount: int) -> str:
    """A sum of Mass Combat's dollars as the reader's locale writes money ("$12,500", "12 500 $", "12 500 USD")."""
    from campaign.i18n.formats import money

    return money(amount, "USD")


def battle(
    setup_file: Annotated[Path, typer.Argument(help="The battle set-up, TOML or JSON (see README).")],
    continue_: Annotated[
        str | None, BATTLE, typer.Option("--continue", help=meaning_of(mcc.Battle, "battle_id").description)
    ] = None,
    more_days: Annotated[
        bool, typer.Option("--more-days", help=meaning_of(mcc.Battle, "final_day").description)
    ] = False,
) -> RecordedCommand:
    """Resolve a battle day: catastrophes, the Strategy contest, Morale, casualties, PCs' Survival and Glory. A PC
    may name a GURPS Character Sheet (gcs = "FILE.gcs", weapon_skill = "SKILL"): read from it."""
    from campaign.interchange.gurps_sheet import read_battle_file

    data, _ = read_battle_file(setup_file)
    return make(mcc.Battle, setup=parse_setup(data), battle_id=continue_, final_day=not more_days)


def ransom(
    side: Annotated[str, SIDE], amount: int, prisoner: Annotated[str, NAME, typer.Option("--prisoner")]
) -> RecordedCommand:
    """A prisoner ransomed: the money goes to the side's treasury."""
    if amount <= 0:
        raise InvalidInputError.saying("a ransom is a positive sum")
    return make(mct.Funds, side=side, amount=amount, reason=f"ransom of {prisoner}")


def own(app: typer.Typer) -> None:
    """The hand-written commands and the views."""
    recorded(app, "battle", rolls=True)(battle)
    recorded(app, "ransom")(ransom)
    app.command("ts")(ts)
    app.command("roster")(roster)
    app.command("es")(mass_combat_views.es)
    app.command("replay")(mass_combat_views.replay)
    add_tables_view(app, PLUGIN, "Mass Combat")


app = ruleset_app(
    PLUGIN,
    RULESETS["mass-combat"].help,
    extras={"mc.muster": muster_from_file(PLUGIN)},
    own=own,
    skip=frozenset({"mc.battle"}),
)
