"""GURPS Mass Combat's (seed 002, RULES.md §2) decisions in the reader's language, from what they recorded.

A decision recorded before its rule recorded what its sentence states is shown as recorded."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from campaign.i18n import DEFAULT, N_, _, language, ngettext
from campaign.i18n.explain import Beside, renders
from campaign.i18n.formats import decimal, number
from campaign.i18n.terms import shown
from events.recorded import JsonObject, JsonValue, obj, seq, text, whole

MC = "mass-combat"


def _result(key: str) -> str:
    """A result of the §2.11 tables (``victory_morale_2``) in the reader's words: the terms' ``result`` set, as the
    battle's result line in the report and ``campaign battles`` say it; in English its key in words."""
    return shown(MC, "result", key) if language() != DEFAULT else key.replace("_", " ")


def _fate(value: str) -> str:
    return shown(MC, "result", value) if language() != DEFAULT else value


@renders(MC, "battle_day")
def _battle_day(p: JsonObject, beside: Beside) -> str:
    setup = obj(obj(p["inputs"])["setup"])
    return _("{battle}, day {day}: {n} steps resolved").format(
        battle=setup["name"], day=setup["day"], n=obj(p["outcome"])["decisions"]
    )


def _n(value: object) -> str:
    """A recorded whole number, its thousands grouped for a Russian or Polish reader (in English as recorded)."""
    return number(int(str(value))) if language() != DEFAULT else str(value)


def _signed(value: object) -> str:
    signed = f"{int(str(value)):+d}"
    return signed if language() == DEFAULT else signed.replace("-", "−")


def _quality(value: object) -> str:
    return shown(MC, "quality", str(value)) if language() != DEFAULT else str(value)


def _experience(rows: JsonValue) -> str:
    """§2.3: "; one battle more of experience for every unit that fought (§2.3): Caliburn's gang 0 → 1, now green
    (was inexperienced): base Morale 6 → 11 (the -3 for inexperienced irregulars no longer applies)"."""
    parts = []
    for name, was, now, quality_was, quality, before, after, cut in map(seq, seq(rows)):
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
def _battle_end(p: JsonObject, beside: Beside) -> str | None:
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "battle" not in inputs or (inputs.get("experience_said") and "experience" not in inputs):
        return None  # recorded before the rule recorded the battle's name and day, or the units' experience
    # the sides in the order the set-up gave them, as recorded
    ts = ", ".join(f"{side} {_n(obj(outcome['ts'])[text(side)])}" for side in seq(inputs["sides"]))
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
def _result_said(p: JsonObject, beside: Beside) -> str | None:
    """§2.11: "Table A (open field), W = 8: victory morale 2; Al-Wazif has the better of it (a clear victory)"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "defeats" not in inputs:
        return None  # recorded before the rule recorded the band and the other defeats
    key, w, winner = str(outcome["result"]), whole(inputs["w"]), outcome["winner"]
    head = _("{table}, W = {w}: {result}").format(table=_(_TABLES[str(inputs["table"])]), w=w, result=_result(key))
    if key == "no_clear_winner":
        low, high = seq(inputs["band"])
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
        for side, dw, dk in map(seq, seq(inputs["defeats"]))
    )


def _money(value: object) -> str:
    return "$" + _n(value)


def _pay(inputs: JsonObject) -> str | None:
    """What a payday's pay did (§2.11, R2-19), as the rule said it."""
    said, paid, due = str(inputs["said"]), inputs.get("paid"), inputs.get("due")
    if said == "conscripts":
        return _("conscripts unpaid: Morale −2 instead of −1 until paid")
    if said == "bonus":
        text = _("bonus pay {paid} ({pct}% of a month's {monthly}; nothing was owed): ").format(
            paid=_money(paid), pct=inputs["pct"], monthly=_money(inputs["monthly"])
        )
        bonus = whole(inputs["bonus"])
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
    if whole(inputs["bonus"]):
        text += _(" (+50% or more: Morale +{bonus} next month)").format(bonus=inputs["bonus"])
    if inputs.get("arrears_paid") is not None:
        text += _("; the arrears are paid: Morale −{penalty} now, 1 less every 2nd day").format(
            penalty=inputs["arrears_paid"]
        )
    if inputs.get("forgiven"):
        text += _("; a second paid payday: 1 point of arrears forgiven")
    return text


