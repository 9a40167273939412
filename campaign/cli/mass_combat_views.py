"""``campaign mc es`` and ``mc replay``: Extraordinary Force, and a recorded battle day re-run on its dice."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from campaign.cli.options import CampaignOpt, JsonOpt
from campaign.cli.output import Output, handles_errors
from campaign.cli.session import open_app, resolved
from campaign.rulesets.mass_combat.commands import replay_battle_day
from campaign.rulesets.mass_combat.plugin import PLUGIN
from campaign.rulesets.mass_combat.quality import extraordinary_force, extraordinary_force_pm
from events.errors import InvalidInputError


@handles_errors
def es(
    points: int,
    bonus: Annotated[int, typer.Option("--bonus", help="Enchanted items, drugs: +ES.")] = 0,
    stone: Annotated[int, typer.Option("--stone", help="A power stone's capacity: +1 ES per 10.")] = 0,
    mana: Annotated[str, typer.Option("--mana", help="low, normal or very_high")] = "normal",
    campaign: CampaignOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Extraordinary Force from the character points invested (§2.13)."""
    ledger = open_app().ledger
    _, in_force = ledger.in_force(ledger.resolve(campaign), PLUGIN)
    value = extraordinary_force(in_force, points, bonus=bonus, mana=mana, stone_capacity=stone)
    per_mille = extraordinary_force_pm(in_force, points, bonus=bonus, mana=mana, stone_capacity=stone)
    out = Output(as_json)
    if as_json:
        out.json({"points": points, "bonus": bonus, "stone": stone, "mana": mana, "es": value})
    else:
        extra = (f" + {bonus}" if bonus else "") + (f" + a power stone of {stone}" if stone else "")
        exact = f"{per_mille // 1000}.{per_mille % 1000:03d}".rstrip("0").rstrip(".")
        whole = "" if per_mille % 1000 == 0 else f" ({exact}, of which an army spends whole points: R2-23)"
        out.console.print(
            f"{points} points{extra} at {mana} mana → ES {value}{whole}. A reckoning only: nothing is spent; "
            "a battle's set-up spends its Extraordinary Force on the spells it lists (§2.13)"
        )


@handles_errors
def replay(seq: int, campaign: CampaignOpt = None, as_json: JsonOpt = False) -> None:
    """Re-run a recorded battle day on its own dice with the tables then in force; report any difference."""
    recorded, recomputed = _reevaluate(seq, campaign)
    same = recorded == recomputed
    out = Output(as_json)
    if as_json:
        out.json({"seq": seq, "same": same, "recorded": recorded, "recomputed": recomputed})
    else:
        out.console.print(
            f"battle day at #{seq}: {len(recorded)} steps; "
            + ("re-running it gives the same outcome" if same else "[red]the engine now decides differently[/]")
        )
    if not same:
        raise typer.Exit(3)


def _reevaluate(battle_seq: int, campaign: str | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    ledger, info = resolved(campaign)
    events = list(ledger.store.read(info.campaign_id))
    record = next((e for e in events if e.seq == battle_seq), None)
    if record is None or record.payload.get("rule") != "battle_day":
        raise InvalidInputError(f"event {battle_seq} is not a recorded battle day")
    _, tables = ledger.in_force(info, PLUGIN, battle_seq - 1)
    command = [e for e in events if e.meta.get("command_id") == record.meta.get("command_id")]
    return replay_battle_day(tables, record, command)
