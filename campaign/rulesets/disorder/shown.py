"""How a disorder-marker campaign is shown: its chart series, its roster as CSV, its battle sheet's cards (the
plug-in's ``charts``, ``roster`` and ``sheet``).

Its charts: morale — the disorder markers a unit carries in the battle being fought; strength — its models, in
that battle, else the roster's; glory — its officers' Glory.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from campaign.i18n import N_
from campaign.rulesets import hooks
from campaign.rulesets.hooks import Charted, Charts, Lacking, Measure, Reading
from campaign.rulesets.sheets import Card, Item, deployed_cards, fought, left, name_of

if TYPE_CHECKING:
    from campaign.rulesets.disorder.state import BattleState, CampaignState, UnitInBattle
    from campaign.rulesets.disorder.tables import Tables
    from projections.fold import SummaryRow


def _markers(seen: Charted[CampaignState, Tables]) -> list[Reading]:
    fighting = hooks.active_units(seen.state)
    return [
        Reading(u.unit_id, u.name, u.side, fighting[u.unit_id].markers)
        for u in hooks.roster_in_order(seen.state)
        if u.disbanded is None and u.unit_id in fighting and fighting[u.unit_id].removed is None
    ]


def _glory(seen: Charted[CampaignState, Tables]) -> list[Reading]:
    careers = sorted(seen.state.careers.values(), key=lambda c: c.officer)
    return [Reading(c.officer, c.officer, c.side, c.glory) for c in careers]


CHARTS: Charts[CampaignState, Tables] = {
    "morale": Measure(N_("Disorder markers in battle"), N_("markers"), _markers),
    "strength": Measure(N_("Strength"), N_("models"), hooks.models),
    "glory": Measure(N_("Officers' Glory"), N_("Glory"), _glory),
    "treasury": Lacking(N_("the disorder-marker rules keep no treasury")),
}


def _on_the_table(b: Mapping[str, object]) -> str:
    return f"{b['models']} models, {b['state']}" + (", must rally" if b["must_rally"] else "")


ROSTER = hooks.columns(
    ("name", "unit"), "side", "troops", "models", "points", "battles",
    hooks.in_battle("on_the_table", _on_the_table), "disbanded",
)  # fmt: skip
"""``dis roster`` as CSV: its table's columns over the rows its ``--json`` prints (the table's "on the table" is
split in two: the unit on the table, and why it left the roster)."""


def sheet(state: CampaignState, units: Mapping[str, SummaryRow]) -> list[Card]:
    """Each unit of the battle being fought, as deployed: its models left, its markers, whether it must rally."""
    del units
    return deployed_cards(state, fought(state), _card)


def _card(state: CampaignState, battle: BattleState, uid: str) -> Card:
    u = battle.units[uid]
    items = [
        Item(N_("models"), left(u.models, u.start_models)),
        Item(N_("disorder markers"), str(u.markers)),
        *([Item(N_("permanent markers"), str(u.permanent))] if u.permanent else []),
    ]
    flags = [N_("must rally")] if u.must_rally is not None else []
    now = disorder_now(battle.turn, u)
    return Card(uid, name_of(state, uid), u.side, tuple(items), tuple(flags), u.removed, now=now)


def disorder_now(turn: int, u: UnitInBattle) -> tuple[str, ...]:
    """Disorder markers (§1.2–§1.6, R2-6, R3-11): a unit that failed badly must try to rally in the next turn;
    a rally, once a turn, removes every marker but the permanent one, and a failed one retreats ½ move."""
    if u.removed:
        return ()
    tried = turn in u.rallied_in
    if u.must_rally is not None and not tried:
        when = N_("must try to rally this turn") if u.must_rally <= turn else N_("must try to rally next turn")
        return (when, N_("a passed rally removes its markers but a permanent one; a failed one retreats ½ move"))
    if u.markers and tried:
        return (N_("has tried to rally this turn: its next try is next turn"),)
    if u.markers:
        return (
            N_(
                "may rally (once a turn): a passed test removes its markers but a permanent one; a failed one "
                "retreats ½ move"
            ),
        )
    if u.permanent:
        return (N_("its permanent marker never comes off: a rally removes none"),)
    return (N_("in order: no marker to rally off"),)
