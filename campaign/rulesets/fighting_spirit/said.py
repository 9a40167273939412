"""Five-grade morale's (seed 000, RULES.md §0) decisions in the reader's language, from what they recorded."""

from __future__ import annotations

from campaign.i18n import DEFAULT, N_, _, language, ngettext
from campaign.i18n.dice import die_said
from campaign.i18n.explain import Beside, renders, term
from campaign.i18n.terms import shown
from events.recorded import JsonObject, JsonValue, obj, seq, texts, whole

FS = "fighting-spirit"


def _die(sides: int) -> str:
    return die_said(sides)


def _threat_part(row: JsonValue, kind: JsonValue, value: JsonValue, count: JsonValue) -> str:
    name = shown(FS, "threat", str(row)) if language() != DEFAULT else row
    if kind == "base":
        return f"{name} {value}"
    if kind == "each":
        return f"{name} +{value}×{count}"
    return f"{name} +{value}"


def _grade(value: JsonValue) -> str:
    return shown(FS, "grade", str(value)) if language() != DEFAULT else str(value)


@renders(FS, "morale_test")
def _morale_test(p: JsonObject, beside: Beside) -> str | None:
    """§0.4: "Keno 3rd Squad morale test: LV 2 + threat 6 (lost_more_than_left 4 + unverified_casualty +1×2) = 8;
    d8 rolled 6 → −1 grade: confident → steady"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    name = beside.names.get(str(p.get("unit_id")), _("a unit not on the roster"))
    result = outcome["result"]
    if result == "auto_pass":
        return _("{unit} is in No step back: it passes every morale test without rolling").format(unit=name)
    if result == "no_test":
        rows = [shown(FS, "threat", r) if language() != DEFAULT else r for r in texts(inputs["rows"])]
        motivation = term(FS, "motivation", inputs["motivation"])
        return _("{unit}: no morale test ({rows} does not apply at {motivation} motivation)").format(
            unit=name, rows=", ".join(rows) or _("no row"), motivation=motivation
        )
    if "threat_parts" not in inputs or not p.get("dice"):
        return None  # recorded before the test recorded its terms: shown as recorded
    lost = whole(outcome["grades_lost"])
    if lost == 0:
        verdict = _("passes")
    else:
        verdict = ngettext("−{n} grade", "−{n} grades", lost).format(n=lost)
        if lost == 2:
            verdict += " " + _("(half or less)")
    parts = " + ".join(_threat_part(*seq(part)) for part in seq(inputs["threat_parts"]))
    said = _(
        "{unit} morale test: LV {lv} + threat {threat} ({parts}) = {target}; {die} rolled {roll} → {verdict}"
    ).format(
        unit=name,
        lv=inputs["lv"],
        threat=inputs["threat"],
        parts=parts,
        target=inputs["target"],
        die=_die(whole(inputs["die"])),
        roll=beside.rolls[whole(seq(p["dice"])[0])],
        verdict=verdict,
    )
    if outcome["from"] != outcome["to"]:
        said += f": {_grade(outcome['from'])} → {_grade(outcome['to'])}"
    if outcome.get("surrendered"):
        said += _('; Routed with an enemy {distance}" away (within {limit}") → surrenders').format(
            distance=inputs["enemy_within"], limit=inputs["surrender_within"]
        )
    return said


_ATTACK_KINDS = {
    "small_arms": "",
    "artillery": N_(" (artillery)"),
    "air": N_(" (from the air)"),
    "close_combat": N_(" (assault)"),
}


@renders(FS, "attack")
def _attack(p: JsonObject, beside: Beside) -> str | None:
    """§0.5: "Keno 3rd Squad attacked: 2 killed, 2 wounded, suppressed (artillery), by Company HQ; 3 men left"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    name = beside.names.get(str(p.get("unit_id")), _("a unit not on the roster"))
    what = _("{killed} killed, {wounded} wounded").format(killed=inputs["killed"], wounded=inputs["wounded"])
    if inputs.get("suppressing"):
        what += _(", suppressed")
    if inputs.get("leader_hit"):
        what += _(", leader hit")
    # a record of 0.1 has no kind: its fire was artillery or small arms
    kind = _ATTACK_KINDS[str(inputs.get("kind") or ("artillery" if inputs.get("artillery") else "small_arms"))]
    what += _(kind) if kind else ""
    if inputs.get("by"):
        what += _(", by {unit}").format(unit=beside.names.get(str(inputs["by"]), _("a unit not on the roster")))
    left = whole(outcome["men_left"])
    # English says "1 man left" (a record made before it said so reads "1 men left", shown as recorded).
    return ngettext("{unit} attacked: {what}; {n} man left", "{unit} attacked: {what}; {n} men left", left).format(
        unit=name, what=what, n=left
    )