@renders(MC, "payday")
def _payday(p: JsonObject, beside: Beside) -> str | None:
    """§2.11: "Al-Wazif foot: upkeep $80000; paid $0 of $200000: an unpaid day (1 in a row), arrears Morale −1;
    Morale roll 6 vs 12 → the men grumble but stay"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
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
        ).format(roll=beside.rolls[whole(seq(p["dice"])[0])], morale=inputs["morale"])
    return said


@renders(MC, "same_enemy_this_year")
def _same_enemy(p: JsonObject, beside: Beside) -> str | None:
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "battle" not in inputs:
        return None
    losers = ", ".join(str(s) for s in seq(inputs["losers"]))
    return _(
        "{winner} beat {losers} at {battle}: Morale {beat} against them until the year ends; {losers} {lost} against "
        "{winner}"
    ).format(
        winner=inputs["winner"],
        losers=losers,
        battle=inputs["battle"],
        beat=f"{whole(outcome['beat']):+d}",
        lost=f"{whole(outcome['lost']):+d}",
    )


@renders(MC, "army_morale")
def _army_morale(p: JsonObject, beside: Beside) -> str | None:
    inputs = obj(p["inputs"])
    if "side" not in inputs:
        return None
    said = (
        _("{passed} of {units} units of {side} pass: the army holds")
        if obj(p["outcome"])["holds"]
        else _("{passed} of {units} units of {side} pass: the army retreats in good order")
    )
    return said.format(passed=inputs["passed"], units=inputs["units"], side=inputs["side"])


@renders(MC, "next_day_morale")
def _next_day(p: JsonObject, beside: Beside) -> str:
    persist = [obj(u) for u in seq(obj(p["outcome"])["persist"])]
    value = whole(persist[0]["value"]) if persist else 0
    return _("{side}: Morale {value} on the next day for {units}").format(
        side=obj(p["inputs"])["side"], value=f"{value:+d}", units=", ".join(beside.name(u["unit_id"]) for u in persist)
    )


@renders(MC, "unit_morale")
def _unit_morale(p: JsonObject, beside: Beside) -> str | None:
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    fate = str(outcome["fate"])
    if p.get("unit_id") is None:
        if "side" not in inputs:
            return None
        return _("overwhelming victory: every unit of {side} routs").format(side=inputs["side"])
    name = beside.name(p["unit_id"])
    if "exempt" in inputs:
        return _("{unit}: not subject to Morale → passes → {fate}").format(unit=name, fate=_fate(fate))
    if "base" not in inputs or "nowhere_to_go" in inputs or len(seq(p.get("dice") or [])) != 1:
        return None  # recorded before the roll recorded its base and terms, or with a second roll for no room
    morale, penalty, margin = whole(inputs["morale"]), whole(inputs["penalty"]), whole(outcome["margin"])
    base = whole(inputs["base"])
    roll = beside.rolls[whole(seq(p["dice"])[0])]
    detail = _("Morale {morale}").format(morale=morale)
    if morale != base:
        detail += " " + _("(base {base} {carried})").format(base=base, carried=f"{morale - base:+d}".replace("-", "−"))
    detail += "".join(f" {_circumstance(str(k))} {whole(v):+d}" for k, v in map(seq, seq(inputs["terms"])))
    if penalty:
        detail += " " + _("result {penalty}").format(penalty=f"{penalty:+d}")
    said = (
        _("{unit}: {detail} = {target}, rolled {roll} → made by {margin} → {fate}")
        if margin >= 0
        else _("{unit}: {detail} = {target}, rolled {roll} → failed by {margin} → {fate}")
    )
    return said.format(unit=name, detail=detail, target=margin + roll, roll=roll, margin=abs(margin), fate=_fate(fate))


_CIRCUMSTANCES = {
    "hereditary_enemy": N_("hereditary enemy"),
    "home_soil_defence": N_("home soil defence"),
    "home_soil_defense": N_("home soil defense"),
    "treason": N_("treason"),
    "spies": N_("spies"),
    "loot": N_("loot"),
}
"""The Morale-roll circumstances the rules name (§2.11: a hereditary enemy, home-soil defence, treason, spies),
by the words a set-up names them with; any other as the set-up names it."""


def _circumstance(key: str) -> str:
    return _(_CIRCUMSTANCES[key]) if key in _CIRCUMSTANCES else key.replace("_", " ")


@renders(MC, "loot")
def _loot(p: JsonObject, beside: Beside) -> str:
    inputs = obj(p["inputs"])
    value = whole(obj(p["outcome"])["value"])
    return _("{side} strips the field of {battle}: ${value}").format(
        side=inputs["side"], battle=inputs["battle"], value=number(value) if language() != DEFAULT else value
    )


@renders(MC, "battle_skill")
def _battle_skill(p: JsonObject, beside: Beside) -> str | None:
    """§2.9: "Caliburn: Battle 10; Risk -2 → Survival 8, Glory 12"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "risk" not in inputs:
        return None
    return _("{pc}: Battle {battle}; Risk {risk} → Survival {survival}, Glory {glory}").format(
        pc=inputs["pc"],
        battle=outcome["battle"],
        risk=f"{whole(inputs['risk']):+d}",
        survival=outcome["survival"],
        glory=outcome["glory"],
    )


