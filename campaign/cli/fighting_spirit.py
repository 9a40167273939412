"""``campaign fs …``: the five-grade morale ruleset (fighting-spirit) at the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer

from campaign.cli.common import RecordedCommand, add_shared_commands, execute, make, parse_pairs, recorded
from campaign.cli.fighting_spirit_status import status
from campaign.cli.options import CampaignOpt, CommandIdOpt, JsonOpt
from campaign.cli.output import handles_errors
from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fsc
from campaign.rulesets.fighting_spirit.plugin import PLUGIN
from events.errors import InvalidInputError

app = typer.Typer(
    help="Five-grade morale (fighting-spirit, RULES.md §0): battles, tests, rallies, psionics.", no_args_is_help=True
)

EnemyWithin = Annotated[
    str | None,
    typer.Option(
        "--enemy-within", help='Inches to the nearest enemy, as measured (a Routed unit within 12" surrenders).'
    ),
]


@recorded(app, "muster", from_file=PLUGIN)
def muster(
    name: str,
    side: Annotated[str, typer.Option("--side", help="The side it fights for.")],
    quality: Annotated[str, typer.Option("--quality", help="untrained, green, regular, veteran or elite.")],
    leadership: Annotated[
        int, typer.Option("--leadership", "--lv", help="Leader's LV: 1 best … 6 worst (SGII's leaders are 1–3).")
    ],
    size: Annotated[int, typer.Option("--size", help="Men in the unit.")],
    kind: Annotated[
        str, typer.Option("--kind", help="infantry, vehicle_crew, vehicle, robot or android.")
    ] = "infantry",
    radio: Annotated[bool, typer.Option("--radio", help="Has a radio or telephone.")] = False,
    psi_rank: Annotated[str | None, typer.Option("--psi-rank", help="none, pupil, master, renowned, legend.")] = None,
    keno_guard: Annotated[bool, typer.Option("--keno-guard", help="Keno Guard (d8 for No step back).")] = False,
    terrifying: Annotated[bool, typer.Option("--terrifying", help="Terrifying troops.")] = False,
    crew_weapon: Annotated[bool, typer.Option("--crew-weapon", help="Has a crew-served weapon (R2-4).")] = False,
    reports_to: Annotated[
        str | None, typer.Option("--reports-to", help="Its superior in the chain of command.")
    ] = None,
) -> RecordedCommand:
    """Add a unit to the roster with its five-grade profile."""
    profile: dict[str, object] = {
        "quality": quality,
        "leadership": leadership,
        "size": size,
        "kind": kind,
        "radio": radio,
        "psi_rank": psi_rank,
        "keno_guard": keno_guard,
        "terrifying": terrifying,
        "crew_weapon": crew_weapon,
    }
    return make(fsc.Muster, name=name, side=side, profile=profile, reports_to=reports_to)


@recorded(app, "battle-start")
def battle_start(
    name: str,
    side: Annotated[list[str], typer.Option("--side", help="SIDE=MOTIVATION (low, medium, high); repeat per side.")],
    unit: Annotated[
        list[str],
        typer.Option(
            "--unit",
            help="UNIT[=FATIGUE][,cover][,prone][,start:GRADE]: the fatigue the campaign record gives unless one is"
            " typed (one fatigue per side; a scenario start grade).",
        ),
    ],
    scenario: Annotated[str, typer.Option("--scenario")] = "",
) -> RecordedCommand:
    """Start a battle: each side's motivation, each unit's fatigue (→ its starting grade)."""
    motivation = {}
    for side_name, parts in parse_pairs(side, "--side"):
        if len(parts) != 1:
            raise InvalidInputError(f"--side {side_name}= takes one motivation")
        motivation[side_name] = parts[0]
    deployments = []
    for unit_name, given in parse_pairs([u if "=" in u else f"{u}=" for u in unit], "--unit"):
        # UNIT alone, or UNIT=cover: the fatigue the campaign record gives (§5); UNIT=tired,cover: as typed
        typed_fatigue = bool(given) and given[0] not in ("cover", "prone") and not given[0].startswith("start:")
        fatigue, parts = (given[0], given[1:]) if typed_fatigue else (None, given)
        starts = [p.removeprefix("start:") for p in parts if p.startswith("start:")]
        flags = {p for p in parts if not p.startswith("start:")}
        if flags - {"cover", "prone"}:
            raise InvalidInputError(
                f"--unit {unit_name}: unknown flag(s) {', '.join(sorted(flags - {'cover', 'prone'}))}"
            )
        deployments.append(
            {
                "unit": unit_name,
                "fatigue": fatigue,
                "in_cover": "cover" in flags,
                "prone": "prone" in flags,
                "start_grade": starts[0] if starts else None,
            }
        )
    return make(fsc.StartBattle, name=name, motivation=motivation, deployments=deployments, scenario=scenario)


@recorded(app, "battle-end")
def battle_end(
    result: Annotated[str, typer.Option("--result", help="What happened, e.g. 'Keno held the hill'.")],
    winner: Annotated[str | None, typer.Option("--winner")] = None,
) -> RecordedCommand:
    """End the battle being fought."""
    return make(fsc.EndBattle, result=result, winner=winner)


@recorded(app, "turn")
def turn() -> RecordedCommand:
    """Begin the next turn (each unit's one activation; failed actions may be tried again; rally and psi actions
    are counted afresh)."""
    return fsc.NextTurn()


@recorded(app, "activate")
def activate(unit: str) -> RecordedCommand:
    """A unit's one activation in the turn (R3-1)."""
    return make(fsc.Activate, unit_name=unit)


