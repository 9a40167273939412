"""Grimdark Future's (seed 004, a Polish article; RULES.md §4) decisions in the reader's language, from what
they recorded. The seed keeps OPR's English Shaken, Rout, Quality and Fearless in its Polish: so do these
sentences (``terms.toml``); a decision recorded before its rule recorded what its sentence states returns None
and is shown as recorded."""

from __future__ import annotations

from campaign.i18n import DEFAULT, N_, _, language, ngettext
from campaign.i18n.explain import Beside, reason_said, renders, term
from campaign.i18n.terms import shown
from events.recorded import JsonObject, obj, seq, text, texts, whole

GF = "grimdark"


def _status(value: str) -> str:
    return shown(GF, "status", value)


_DOING = {
    "shooting": N_("shooting"),
    "charging": N_("charging"),
    "holds, advances or rushes": N_("holds, advances or rushes"),
    "idle": N_("idle"),
}


@renders(GF, "activation")
def _activation(p: JsonObject, beside: Beside) -> str:
    """ "Robot Squad activates (round 1): shooting"."""
    inputs = obj(p["inputs"])
    doing = str(inputs["doing"])
    what = _("spent idle") if obj(p["outcome"])["idle"] else _(_DOING[doing]) if doing in _DOING else doing
    return _("{unit} activates (round {round}): {what}").format(
        unit=beside.name(p["unit_id"]), round=inputs["round"], what=what
    )


@renders(GF, "wounds")
def _wounds(p: JsonObject, beside: Beside) -> str | None:
    """ "Saurian Warriors takes 5 wounds: 5 models killed, 6 of 11 left"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "start_size" not in inputs:
        return None  # recorded before the rule recorded the unit's starting size
    wounds, lost = whole(inputs["wounds"]), whole(outcome["models_lost"])
    said = ngettext("{unit} takes {n} wound", "{unit} takes {n} wounds", wounds).format(
        unit=beside.name(p["unit_id"]), n=wounds
    )
    if lost:
        said += ngettext(": {n} model killed", ": {n} models killed", lost).format(n=lost)
    said += _(", {left} of {start} left").format(left=outcome["models"], start=inputs["start_size"])
    if inputs["destroyed"]:
        said += _(" (destroyed)")
    if inputs["hero_alone"]:
        said += _(": the hero fights on alone")
    return said


@renders(GF, "melee")
def _melee(p: JsonObject, beside: Beside) -> str | None:
    """ "melee, Saurian Warriors 4 wounds, Robot Squad 2: Robot Squad caused fewer wounds (2–4) and tests"."""
    inputs, loser = obj(p["inputs"]), obj(p["outcome"])["loser"]
    by_a, by_b = whole(inputs["wounds_by_a"]), whole(inputs["wounds_by_b"])
    destroyed = inputs.get("destroyed")
    if loser is not None:
        low, high = sorted((by_a, by_b))
        verdict = _("{unit} caused fewer wounds ({low}–{high}) and tests").format(
            unit=beside.name(loser), low=low, high=high
        )
    elif destroyed or (destroyed is None and by_a != by_b):
        verdict = _("a unit was destroyed: it lost, and its opponent does not test")
    elif destroyed is None:
        return None  # a tie, or a unit destroyed by as many wounds as it caused: the record does not say which
    else:
        verdict = _("a tie, {a}–{b}: nobody tests").format(a=by_a, b=by_b)
    return ngettext(
        "melee, {a} {n} wound, {b} {wounds_b}: {verdict}", "melee, {a} {n} wounds, {b} {wounds_b}: {verdict}", by_a
    ).format(a=beside.name(inputs["a"]), n=by_a, b=beside.name(inputs["b"]), wounds_b=by_b, verdict=verdict)


_TRIGGERS = {
    "wounds at half strength": N_("wounds at half strength"),
    "lost a melee": N_("lost a melee"),
}


@renders(GF, "morale_test")
def _morale_test(p: JsonObject, beside: Beside) -> str | None:
    """§4.1: "Robot Squad, morale test (lost a melee): rolled 5 against Quality 4+: passes → holds"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    how_kind = inputs.get("how")
    if how_kind is None:
        return None  # recorded before the test recorded which way it went
    dice = [whole(i) for i in seq(p.get("dice") or [])]
    if how_kind == "shaken":
        how = _("Shaken: fails without a roll")
        fearless = dice[0] if dice else None
    elif how_kind == "motivated":
        how = _("Motivated: its first morale test this battle passes")
        fearless = None
    else:
        first, fearless = dice[0], (dice[1] if len(dice) > 1 else None)
        face = beside.rolls[first]
        if how_kind == "six":
            how = _("rolled {face}: an unmodified 6 passes").format(face=face)
        elif how_kind == "one":
            how = _("rolled {face}: an unmodified 1 fails").format(face=face)
        else:
            mod = whole(inputs.get("modifier", 0))
            said = f"{face}{mod:+d}" if mod else f"{face}"
            passed_first = face + mod >= whole(inputs["quality"])
            how = (
                _("rolled {face} against Quality {q}+: passes")
                if passed_first
                else _("rolled {face} against Quality {q}+: fails")
            ).format(face=said, q=inputs["quality"])
    if fearless is not None:
        how += (
            _("; Fearless rolls {n}: passed after all")
            if outcome["passed"]
            else _("; Fearless rolls {n}: still failed")
        ).format(n=beside.rolls[fearless])
    result = str(outcome["result"])
    if result == "passed":
        then = _("holds")
    elif result == "routed":
        then = _("at half strength: Routs, removed")
    else:
        then = _status("shaken")
    trigger = str(inputs["trigger"])
    return _("{unit}, morale test ({trigger}): {how} → {then}").format(
        unit=beside.name(p["unit_id"]), trigger=_(_TRIGGERS[trigger]) if trigger in _TRIGGERS else trigger, how=how,
        then=then,
    )  # fmt: skip