@renders(MC, "unpaid_day")
def _unpaid_day(p: JsonObject, beside: Beside) -> str | None:
    """§2.11: "Al-Wazif foot: unpaid day 2, arrears Morale −3; Morale roll 9 vs 10 → the men grumble but stay"."""
    inputs = obj(p["inputs"])
    if "unpaid_days" not in inputs:
        return None
    said = (
        _(
            "{unit}: unpaid day {n}, arrears Morale −{arrears}; Morale roll {roll} vs {morale} → the men grumble but stay"  # noqa: E501 (one message)
        )
        if obj(p["outcome"])["morale_roll"] == "made"
        else _(
            "{unit}: unpaid day {n}, arrears Morale −{arrears}; Morale roll {roll} vs {morale} → failed: trouble of "
            "the game master's choosing"
        )
    )
    return said.format(
        unit=beside.name(p["unit_id"]),
        n=inputs["unpaid_days"],
        arrears=inputs["arrears"],
        roll=beside.rolls[whole(seq(p["dice"])[0])],
        morale=inputs["morale"],
    )


_ROLLS = {
    "Survival roll": N_("{pc} Survival roll: {target}, rolled {roll} → {made}"),
    "second Survival roll (losing side)": N_(
        "{pc} second Survival roll (losing side): {target}, rolled {roll} → {made}"
    ),
    "second Survival roll (his unit routed or was wiped out)": N_(
        "{pc} second Survival roll (his unit routed or was wiped out): {target}, rolled {roll} → {made}"
    ),
}
_COLUMNS = {"unhurt": N_("unhurt"), "one_hit": N_("one hit"), "two_hits": N_("two hits")}


def _column(value: object) -> str:
    return _(_COLUMNS[str(value)]) if str(value) in _COLUMNS else str(value)


def _made(margin: int) -> str:
    return (_("made by {n}") if margin >= 0 else _("failed by {n}")).format(n=abs(margin))


def _survival_damage(inputs: JsonObject, column: str) -> str:
    """What the Survival table's column did (§2.9): unhurt, one or two hits, or wounds rolled on the TL's dice."""
    if column == "unhurt":
        return _("unhurt")
    if "hits" in inputs:
        hits = whole(inputs["hits"])
        return ngettext(
            "{n} hit: {n} point of damage, as the Survival table gives it (no damage roll, no DR)",
            "{n} hits: {n} points of damage, as the Survival table gives it (no damage roll, no DR)",
            hits,
        ).format(n=hits)
    each = [whole(x) for x in seq(inputs["each"])]
    # English says "damage" whatever the sum; the other languages count it in their own forms.
    return ngettext(
        "column {column} at TL{tl}: {wounds} × ({dice} − {rule} {armour}) = {each} = {total} damage",
        "column {column} at TL{tl}: {wounds} × ({dice} − {rule} {armour}) = {each} = {total} damage",
        sum(each),
    ).format(
        column=column, tl=inputs["tl"], wounds=inputs["wounds"], dice=inputs["notation"], rule=inputs["dr_rule"],
        armour=inputs["armour"], each=" + ".join(map(str, each)), total=sum(each),
    )  # fmt: skip


