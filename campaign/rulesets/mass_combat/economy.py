"""The campaign economy of Mass Combat (§2.11–§2.12): what troops cost, their pay and its arrears, loot,
and wounded men coming back. Pure: money is whole $, time is whole days."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from campaign.rulesets.mass_combat.profile import UnitProfile
from campaign.rulesets.mass_combat.quality import base_morale, leadership_modifier
from campaign.rulesets.mass_combat.tables import Tables
from campaign.rulesets.tables import pick
from events.errors import InvalidInputError


def recruitment_cost(tables: Tables, p: UnitProfile) -> int:
    """$ per man: the profile's own price, or the Yrth list by troop type plus the missile add-on."""
    if p.cost_per_man is not None:
        return p.cost_per_man
    if p.troop_type is None or p.troop_type not in tables.economy.yrth:
        types = ", ".join(sorted(tables.economy.yrth))
        raise InvalidInputError.saying(
            "no price for this unit: give cost_per_man, or a troop_type of {types}", types=types
        )
    cost = pick(tables.economy.yrth, p.troop_type, "economy.yrth")
    if p.ranged != "none" and (p.ranged in tables.economy.yrth_missile):
        cost += pick(tables.economy.yrth_missile, p.ranged, "economy.yrth_missile")
    return cost


def monthly_pay(tables: Tables, p: UnitProfile) -> int:
    """10% of the recruitment cost × the quality's pay factor (R2-20; every factor 100% until the column is found)."""
    pct = tables.economy.pay_pct_of_cost * pick(tables.economy.pay_quality_pct, p.quality, "economy.pay_quality_pct")
    return recruitment_cost(tables, p) * p.men * pct // 10000


def upkeep(tables: Tables, p: UnitProfile) -> int:
    each = tables.economy.upkeep_mounted if p.mount != "none" else tables.economy.upkeep_soldier
    return each * p.men


@dataclass(frozen=True)
class PayState:
    penalty: int = 0
    """The arrears penalty: while pay is owed, as it stands; once paid, as it stood on ``anchor_day`` (R2-19)."""
    paid_streak: int = 0
    missed_streak: int = 0
    owed: int = 0
    """$ of pay still owed (arrears counted in days, R2-19 (c))."""
    unpaid_days: int = 0
    anchor_day: int = 0


@dataclass(frozen=True)
class Payday:
    due: int
    paid: int
    state: PayState
    bonus_morale: int
    morale_roll_needed: bool
    explanation: str
    said: Mapping[str, int | str | None] = field(default_factory=dict)
    """What ``explanation`` states, as data (which sentence, ``said``, and its numbers), for a view's language."""


def by_days(tables: Tables) -> bool:
    return str(tables.economy.arrears_counted_in) == "days"


