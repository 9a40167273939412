"""GURPS Mass Combat's (seed 002, RULES.md §2) decisions in the reader's language, from what they recorded.

A battle day's steps whose sentences are built from many sub-terms recorded only in English (a catastrophe's
effects, the strategy contest's modifiers, casualties by unit, the PCs' Survival and Glory rolls) have no renderer
yet and are shown as recorded; so is a decision recorded before its rule recorded what its sentence states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.i18n import DEFAULT, N_, _, language
from campaign.i18n.explain import Beside, renders
from campaign.i18n.formats import number
from campaign.i18n.terms import shown

MC = "mass-combat"
_RESULTS = {
    "no_clear_winner": N_("no clear winner"),
    "minor_victory": N_("minor victory"),
    "victory_morale_2": N_("victory morale 2"),
    "victory_morale_4": N_("victory morale 4"),
    "overwhelming": N_("overwhelming"),
    "thrown_back": N_("thrown back"),
    "attacker_holds_half": N_("attacker holds half"),
    "attacker_holds_half_2": N_("attacker holds half 2"),
    "attacker_breaks": N_("attacker breaks"),
    "attacker_breaks_2": N_("attacker breaks 2"),
    "technical_win": N_("technical win"),
    "both_hold": N_("both hold"),
    "defender_holds_half": N_("defender holds half"),
    "position_taken": N_("position taken"),
    "position_taken_captured": N_("position taken captured"),
}
"""Each result of the §2.11 tables, as the sentences say its key (``victory_morale_2`` → "victory morale 2")."""


def _result(key: str) -> str:
    return _(_RESULTS[key]) if key in _RESULTS else key.replace("_", " ")


def _fate(value: str) -> str:
    return shown(MC, "result", value) if language() != DEFAULT else value


@renders(MC, "battle_day")
def _battle_day(p: Mapping[str, Any], beside: Beside) -> str:
    setup = p["inputs"]["setup"]
    return _("{battle}, day {day}: {n} steps resolved").format(
        battle=setup["name"], day=setup["day"], n=p["outcome"]["decisions"]
    )


def _n(value: object) -> str:
    """A recorded whole number, its thousands grouped for a Russian or Polish reader (in English as recorded)."""
    return number(int(str(value))) if language() != DEFAULT else str(value)


def _signed(value: object) -> str:
    signed = f"{int(str(value)):+d}"
    return signed if language() == DEFAULT else signed.replace("-", "−")


def _quality(value: object) -> str:
    return shown(MC, "quality", str(value)) if language() != DEFAULT else str(value)


def _experience(rows: Any) -> str:
    """§2.3: "; one battle more of experience for every unit that fought (§2.3): Caliburn's gang 0 → 1, now green
    (was inexperienced): base Morale 6 → 11 (the -3 for inexperienced irregulars no longer applies)"."""
    parts = []
    for name, was, now, quality_was, quality, before, after, cut in rows:
        part = f"{name} {was} → {now}"
        if quality != quality_was:
            part += _(", now {quality} (was {was}): base Morale {before} → {after}").format(
                quality=_quality(quality), was=_quality(quality_was), before=before, after=after
            )
            if cut:
                part += _(" (the {cut} for inexperienced irregulars no longer applies)").format(cut=_signed(cut))
        parts.append(part)
    return _("; one battle more of experience for every unit that fought (§2.3): {units}").format(
        units="; ".join(parts)
    )


@renders(MC, "battle_end")
def _battle_end(p: Mapping[str, Any], beside: Beside) -> str | None:
    inputs, outcome = p["inputs"], p["outcome"]
    if "battle" not in inputs or (inputs.get("experience_said") and "experience" not in inputs):
        return None  # recorded before the rule recorded the battle's name and day, or the units' experience
    # the sides in the order the set-up gave them, as recorded
    ts = ", ".join(f"{side} {_n(outcome['ts'][side])}" for side in inputs["sides"])
    said = _("{battle}, day {day}: {result}; TS after: {ts}").format(
        battle=inputs["battle"], day=inputs["day"], result=_result(str(outcome["result"])), ts=ts
    )
    return said + _experience(inputs["experience"]) if inputs.get("experience_said") else said


_TABLES = {
    "A": N_("Table A (open field)"),
    "B": N_("Table B (defender wins)"),
    "C": N_("Table C (attacker wins)"),
}