@recorded(app, "attack", rolls=True)
def attack(
    unit: str,
    killed: Annotated[int, typer.Option("--killed")] = 0,
    wounded: Annotated[int, typer.Option("--wounded", help="Wounded men: unverified casualties until checked.")] = 0,
    suppress: Annotated[bool, typer.Option("--suppress", help="The fire suppressed the unit.")] = False,
    artillery: Annotated[bool, typer.Option("--artillery", help="Artillery fire (the + threat row).")] = False,
    air: Annotated[bool, typer.Option("--air", help="An air(space) attack (the artillery row's + threat).")] = False,
    assault: Annotated[bool, typer.Option("--assault", help="An assault (close combat), not fire.")] = False,
    leader_hit: Annotated[bool, typer.Option("--leader-hit", help="The unit's leader became a casualty.")] = False,
    by: Annotated[
        str | None, typer.Option("--by", help="The enemy unit that attacked (a Broken unit may fire back at it).")
    ] = None,
    enemy_within: EnemyWithin = None,
) -> RecordedCommand:
    """Record fire or an assault on a unit (a miss too), then the morale test it calls for (§0.4–0.5) and a Green
    unit's panic test at its first fire (R3-4)."""
    return make(
        fsb.Attack,
        unit_name=unit,
        killed=killed,
        wounded=wounded,
        suppressing=suppress,
        artillery=artillery,
        air=air,
        assault=assault,
        leader_hit=leader_hit,
        by=by,
        enemy_within=enemy_within,
    )


@recorded(app, "morale", rolls=True)
def morale(
    unit: str,
    threat: Annotated[list[str], typer.Option("--threat", help="Threat row(s) that call for the test.")],
    enemy_within: EnemyWithin = None,
) -> RecordedCommand:
    """Take a morale (confidence) test for named threat rows (§0.4)."""
    return make(fsb.Morale, unit_name=unit, rows=tuple(threat), enemy_within=enemy_within)


@recorded(app, "rally", rolls=True)
def rally(
    unit: str,
    officer: Annotated[str, typer.Option("--officer", help="A superior on the unit's direct chain of command.")],
    distance: Annotated[str, typer.Option("--distance", help="Inches between officer and unit, e.g. 6 or 6.5.")],
    in_sight: Annotated[bool, typer.Option("--in-sight/--out-of-sight")] = True,
    under_artillery: Annotated[bool, typer.Option("--under-artillery", help="Still under artillery fire.")] = False,
) -> RecordedCommand:
    """An officer rallies a unit: communication test, then the rally test (§0.6)."""
    return make(
        fsb.Rally,
        unit_name=unit,
        officer_name=officer,
        distance=distance,
        in_sight=in_sight,
        under_artillery=under_artillery,
    )


