"""``campaign mc …``: GURPS Mass Combat — units, battles from a set-up file, pay, time and money."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import orjson
import typer

from campaign.cli import mass_combat_views
from campaign.cli.common import Build, RecordedCommand, add_shared_commands, in_force, make, recorded
from campaign.cli.interchange_cli import print_roster_csv
from campaign.cli.options import CampaignOpt, FormatOpt, JsonOpt, SizeOpt, size_of, wants_csv
from campaign.cli.output import Output, handles_errors, print_rows
from campaign.cli.plain import escape
from campaign.describe import words
from campaign.rulesets.common import find_unit
from campaign.rulesets.mass_combat import calendar_commands as mct
from campaign.rulesets.mass_combat import commands as mcc
from campaign.rulesets.mass_combat.commands import parse_setup
from campaign.rulesets.mass_combat.economy import current_penalty
from campaign.rulesets.mass_combat.plugin import PLUGIN
from campaign.rulesets.mass_combat.state import CampaignState
from campaign.rulesets.mass_combat.strength import Strength, troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from campaign.rulesets.tables import parse_value
from events.errors import InvalidInputError

app = typer.Typer(
    help="GURPS Mass Combat (mass-combat, RULES.md §2): battles, troop strength, pay and glory.", no_args_is_help=True
)


def _strength(state: CampaignState, tables: Tables, name: str, *, full: bool = False) -> Strength:
    """A unit's TS now: its fit men (or, with ``full``, every man alive once the wounded return)."""
    unit = find_unit(state, name, active=False)
    return troop_strength(tables, unit.profile, men=unit.profile.men if full else unit.fit)


Men = Annotated[int | None, typer.Option("--men", hidden=True)]  # --size's first name
QualityOpt = Annotated[
    str | None,
    typer.Option(
        "--quality",
        help="inexperienced, green, average, seasoned, veteran, elite (none: the band of --experience; with "
        "neither, rolled on the 3d table).",
    ),
]
Experience = Annotated[int | None, typer.Option("--experience", help="Average battles per man.")]
ArmourOpt = Annotated[str, typer.Option("--armour", help="none, light, medium, heavy.")]
MountOpt = Annotated[str, typer.Option("--mount", help="none, light_horse, medium_horse, heavy_horse.")]
RangedOpt = Annotated[str, typer.Option("--ranged", help="sling, javelins, bow, longbow, crossbow, pistol …")]
Irregular = Annotated[bool, typer.Option("--irregular")]
TlOpt = Annotated[int, typer.Option("--tl")]
TroopType = Annotated[
    str | None,
    typer.Option("--troop-type", help="Yrth type for its price: HC, MC, LC, IC, HI, MI, PI, LI, II, SE, LE."),
]
CostOpt = Annotated[int | None, typer.Option("--cost-per-man", help="Recruitment cost of a man in $.")]
LeaderOpt = Annotated[int | None, typer.Option("--leadership", help="The unit commander's Leadership.")]
SetOpt = Annotated[list[str], typer.Option("--set", help="Any other profile field: KEY=VALUE (repeat).")]


def _new_unit(
    name: str,
    side: Annotated[str, typer.Option("--side")],
    size: SizeOpt = None,
    men: Men = None,
    quality: QualityOpt = None,
    experience: Experience = None,
    armour: ArmourOpt = "none",
    mount: MountOpt = "none",
    ranged: RangedOpt = "none",
    irregular: Irregular = False,
    tl: TlOpt = 3,
    troop_type: TroopType = None,
    cost_per_man: CostOpt = None,
    leadership: LeaderOpt = None,
    set_: SetOpt = [],  # noqa: B006  (Typer reads the default)
) -> dict[str, Any]:
    """A new unit's name, side and profile, from the options `muster` and `raise` share."""
    profile: dict[str, Any] = {
        "men": size_of(size, men),
        "armour": armour,
        "mount": mount,
        "ranged": ranged,
        "irregular": irregular,
        "tl": tl,
    }
    for key, value in (
        ("quality", quality),
        ("experience", experience),
        ("troop_type", troop_type),
        ("cost_per_man", cost_per_man),
        ("leader_leadership", leadership),
    ):
        if value is not None:
            profile[key] = value
    for item in set_:
        key, sep, raw = item.partition("=")
        if not sep:
            raise InvalidInputError(f"--set takes KEY=VALUE, not {item!r}")
        profile[key.strip()] = orjson.loads(raw) if raw[:1] in "[{" else parse_value(raw)
    return {"name": name, "side": side, "profile": profile}