@renders(MC, "result")
def _result_said(p: Mapping[str, Any], beside: Beside) -> str | None:
    """§2.11: "Table A (open field), W = 8: victory morale 2; Al-Wazif has the better of it (a clear victory)"."""
    inputs, outcome = p["inputs"], p["outcome"]
    if "defeats" not in inputs:
        return None  # recorded before the rule recorded the band and the other defeats
    key, w, winner = str(outcome["result"]), int(inputs["w"]), outcome["winner"]
    head = _("{table}, W = {w}: {result}").format(table=_(_TABLES[str(inputs["table"])]), w=w, result=_result(key))
    if key == "no_clear_winner":
        low, high = inputs["band"]
        band = f"W {low}–{high}" if high is not None else f"W {low}+"
        gap = (
            _("the margins are equal")
            if w == 0
            else _("{side}'s margin is higher by {w}, too little to count").format(side=winner, w=w)
        )
        said = _(
            "{head} ({band} of Table A): {gap}; neither side has the better of it, and every unit of both sides rolls "
            "Morale"
        ).format(head=head, band=band, gap=gap)
    else:
        said = (
            _("{head}; {side} has the better of it (a clear victory)")
            if outcome["clear_victory"] == "yes"
            else _("{head}; {side} has the better of it")
        ).format(head=head, side=winner)
        if inputs["table"] == "B" and w == 0:
            said += _(": the margins are equal, and a tie goes to the defender (Table B begins at W 0, Table C at W 1)")
    return said + "".join(
        _("; against {side} (W {w}): {result}").format(side=side, w=dw, result=_result(str(dk)))
        for side, dw, dk in inputs["defeats"]
    )


def _money(value: object) -> str:
    return "$" + _n(value)


def _pay(inputs: Mapping[str, Any]) -> str | None:
    """What a payday's pay did (§2.11, R2-19), as the rule said it."""
    said, paid, due = str(inputs["said"]), inputs.get("paid"), inputs.get("due")
    if said == "conscripts":
        return _("conscripts unpaid: Morale −2 instead of −1 until paid")
    if said == "bonus":
        text = _("bonus pay {paid} ({pct}% of a month's {monthly}; nothing was owed): ").format(
            paid=_money(paid), pct=inputs["pct"], monthly=_money(inputs["monthly"])
        )
        bonus = int(inputs["bonus"])
        return text + (
            _("Morale +{bonus} next month").format(bonus=bonus) if bonus else _("less than +50%, no Morale bonus")
        )
    if said == "part":
        return _("paid {paid} of {due} owed: still in arrears").format(paid=_money(paid), due=_money(due))
    if said == "unpaid_day":
        return _("paid {paid} of {due}: an unpaid day ({days} in a row), arrears Morale −{penalty}").format(
            paid=_money(paid), due=_money(due), days=inputs["days"], penalty=inputs["penalty"]
        )
    if said == "missed":
        return (
            _("paid {paid} of {due}: payday missed (again), arrears Morale −{penalty}")
            if inputs["again"]
            else _("paid {paid} of {due}: payday missed (first), arrears Morale −{penalty}")
        ).format(paid=_money(paid), due=_money(due), penalty=inputs["penalty"])
    if said != "paid":
        return None
    text = _("paid {paid} of {due}").format(paid=_money(paid), due=_money(due))
    if int(inputs["bonus"]):
        text += _(" (+50% or more: Morale +{bonus} next month)").format(bonus=inputs["bonus"])
    if inputs.get("arrears_paid") is not None:
        text += _("; the arrears are paid: Morale −{penalty} now, 1 less every 2nd day").format(
            penalty=inputs["arrears_paid"]
        )
    if inputs.get("forgiven"):
        text += _("; a second paid payday: 1 point of arrears forgiven")
    return text


@renders(MC, "payday")
def _payday(p: Mapping[str, Any], beside: Beside) -> str | None:
    """§2.11: "Al-Wazif foot: upkeep $80000; paid $0 of $200000: an unpaid day (1 in a row), arrears Morale −1;
    Morale roll 6 vs 12 → the men grumble but stay"."""
    inputs, outcome = p["inputs"], p["outcome"]
    if "said" not in inputs:
        return None  # recorded before the payday recorded what it says
    pay = _pay(inputs)
    if pay is None:
        return None
    name = beside.name(p["unit_id"])
    said = (
        _("{unit}: upkeep {upkeep}; {pay}").format(unit=name, upkeep=_money(inputs["upkeep"]), pay=pay)
        if inputs.get("upkeep") is not None
        else f"{name}: {pay}"
    )
    if "morale_roll" in outcome:
        said += (
            _("; Morale roll {roll} vs {morale} → the men grumble but stay")
            if outcome["morale_roll"] == "made"
            else _("; Morale roll {roll} vs {morale} → failed: trouble of the game master's choosing")
        ).format(roll=beside.rolls[int(p["dice"][0])], morale=inputs["morale"])
    return said


@renders(MC, "same_enemy_this_year")
def _same_enemy(p: Mapping[str, Any], beside: Beside) -> str | None:
    inputs, outcome = p["inputs"], p["outcome"]
    if "battle" not in inputs:
        return None
    losers = ", ".join(str(s) for s in inputs["losers"])
    return _(
        "{winner} beat {losers} at {battle}: Morale {beat} against them until the year ends; {losers} {lost} against "
        "{winner}"
    ).format(
        winner=inputs["winner"],
        losers=losers,
        battle=inputs["battle"],
        beat=f"{int(outcome['beat']):+d}",
        lost=f"{int(outcome['lost']):+d}",
    )