@recorded(app, "react", rolls=True)
def react(
    unit: str,
    action: Annotated[
        str, typer.Argument(help="go_prone_open, go_prone_cover, move_while_prone, leave_cover_shaken, close_combat")
    ],
) -> RecordedCommand:
    """A reaction test for an action (§0.7); a failed action may not be retried this turn."""
    return make(fsb.React, unit_name=unit, action=action)


@recorded(app, "panic", rolls=True)
def panic(
    unit: str,
    trigger: Annotated[
        str | None,
        typer.Option(
            "--trigger",
            help="enemy_in_sight, armour_in_sight, terrifying_assault (a first fire's test comes with `fs attack`); "
            "none while panicking",
        ),
    ] = None,
) -> RecordedCommand:
    """A panic test (§0.8): on the quality's trigger, or while panicking the one test of its activation."""
    return make(fsb.Panic, unit_name=unit, trigger=trigger)


@recorded(app, "last-stand", rolls=True)
def last_stand(
    unit: str,
    friends_within_12: Annotated[int, typer.Option("--friends-within-12", help='Friendly units within 12".')],
    enemy_squads: Annotated[int, typer.Option("--enemy-squads", help="Enemy squads in sight, not retreating.")],
    enemy_within: EnemyWithin = None,
) -> RecordedCommand:
    """ "No step back!" (§0.9): d8 for Keno Guard, d6 otherwise, success on 6+."""
    return make(
        fsb.LastStand,
        unit_name=unit,
        friends_within_12=friends_within_12,
        enemy_squads_in_sight=enemy_squads,
        enemy_within=enemy_within,
    )


@recorded(app, "last-stand-end")
def last_stand_end(
    unit: str, reason: Annotated[str, typer.Option("--reason", help="wiped_out or only_broken_enemies")]
) -> RecordedCommand:
    """End "No step back": wiped out, or no enemy in view but Broken ones (back to Steady)."""
    return make(fsb.EndLastStand, unit_name=unit, reason=reason)


@recorded(app, "surrender")
def surrender(
    unit: str,
    enemy_within: Annotated[str, typer.Option("--enemy-within", help="Inches to the nearest enemy, e.g. 12 or 12.5.")],
) -> RecordedCommand:
    """A Routed unit with an enemy within 12" surrenders."""
    return make(fsb.Surrender, unit_name=unit, enemy_within=enemy_within)


@recorded(app, "psi", rolls=True)
def psi(
    psion: str,
    target: str,
    effect: Annotated[
        str,
        typer.Option(
            "--effect",
            help="remove_suppression, inspire, no_step_back, psi_detection, "
            "avert_eyes, psi_strike, panic, confusion, psi_blast, kill",
        ),
    ],
    distance: Annotated[str, typer.Option("--distance", help="Inches from psion to target, e.g. 12 or 12.5.")],
    in_sight: Annotated[bool, typer.Option("--in-sight/--out-of-sight")] = True,
    blast: Annotated[str, typer.Option("--blast", help="psi_blast: grades (−2) or panic.")] = "grades",
) -> RecordedCommand:
    """A psi action (§0.10): the psi die, a step down per 12\" band after the first; success on ≥ the number."""
    return make(
        fsb.Psi,
        psion_name=psion,
        target_name=target,
        effect=effect,
        distance=distance,
        in_sight=in_sight,
        blast_choice=blast,
    )


@recorded(app, "wounded")
def wounded(
    unit: str,
    checked: Annotated[int | None, typer.Option("--checked", help="Wounded checked by a Reorganise action.")] = None,
    abandoned: Annotated[bool, typer.Option("--abandoned", help="The unit withdrew without its wounded.")] = False,
) -> RecordedCommand:
    """Check unverified casualties, or record that the unit abandoned its wounded."""
    return make(fsc.Wounded, unit_name=unit, checked=checked, abandoned=abandoned)