def _taking_a_new_unit(*own: inspect.Parameter) -> Callable[[Callable[..., RecordedCommand]], Build]:
    """``build(unit, **own)`` as a command taking a new unit's options (:func:`_new_unit`'s, its ``own`` after
    ``--quality``): it is handed the unit's name, side and profile, and its ``own`` options by name."""
    shared = inspect.signature(_new_unit, eval_str=True)
    listed = list(shared.parameters.values())
    at = [p.name for p in listed].index("quality") + 1
    parameters = [*listed[:at], *own, *listed[at:]]

    def taking(build: Callable[..., RecordedCommand]) -> Build:
        @functools.wraps(build)
        def typed(**given: Any) -> RecordedCommand:
            options = {p.name: given.pop(p.name) for p in own}
            return build(_new_unit(**given), **options)

        typed.__signature__ = shared.replace(parameters=parameters)  # type: ignore[attr-defined]
        typed.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": RecordedCommand}
        return typed

    return taking


RANDOM_QUALITY = inspect.Parameter(
    "random_quality",
    inspect.Parameter.POSITIONAL_OR_KEYWORD,
    default=False,
    annotation=Annotated[bool, typer.Option("--random-quality", help="Roll 3d on the quality table.")],
)


@recorded(app, "muster", rolls=True, from_file=PLUGIN)
@_taking_a_new_unit()
def muster(unit: dict[str, Any]) -> RecordedCommand:
    """Add a unit to the roster (no cost: it was already serving; with neither --quality nor --experience, its
    quality is rolled on 3d). See `raise` to pay for a new one."""
    return make(mcc.Muster, **unit)


@recorded(app, "raise", rolls=True)
@_taking_a_new_unit(RANDOM_QUALITY)
def raise_(unit: dict[str, Any], random_quality: bool) -> RecordedCommand:
    """Raise a new unit and pay its recruitment cost from the side's treasury."""
    return make(mcc.Raise, **unit, random_quality=random_quality)


@recorded(app, "recruit", rolls=True)
def recruit(
    unit: str,
    men: Annotated[int, typer.Option("--men", help="How many men join.")],
    quality: Annotated[str | None, typer.Option("--quality")] = None,
    free: Annotated[bool, typer.Option("--free", help="Conscripts or volunteers: nothing is paid.")] = False,
) -> RecordedCommand:
    """Replacements join a unit (experience re-averaged; quality rolled when not given)."""
    return make(mcc.Recruit, unit_name=unit, men=men, quality=quality, pay=not free)