@renders(MC, "survival")
def _survival(p: JsonObject, beside: Beside) -> str | None:
    """§2.9: "Caliburn Survival roll: 8, rolled 10 → failed by 2: column A at TL3: 1 × (d6+2 − DR 2) = 4 = 4
    damage"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "label" not in inputs or str(inputs["label"]) not in _ROLLS:
        return None  # recorded before the roll recorded its terms
    margin, column = whole(outcome["margin"]), str(outcome["column"])
    said = _(_ROLLS[str(inputs["label"])]).format(
        pc=inputs["pc"], target=inputs["target"], roll=inputs["roll"], made=_made(margin)
    )
    if inputs["luck"]:
        again, other, kept = seq(inputs["luck"])
        said += (
            _(" (Luck: rolled again {roll} → {column}, kept)")
            if kept
            else _(" (Luck: rolled again {roll} → {column}, the first kept)")
        ).format(roll=again, column=_column(other))
    said += ": " + _survival_damage(inputs, column)
    if inputs.get("surrendered"):
        said += _("; {unit} surrendered: if he lives, {pc} is a prisoner unless the GM rules otherwise").format(
            unit=inputs["surrendered"], pc=inputs["pc"]
        )
    return said


_REACTIONS = {
    "excellent": N_("excellent"),
    "very_good": N_("very good"),
    "good": N_("good"),
    "neutral": N_("neutral"),
    "poor": N_("poor"),
    "bad": N_("bad"),
    "very_bad": N_("very bad"),
}


def _reaction(value: object) -> str:
    return _(_REACTIONS[str(value)]) if str(value) in _REACTIONS else str(value).replace("_", " ")


def _glory_verdict(inputs: JsonObject, margin: int) -> str:
    """The Glory table's row (§2.9, R3-14), as the rule said it."""
    read_as, row, roll = str(inputs["read_as"]), str(inputs["row"]), inputs["roll"]
    said = (
        _("{roll}, an automatic failure, read as the smallest failure").format(roll=roll)
        if read_as == "automatic_failure"
        else _("{roll}: a critical failure, whatever the margin").format(roll=roll)
        if read_as == "critical_failure"
        else _made(margin)
    )
    months = whole(inputs["months"] or 0)
    if row == "critical":
        return _("critical success: Reputation +2 for a while and +1 for ever")
    # English records "months" whatever the count; the other languages say each count in its own form.
    if row == "made_7":
        text = ngettext("{said}: Reputation +1 for {n} months", "{said}: Reputation +1 for {n} months", months)
        return text.format(said=said, n=months)
    if row == "failed_4":
        text = ngettext("{said}: Reputation −1 for {n} months", "{said}: Reputation −1 for {n} months", months)
        return text.format(said=said, n=months)
    if row == "failed_7":
        text = ngettext(
            "{said}: Reputation −2 for {n} months; called a coward by a peer",
            "{said}: Reputation −2 for {n} months; called a coward by a peer",
            months,
        )
        return text.format(said=said, n=months)
    rows = {
        "made_4": N_("{said}: noticed by high command"),
        "made_0": N_("{said}: fought competently"),
        "failed_1": N_("{said}: fought adequately"),
    }
    return _(rows[row]).format(said=said)


