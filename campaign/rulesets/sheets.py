"""The battle sheet: each unit in the battle being fought, as its ruleset's battle state holds it.

The summary's battle rows say the battle (its turn or round, its result); what a table reads during a battle is
each unit's own state there: its men or models left, its grade, Shaken or markers, its fatigue, whether it has
activated this turn. That lives in the ruleset's battle state, not in the summary: :func:`battle_sheet` reads it
(the state at the head, as the roster's summary is made from) and gives one card per unit, in the order the
units were deployed, each with its name, its side and its state as items (label, value, and the term set the
value is a word of, for :func:`campaign.i18n.terms.shown`) and flags. Labels are marked for translation here and
said in the reader's language where they are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from campaign.i18n import N_


@dataclass(frozen=True)
class Item:
    label: str
    value: str
    term: str | None = None
    """The ruleset's term set ``value`` is a word of (``grade``), or None: shown as it is."""


@dataclass(frozen=True)
class Card:
    unit_id: str
    name: str
    side: str
    items: tuple[Item, ...]
    flags: tuple[str, ...] = ()
    removed: str | None = None
    """Why it left the table (as recorded: a word of the ruleset's ``casualty`` terms where it has them), or None
    while it is on it."""
    notes: tuple[str, ...] = field(default=())


def _left(now: int, start: int) -> str:
    return f"{now}/{start}"


def _fighting_spirit(state: Any, units: Mapping[str, Mapping[str, Any]]) -> list[Card]:
    battle = state.battles[state.active_battle]
    cards = []
    for uid, u in battle.units.items():
        flags = [
            *([N_("activated")] if u.activations or u.spent else [N_("not activated yet")]),
            *([N_("prone")] if u.prone else []),
            *([N_("in cover")] if u.in_cover else []),
            *([N_("leader lost")] if u.leader_lost else []),
            *([N_("panicking")] if u.panic == "panicking" else []),
            *([N_("last stand")] if u.last_stand else []),
        ]
        items = [
            Item(N_("men"), _left(u.men, u.start_men)),
            Item(N_("grade"), u.grade, "grade"),
            Item(N_("suppression"), str(u.suppression)),
            *([Item(N_("fatigue"), str(units[uid]["fatigue"]), "fatigue")] if uid in units else []),
        ]
        cards.append(Card(uid, _name(state, uid), u.side, tuple(items), tuple(flags), u.removed))
    return cards


def _grimdark(state: Any, units: Mapping[str, Mapping[str, Any]]) -> list[Card]:
    del units
    battle = state.battles[state.active_battle]
    cards = []
    for uid in _deployed(battle):
        u = battle.units[uid]
        items = [Item(N_("models"), _left(u.models, u.start_size)), Item(N_("quality"), f"{u.quality}+")]
        if u.tough > 1:
            items.append(Item(N_("wounds carried"), str(u.carried)))
        flags = [
            *([N_("Shaken")] if u.shaken else []),
            N_("activated") if battle.activated(uid) else N_("not activated yet"),
        ]
        joined = (_name(state, u.joined_to),) if u.joined_to else ()
        card = Card(uid, _name(state, uid), u.side, tuple(items), tuple(flags), u.removed, joined)
        cards.append(card)
    return cards


def _disorder(state: Any, units: Mapping[str, Mapping[str, Any]]) -> list[Card]:
    del units
    battle = state.battles[state.active_battle]
    cards = []
    for uid in _deployed(battle):
        u = battle.units[uid]
        items = [
            Item(N_("models"), _left(u.models, u.start_models)),
            Item(N_("disorder markers"), str(u.markers)),
            *([Item(N_("permanent markers"), str(u.permanent))] if u.permanent else []),
        ]
        flags = [N_("must rally")] if u.must_rally is not None else []
        cards.append(Card(uid, _name(state, uid), u.side, tuple(items), tuple(flags), u.removed))
    return cards


def _mass_combat(state: Any, units: Mapping[str, Mapping[str, Any]]) -> list[Card]:
    """A Mass Combat battle is fought by the armies of its sides: each of their units, its men fit and wounded,
    its quality and Morale, and its fate once one is recorded."""
    battle = state.battles[state.open_battle]
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
        cards.append(Card(uid, u.name, u.side, tuple(items)))
    return cards


def _deployed(battle: Any) -> list[str]:
    """The battle's units in the order they were deployed (then any the order does not name)."""
    order = [uid for uid in battle.order if uid in battle.units]
    return order + [uid for uid in battle.units if uid not in order]


def _name(state: Any, unit_id: str) -> str:
    unit = state.roster.get(unit_id)
    return str(unit.name) if unit is not None else unit_id


_SHEETS: dict[str, Callable[[Any, Mapping[str, Mapping[str, Any]]], list[Card]]] = {
    "fighting-spirit": _fighting_spirit,
    "grimdark": _grimdark,
    "disorder": _disorder,
    "mass-combat": _mass_combat,
}


def battle_sheet(ruleset: str, state: Any, summary: Any) -> list[Card]:
    """Each unit in the battle being fought (none if no battle is), by side then as deployed; ``summary`` the
    summary of ``state``, for what its unit rows work out (a five-grade unit's fatigue, a Mass Combat Morale)."""
    sheet = _SHEETS.get(ruleset)
    battle = getattr(state, "open_battle" if ruleset == "mass-combat" else "active_battle", None)
    if sheet is None or battle is None or battle not in state.battles:
        return []
    cards = sheet(state, {str(u["unit_id"]): u for u in summary.units})
    sides = {side: i for i, side in enumerate(state.battles[battle].sides)}
    return sorted(cards, key=lambda c: sides.get(c.side, len(sides)))