def current_penalty(tables: Tables, pay: PayState, day: int) -> int:
    """The arrears penalty on ``day`` (R2-19 (c)): while pay is owed it stands; once the arrears are paid in full
    it falls by 1 on every 2nd day after the payment, never below 0."""
    if not by_days(tables) or pay.owed > 0:
        return pay.penalty
    return max(0, pay.penalty - (day - pay.anchor_day) // tables.economy.paid_restores_every)


def after_unpaid_days(tables: Tables, pay: PayState, days: int) -> PayState:
    """Days that end with pay still owed (R2-19 (c)): −2 Morale each (−1 for the first of a run of arrears)."""
    if not by_days(tables) or pay.owed <= 0 or days <= 0:
        return pay
    penalty = pay.penalty
    for n in range(pay.unpaid_days + 1, pay.unpaid_days + days + 1):
        penalty += tables.economy.missed_first if n == 1 else tables.economy.missed_later
    return replace(pay, penalty=penalty, unpaid_days=pay.unpaid_days + days)


def _payday_by_days(tables: Tables, p: UnitProfile, pay: PayState, paid_pct: int, day: int, on_payday: bool) -> Payday:
    monthly = monthly_pay(tables, p)
    paid = monthly * paid_pct // 100
    current = current_penalty(tables, pay, day)
    if p.conscript and paid_pct == 0 and on_payday:
        # R2-19 (a): unpaid conscripts take the conscript −2 instead of −1, no arrears and no Morale roll.
        state = PayState(current, 0, pay.missed_streak + 1, 0, 0, day)
        return Payday(
            monthly, 0, state, 0, False, "conscripts unpaid: Morale −2 instead of −1 until paid", {"said": "conscripts"}
        )
    if not on_payday and pay.owed == 0:
        # Nothing owed: a payment between paydays is bonus pay on top of the month's (§2.11: pay +50% → Morale +1
        # next month, +100% → +2), not a month paid in advance (the month's end pays the month as ever).
        bonus = next(
            (
                b
                for b, pct in ((2, tables.economy.bonus_pay_2), (1, tables.economy.bonus_pay_1))
                if 100 + paid_pct >= pct
            ),
            0,
        )
        text = f"bonus pay ${paid} ({paid_pct}% of a month's ${monthly}; nothing was owed): " + (
            f"Morale +{bonus} next month" if bonus else "less than +50%, no Morale bonus"
        )
        said: dict[str, int | str | None] = {
            "said": "bonus",
            "paid": paid,
            "pct": paid_pct,
            "monthly": monthly,
            "bonus": bonus,
        }
        return Payday(0, paid, pay, bonus, False, text, said)
    due = pay.owed + (monthly if on_payday else 0)
    if paid >= due:
        bonus = 0
        if on_payday and (paid - pay.owed) * 100 >= monthly * tables.economy.bonus_pay_2:
            bonus = 2
        elif on_payday and (paid - pay.owed) * 100 >= monthly * tables.economy.bonus_pay_1:
            bonus = 1
        state = PayState(current, pay.paid_streak + 1, 0, 0, 0, day)
        text = f"paid ${paid} of ${due}" + (f" (+50% or more: Morale +{bonus} next month)" if bonus else "")
        if pay.owed:
            text += f"; the arrears are paid: Morale −{current} now, 1 less every 2nd day"
        said = {
            "said": "paid",
            "paid": paid,
            "due": due,
            "bonus": bonus,
            "arrears_paid": current if pay.owed else None,
        }
        return Payday(due, paid, state, bonus, False, text, said)
    if not on_payday:  # a part payment of arrears: still owed, no new unpaid day
        state = replace(pay, owed=due - paid)
        return Payday(
            due, paid, state, 0, False, f"paid ${paid} of ${due} owed: still in arrears",
            {"said": "part", "paid": paid, "due": due},
        )  # fmt: skip
    state = after_unpaid_days(tables, replace(pay, owed=due - paid, paid_streak=0), 1)
    state = replace(state, missed_streak=pay.missed_streak + 1, anchor_day=day)
    text = f"paid ${paid} of ${due}: an unpaid day ({state.unpaid_days} in a row), arrears Morale −{state.penalty}"
    said = {
        "said": "unpaid_day",
        "paid": paid,
        "due": due,
        "days": state.unpaid_days,
        "penalty": state.penalty,
    }
    return Payday(due, paid, state, 0, True, text, said)


def payday(
    tables: Tables, p: UnitProfile, pay: PayState, paid_pct: int, *, day: int = 0, on_payday: bool = True
) -> Payday:
    """One payday (§2.11), or with ``on_payday`` false a payment between paydays. By days (R2-19 (c)): the day
    ends with pay owed is an unpaid day (−1, then −2 each); paid in full, the penalty falls 1 every 2nd day.
    By paydays (the first edition): −1, then −2 each missed payday, every 2nd paid payday gives 1 back. Bonus
    pay raises next month's Morale; the Veteran floor is applied where Morale is reckoned (R2-19 (b))."""
    if paid_pct < 0:
        raise InvalidInputError.saying("pay cannot be negative")
    if by_days(tables):
        return _payday_by_days(tables, p, pay, paid_pct, day, on_payday)
    due = monthly_pay(tables, p)
    paid = due * paid_pct // 100
    bonus = 0
    if paid >= due:
        streak = pay.paid_streak + 1
        penalty = pay.penalty
        every = tables.economy.paid_restores_every
        restored = penalty > 0 and streak % every == 0
        if restored:
            penalty -= 1
        if paid_pct >= tables.economy.bonus_pay_2:
            bonus = 2
        elif paid_pct >= tables.economy.bonus_pay_1:
            bonus = 1
        state = PayState(penalty, streak, 0)
        text = f"paid ${paid} of ${due}" + (" (+50% or more: Morale +" + str(bonus) + " next month)" if bonus else "")
        text += "; a second paid payday: 1 point of arrears forgiven" if restored else ""
        said: dict[str, int | str | None] = {
            "said": "paid",
            "paid": paid,
            "due": due,
            "bonus": bonus,
            "forgiven": int(restored),
        }
        return Payday(due, paid, state, bonus, False, text, said)
    missed = pay.missed_streak + 1
    if p.conscript and paid_pct == 0:
        # R2-19 (a): unpaid conscripts take the conscript −2 instead of −1, no arrears and no Morale roll.
        state = PayState(pay.penalty, 0, missed)
        return Payday(
            due, 0, state, 0, False, "conscripts unpaid: Morale −2 instead of −1 until paid", {"said": "conscripts"}
        )
    step = tables.economy.missed_first if missed == 1 else tables.economy.missed_later
    penalty = pay.penalty + step
    state = PayState(penalty, 0, missed)
    text = f"paid ${paid} of ${due}: payday missed ({'first' if missed == 1 else 'again'}), arrears Morale −{penalty}"
    said = {
        "said": "missed",
        "paid": paid,
        "due": due,
        "again": int(missed != 1),
        "penalty": penalty,
    }
    return Payday(due, paid, state, 0, True, text, said)


def arrears_applied(tables: Tables, p: UnitProfile, penalty: int, other: int) -> int:
    """The part of an arrears penalty that counts (R2-19 (b)): Veterans and Elite never fall below 14 from
    non-payment, on their final Morale M = base + leader + ``other`` current modifiers."""
    if p.quality not in ("veteran", "elite"):
        return penalty
    final = base_morale(tables, p.quality, irregular=p.irregular) + leadership_modifier(tables, p.leader_leadership)
    return min(penalty, max(0, final + other - tables.morale.veteran_pay_floor))


def conscript_modifier(tables: Tables, p: UnitProfile, paid: bool) -> int:
    if not p.conscript:
        return 0
    return tables.economy.conscript_paid if paid else tables.economy.conscript_unpaid


def stripped_value(tables: Tables, p: UnitProfile, men: int) -> int:
    """What stripping ``men`` fallen enemies of this unit fetches: ⅓ of the raise cost, sold for 20%."""
    try:
        cost = recruitment_cost(tables, p)
    except InvalidInputError:
        return 0
    value = cost // tables.economy.strip_fraction_divisor * tables.economy.strip_sale_pct // 100
    if p.mount != "none":
        value //= tables.economy.strip_cavalry_divisor
    return value * men


def magic_healing_reaches(tables: Tables, healers: int | None, wounded: int) -> bool:
    """Magical healing's +1d% a day needs one healer per ``healing.magic_healers_per_wounded`` (10) wounded
    (§2.12 [INF]); with the healers not counted, the game master has judged them enough."""
    return healers is None or healers * tables.healing.magic_healers_per_wounded >= wounded


def wounded_returning(
    tables: Tables,
    p: UnitProfile,
    *,
    original_men: int,
    wounded: int,
    days: int,
    activity: str,
    magic_pct: int = 0,
    ht: int | None = None,
) -> int:
    """Men back from the wounded: (2 + TL)% of the original unit a day of rest, 2% a day of march (§2.12)."""
    if days < 0:
        raise InvalidInputError.saying("time does not move backwards")
    if activity == "rest":
        rate = tables.casualties.wounded_return_rest_base + p.tl
    elif activity == "march":
        rate = tables.casualties.wounded_return_march
    else:
        return 0
    healing = p.healing
    if ht is not None:
        healing = "fast" if ht >= 14 else "slow" if ht <= 7 else healing
    scaled = rate * {"fast": tables.healing.fast_pct, "slow": tables.healing.slow_pct}.get(healing, 100)
    per_day_hundredths = scaled + magic_pct * 100  # the magic 1d% is not scaled by race
    return min(wounded, original_men * per_day_hundredths * days // 10000)
