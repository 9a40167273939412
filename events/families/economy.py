"""Money and pay: treasuries, recruitment, upkeep, pay and its arrears, loot and ransom."""

from __future__ import annotations

from events.registry import Event, registry


@registry.register
class FundsChanged(Event):
    """A side's treasury changed by ``amount`` whole $ (negative = spent)."""

    event_name = "economy.funds_changed"

    side: str
    amount: int
    reason: str


@registry.register
class TroopsRecruited(Event):
    """Men joined a unit: its experience is re-averaged with theirs at their quality's lower bound."""

    event_name = "economy.troops_recruited"

    unit_id: str
    men: int
    quality: str
    experience: int
    cost: int


@registry.register
class PaySettled(Event):
    """A unit's payday: what was due, what was paid, and the pay penalty to its Morale afterwards."""

    event_name = "economy.pay_settled"

    unit_id: str
    month: int
    due: int
    paid: int
    penalty: int
    paid_streak: int
    bonus_morale: int
    owed: int = 0
    """Pay still owed after it (arrears counted in days, RULES.md R2-19)."""
    unpaid_days: int = 0


@registry.register
class UnitDisbanded(Event):
    event_name = "roster.unit_disbanded"

    unit_id: str
    reason: str


@registry.register
class MoraleModifierSet(Event):
    """A persistent Morale modifier on a unit (or every unit of a side) until it ends.

    ``until``: ``clear_victory`` (the loss of a commander), ``year_end`` (the same enemy this year),
    ``month_end`` (bonus pay), or ``removed`` (set to 0 by the game master).
    """

    event_name = "morale.modifier_set"

    name: str
    value: int
    unit_id: str | None = None
    side: str | None = None
    until: str = "removed"
