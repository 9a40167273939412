"""How a Grimdark Future campaign is shown: its chart series, its roster as CSV, its battle sheet's cards (the
plug-in's ``charts``, ``roster`` and ``sheet``).

Its charts: morale — a unit's XP (its heroes earn XP, not Glory); strength — its models, in the battle being
fought, else the roster's; treasury — each side's campaign points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from campaign.i18n import N_
from campaign.rulesets import hooks
from campaign.rulesets.hooks import Charted, Charts, Lacking, Measure, Reading
from campaign.rulesets.sheets import Card, Item, deployed_cards, fought, left, name_of

if TYPE_CHECKING:
    from campaign.rulesets.grimdark.state import BattleState, CampaignState
    from campaign.rulesets.grimdark.tables import Tables
    from projections.fold import SummaryRow


def _xp(seen: Charted[CampaignState, Tables]) -> list[Reading]:
    return [Reading(u.unit_id, u.name, u.side, u.xp) for u in hooks.roster_in_order(seen.state) if u.disbanded is None]


CHARTS: Charts[CampaignState, Tables] = {
    "morale": Measure(N_("Experience"), N_("XP"), _xp),
    "strength": Measure(N_("Strength"), N_("models"), hooks.models),
    "treasury": Measure(N_("Treasury"), N_("points"), hooks.treasury),
    "glory": Lacking(N_("Grimdark heroes earn XP, not Glory (chart morale shows it)")),
}


def _on_the_table(b: Mapping[str, object]) -> str:
    return str(b["removed"] or f"{b['models']} models" + (", Shaken" if b["shaken"] else ""))


ROSTER = hooks.columns(
    ("name", "unit"), "side", "models", "quality", "points", "xp", "traits",
    hooks.in_battle("on_the_table", _on_the_table), "off_roster",
)  # fmt: skip
"""``gf roster`` as CSV: its table's columns over the rows its ``--json`` prints (the table's "on the table" is
split in two: the unit on the table, and why it left the roster)."""


def sheet(state: CampaignState, units: Mapping[str, SummaryRow]) -> list[Card]:
    """Each unit of the battle being fought, as deployed: its models left, Quality, wounds carried, Shaken, and
    whether it has activated this round; a hero joined to a unit is noted on it."""
    del units
    return deployed_cards(state, fought(state), _card)


def _card(state: CampaignState, battle: BattleState, uid: str) -> Card:
    u = battle.units[uid]
    items = [Item(N_("models"), left(u.models, u.start_size)), Item(N_("quality"), f"{u.quality}+")]
    if u.tough > 1:
        items.append(Item(N_("wounds carried"), str(u.carried)))
    # (a unit that has left the table activates no more: no word of its activation)
    activation = (
        N_("activating")
        if battle.activating(uid)
        else N_("activated")
        if battle.activated(uid)
        else N_("not activated yet")
    )
    flags = [*([N_("Shaken")] if u.shaken else []), *([] if u.removed else [activation])]
    joined = (name_of(state, u.joined_to),) if u.joined_to else ()
    now = gf_now(battle, u.joined_to or uid) if not u.removed else ()
    return Card(uid, name_of(state, uid), u.side, tuple(items), tuple(flags), u.removed, joined, now)


def gf_now(battle: BattleState, uid: str) -> tuple[str, ...]:
    """Grimdark (§4.1, R3-25, R3-26): a unit activates once a round; a Shaken one must spend its next
    activation idle, and stops being Shaken at its end: if it became Shaken after activating this round, that is
    next round's. A joined hero activates with its unit (``uid`` is the unit's)."""
    u = battle.units[uid]
    fatigued = N_("while Shaken it may only strike back in melee, as if Fatigued")
    if u.shaken and battle.activated(uid):
        return (N_("Shaken after its activation: it stays Shaken until its idle activation next round"), fatigued)
    if u.shaken:
        return (
            N_(
                "Shaken: it must spend its activation this round idle (no Hold, Advance, Rush or Charge, no "
                "shooting) to stop being Shaken"
            ),
            fatigued,
        )
    if battle.activating(uid):
        return (N_("activating now: Hold, Advance, Rush or Charge"),)
    if battle.activated(uid):
        return (N_("done this round: it activates again next round"),)
    return (N_("may activate this round: Hold, Advance, Rush or Charge"),)
