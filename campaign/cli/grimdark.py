"""``campaign gf …``: One Page Rules Grimdark Future (grimdark) at the table and between matches."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from campaign.cli.common import RecordedCommand, add_shared_commands, in_force, make, profile_changes, recorded
from campaign.cli.interchange_cli import import_list, print_roster_csv
from campaign.cli.options import CampaignOpt, FormatOpt, JsonOpt, SizeOpt, size_of, wants_csv
from campaign.cli.output import Output, handles_errors, print_rows
from campaign.cli.plain import escape
from campaign.describe import count
from campaign.rulesets.grimdark import commands as gfc
from campaign.rulesets.grimdark.edit import Edit
from campaign.rulesets.grimdark.plugin import PLUGIN
from campaign.rulesets.grimdark.rules import underdog_points
from events.errors import InvalidInputError

app = typer.Typer(
    help="One Page Rules Grimdark Future (grimdark, RULES.md §4): morale tests, Shaken and Rout, XP and traits.",
    no_args_is_help=True,
)


def _profile(
    size: int | None,
    models: int | None,
    quality: int,
    points: int,
    tough: int,
    fearless: bool,
    hero: bool,
    skill_set: str | None,
) -> dict[str, object]:
    """A unit's profile as ``muster`` and ``buy`` take it (``--models`` is ``--size``'s first name)."""
    return {"models": size_of(size, models), "quality": quality, "points": points, "tough": tough} | {
        "fearless": fearless,
        "hero": hero,
        "skill_set": skill_set,
    }


XpOpt = Annotated[int, typer.Option("--xp", help="XP it brings from a campaign begun elsewhere.")]
TraitOpt = Annotated[
    list[str] | None, typer.Option("--trait", help="A trait it has already (Agile, Toughened …); repeat.")
]


@recorded(app, "muster", from_file=PLUGIN)
def muster(
    name: str,
    side: Annotated[str, typer.Option("--side", help="The army it belongs to.")],
    quality: Annotated[int, typer.Option("--quality", help="Quality N+ (2–6).")],
    points: Annotated[int, typer.Option("--points", help="Its cost as its sheet has it (levels included).")],
    size: SizeOpt = None,
    models: Annotated[int | None, typer.Option("--models", hidden=True)] = None,
    tough: Annotated[int, typer.Option("--tough", help="Tough(X) of each model.")] = 1,
    fearless: Annotated[bool, typer.Option("--fearless", help="Every model has Fearless.")] = False,
    hero: Annotated[bool, typer.Option("--hero", help="A hero (a single model).")] = False,
    skill_set: Annotated[
        str | None, typer.Option("--skill-set", help="A hero's skill set: Captain, Healer or Support.")
    ] = None,
    defense: Annotated[int | None, typer.Option("--defense", help="Defense N+ (2–6), as its sheet has it.")] = None,
    xp: XpOpt = 0,
    trait: TraitOpt = None,
) -> RecordedCommand:
    """Add a unit to the army sheet (a unit of a campaign begun elsewhere with its --xp and --trait)."""
    profile = _profile(size, models, quality, points, tough, fearless, hero, skill_set)
    if defense is not None:
        profile["defense"] = defense
    return make(gfc.Muster, name=name, side=side, profile=profile, xp=xp, traits=tuple(trait or ()))


@recorded(app, "edit")
def edit(
    unit: str,
    set_: Annotated[
        list[str] | None, typer.Option("--set", help="A profile field and its new value: KEY=VALUE.")
    ] = None,
    xp: Annotated[int | None, typer.Option("--xp", help="Its XP from now on.")] = None,
    trait: Annotated[
        list[str] | None, typer.Option("--trait", help="A trait it has and the record lacks; repeat.")
    ] = None,
) -> RecordedCommand:
    """Change a unit's profile, XP or traits (recorded: the log keeps what they were before)."""
    return make(Edit, unit_name=unit, changes=profile_changes(set_ or []), xp=xp, traits=tuple(trait or ()))


@recorded(app, "buy")
def buy(
    name: str,
    side: Annotated[str, typer.Option("--side", help="The army that pays with its campaign points.")],
    quality: Annotated[int, typer.Option("--quality", help="Quality N+ (2–6).")],
    points: Annotated[int, typer.Option("--points")],
    size: SizeOpt = None,
    models: Annotated[int | None, typer.Option("--models", hidden=True)] = None,
    tough: Annotated[int, typer.Option("--tough", help="Tough(X) of each model.")] = 1,
    fearless: Annotated[bool, typer.Option("--fearless")] = False,
    hero: Annotated[bool, typer.Option("--hero")] = False,
    skill_set: Annotated[str | None, typer.Option("--skill-set", help="A hero's skill set.")] = None,
) -> RecordedCommand:
    """Buy a unit with the army's campaign points (no army may exceed the lowest by more than 250 pts)."""
    profile = _profile(size, models, quality, points, tough, fearless, hero, skill_set)
    return make(gfc.Buy, name=name, side=side, profile=profile)


