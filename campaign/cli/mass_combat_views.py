"""``campaign mc es`` and ``mc replay``: Extraordinary Force, and a recorded battle day re-run on its dice."""

from __future__ import annotations

from typing import Annotated

import typer

from campaign.cli.options import CampaignOpt, JsonOpt
from campaign.cli.output import Output, handles_errors
from campaign.cli.session import open_app, resolved
from campaign.i18n import _, ngettext
from campaign.rulesets.mass_combat.commands import replay_battle_day
from campaign.rulesets.mass_combat.plugin import PLUGIN
from campaign.rulesets.mass_combat.quality import army_force, extraordinary_force_pm
from events.errors import InvalidInputError


@handles_errors
def es(
    points: Annotated[
        list[int], typer.Argument(help="Each user's character points invested (one number per mage, psion…).")
    ],
    bonus: Annotated[
        list[int] | None, typer.Option("--bonus", help="Enchanted items, drugs: +ES; repeat, one per user in order.")
    ] = None,
    stone: Annotated[
        list[int] | None,
        typer.Option("--stone", help="A power stone's capacity: +1 ES per 10; repeat, one per user in order."),
    ] = None,
    mana: Annotated[str, typer.Option("--mana", help="low, normal or very_high")] = "normal",
    campaign: CampaignOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Extraordinary Force from the character points invested (§2.13): each user's, and the army's sum of them with
    their fractions (R2-23: two 100-point mages give 1)."""
    bonuses, stones = list(bonus or []), list(stone or [])
    if len(bonuses) > len(points) or len(stones) > len(points):
        raise InvalidInputError.counting(
            "{n} user: give at most one --bonus and one --stone for each",
            "{n} users: give at most one --bonus and one --stone for each",
            n=len(points),
        )
    ledger = open_app().ledger
    _state, in_force = ledger.in_force(ledger.resolve(campaign), PLUGIN)
    users = [
        extraordinary_force_pm(
            in_force,
            p,
            bonus=bonuses[i] if i < len(bonuses) else 0,
            mana=mana,
            stone_capacity=stones[i] if i < len(stones) else 0,
        )
        for i, p in enumerate(points)
    ]
    value = army_force(users)
    out = Output(as_json)
    if as_json:
        out.json(
            {
                "points": points if len(points) > 1 else points[0],
                "bonus": bonuses if len(points) > 1 else (bonuses or [0])[0],
                "stone": stones if len(points) > 1 else (stones or [0])[0],
                "mana": mana,
                "es": value,
                "users_es_pm": users,
            }
        )
        return
    if len(points) == 1:
        b, st = (bonuses or [0])[0], (stones or [0])[0]
        extra = (f" + {b}" if b else "") + (_(" + a power stone of {capacity}").format(capacity=st) if st else "")
        whole = (
            ""
            if users[0] % 1000 == 0
            else _(" ({exact}, of which an army spends whole points: R2-23)").format(exact=_exact(users[0]))
        )
        said = _("{points} points{extra} at {mana} mana → ES {value}{whole}").format(
            points=points[0], extra=extra, mana=_mana(mana), value=value, whole=whole
        )
    else:
        each = " + ".join(_exact(pm) for pm in users)
        said = ngettext(
            "{users} users at {mana} mana: ES {each} = {exact}, of which the army spends {n} whole point (R2-23)",
            "{users} users at {mana} mana: ES {each} = {exact}, of which the army spends {n} whole points (R2-23)",
            value,
        ).format(users=len(points), mana=_mana(mana), each=each, exact=_exact(sum(users)), n=value)
    out.console.print(
        said
        + _(
            ". A reckoning only: nothing is spent; a battle's set-up spends its Extraordinary Force on the spells it "
            "lists (§2.13), its users' ES summed the same way"
        )
    )


def _mana(level: str) -> str:
    """A mana level as the reader says it: as typed in English, the seed's words in Russian and Polish."""
    from campaign.i18n import DEFAULT, language
    from campaign.i18n.terms import shown

    return level if language() == DEFAULT else shown("mass-combat", "mana", level)


def _exact(per_mille: int) -> str:
    """ES with its fractions ("1.25"; "1,25" for a Russian or Polish reader)."""
    from campaign.i18n import DEFAULT, language

    exact = f"{per_mille // 1000}.{per_mille % 1000:03d}".rstrip("0").rstrip(".")
    if language() == DEFAULT:
        return exact
    from campaign.i18n.formats import decimal

    return decimal(exact)


@handles_errors
def replay(seq: int, campaign: CampaignOpt = None, as_json: JsonOpt = False) -> None:
    """Re-run a recorded battle day on its own dice with the tables then in force; report any difference."""
    recorded, recomputed = _reevaluate(seq, campaign)
    same = recorded == recomputed
    out = Output(as_json)
    if as_json:
        out.json({"seq": seq, "same": same, "recorded": recorded, "recomputed": recomputed})
    else:
        said = (
            ngettext(
                "battle day at #{seq}: {n} step; re-running it gives the same outcome",
                "battle day at #{seq}: {n} steps; re-running it gives the same outcome",
                len(recorded),
            )
            if same
            else ngettext(
                "battle day at #{seq}: {n} step; [red]the engine now decides differently[/]",
                "battle day at #{seq}: {n} steps; [red]the engine now decides differently[/]",
                len(recorded),
            )
        )
        out.console.print(said.format(seq=seq, n=len(recorded)))
    if not same:
        raise typer.Exit(3)


def _reevaluate(battle_seq: int, campaign: str | None) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    ledger, info = resolved(campaign)
    events = list(ledger.store.read(info.campaign_id))
    record = next((e for e in events if e.seq == battle_seq), None)
    if record is None or record.payload.get("rule") != "battle_day":
        raise InvalidInputError.saying("event {seq} is not a recorded battle day", seq=battle_seq)
    _state, tables = ledger.in_force(info, PLUGIN, battle_seq - 1)
    command = [e for e in events if e.meta.get("command_id") == record.meta.get("command_id")]
    return replay_battle_day(tables, record, command)