def _rolled_on(sides: int, roll: int) -> str:
    # TRANSLATORS: "d8 rolled 6": a die by its sides, and what it rolled.
    return _("{die} rolled {roll}").format(die=_die(sides), roll=roll)


@renders(FS, "panic_test")
def _panic_test(p: JsonObject, beside: Beside) -> str | None:
    """§0.8: "Keno 3rd Squad panic test: LV 2 = 2; d6 rolled 2 → fails: panics, −1 grade (steady → shaken); it does
    nothing else this activation"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "die" not in inputs:
        return None  # recorded before the test recorded its die and the leader's LV
    if outcome["result"] == "pass":
        verdict = (
            _("passes: the panic is over, and never again this game; the test was its activation")
            if inputs["panicking"]
            else _("passes: no panic, and never again this game")
        )
    else:
        verdict = _("fails: panics, −1 grade ({before} → {after}); it does nothing else this activation").format(
            before=_grade(outcome["from"]), after=_grade(outcome["to"])
        )
    return _("{unit} panic test: LV {lv} = {target}; {rolled} → {verdict}").format(
        unit=beside.name(p["unit_id"]),
        lv=inputs["lv"],
        target=inputs["target"],
        rolled=_rolled_on(whole(inputs["die"]), beside.rolls[whole(seq(p["dice"])[0])]),
        verdict=verdict,
    )


def _action(value: str) -> str:
    return shown(FS, "action", value) if language() != DEFAULT else value


@renders(FS, "reaction_test")
def _reaction_test(p: JsonObject, beside: Beside) -> str | None:
    """§0.7: "Keno 3rd Squad reaction test (go_prone_open): LV 2 + threat 2 = 4; d8 rolled 2 → fails: not done, and
    not again this turn"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    name, action = beside.name(p["unit_id"]), _action(str(inputs["action"]))
    if outcome["result"] == "auto_pass":
        return _("{unit} is in No step back: {action} passes without a test").format(unit=name, action=action)
    if "die" not in inputs:
        return None  # recorded before the test recorded its die
    threat, target = whole(inputs["threat"]), whole(inputs["target"])
    verdict = _("passes") if outcome["result"] == "pass" else _("fails: not done, and not again this turn")
    return _("{unit} reaction test ({action}): LV {lv} + threat {threat} = {target}; {rolled} → {verdict}").format(
        unit=name,
        action=action,
        lv=target - threat,
        threat=threat,
        target=target,
        rolled=_rolled_on(whole(inputs["die"]), beside.rolls[whole(seq(p["dice"])[0])]),
        verdict=verdict,
    )


@renders(FS, "last_stand")
def _last_stand(p: JsonObject, beside: Beside) -> str | None:
    """§0.9: "Keno 3rd Squad No step back: d6 rolled 5 ≥ 4 → stands: …"."""
    inputs, result = obj(p["inputs"]), str(obj(p["outcome"])["result"])
    if "die" not in inputs:
        return None
    name, roll, need = beside.name(p["unit_id"]), beside.rolls[whole(seq(p["dice"])[0])], inputs["need"]
    die = _die(whole(inputs["die"]))
    if result == "stands":
        return _(
            "{unit} No step back: {die} rolled {roll} ≥ {need} → stands: no more morale or reaction tests, "
            "no suppression"
        ).format(unit=name, die=die, roll=roll, need=need)
    said = (
        _("{unit} No step back: {die} rolled {roll} < {need} → the unit is surrendered and removed")
        if result == "surrendered"
        else _("{unit} No step back: {die} rolled {roll} < {need} → the unit is scattered and removed")
    )
    return said.format(unit=name, die=die, roll=roll, need=need)