@recorded(app, "sell")
def sell(unit: str) -> RecordedCommand:
    """Sell a unit between matches: its points go back to the army's campaign points."""
    return make(gfc.Sell, unit_name=unit)


@recorded(app, "battle-start", rolls=True)
def battle_start(
    name: str,
    unit: Annotated[list[str], typer.Option("--unit", help="A unit on the table; repeat.")],
    join: Annotated[
        list[str] | None, typer.Option("--join", help="JOINER=UNIT: a hero joins a unit, or a like unit combines.")
    ] = None,
    special: Annotated[bool, typer.Option("--special", help="Each side rolls a special objective.")] = False,
) -> RecordedCommand:
    """Start a match with the units listed (their starting size is set now)."""
    joins: dict[str, str] = {}
    for pair in join or []:
        hero, sep, target = pair.partition("=")
        if not sep or not hero.strip() or not target.strip():
            raise InvalidInputError(f"--join must look like HERO=UNIT, not {pair!r}")
        joins[hero.strip()] = target.strip()
    return make(gfc.StartBattle, name=name, units=tuple(unit), joins=joins, special=special)


def next_round() -> RecordedCommand:
    """Begin the next round."""
    return gfc.NextRound()


@recorded(app, "shoot", rolls=True)
def shoot(
    unit: str,
    wounds: Annotated[int, typer.Option("--wounds", help="Unblocked wounds it took in this activation.")],
    by: Annotated[
        str | None, typer.Option("--by", help="The unit that shot, in its activation (for XP); not a Shaken unit.")
    ] = None,
    models_lost: Annotated[
        int | None, typer.Option("--models-lost", help="Models killed, when the wounds were allocated otherwise.")
    ] = None,
) -> RecordedCommand:
    """Wounds outside melee; at half strength the unit tests at the end of the activation (Shaken on a fail)."""
    return make(gfc.Shoot, unit_name=unit, wounds=wounds, by=by, models_lost=models_lost)


@recorded(app, "melee", rolls=True)
def melee(
    a: str,
    b: str,
    a_wounds: Annotated[int, typer.Option("--a-wounds", help="Unblocked wounds caused by A.")],
    b_wounds: Annotated[int, typer.Option("--b-wounds", help="Unblocked wounds caused by B.")],
    a_lost: Annotated[int | None, typer.Option("--a-lost", help="Models A lost, if allocated otherwise.")] = None,
    b_lost: Annotated[int | None, typer.Option("--b-lost", help="Models B lost, if allocated otherwise.")] = None,
    charger: Annotated[
        str | None, typer.Option("--charger", help="The unit that charged (A or B), in its activation; not Shaken.")
    ] = None,
) -> RecordedCommand:
    """A melee: the side that caused fewer unblocked wounds tests; a fail at half strength Routs."""
    return make(
        gfc.Melee, a=a, b=b, wounds_by_a=a_wounds, wounds_by_b=b_wounds, a_lost=a_lost, b_lost=b_lost, charger=charger
    )


@recorded(app, "recover")
def recover(unit: str) -> RecordedCommand:
    """A Shaken unit's next activation, spent idle: it is no longer Shaken (not in a round it has activated in)."""
    return make(gfc.Recover, unit_name=unit)


@recorded(app, "activate")
def activate(unit: str) -> RecordedCommand:
    """A unit's activation with nothing else to record (it holds, advances or rushes); once a round."""
    return make(gfc.Activate, unit_name=unit)


@recorded(app, "remove")
def remove(
    unit: str,
    reason: Annotated[str, typer.Option("--reason", help="destroyed, routed, or another reason.")],
    by: Annotated[str | None, typer.Option("--by", help="The unit that destroyed or routed it (for XP).")] = None,
) -> RecordedCommand:
    """Remove a unit from the table (destroyed or routed makes it a casualty)."""
    return make(gfc.Remove, unit_name=unit, reason=reason, by=by)


@recorded(app, "battle-end", rolls=True)
def battle_end(
    winner: Annotated[str | None, typer.Option("--winner", help="The winning army; leave out for a draw.")] = None,
    special_achieved: Annotated[
        list[str] | None, typer.Option("--special-achieved", help="A side that achieved its special objective.")
    ] = None,
) -> RecordedCommand:
    """End the match: casualty rolls, XP and level-ups, mission rewards (VP and campaign points)."""
    return make(gfc.EndBattle, winner=winner, special_achieved=tuple(special_achieved or ()))


@recorded(app, "disband")
def disband(unit: str, reason: Annotated[str, typer.Option("--reason")] = "sold") -> RecordedCommand:
    """Take a unit off the army sheet between matches."""
    return make(gfc.Disband, unit_name=unit, reason=reason)


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


add_shared_commands(app, PLUGIN, ("Grimdark Future", "rewards.loser_points"), edit=False)
app.command("import-list")(import_list)


# One vocabulary across the rulesets: `turn` and `roster` as in the others; the old names still work, unlisted.
recorded(app, "turn", help="Begin the next turn (a round, in Grimdark's words).")(next_round)
recorded(app, "round", hidden=True)(next_round)
app.command("roster")(army)
app.command("army", hidden=True)(army)