@app.command("ts")
@handles_errors
def ts(
    unit: str,
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


@app.command("roster")
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
    columns = ("unit", "side", "men", "wounded", "quality", "exp.", "TS", "Morale ±", "arrears", "status")
    keys = ("unit", "side", "men", "wounded", "quality", "experience", "ts")
    cells = ((*(r[k] for k in keys), f"{r['campaign_morale']:+d}", r["arrears"], r["disbanded"] or "") for r in rows)
    # The month in progress as a game master counts it (the first is month 1), as the log's "month 1 of the
    # campaign ends" does; the state and --json count from 0 (issue 13).
    print_rows(out, f"{info.name} — day {state.day}, month {state.month + 1}", columns, cells)
    for side, money in sorted(state.treasury.items()):
        out.console.print(f"treasury of {escape(side)}: ${money:,}")


@recorded(app, "battle", rolls=True)
def battle(
    setup_file: Annotated[Path, typer.Argument(help="The battle set-up, TOML or JSON (see README).")],
    continue_: Annotated[
        str | None, typer.Option("--continue", help="The battle (its name or number): another day of it.")
    ] = None,
    more_days: Annotated[bool, typer.Option("--more-days", help="The battle goes on tomorrow.")] = False,
) -> RecordedCommand:
    """Resolve a battle day: catastrophes, the Strategy contest, Morale, casualties, PCs' Survival and Glory. A PC
    may name a GURPS Character Sheet (gcs = "FILE.gcs", weapon_skill = "SKILL"): read from it."""
    from campaign.interchange.gurps_sheet import read_battle_file

    data, _ = read_battle_file(setup_file)
    return make(mcc.Battle, setup=parse_setup(data), battle_id=continue_, final_day=not more_days)


@recorded(app, "funds")
def funds(side: str, amount: int, reason: Annotated[str, typer.Option("--reason")]) -> RecordedCommand:
    """Money in (a purse, ransom, plunder) or out (negative); a treasury never goes below nothing."""
    return make(mct.Funds, side=side, amount=amount, reason=reason)


@recorded(app, "month-end", rolls=True)
def month_end(
    pay: Annotated[list[str], typer.Option("--pay", help="SIDE=PCT: 100 in full, 150/200 bonus, 0 missed.")],
) -> RecordedCommand:
    """End the month: upkeep and pay for each side named."""
    pcts: dict[str, int] = {}
    for item in pay:
        side, sep, pct = item.rpartition("=")
        if not sep or not pct.strip().lstrip("-").isdigit():
            raise InvalidInputError(f"--pay takes SIDE=PERCENT, not {item!r}")
        pcts[side] = int(pct)
    return make(mct.MonthEnd, pay_pct=pcts)


@recorded(app, "pay")
def pay_unit(unit: str, pct: Annotated[int, typer.Option("--pct")] = 100) -> RecordedCommand:
    """Pay one unit now (back pay, or a bonus)."""
    return make(mct.Pay, unit_name=unit, pay_pct=pct)


def _days(activity: str) -> None:
    def command(
        days: int,
        side: Annotated[str | None, typer.Option("--side")] = None,
        magic_healing: Annotated[bool, typer.Option("--magic-healing", help="Healers at hand: +1d% a day.")] = False,
        healers: Annotated[int | None, typer.Option("--healers", help="How many: 1 per 10 wounded.")] = None,
    ) -> RecordedCommand:
        return make(mct.Days, days=days, activity=activity, side=side, magic_healing=magic_healing, healers=healers)

    command.__doc__ = f"Days of {activity}: the wounded come back ((2+TL)% a day of rest, 2% of march)."
    recorded(app, activity, rolls=True)(command)  # after its __doc__, which becomes its help


_days("rest")
_days("march")


@recorded(app, "loot")
def loot(
    battle: Annotated[str, typer.Argument(help="The battle: its name or number.")],
    side: Annotated[str, typer.Option("--side", help="The side that held the field.")],
) -> RecordedCommand:
    """Strip the enemy's fallen after a battle (⅓ of their cost, sold for 20%, halved for cavalry)."""
    return make(mct.Loot, battle_id=battle, side=side)


@recorded(app, "ransom")
def ransom(side: str, amount: int, prisoner: Annotated[str, typer.Option("--prisoner")]) -> RecordedCommand:
    """A prisoner ransomed: the money goes to the side's treasury."""
    if amount <= 0:
        raise InvalidInputError("a ransom is a positive sum")
    return make(mct.Funds, side=side, amount=amount, reason=f"ransom of {prisoner}")


@recorded(app, "morale-mod")
def morale_mod(
    name: str,
    value: int,
    unit: Annotated[str | None, typer.Option("--unit")] = None,
    side: Annotated[str | None, typer.Option("--side")] = None,
    until: Annotated[str, typer.Option("--until", help="removed, clear_victory, year_end, month_end")] = "removed",
) -> RecordedCommand:
    """Set a persistent Morale modifier (0 removes it); 'vs SIDE: …' names count only against that side."""
    return make(mcc.Morale, name=name, value=value, unit=unit, side=side, until=until)


@recorded(app, "commander", rolls=True)
def commander(
    unit: str,
    leadership: Annotated[int | None, typer.Option("--leadership")] = None,
    npc: Annotated[bool, typer.Option("--npc", help="Roll the NPC's experience (3d) for his Leadership.")] = False,
) -> RecordedCommand:
    """A new unit commander takes over: the unit's quality drops one step."""
    return make(mcc.Commander, unit_name=unit, leadership=leadership, npc=npc)


@recorded(app, "train")
def train(unit: str, months: int) -> RecordedCommand:
    """Months of training: up to Green at most, never higher without combat."""
    return make(mcc.Train, unit_name=unit, months=months)


@recorded(app, "treason", rolls=True)
def treason(unit: str) -> RecordedCommand:
    """Treason forces a Morale roll: failure −1, success +1, until a clear victory."""
    return make(mct.Treason, unit_name=unit)


app.command("es")(mass_combat_views.es)
app.command("replay")(mass_combat_views.replay)
add_shared_commands(
    app,
    PLUGIN,
    ("Mass Combat", "casualties.offset_base"),
    "Fit men move to a unit of the same side and troop type (experience re-averaged).",
)