@renders(FS, "last_stand_end")
def _last_stand_end(p: JsonObject, beside: Beside) -> str | None:
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    name = beside.name(p["unit_id"])
    if outcome["result"] == "wiped_out":
        return _("{unit} fought to the last man: No step back ends, the unit is wiped out").format(unit=name)
    if "capped" not in inputs:
        return None
    said = _("{unit}: no enemy in view but Broken ones → No step back ends, the unit returns to {grade}").format(
        unit=name, grade=_grade(outcome["to"])
    )
    if inputs["capped"]:
        said += _(" (its start grade: morale never rises above it, R3-6)")
    return said


@renders(FS, "defence")
def _defence(p: JsonObject, beside: Beside) -> str | None:
    inputs = obj(p["inputs"])
    if "psi_die" not in inputs:
        return None  # recorded before the rule recorded which die it was
    sides = whole(inputs["die"])
    said = (
        _("{unit} defends against small arms with its psi die ({die}): rolled {roll}")
        if inputs["psi_die"]
        else _("{unit} defends against small arms with its d4 ({die}): rolled {roll}")
    )
    return said.format(unit=beside.name(p["unit_id"]), die=_die(sides), roll=obj(p["outcome"])["roll"])


@renders(FS, "surrender")
def _surrender(p: JsonObject, beside: Beside) -> str | None:
    """§0.3: 'Keno 3rd Squad; Routed with an enemy 6" away (within 12") → surrenders'."""
    inputs = obj(p["inputs"])
    if "surrender_within" not in inputs:
        return None  # recorded before the rule recorded its limit
    return beside.name(p["unit_id"]) + _(
        '; Routed with an enemy {distance}" away (within {limit}") → surrenders'
    ).format(distance=inputs["enemy_within"], limit=inputs["surrender_within"])


def _parts(parts: JsonValue) -> str:
    return " + ".join(_threat_part(*seq(part)) for part in seq(parts))


def _steps(n: int) -> str:
    return ngettext("−{n} step", "−{n} steps", n).format(n=n)


def _comms(inputs: JsonObject, beside: Beside, dice: list[int]) -> str:
    """The rally's communication step, as §0.6 has it."""
    how = str(inputs["comms"])
    if how == "free":
        return _('within {free}" and in sight: no communication test').format(free=inputs["free_within"])
    if how == "psion":
        return _("psion to psion: communication always succeeds")
    sides, shifted, links = whole(inputs["comms_die"]), whole(inputs["comms_shifted"]), whole(inputs["links_bypassed"])
    note = (
        _("psi die {die} (the better of psi and quality)") if inputs["comms_psi"] else _("officer quality {die}")
    ).format(die=_die(sides))
    if links:
        note += _(", {steps} for bypassed links → {die}").format(steps=_steps(links), die=_die(shifted))
    return _("communication: {note}; need > {need} (worse LV); rolled {roll}").format(
        note=note, need=inputs["need"], roll=beside.rolls[whole(dice[0])]
    )


def _changed(outcome: JsonObject) -> str:
    if outcome["from"] == outcome["to"]:
        return _("no change")
    return f"{_grade(outcome['from'])} → {_grade(outcome['to'])}"


