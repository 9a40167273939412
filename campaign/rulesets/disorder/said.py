"""Disorder markers' (seed 001, RULES.md §1) decisions in the reader's language, from what they recorded.

Each renderer says what ``campaign/rulesets/disorder`` wrote in English, term for term; a decision recorded
before its rule recorded what its sentence states (a check's terms, a battle's end) returns None and is shown as
recorded."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from campaign.i18n import N_, _, ngettext
from campaign.i18n.explain import Beside, reason_said, renders, term
from campaign.i18n.formats import decimal
from events.recorded import JsonObject, JsonValue, obj, seq, texts, whole

DIS = "disorder"
_STATES = ("in_order", "disordered", "broken")
_ORDINALS = (
    N_("first"),
    N_("second"),
    N_("third"),
    N_("fourth"),
    N_("fifth"),
    N_("sixth"),
    N_("seventh"),
    N_("eighth"),
    N_("ninth"),
    N_("tenth"),
)


def _state(total_markers: int) -> str:
    """The state a unit's markers put it in, in the seed's words (as ``rules.state_name`` says it in English)."""
    return term(DIS, "state", _STATES[min(whole(total_markers), len(_STATES) - 1)]).replace("_", " ")


def _ordinal(n: int) -> str:
    if 1 <= n <= len(_ORDINALS):
        return _(_ORDINALS[n - 1])
    return _("{n}th").format(n=n)


def _rolled(beside: Beside, index: int) -> str:
    faces: Sequence[int] = beside.faces[index]
    return f"{beside.rolls[index]} ({'+'.join(map(str, faces))})"


@renders(DIS, "models_lost")
def _models_lost(p: JsonObject, beside: Beside) -> str:
    """ "Voltigeurs lost 2 models (shooting): 8 left"."""
    inputs, left = obj(p["inputs"]), whole(obj(p["outcome"])["models"])
    lost = whole(inputs["models"]) - left
    return ngettext(
        "{unit} lost {n} model ({cause}): {left} left", "{unit} lost {n} models ({cause}): {left} left", lost
    ).format(unit=beside.name(p["unit_id"]), n=lost, cause=term(DIS, "loss", inputs["cause"]), left=left)


@renders(DIS, "permanent_marker")
def _permanent_marker(p: JsonObject, beside: Beside) -> str:
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    total = whole(outcome["total_markers"])
    then = _("flees at once, no test") if outcome["flees"] else _state(total)
    return _("{unit} is down to {models} of {start} models (≤ ½): a permanent marker, {total} in all → {then}").format(
        unit=beside.name(p["unit_id"]), models=inputs["models"], start=inputs["start_models"], total=total, then=then
    )


@renders(DIS, "marker")
def _marker(p: JsonObject, beside: Beside) -> str:
    outcome = obj(p["outcome"])
    total = whole(outcome["total_markers"])
    then = _("flees, removed") if outcome["flees"] else _state(total)
    return _("{unit} takes a marker ({reason}): {total} in all → {then}").format(
        unit=beside.name(p["unit_id"]), reason=reason_said(obj(p["inputs"])["reason"]), total=total, then=then
    )


_CHECK_TERMS = {
    "models lost": N_("models lost"),
    "markers": N_("markers"),
    "discipline": N_("discipline"),
    "close order": N_("close order"),
    'officer within 12"': N_('officer within 12"'),
    "extra causes": N_("extra causes"),
}


def _sum(terms: JsonValue) -> str:
    pairs = [seq(pair) for pair in seq(terms)]
    return " ".join(
        f"{'+' if whole(v) >= 0 else '−'} {abs(whole(v))} {_(_CHECK_TERMS[str(label)])}"
        for label, v in pairs
        if whole(v)
    )


@renders(DIS, "morale_check")
def _morale_check(p: JsonObject, beside: Beside) -> str | None:
    """§1.4: "Voltigeurs, morale check for casualties: 4 (2+2) − 2 models lost + 1 discipline + 1 officer within
    12" = 4 → fails: retreats ½ move, no new marker"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "terms" not in inputs or "verdict" not in inputs:
        return None  # recorded before the check recorded its terms: shown as recorded
    had = whole(inputs["markers"]) + whole(inputs["permanent"])
    verdict = str(inputs["verdict"])
    if verdict == "pass":
        text = _("passes: no new marker, the markers it has stay")
    elif verdict == "retreat":
        text = _("fails: retreats ½ move, no new marker")
    elif verdict == "flees_while_disordered":
        text = _("fails badly while {state}: flees, removed").format(state=_state(had))
    elif verdict == "flees_new_marker":
        text = _("fails badly: the new marker is its {nth}, it flees").format(nth=_ordinal(had + 1))
    else:
        text = _("fails badly: a marker ({state}), retreats ½ move, must rally").format(state=_state(had + 1))
    working = f"{_rolled(beside, whole(seq(p['dice'])[0]))} {_sum(inputs['terms'])} = {outcome['total']}".replace(
        "  ", " "
    )
    causes = ", ".join(term(DIS, "cause", c) for c in seq(inputs["causes"]))
    return _("{unit}, morale check for {causes}: {working} → {text}").format(
        unit=beside.name(p["unit_id"]), causes=causes, working=working, text=text
    )


