"""Five-grade morale's (seed 000, RULES.md §0) decisions in the reader's language, from what they recorded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.i18n import DEFAULT, N_, _, language, ngettext
from campaign.i18n.explain import Beside, renders
from campaign.i18n.terms import shown

FS = "fighting-spirit"


def _die(sides: int) -> str:
    # TRANSLATORS: a die by its sides: d8 in English, к8 as seed 000 writes it, k8 in Polish.
    return _("d{sides}").format(sides=sides)


def _threat_part(row: str, kind: str, value: int, count: int) -> str:
    name = shown(FS, "threat", row) if language() != DEFAULT else row
    if kind == "base":
        return f"{name} {value}"
    if kind == "each":
        return f"{name} +{value}×{count}"
    return f"{name} +{value}"


def _grade(value: str) -> str:
    return shown(FS, "grade", value) if language() != DEFAULT else value


@renders(FS, "morale_test")
def _morale_test(p: Mapping[str, Any], beside: Beside) -> str | None:
    """§0.4: "Keno 3rd Squad morale test: LV 2 + threat 6 (lost_more_than_left 4 + unverified_casualty +1×2) = 8;
    d8 rolled 6 → −1 grade: confident → steady"."""
    inputs, outcome = p["inputs"], p["outcome"]
    name = beside.names.get(str(p.get("unit_id")), _("a unit not on the roster"))
    result = outcome["result"]
    if result == "auto_pass":
        return _("{unit} is in No step back: it passes every morale test without rolling").format(unit=name)
    if result == "no_test":
        rows = [shown(FS, "threat", r) if language() != DEFAULT else r for r in inputs["rows"]]
        motivation = shown(FS, "motivation", inputs["motivation"]) if language() != DEFAULT else inputs["motivation"]
        return _("{unit}: no morale test ({rows} does not apply at {motivation} motivation)").format(
            unit=name, rows=", ".join(rows) or _("no row"), motivation=motivation
        )
    if "threat_parts" not in inputs or not p.get("dice"):
        return None  # recorded before the test recorded its terms: shown as recorded
    lost = int(outcome["grades_lost"])
    if lost == 0:
        verdict = _("passes")
    else:
        verdict = ngettext("−{n} grade", "−{n} grades", lost).format(n=lost)
        if lost == 2:
            verdict += " " + _("(half or less)")
    parts = " + ".join(_threat_part(*part) for part in inputs["threat_parts"])
    said = _(
        "{unit} morale test: LV {lv} + threat {threat} ({parts}) = {target}; {die} rolled {roll} → {verdict}"
    ).format(
        unit=name,
        lv=inputs["lv"],
        threat=inputs["threat"],
        parts=parts,
        target=inputs["target"],
        die=_die(int(inputs["die"])),
        roll=beside.rolls[int(p["dice"][0])],
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
def _attack(p: Mapping[str, Any], beside: Beside) -> str | None:
    """§0.5: "Keno 3rd Squad attacked: 2 killed, 2 wounded, suppressed (artillery), by Company HQ; 3 men left"."""
    inputs, outcome = p["inputs"], p["outcome"]
    name = beside.names.get(str(p.get("unit_id")), _("a unit not on the roster"))
    what = _("{killed} killed, {wounded} wounded").format(killed=inputs["killed"], wounded=inputs["wounded"])
    if inputs.get("suppressing"):
        what += _(", suppressed")
    if inputs.get("leader_hit"):
        what += _(", leader hit")
    kind = _ATTACK_KINDS[str(inputs.get("kind", "small_arms"))]
    what += _(kind) if kind else ""
    if inputs.get("by"):
        what += _(", by {unit}").format(unit=beside.names.get(str(inputs["by"]), _("a unit not on the roster")))
    left = int(outcome["men_left"])
    # English records "men left" whatever the count; the other languages say each count in its own form.
    return ngettext("{unit} attacked: {what}; {n} men left", "{unit} attacked: {what}; {n} men left", left).format(
        unit=name, what=what, n=left
    )