@renders(FS, "rally")
def _rally(p: JsonObject, beside: Beside) -> str | None:
    """§0.6: "Company HQ rallies Keno 3rd Squad: within 6" and in sight: no communication test; rally: LV 2 + LV 1
    = 3; d8 rolled 5 → shaken → steady"; and §0.10's inspired rally."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    name = beside.name(p["unit_id"])
    if "psion" in inputs:
        return _inspired(p, beside)
    if "comms" not in inputs:
        return None  # recorded before the rally recorded its steps: shown as recorded
    dice = [whole(i) for i in seq(p.get("dice") or [])]
    steps = [_comms(inputs, beside, dice)]
    if outcome["result"] == "comms_failed":
        return _("{officer} rallies {unit}: {steps} → fails, the action is wasted").format(
            officer=beside.name(inputs["officer"]), unit=name, steps="; ".join(steps)
        )
    threat = whole(inputs["threat"])
    threat_text = (
        _(" + threat {threat} ({parts})").format(threat=threat, parts=_parts(inputs["threat_parts"]))
        if inputs["threat_parts"]
        else ""
    )
    steps.append(
        _("rally: LV {lv_officer} + LV {lv_unit}{threat} = {target}; {rolled} → {changed}").format(
            lv_officer=inputs["lv_officer"],
            lv_unit=inputs["lv_unit"],
            threat=threat_text,
            target=inputs["target"],
            rolled=_rolled_on(whole(inputs["die"]), beside.rolls[dice[-1]]),
            changed=_changed(outcome),
        )
    )
    return _("{officer} rallies {unit}: {steps}").format(
        officer=beside.name(inputs["officer"]), unit=name, steps="; ".join(steps)
    )


def _inspired(p: JsonObject, beside: Beside) -> str | None:
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    name = beside.name(p["unit_id"])
    if inputs.get("at_start") or (outcome["result"] == "no_effect" and "target" not in inputs):
        return _("{unit} is at its starting grade: inspiring it changes nothing").format(unit=name)
    if "die" not in inputs:
        return None
    return _(
        "{unit} inspired rally: LV {lv_psion} + LV {lv_unit} + threat {threat} = {target}; {rolled} → {changed}"
    ).format(
        unit=name,
        lv_psion=inputs["lv_psion"],
        lv_unit=inputs["lv_unit"],
        threat=inputs["threat"],
        target=inputs["target"],
        rolled=_rolled_on(whole(inputs["die"]), beside.rolls[whole(seq(p["dice"])[0])]),
        changed=_changed(outcome),
    )


def _effect(value: str) -> str:
    return shown(FS, "psi_effect", value) if language() != DEFAULT else value


_PSI_THEN = {
    "observe": N_(": use the psi die for Observe this turn"),
    "confused": N_(": {target} loses its activation"),
    "in_last_stand": N_(", but {target} is in No step back: no effect"),
    "last_stand": N_(": {target} enters No step back"),
    "panicking": N_(", but {target} is already panicking: no new test"),
    "two_grades": N_(": −2 grades ({before} → {after})"),
    "cannot_panic": N_(", but {target} cannot panic"),
    "panic_test": N_(": the target takes a panic test"),
    "kill": N_(": a trooper of {target} shoots a comrade (resolve the hit); suppressed"),
    "kill_in_last_stand": N_(
        ": a trooper of {target} shoots a comrade (resolve the hit); no suppression marker (No step back)"
    ),
}
"""What a psi success did, by the key the rule records (``then``), as §0.10 says each effect."""


@renders(FS, "psi")
def _psi(p: JsonObject, beside: Beside) -> str | None:
    """§0.10: "Mystic psi confusion on Keno 3rd Squad: d8 (−1 step for range) rolled 6, need ≥ 4 → succeeds: Keno
    3rd Squad loses its activation"."""
    inputs, outcome = obj(p["inputs"]), obj(p["outcome"])
    if "need" not in inputs:
        return None  # recorded before the rule recorded its die and the number needed
    target = beside.name(p["unit_id"])
    bands = whole(inputs["bands"])
    die_text = _die(whole(inputs["die"]))
    if bands > 1:
        die_text += " " + _("({steps} for range)").format(steps=_steps(bands - 1))
    head = _("{psion} psi {effect} on {target}: {die} rolled {roll}, need ≥ {need}").format(
        psion=beside.name(inputs["psion"]),
        effect=_effect(str(inputs["effect"])),
        target=target,
        die=die_text,
        roll=beside.rolls[whole(seq(p["dice"])[0])],
        need=inputs["need"],
    )
    if outcome["result"] == "fail":
        return head + " " + _("→ fails")
    then = str(inputs.get("then") or "")
    said = head + " " + _("→ succeeds")
    if then == "unsuppressed":
        n = whole(inputs["markers"])
        # English records "marker(s)" whatever the count; the other languages say each count in its own form.
        said += ngettext(": {n} suppression marker(s) removed", ": {n} suppression marker(s) removed", n).format(n=n)
    elif then:
        said += _(_PSI_THEN[then]).format(
            target=target,
            before=_grade(str(inputs.get("from"))),
            after=_grade(str(outcome.get("to"))),
        )
    return said