@renders(DIS, "rally")
def _rally(p: JsonObject, beside: Beside) -> str:
    """§1.6: "Line company, rally: 7 (3+4) +1 discipline − 1 markers = 7 → rallies: in order"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    index = whole(seq(p["dice"])[0])
    had = whole(inputs["markers"]) + whole(inputs["permanent"])
    discipline, total = whole(inputs["discipline"]), whole(outcome["total"])
    bonus = total - beside.rolls[index] - discipline + had  # what the close order and the officer added
    working = _("{rolled} {discipline} discipline − {markers} markers").format(
        rolled=_rolled(beside, index), discipline=f"{discipline:+d}", markers=had
    )
    if bonus:
        working += " " + _("{bonus} bonuses").format(bonus=f"{bonus:+d}")
    working += f" = {total}"
    if outcome["passed"]:
        text = _("rallies: {state}").format(state=_state(whole(outcome["markers"]) + whole(inputs["permanent"])))
    elif outcome["retreats"]:
        text = _("fails: retreats ½ move directly away from the nearest enemy; it may try again next turn")
    else:
        text = _("fails: no change, it may try again next turn")
    return _("{unit}, rally: {working} → {text}").format(unit=beside.name(p["unit_id"]), working=working, text=text)


@renders(DIS, "retreat")
def _retreat(p: JsonObject, beside: Beside) -> str:
    """§1.5: 'Fusiliers retreats 1.5" of 3", 1 full inch short: 1 captured'."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    captured = whole(outcome["captured"])
    text = _('{unit} retreats {moved}" of {needed}"').format(
        unit=beside.name(p["unit_id"]), moved=decimal(str(inputs["moved"])), needed=decimal(str(inputs["needed"]))
    )
    if captured:
        short = int(Decimal(str(inputs["needed"])) - Decimal(str(inputs["moved"])))
        text += ngettext(
            ", {short} full inch short: {captured} captured", ", {short} full inches short: {captured} captured", short
        ).format(short=short, captured=captured)
    if inputs["off_table"] and whole(inputs["models"]) - captured > 0:
        text += _("; a model left the table: the whole unit has fled")
    return text