@renders(GF, "recover")
def _recover(p: JsonObject, beside: Beside) -> str:
    return _("{unit} stays idle this activation and is no longer Shaken").format(unit=beside.name(p["unit_id"]))


_CASUALTY = {"recovered": "Recovered", "dead": "Dead", "Natural Talent": "Natural Talent"}


@renders(GF, "casualty")
def _casualty(p: JsonObject, beside: Beside) -> str:
    """ "Robot Squad, casualty roll 3: recovered"."""
    outcome = obj(p["outcome"])
    result = str(outcome["result"])
    said = result  # a trait, by the name the tables give it, and every result in English
    if result in _CASUALTY and language() != DEFAULT:
        said = shown(GF, "casualty_roll", _CASUALTY[result])
    return _("{unit}, casualty roll {roll}: {result}").format(
        unit=beside.name(p["unit_id"]), roll=outcome["roll"], result=said
    )


_XP = {
    "not a casualty": N_("not a casualty"),
    "units killed": N_("units killed"),
    "heroes killed": N_("heroes killed"),
    "a hero and its unit killed": N_("a hero and its unit killed"),
}


@renders(GF, "experience")
def _experience(p: JsonObject, beside: Beside) -> str | None:
    """ "Saurian Warriors: +1 not a casualty = +1 XP"."""
    sources = obj(p["inputs"]).get("sources")
    if sources is None:
        return None  # recorded before the rule recorded where its XP came from
    parts = ", ".join(f"{whole(v):+d} {_(_XP[str(k)]) if str(k) in _XP else k}" for k, v in map(seq, seq(sources)))
    return _("{unit}: {parts} = {xp} XP").format(
        unit=beside.name(p["unit_id"]), parts=parts, xp=f"{whole(obj(p['outcome'])['xp']):+d}"
    )


@renders(GF, "level_up")
def _level_up(p: JsonObject, beside: Beside) -> str | None:
    inputs = obj(p["inputs"])
    if "points" not in inputs:
        return None
    return _("{unit} reaches {xp} XP: +{points} pts, {traits}").format(
        unit=beside.name(p["unit_id"]), xp=inputs["xp_after"], points=inputs["points"],
        traits=", ".join(str(t) for t in seq(obj(p["outcome"])["traits"])),
    )  # fmt: skip


@renders(GF, "rewards")
def _rewards(p: JsonObject, beside: Beside) -> str | None:
    """§4.2: "mission rewards: Saurians 2 VP, 150 pts; Robots 0 VP, 300 pts (the winner takes 2 VP and 150 pts,
    every loser 300 pts and no VP: …)"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if not inputs.get("says_why"):
        return None  # recorded before the sentence said why the shares are as they are
    sides, winner = [str(s) for s in seq(inputs["sides"])], inputs["winner"]
    said = "; ".join(
        _("{side} {vp} VP, {points} pts").format(side=s, vp=obj(outcome[s])["vp"], points=obj(outcome[s])["points"])
        for s in sides
    )
    if winner is None:
        share = obj(outcome[sides[0]])
        why = _("a draw: {vp} VP and {points} pts to each side (R2-35)").format(vp=share["vp"], points=share["points"])
    else:
        won = obj(outcome[text(winner)])
        loser_points = next((whole(obj(outcome[s])["points"]) for s in sides if s != winner), 0)
        why = _("the winner takes {vp} VP and {points} pts, every loser {loser} pts and no VP").format(
            vp=won["vp"], points=won["points"], loser=loser_points
        )
        if loser_points > whole(won["points"]):
            why += _(": the loser gets more points to spend on its army, the winner the VP")
    return _("mission rewards: {text} ({why})").format(text=said, why=why)


@renders(GF, "special_objectives")
def _special_objectives(p: JsonObject, beside: Beside) -> str:
    outcome = obj(p["outcome"])
    chosen = "; ".join(f"{s} {term(GF, 'special', outcome[s])}" for s in texts(obj(p["inputs"])["sides"]))
    return _("special objectives: {chosen}").format(chosen=chosen)


@renders(GF, "special_objective_achieved")
def _special_achieved(p: JsonObject, beside: Beside) -> str:
    inputs = obj(p["inputs"])
    return _("{side} achieved its special objective ({objective}): +{points} pts").format(
        side=inputs["side"], objective=term(GF, "special", inputs["objective"]), points=obj(p["outcome"])["points"]
    )


@renders(GF, "unit_removed")
def _unit_removed(p: JsonObject, beside: Beside) -> str | None:
    inputs = obj(p["inputs"])
    if "by" not in inputs:
        return None  # recorded before the rule recorded who is credited with it: shown as recorded
    said = _("{unit} is removed: {reason}").format(unit=beside.name(p["unit_id"]), reason=reason_said(inputs["reason"]))
    if inputs["by"] is not None:
        said += _(" (by {unit})").format(unit=beside.name(inputs["by"]))
    return said


@renders(GF, "battle_end")
def _battle_end(p: JsonObject, beside: Beside) -> str:
    winner = obj(p["inputs"])["winner"]
    result = _("draw") if winner is None else _("won by {side}").format(side=winner)
    return _("{battle} ends: {result}; Shaken ends with it").format(battle=beside.name(p["battle_id"]), result=result)


@renders(GF, "shares_fate")
def _shares_fate(p: JsonObject, beside: Beside) -> str:
    return _("{unit}, joined to {other}, shares its fate: {reason}").format(
        unit=beside.name(p["unit_id"]),
        other=beside.name(obj(p["inputs"])["joined_to"]),
        reason=reason_said(obj(p["outcome"])["removed"]),
    )
