"""``campaign dis …``: the disorder-marker ruleset (seed 001) at the table."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from campaign.cli.common import RecordedCommand, add_shared_commands, in_force, make, recorded
from campaign.cli.interchange_cli import print_roster_csv
from campaign.cli.options import CampaignOpt, FormatOpt, JsonOpt, SizeOpt, size_of, wants_csv
from campaign.cli.output import Output, handles_errors, print_rows
from campaign.cli.plain import escape
from campaign.describe import count
from campaign.rulesets.disorder import battle_commands as disb
from campaign.rulesets.disorder import commands as disc
from campaign.rulesets.disorder.fold import make_fold
from campaign.rulesets.disorder.plugin import PLUGIN
from campaign.rulesets.disorder.rules import state_name
from events.errors import InvalidInputError

app = typer.Typer(
    help="Disorder markers and officer careers (disorder, RULES.md §1): checks, rallies, retreats, Glory.",
    no_args_is_help=True,
)

CloseOrder = Annotated[bool, typer.Option("--close-order", help="In close order or square (+1).")]
OfficerNear = Annotated[bool, typer.Option("--officer-near", help='Within 12" of a unit containing an officer (+1).')]
FriendAt = Annotated[
    str | None,
    typer.Option("--friend-at", help='Inches, as measured, to the friendly unit removed (friend_removed: within 12").'),
]


@recorded(app, "muster", from_file=PLUGIN)
def muster(
    name: str,
    side: Annotated[str, typer.Option("--side", help="The side (force) it fights for.")],
    troops: Annotated[str, typer.Option("--troops", help="militia, line, light, rifles or guard (→ Discipline).")],
    points: Annotated[int, typer.Option("--points", help="Its cost in the force's points.")],
    size: SizeOpt = None,
    models: Annotated[int | None, typer.Option("--models", hidden=True)] = None,
    contingent: Annotated[
        str | None,
        typer.Option(
            "--contingent", help="An allied contingent of the side's force: on its side, not in its points (R3-13)."
        ),
    ] = None,
) -> RecordedCommand:
    """Add a unit to the roster."""
    profile: dict[str, object] = {"models": size_of(size, models), "troops": troops, "points": points}
    if contingent is not None:
        profile["contingent"] = contingent
    return make(disc.Muster, name=name, side=side, profile=profile)


@recorded(app, "officer")
def officer(side: str, name: str) -> RecordedCommand:
    """Appoint the officer commanding a side's force; his Glory and rank follow him."""
    return make(disc.Appoint, side=side, officer=name)


@recorded(app, "battle-start")
def battle_start(
    name: str,
    unit: Annotated[list[str], typer.Option("--unit", help="A unit deployed at its roster strength; repeat.")],
    scenario: Annotated[str, typer.Option("--scenario")] = "",
    encounter: Annotated[
        bool,
        typer.Option("--encounter", help="A plain encounter battle: the side that destroys more enemy models wins."),
    ] = False,
) -> RecordedCommand:
    """Start a scenario with the units deployed (two sides at least, each under an officer)."""
    return make(disb.StartBattle, name=name, units=tuple(unit), scenario=scenario, encounter=encounter)


@recorded(app, "turn")
def turn() -> RecordedCommand:
    """Begin the next turn."""
    return disb.NextTurn()


@recorded(app, "hit", rolls=True)
def hit(
    unit: str,
    lost: Annotated[int, typer.Option("--lost", help="Models lost.")],
    cause: Annotated[str, typer.Option("--cause", help="shooting or melee.")] = "shooting",
    also: Annotated[
        list[str] | None,
        typer.Option("--also", help="Another cause in the same action: friend_removed, officer_removed, force_half."),
    ] = None,
    close_order: CloseOrder = False,
    officer_near: OfficerNear = False,
    friend_at: FriendAt = None,
) -> RecordedCommand:
    """Models lost to shooting or melee, then the permanent marker at half strength, the morale check (§1.4) and
    the force's morale (§1.3)."""
    return make(
        disb.Hit,
        unit_name=unit,
        lost=lost,
        cause=cause,
        also=tuple(also or ()),
        close_order=close_order,
        officer_near=officer_near,
        friend_at=friend_at,
    )


@recorded(app, "check", rolls=True)
def check(
    unit: str,
    cause: Annotated[
        list[str], typer.Option("--cause", help="friend_removed, officer_removed or force_half; repeat for several.")
    ],
    close_order: CloseOrder = False,
    officer_near: OfficerNear = False,
    friend_at: FriendAt = None,
) -> RecordedCommand:
    """A morale check without casualties (§1.3): one check for all causes, −1 per extra cause."""
    return make(
        disb.CheckMorale,
        unit_name=unit,
        causes=tuple(cause),
        close_order=close_order,
        officer_near=officer_near,
        friend_at=friend_at,
    )


