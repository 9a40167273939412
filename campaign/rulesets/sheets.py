"""The battle sheet: each unit in the battle being fought, as its ruleset's battle state holds it.

The summary's battle rows say the battle (its turn or round, its result); what a table reads during a battle is
each unit's own state there: its men or models left, its grade, Shaken or markers, its fatigue, whether it has
activated this turn. That lives in the ruleset's battle state, not in the summary: :func:`battle_sheet` reads it
(the state at the head, as the roster's summary is made from) and gives one card per unit, in the order the
units were deployed, each with its name, its side and its state as items (label, value, and the term set the
value is a word of, for :func:`campaign.i18n.terms.shown`), flags, and what the unit may or must do now by its
ruleset's rules in that state (its activation, grade, Shaken, markers, fate). Each ruleset's plug-in names its
builder (``RulesetInfo.sheet``): a ruleset without one has no sheet. Labels and sentences are marked for
translation here and said in the reader's language where they are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from campaign.i18n import N_
from campaign.plugins import RULESETS, load


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
    now: tuple[str, ...] = ()
    """What the unit may (or must) do now, by its ruleset's rules in its state: sentences marked for
    translation, said in the reader's language where the card is shown; none once it has left the table."""


def _left(now: int, start: int) -> str:
    return f"{now}/{start}"


def fighting_spirit_cards(state: Any, units: Mapping[str, Mapping[str, Any]]) -> list[Card]:
    battle = _fought(state, state.active_battle)
    if battle is None:
        return []
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
        cards.append(Card(uid, _name(state, uid), u.side, tuple(items), tuple(flags), u.removed, now=fs_now(u)))
    return _by_side(battle, cards)


_FS_GRADE = {
    # RULES.md §0.3's allowed behaviour by grade, Broken and Routed as R3-3 lists their actions
    "confident": N_("its grade allows any order"),
    "steady": N_("its grade allows any order"),
    "shaken": N_(
        "its grade allows any order but moving toward the enemy; it leaves cover only after a passed reaction test"
    ),
    "broken": N_(
        "its grade allows only: move toward its own table edge, move to cover, leave cover to withdraw, or fire at "
        "an enemy that fired on it this turn"
    ),
    "routed": N_(
        "its grade allows only moving toward its own table edge, with every action, never stopping; it surrenders "
        'if an enemy is within 12"'
    ),
}


def fs_now(u: Any) -> tuple[str, ...]:
    """Five grades: one activation a turn (R3-1); a panicking unit's is one panic test and nothing else (R3-2);
    what it may do in it is its grade's (§0.3, R3-3); No step back passes every test (§0.9)."""
    if u.removed:
        return ()
    stand = (N_("No step back: it passes every morale and reaction test"),) if u.last_stand else ()
    if u.spent or (u.panic == "panicking" and u.panic_tests):
        return (N_("done this turn: its next activation comes next turn"), *stand)
    if u.panic == "panicking":
        if u.activations:
            return (N_("panicking: its panic test is all this activation may do"), *stand)
        return (N_("panicking: its activation will be one panic test and nothing else"), *stand)
    grade = _FS_GRADE.get(u.grade)
    said = (grade,) if grade else ()
    if u.activations:
        return (N_("has activated this turn: no second activation until next turn"), *said, *stand)
    return (N_("may activate this turn (once a turn)"), *said, *stand)


def grimdark_cards(state: Any, units: Mapping[str, Mapping[str, Any]]) -> list[Card]:
    del units
    battle = _fought(state, state.active_battle)
    if battle is None:
        return []
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
        now = gf_now(battle, u.joined_to or uid) if not u.removed else ()
        card = Card(uid, _name(state, uid), u.side, tuple(items), tuple(flags), u.removed, joined, now)
        cards.append(card)
    return _by_side(battle, cards)


def gf_now(battle: Any, uid: str) -> tuple[str, ...]:
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


def disorder_cards(state: Any, units: Mapping[str, Mapping[str, Any]]) -> list[Card]:
    del units
    battle = _fought(state, state.active_battle)
    if battle is None:
        return []
    cards = []
    for uid in _deployed(battle):
        u = battle.units[uid]
        items = [
            Item(N_("models"), _left(u.models, u.start_models)),
            Item(N_("disorder markers"), str(u.markers)),
            *([Item(N_("permanent markers"), str(u.permanent))] if u.permanent else []),
        ]
        flags = [N_("must rally")] if u.must_rally is not None else []
        now = disorder_now(battle.turn, u)
        cards.append(Card(uid, _name(state, uid), u.side, tuple(items), tuple(flags), u.removed, now=now))
    return _by_side(battle, cards)


def disorder_now(turn: int, u: Any) -> tuple[str, ...]:
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


def mass_combat_cards(state: Any, units: Mapping[str, Mapping[str, Any]]) -> list[Card]:
    """A Mass Combat battle is fought by the armies of its sides: each of their units, its men fit and wounded,
    its quality and Morale, and its fate once one is recorded."""
    battle = _fought(state, state.open_battle)
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
    return _by_side(battle, cards)


MC_NOW: dict[str, tuple[str, ...]] = {
    # §2.11: no unit acts alone; the armies' Strategy contest decides, and its result says each unit's fate
    "": (N_("fights as part of its army: the Strategy contest decides, then its result says who tests Morale"),),
    "holds": (N_("holds its position"),),
    "retreats": (N_("retreats in good order"),),
    "routs": (N_("routs: out of this battle"),),
    "surrenders": (N_("surrenders: out of this battle"),),
}


def _deployed(battle: Any) -> list[str]:
    """The battle's units in the order they were deployed (then any the order does not name)."""
    order = [uid for uid in battle.order if uid in battle.units]
    return order + [uid for uid in battle.units if uid not in order]


def _name(state: Any, unit_id: str) -> str:
    unit = state.roster.get(unit_id)
    return str(unit.name) if unit is not None else unit_id


def _fought(state: Any, battle_id: str | None) -> Any:
    """The battle being fought, or None."""
    return state.battles.get(battle_id) if battle_id is not None else None


def _by_side(battle: Any, cards: list[Card]) -> list[Card]:
    """By side (in the battle's order of its sides), then as built."""
    sides = {side: i for i, side in enumerate(battle.sides)}
    return sorted(cards, key=lambda c: sides.get(c.side, len(sides)))


Sheet = Callable[[Any, Mapping[str, Mapping[str, Any]]], list[Card]]
"""A ruleset's battle sheet (its plug-in's ``sheet``): its state and the summary's unit rows by id → a card for
each unit in the battle being fought (none if no battle is)."""


def battle_sheet(ruleset: str, state: Any, summary: Any) -> list[Card]:
    """Each unit in the battle being fought (none if no battle is), by side then as deployed, as the ruleset's
    plug-in declares its sheet (none if it declares none); ``summary`` the summary of ``state``, for what its unit
    rows work out (a five-grade unit's fatigue, a Mass Combat Morale)."""
    info = RULESETS.get(ruleset)
    if info is None or info.sheet is None:
        return []
    sheet: Sheet = load(info.sheet)
    return sheet(state, {str(u["unit_id"]): u for u in summary.units})