@renders(MC, "glory")
def _glory(p: JsonObject, beside: Beside) -> str | None:
    """§2.9: "Caliburn Glory roll: 12, rolled 7 → made by 5: noticed by high command; promotion roll 13 + Reputation
    0 → good"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "read_as" not in inputs:
        return None  # recorded before the roll recorded its row
    verdict = _glory_verdict(inputs, whole(outcome["margin"]))
    reaction = seq(inputs.get("reaction") or [])
    if reaction and reaction[0] == "promotion":
        _kind, roll, now, said, rank = reaction
        verdict += _("; promotion roll {roll} + Reputation {now} → {reaction}").format(
            roll=roll, now=now, reaction=_reaction(said)
        ) + (_(": +1 Rank") if rank else "")
    elif reaction and reaction[0] == "dead":
        verdict += _("; he died: high command makes no reaction roll")
    elif reaction:
        _kind, roll, now, said, demotion = reaction
        verdict += (
            _(
                "; high command's reaction roll {roll} + Reputation {now} → {reaction}: possible demotion, for the GM "
                "to decide"
            )
            if demotion
            else _("; high command's reaction roll {roll} + Reputation {now} → {reaction}: nothing comes of it")
        ).format(roll=roll, now=now, reaction=_reaction(said))
    return _("{pc} Glory roll: {target}, rolled {roll} → {verdict}").format(
        pc=inputs["pc"], target=inputs["target"], roll=inputs["roll"], verdict=verdict
    )


_CATEGORIES = {
    "artillery": N_("artillery"),
    "armour": N_("armour"),
    "air": N_("air"),
    "cavalry": N_("cavalry"),
    "missile": N_("missile"),
}
_MODIFIER_WORDS = {
    "battle plan": N_("battle plan"),
    "recon": N_("recon"),
    "diviner": N_("diviner"),
    "GM": N_("GM"),
    "home soil": N_("home soil"),
    "home soil (larger than the fortification)": N_("home soil (larger than the fortification)"),
}
_MODIFIER_PATTERNS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"TS (\d+):(\d+) = ([\d.]+)"), lambda m: _("TS {mine}:{theirs} = {ratio}").format(
        mine=m[1], theirs=m[2], ratio=m[3] if language() == DEFAULT else m[3].replace(".", ","))),
    (re.compile(r"TL (\d+) vs (\d+)"), lambda m: _("TL {mine} vs {theirs}").format(mine=m[1], theirs=m[2])),
    (re.compile(r"catastrophe (\d+)"), lambda m: _("catastrophe {n}").format(n=m[1])),
    (re.compile(r"(\w+): the enemy has none"), lambda m: _("{category}: the enemy has none").format(
        category=_(_CATEGORIES[m[1]]))),
    (re.compile(r"(\w+) (\d+):(\d+)"), lambda m: _("{category} {mine}:{theirs}").format(
        category=_(_CATEGORIES[m[1]]), mine=m[2], theirs=m[3])),
    (re.compile(r"Glory of (.+)"), lambda m: _("Glory of {pc}").format(pc=m[1])),
    (re.compile(r"(.+) knocked out"), lambda m: _("{pc} knocked out").format(pc=m[1])),
)  # fmt: skip
"""The Strategy modifiers the rules name (§2.10), by the words they are recorded under; a circumstance or a
position named by the set-up or the tables is shown as it is named there."""


def _modifier(key: str) -> str:
    if key in _MODIFIER_WORDS:
        return _(_MODIFIER_WORDS[key])
    for pattern, said in _MODIFIER_PATTERNS:
        found = pattern.fullmatch(key)
        if found and (found.lastindex or 0) and (pattern.pattern[:3] != r"(\w" or found[1] in _CATEGORIES):
            return str(said(found))
    return key


@renders(MC, "strategy_contest")
def _strategy_contest(p: JsonObject, beside: Beside) -> str | None:
    """§2.10–2.11: "Quick Contest — Megalos: Strategy 14 +1 (catastrophe 9 -1, home soil +2) = 15, rolled 11 →
    margin +4; Al-Wazif: …; difference 8 to Al-Wazif"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "steps" not in inputs:
        return None  # recorded before the contest recorded its steps
    parts = []
    for step in map(seq, seq(inputs["steps"])):
        if step[0] == "no_troops":
            parts.append(_("{side} has no troops left and cannot fight").format(side=step[1]))
        elif step[0] == "luck":
            _kind, side, again, margin = step
            parts.append(_("{side} uses Luck: rolled {roll} → margin {margin}").format(
                side=side, roll=again, margin=_signed(margin)))  # fmt: skip
        else:
            _kind, side, which, skill, total, effective, roll, margin, listed = step
            mods = ", ".join(f"{_modifier(str(k))} {_signed(v)}" for k, v in map(seq, seq(listed))) or _("none")
            said = (
                _("{side}: Strategy {skill} {total} ({mods}) = {effective}, rolled {roll} → margin {margin}")
                if which == "Strategy"
                else _("{side}: Tactics {skill} {total} ({mods}) = {effective}, rolled {roll} → margin {margin}")
            )
            parts.append(said.format(side=side, skill=skill, total=_signed(total), mods=mods, effective=effective,
                                     roll=roll, margin=_signed(margin)))  # fmt: skip
    diff = whole(outcome["difference"])
    tail = (
        _("; difference {n} to {side}").format(n=diff, side=inputs["leader"])
        if diff
        else _("; difference 0: the margins are equal")
    )
    return _("Quick Contest — {parts}").format(parts="; ".join(parts)) + tail


_SHIFTS = {
    "fortification": N_("fortification"),
    "heavy armour": N_("heavy armour"),
    "medium armour": N_("medium armour"),
    "light armour": N_("light armour"),
    "routed (1d)": N_("routed (1d)"),
    "intensity": N_("intensity"),
    "strike/healing": N_("strike/healing"),
}
"""What moves a unit's row on the casualty table (§2.12), as the rule records it."""