@recorded(app, "position")
def position(
    unit: str,
    prone: Annotated[bool | None, typer.Option("--prone/--standing")] = None,
    cover: Annotated[bool | None, typer.Option("--cover/--open")] = None,
) -> RecordedCommand:
    """Record a move into or out of cover, or going prone where no test is needed."""
    return make(fsc.Position, unit_name=unit, prone=prone, in_cover=cover)


@recorded(app, "defence", rolls=True)
def defence(
    unit: str,
    fragments: Annotated[bool, typer.Option("--fragments", help="Fragments or blast, not aimed fire.")] = False,
    from_air: Annotated[bool, typer.Option("--from-air", help="Fire from the air.")] = False,
    hit_elsewhere: Annotated[
        bool, typer.Option("--hit-elsewhere", help="The hit fell on the unit, not on the psion himself.")
    ] = False,
) -> RecordedCommand:
    """Roll a unit's defence against small-arms fire (a psion uses its psi die instead of the d4 only against
    aimed fire, not from the air, that hits the psion himself: R2-4)."""
    return make(fsb.Defence, unit_name=unit, aimed=not fragments, from_air=from_air, on_psion=not hit_elsewhere)


def _days(activity: str) -> Callable[..., None]:
    @handles_errors
    def command(
        days: int,
        side: Annotated[str | None, typer.Option("--side")] = None,
        campaign: CampaignOpt = None,
        command_id: CommandIdOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        command = make(fsc.PassDays, days=days, activity=activity, side=side)
        execute(campaign, command, command_id=command_id, as_json=as_json)  # it says whose fatigue changed

    command.__doc__ = f"Days of {activity.replace('_', ' ')}: fatigue follows from the campaign record (§5)."
    return command


for _activity, _name in (("rest", "rest"), ("march", "march"), ("forced_march", "forced-march"), ("front", "front")):
    app.command(_name)(_days(_activity))


@recorded(app, "condition")
def condition(
    side: str,
    name: Annotated[str, typer.Argument(help="no_supplies or encircled")],
    active: Annotated[bool, typer.Option("--on/--off")] = True,
) -> RecordedCommand:
    """A side runs out of supplies or is encircled (its units are exhausted), or no longer."""
    return make(fsc.Condition, side=side, condition=name, active=active)


@recorded(app, "recruit")
def recruit(unit: str, men: Annotated[int, typer.Option("--men")]) -> RecordedCommand:
    """Replacements join a unit between battles (with no battles behind them)."""
    return make(fsc.Recruit, unit_name=unit, men=men)


@recorded(app, "funds")
def funds(side: str, amount: int, reason: Annotated[str, typer.Option("--reason")]) -> RecordedCommand:
    """Money in or out of a side's treasury (optional pay rules)."""
    return make(fsc.Funds, side=side, amount=amount, reason=reason)


@recorded(app, "month-end")
def month_end(
    pay: Annotated[list[str], typer.Option("--pay", help="SIDE=PCT (100 in full, 0 missed).")] = [],  # noqa: B006
) -> RecordedCommand:
    """The month ends; each side named pays its men (optional pay rules)."""
    pcts = {}
    for item in pay:
        side, sep, pct = item.rpartition("=")
        if not sep or not pct.strip().isdigit():
            raise InvalidInputError(f"--pay takes SIDE=PERCENT, not {item!r}")
        pcts[side] = int(pct)
    return make(fsc.MonthEnd, pay_pct=pcts)


app.command("roster", help="Every unit in the battle being fought (or the last one): grade, men, markers, status.")(
    status
)
app.command("battle-status", hidden=True)(status)  # its first name, kept for scripts and old notes

add_shared_commands(
    app,
    PLUGIN,
    ("five-grade", "threats.unverified_casualty.low"),
    "Men move from one unit to another of the same side between battles (experience re-averaged).",
)