@renders(MC, "army_morale")
def _army_morale(p: Mapping[str, Any], beside: Beside) -> str | None:
    inputs = p["inputs"]
    if "side" not in inputs:
        return None
    said = (
        _("{passed} of {units} units of {side} pass: the army holds")
        if p["outcome"]["holds"]
        else _("{passed} of {units} units of {side} pass: the army retreats in good order")
    )
    return said.format(passed=inputs["passed"], units=inputs["units"], side=inputs["side"])


@renders(MC, "next_day_morale")
def _next_day(p: Mapping[str, Any], beside: Beside) -> str:
    persist = p["outcome"]["persist"]
    value = int(persist[0]["value"]) if persist else 0
    return _("{side}: Morale {value} on the next day for {units}").format(
        side=p["inputs"]["side"], value=f"{value:+d}", units=", ".join(beside.name(u["unit_id"]) for u in persist)
    )


@renders(MC, "unit_morale")
def _unit_morale(p: Mapping[str, Any], beside: Beside) -> str | None:
    inputs, outcome = p["inputs"], p["outcome"]
    fate = str(outcome["fate"])
    if p.get("unit_id") is None:
        if "side" not in inputs:
            return None
        return _("overwhelming victory: every unit of {side} routs").format(side=inputs["side"])
    name = beside.name(p["unit_id"])
    if "exempt" in inputs:
        return _("{unit}: not subject to Morale → passes → {fate}").format(unit=name, fate=_fate(fate))
    if "base" not in inputs or "nowhere_to_go" in inputs or len(p.get("dice") or []) != 1:
        return None  # recorded before the roll recorded its base and terms, or with a second roll for no room
    morale, penalty, margin = int(inputs["morale"]), int(inputs["penalty"]), int(outcome["margin"])
    base = int(inputs["base"])
    roll = beside.rolls[int(p["dice"][0])]
    detail = _("Morale {morale}").format(morale=morale)
    if morale != base:
        detail += " " + _("(base {base} {carried})").format(base=base, carried=f"{morale - base:+d}".replace("-", "−"))
    detail += "".join(f" {str(k).replace('_', ' ')} {int(v):+d}" for k, v in inputs["terms"])
    if penalty:
        detail += " " + _("result {penalty}").format(penalty=f"{penalty:+d}")
    said = (
        _("{unit}: {detail} = {target}, rolled {roll} → made by {margin} → {fate}")
        if margin >= 0
        else _("{unit}: {detail} = {target}, rolled {roll} → failed by {margin} → {fate}")
    )
    return said.format(unit=name, detail=detail, target=margin + roll, roll=roll, margin=abs(margin), fate=_fate(fate))


@renders(MC, "loot")
def _loot(p: Mapping[str, Any], beside: Beside) -> str:
    inputs = p["inputs"]
    value = int(p["outcome"]["value"])
    return _("{side} strips the field of {battle}: ${value}").format(
        side=inputs["side"], battle=inputs["battle"], value=number(value) if language() != DEFAULT else value
    )


@renders(MC, "battle_skill")
def _battle_skill(p: Mapping[str, Any], beside: Beside) -> str | None:
    """§2.9: "Caliburn: Battle 10; Risk -2 → Survival 8, Glory 12"."""
    inputs, outcome = p["inputs"], p["outcome"]
    if "risk" not in inputs:
        return None
    return _("{pc}: Battle {battle}; Risk {risk} → Survival {survival}, Glory {glory}").format(
        pc=inputs["pc"],
        battle=outcome["battle"],
        risk=f"{int(inputs['risk']):+d}",
        survival=outcome["survival"],
        glory=outcome["glory"],
    )


@renders(MC, "unpaid_day")
def _unpaid_day(p: Mapping[str, Any], beside: Beside) -> str | None:
    """§2.11: "Al-Wazif foot: unpaid day 2, arrears Morale −3; Morale roll 9 vs 10 → the men grumble but stay"."""
    inputs = p["inputs"]
    if "unpaid_days" not in inputs:
        return None
    said = (
        _(
            "{unit}: unpaid day {n}, arrears Morale −{arrears}; Morale roll {roll} vs {morale} → the men grumble but stay"  # noqa: E501 (one message)
        )
        if p["outcome"]["morale_roll"] == "made"
        else _(
            "{unit}: unpaid day {n}, arrears Morale −{arrears}; Morale roll {roll} vs {morale} → failed: trouble of "
            "the game master's choosing"
        )
    )
    return said.format(
        unit=beside.name(p["unit_id"]),
        n=inputs["unpaid_days"],
        arrears=inputs["arrears"],
        roll=beside.rolls[int(p["dice"][0])],
        morale=inputs["morale"],
    )