@renders(MC, "casualties")
def _casualties(p: JsonObject, beside: Beside) -> str | None:
    """§2.12: "Megalos casualties on row -8: 4d rolled 16 → 53% before unit shifts; 5th Heavy Legion cohort row -5
    (heavy armour +4, routed (1d) -1) → 43%: 26 dead, 26 wounded; …; TS after the battle 918"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "units" not in inputs:
        return None  # recorded before the rule recorded each unit's line
    lines = []
    for name, row, shifts, pct, dead, wounded, prisoners in map(seq, seq(inputs["units"])):
        shown = ", ".join(
            f"{_(_SHIFTS[str(k)]) if str(k) in _SHIFTS else k} {_signed(v)}" for k, v in map(seq, seq(shifts))
        )
        line = _("{unit} row {row}{shifts} → {pct}%: {dead} dead, {wounded} wounded").format(
            unit=name, row=_signed(row), shifts=f" ({shown})" if shown else "", pct=pct, dead=_n(dead),
            wounded=_n(wounded),
        )  # fmt: skip
        if prisoners is not None:
            line += _("; it surrendered: its {men} men left are prisoners, TS 0").format(men=_n(prisoners))
        lines.append(line)
    return (
        _("{side} casualties on row {row}: 4d rolled {roll} → {pct}% before unit shifts; ").format(
            side=inputs["side"], row=_signed(inputs["row"]), roll=outcome["roll"], pct=outcome["base_percent"]
        )
        + "; ".join(lines)
        + _("; TS after the battle {ts}").format(ts=_n(outcome["ts_after"]))
    )


def _effect(effect: Sequence[JsonValue]) -> str:  # noqa: PLR0911 (one sentence per effect of §2.8's table)
    """One effect of a catastrophe (§2.8, R2-10, R2-14, R3-16–R3-18), as the rule said it."""
    kind, rest = str(effect[0]), effect[1:]
    if kind == "none":
        return _("no catastrophe")
    if kind == "pc_out":
        return _("{pc} (a PC) is wounded and unconscious, not killed: no further rolls for him").format(pc=rest[0])
    if kind == "strategy":
        return _("Strategy {value}").format(value=_signed(rest[0]))
    if kind == "halved":
        return _("army commander out: base Strategy halved to {value}").format(value=rest[0])
    if kind == "enemy_ts":
        return _("enemy TS +{pct}%").format(pct=rest[0])
    if kind == "morale_all":
        return _("Morale {value} for every unit").format(value=_signed(rest[0]))
    if kind == "morale_unit":
        return _("{unit} Morale {value}").format(unit=rest[0], value=_signed(rest[1]))
    if kind == "no_defector":
        return _("no unit can defect (the army commander's own and the PCs' are loyal)")
    if kind == "went_over":
        return _("{unit} goes over to {side} with its troops (TS {ts})").format(unit=rest[0], side=rest[1], ts=rest[2])
    if kind == "defected":
        return _("{unit} defects with its troops").format(unit=rest[0])
    if kind == "lasting":
        return _("the Morale loss lasts until a clear victory")
    if kind == "atrocity_army":
        roll, average, change = rest
        return _("atrocity: army Morale roll {roll} vs {average} → Morale {change} for every unit").format(
            roll=roll, average=average, change=_signed(change)
        )
    units = "; ".join(
        _("{unit} Morale {morale}, rolled {roll} → {change}").format(
            unit=u, morale=m, roll=r, change=_signed(c)
        )
        for u, m, r, c in map(seq, seq(rest[0]))
    )  # fmt: skip
    return _("atrocity: each unit rolls its Morale: {units}").format(units=units or _("none is subject to Morale"))


@renders(MC, "catastrophe")
def _catastrophe(p: JsonObject, beside: Beside) -> str | None:
    """§2.8: "Al-Wazif catastrophe: 3d rolled 12 → 12: Strategy -2; Morale -1 for every unit"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "said" not in inputs:
        return None  # recorded before the rule recorded its effects as data
    bonus = whole(inputs["enemy_es_bonus"])
    notes = _("3d rolled {roll}").format(roll=inputs["roll"])
    if bonus:
        notes += _(" + {bonus} (enemy Extraordinary Force)").format(bonus=bonus)
    if inputs["luck"] is not None:
        notes += "; " + _("Luck reroll {roll} → {result}").format(roll=inputs["luck"], result=outcome["result"])
    return _("{side} catastrophe: {notes} → {result}: {effects}").format(
        side=inputs["side"],
        notes=notes,
        result=outcome["result"],
        effects="; ".join(_effect(seq(e)) for e in seq(inputs["said"])),
    )