def _share(inputs: JsonObject) -> str:
    lost, start = whole(inputs["lost_points"]), whole(inputs["start_points"])
    return _("{lost} of {start} points lost ({percent}%)").format(lost=lost, start=start, percent=lost * 100 // start)


@renders(DIS, "force_flees")
def _force_flees(p: JsonObject, beside: Beside) -> str:
    inputs = obj(p["inputs"])
    names = ", ".join(beside.name(u) for u in seq(obj(p["outcome"])["fled"])) or _("none")
    return _(
        "{side}: {share}, beyond the limit: its remaining units flee ({units}); the game ends once this turn is "
        "played out"
    ).format(side=inputs["side"], share=_share(inputs), units=names)


@renders(DIS, "force_half")
def _force_half(p: JsonObject, beside: Beside) -> str | None:
    inputs = obj(p["inputs"])
    if "folded" not in inputs:
        return None  # recorded before the rule named the unit whose check counts it already
    said = _("{side}: {share}: each of its units takes one morale check (force_half), once this game: {units}").format(
        side=inputs["side"],
        share=_share(inputs),
        units=", ".join(texts(obj(p["outcome"])["units_to_check"])) or _("none"),
    )
    if inputs["folded"]:
        said += " " + _("({unit}'s check counts it already)").format(unit=inputs["folded"])
    return said


_GLORY_SOURCES = {
    "won": N_("won"),
    "drawn": N_("drawn"),
    "lost": N_("lost"),
    "objectives": N_("objectives"),
    "enemy units removed": N_("enemy units removed"),
    "own units fled": N_("own units fled"),
    "officer removed": N_("officer removed"),
}


@renders(DIS, "glory")
def _glory(p: JsonObject, beside: Beside) -> str | None:
    """§1.8: "British (Lt Sharpe): +3 won +1 objectives = +4 Glory; running total 4 (Lieutenant)"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "sources" not in inputs:
        return None  # recorded before the rule recorded where its Glory came from
    parts = " ".join(f"{whole(v):+d} {_(_GLORY_SOURCES[str(k)])}" for k, v in map(seq, seq(inputs["sources"])))
    rank = term(DIS, "rank", outcome["rank"])
    said = _("{side} ({officer}): {parts} = {glory} Glory; running total {total}").format(
        side=inputs["side"], officer=inputs["officer"], parts=parts, glory=f"{whole(outcome['glory']):+d}",
        total=outcome["total"],
    )  # fmt: skip
    if inputs["rank_before"] != outcome["rank"]:
        return said + _(", now {rank}").format(rank=rank)
    return f"{said} ({rank})"


_COUNTED = {"killed": N_("killed"), "captured": N_("captured"), "fled": N_("fled")}
"""What an encounter battle's count may take (``encounter.counts``)."""


@renders(DIS, "encounter")
def _encounter(p: JsonObject, beside: Beside) -> str | None:
    counts = obj(p["inputs"]).get("counts")
    if counts is None:
        return None
    counted = _(" and ").join(_(_COUNTED.get(str(c), str(c))) for c in seq(counts))
    return _(
        "{battle} is an encounter battle: the side that destroys more of the enemy's models ({counted}) wins"
    ).format(battle=beside.name(p["battle_id"]), counted=counted)


@renders(DIS, "unit_removed")
def _unit_removed(p: JsonObject, beside: Beside) -> str:
    return _("{unit} is removed: {reason}").format(
        unit=beside.name(p["unit_id"]), reason=reason_said(obj(p["inputs"])["reason"])
    )


@renders(DIS, "officer_removed")
def _officer_removed(p: JsonObject, beside: Beside) -> str:
    inputs = obj(p["inputs"])
    return _(
        "{side}'s officer {officer} is removed from play: each of its units takes a morale check (officer_removed): "
        "{units}"
    ).format(
        side=inputs["side"],
        officer=inputs["officer"],
        units=", ".join(texts(obj(p["outcome"])["units_to_check"])) or _("none left"),
    )


@renders(DIS, "battle_end")
def _battle_end(p: JsonObject, beside: Beside) -> str | None:
    inputs = obj(p["inputs"])
    if "markers_cleared" not in inputs:
        return None  # recorded before the rule recorded whether the markers stay
    winner = inputs["winner"]
    result = _("draw") if winner is None else _("won by {side}").format(side=winner)
    after = (
        _("every marker comes off (§5)")
        if inputs["markers_cleared"]
        else _("the markers come off; the permanent ones stay with their units into their next battle (house rule)")
    )
    return _("{battle} ends: {result}; {after}").format(battle=beside.name(p["battle_id"]), result=result, after=after)