@recorded(app, "rally", rolls=True)
def rally(unit: str, close_order: CloseOrder = False, officer_near: OfficerNear = False) -> RecordedCommand:
    """A rally action (§1.6): 2d6 + Discipline − markers (+ bonuses) ≥ 6 removes the non-permanent markers."""
    return make(disb.Rally, unit_name=unit, close_order=close_order, officer_near=officer_near)


@recorded(app, "marker")
def marker(
    unit: str, reason: Annotated[str, typer.Option("--reason", help="Where it comes from, e.g. 'lost a melee'.")]
) -> RecordedCommand:
    """A disorder marker from another source (§1.2); the third flees the unit."""
    return make(disb.AddMarker, unit_name=unit, reason=reason)


@recorded(app, "retreat")
def retreat(
    unit: str,
    needed: Annotated[str, typer.Option("--needed", help="Inches it must retreat (½ its move, unrounded), e.g. 2.5.")],
    moved: Annotated[str | None, typer.Option("--moved", help="Inches it could move, if blocked, e.g. 1.5.")] = None,
    off_table: Annotated[bool, typer.Option("--off-table", help="A model left the table.")] = False,
) -> RecordedCommand:
    """A retreat (§1.5): one model captured per full inch it could not move; off the table, the unit is gone."""
    return make(disb.Retreat, unit_name=unit, needed=needed, moved=moved, off_table=off_table)


@recorded(app, "remove")
def remove(
    unit: str, reason: Annotated[str, typer.Option("--reason", help="e.g. 'destroyed in melee'.")]
) -> RecordedCommand:
    """Remove a unit from the table (then the force's morale is counted)."""
    return make(disb.Remove, unit_name=unit, reason=reason)


@recorded(app, "officer-down")
def officer_down(side: str) -> RecordedCommand:
    """The side's officer is removed from play: each of its units checks (once per game); −2 Glory."""
    return make(disb.OfficerDown, side=side)


@recorded(app, "battle-end")
def battle_end(
    winner: Annotated[str | None, typer.Option("--winner", help="The side that won; leave out for a draw.")] = None,
    objectives: Annotated[
        list[str] | None, typer.Option("--objectives", help="SIDE=N scenario objectives held at the end; repeat.")
    ] = None,
) -> RecordedCommand:
    """The last turn is played out (§1.8): each force's Glory goes to its officer; markers end with the battle."""
    held: dict[str, int] = {}
    for pair in objectives or []:
        side, sep, count = pair.rpartition("=")
        if not sep or not side.strip() or not count.strip().isdigit():
            raise InvalidInputError(f"--objectives must look like SIDE=N, not {pair!r}")
        held[side.strip()] = int(count)
    return make(disb.EndBattle, winner=winner, objectives=held)


@app.command("roster")
@handles_errors
def roster(campaign: CampaignOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "table") -> None:
    """Every unit (and, during a battle, its models and markers) and every officer's Glory and rank."""
    csv = wants_csv(fmt, as_json)
    info, state, _ = in_force(campaign, PLUGIN)
    battle = state.battles[state.active_battle] if state.active_battle else None
    summary = make_fold({}).summary(state)  # the rows every view of the campaign shows
    units = []
    for u in summary.units:
        row: dict[str, object] = {"unit": u["name"]} | {k: v for k, v in u.items() if k not in ("unit_id", "name")}
        if battle is not None and u["unit_id"] in battle.units:
            b = battle.units[u["unit_id"]]
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
        | {"battles": len(c["battles"])}
        for c in summary.careers
    ]
    out = Output(as_json)
    if csv:
        print_roster_csv(PLUGIN, units, [state.roster[u["unit_id"]] for u in summary.units], state.roster)
        return
    if as_json:
        out.json({"battle": battle.name if battle else None, "units": units, "officers": officers})
        return
    title = f"{info.name}" + (f" — {battle.name}, turn {battle.turn}" if battle else "")
    columns = ("unit", "side", "troops", "models", "points", "battles", "on the table")
    print_rows(out, title, columns, (_cells(r) for r in units))
    for o in officers:
        who = escape(f"{o['officer']} ({o['side']})")
        out.console.print(f"{who}: Glory {o['glory']}, {o['rank']}, {count(o['battles'], 'battles')}")


def _cells(r: dict[str, Any]) -> tuple[object, ...]:
    on_table = r.get("in_battle")
    shown = (
        f"{on_table['models']} models, {on_table['state']}" + (", must rally" if on_table["must_rally"] else "")
        if on_table
        else str(r["disbanded"] or "")
    )
    return (*(r[k] for k in ("unit", "side", "troops", "models", "points", "battles")), shown)


add_shared_commands(
    app,
    PLUGIN,
    ("disorder-marker", "force.flees_at_exactly"),
    "Models move to another unit of the same side between battles.",
)