def _spell_size(why: Sequence[JsonValue]) -> str:
    """Why a spell on a unit has the size it has (R2-23): "1 point × 100 ÷ TS 300 = 0.33, to the nearest: 0"."""
    points, per_point, ts, hundredths, down, effect = why
    ratio = f"{whole(hundredths) // 100}.{whole(hundredths) % 100:02d}"
    if language() != DEFAULT:
        ratio = decimal(ratio, places=2)
    way = _("rounded down") if down else _("to the nearest")
    words = ngettext(
        "{points} point × {per} ÷ TS {ts} = {ratio}, {way}: {effect}",
        "{points} points × {per} ÷ TS {ts} = {ratio}, {way}: {effect}",
        whole(points),
    ).format(points=points, per=per_point, ts=ts, ratio=ratio, way=way, effect=effect)
    if whole(effect) == 0:
        words += _(", too few points for a unit of that strength: no effect")
    return words


def _spell(line: Sequence[JsonValue]) -> str:
    """One spell of a side's Extraordinary Force (§2.13), as the rule said it."""
    kind, rest = str(line[0]), line[1:]
    if kind == "defence":
        points, target = rest
        if target is None:
            return _("defence {points} on the whole army").format(points=points)
        return _("defence {points} on {unit}").format(points=points, unit=target)
    if kind == "recon":
        points, gain, total = rest
        return _("recon {points} points → Strategy +{gain} for {total} points in all").format(
            points=points, gain=gain, total=total
        )
    if kind == "catastrophe":
        points, side, bonus = rest
        return _("{points} points on {side}'s catastrophe roll → +{bonus}").format(
            points=points, side=side, bonus=bonus
        )
    if kind == "morale_exempt":
        return _("Morale on {unit}: not subject to Morale, no effect").format(unit=rest[0])
    unit, why = rest[0], rest[1:] if kind != "morale" else rest[2:]
    effect, ts = whole(why[-1]), why[2]
    if kind == "morale":
        direction = whole(rest[1])
        said = (
            _("Morale {value} on {unit} (TS {ts}): a spell to lower it, {why}")
            if direction < 0
            else _("Morale {value} on {unit} (TS {ts}): a spell to raise it, {why}")
        )
        return said.format(value=_signed(effect * direction), unit=unit, ts=ts, why=_spell_size(why))
    if kind == "strike":
        said = ngettext("Strike on {unit}: {n} row up ({why})", "Strike on {unit}: {n} rows up ({why})", effect)
    else:
        said = ngettext("Healing on {unit}: {n} row down ({why})", "Healing on {unit}: {n} rows down ({why})", effect)
    return said.format(unit=unit, n=effect, why=_spell_size(why))


@renders(MC, "extraordinary_force")
def _extraordinary_force(p: JsonObject, beside: Beside) -> str | None:
    """§2.13: "Megalos spends Extraordinary Force: Strike on LC archers: 1 row up (3 points × 100 ÷ TS 300 = 1.00,
    to the nearest: 1)"."""
    inputs = obj(p["inputs"])
    if "said" not in inputs:
        return None  # recorded before the rule recorded its spells as data
    if "es_pm" in inputs:
        pm, es = whole(inputs["es_pm"]), whole(inputs["es"])
        total = f"{pm // 1000}.{pm % 1000:03d}".rstrip("0").rstrip(".")
        if language() != DEFAULT:
            total = decimal(total)
        more = _(", and {es} more").format(es=es) if es else ""
        head = ngettext(
            "{side} has ES {total} ({n} users' fractions summed{more}: {whole} whole points to spend) and spends: ",
            "{side} has ES {total} ({n} users' fractions summed{more}: {whole} whole points to spend) and spends: ",
            whole(inputs["users"]),
        ).format(side=inputs["side"], total=total, n=inputs["users"], more=more, whole=pm // 1000)
    else:
        head = _("{side} spends Extraordinary Force: ").format(side=inputs["side"])
    return head + "; ".join(_spell(seq(line)) for line in seq(inputs["said"]))
