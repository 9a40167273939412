"""How a Mass Combat campaign is shown: its chart series, its roster as CSV, its battle sheet's cards (the
plug-in's ``charts``, ``roster`` and ``sheet``).

Its charts: morale — the campaign Morale the campaign gives a unit (pay, bonus, conscription, modifiers);
strength — troop strength; treasury — each side's; glory — its player characters' Reputation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from campaign.i18n import N_
from campaign.rulesets import hooks
from campaign.rulesets.hooks import Charted, Charts, Measure, Reading
from campaign.rulesets.sheets import Card, Item, fought, in_side_order

if TYPE_CHECKING:
    from campaign.rulesets.mass_combat.state import CampaignState
    from campaign.rulesets.mass_combat.tables import Tables
    from projections.fold import SummaryRow
from events.recorded import text, whole


def _units(field: str) -> Callable[[Charted[CampaignState, Tables]], list[Reading]]:
    def read(seen: Charted[CampaignState, Tables]) -> list[Reading]:
        units = seen.summary().units
        return [
            Reading(text(u["unit_id"]), text(u["name"]), text(u["side"]), whole(u[field]))
            for u in units
            if u["disbanded"] is None
        ]

    return read


def _reputation(seen: Charted[CampaignState, Tables]) -> list[Reading]:
    state = seen.state
    careers = sorted(state.careers.values(), key=lambda c: c.pc)
    return [Reading(c.pc, c.pc, None, state.reputation(c.pc)) for c in careers]


CHARTS: Charts[CampaignState, Tables] = {
    "morale": Measure(N_("Campaign Morale"), N_("Morale"), _units("campaign_morale")),
    "strength": Measure(N_("Troop strength"), N_("TS"), _units("ts")),
    "treasury": Measure(N_("Treasury"), "$", hooks.treasury),
    "glory": Measure(N_("Reputation"), N_("Reputation"), _reputation, named=N_("Reputation")),  # §2.9: not Glory
}

ROSTER = hooks.columns(
    ("name", "unit"), "side", "men", "wounded", "quality", "experience", "ts", "campaign_morale", "arrears",
    "disbanded",
)  # fmt: skip
"""``mc roster`` as CSV: its table's columns over the rows its ``--json`` prints."""


def sheet(state: CampaignState, units: Mapping[str, SummaryRow]) -> list[Card]:
    """A Mass Combat battle is fought by the armies of its sides: each of their units, its men fit and wounded,
    its quality and Morale, and its fate once one is recorded."""
    battle = fought(state, "open_battle")
    if battle is None:
        return []
    cards = []
    for uid, u in state.roster.items():
        if u.side not in battle.sides or u.disbanded:
            continue
        row = units.get(uid, {})
        items = [
            Item(N_("men fit"), str(u.fit)),
            Item(N_("wounded"), str(u.wounded)),
            Item(N_("quality"), str(u.profile.quality), "quality"),
            *([Item(N_("morale"), str(row["morale"]))] if row.get("morale") is not None else []),
            *([Item(N_("fate"), battle.fates[uid])] if uid in battle.fates else []),  # routs, retreats…: recorded
        ]
        cards.append(Card(uid, u.name, u.side, tuple(items), now=MC_NOW.get(battle.fates.get(uid, ""), ())))
    return in_side_order(cards, battle.sides)


MC_NOW: dict[str, tuple[str, ...]] = {
    # §2.11: no unit acts alone; the armies' Strategy contest decides, and its result says each unit's fate
    "": (N_("fights as part of its army: the Strategy contest decides, then its result says who tests Morale"),),
    "holds": (N_("holds its position"),),
    "retreats": (N_("retreats in good order"),),
    "routs": (N_("routs: out of this battle"),),
    "surrenders": (N_("surrenders: out of this battle"),),
}
