"""What a roll was for, as the rules recorded it ("morale test (wounds at half strength), Robot Squad"), in the
reader's language when it is read: the roll rows of the log, the audit page, the dice step of a command form.

The rules write a roll's purpose in English and the log keeps it as it is (it is hashed and re-decided word for
word). Each purpose the rules write is declared here once as its English template: the recorded text is matched
against it, its fixed words said through the catalog and its unit's name kept; a cause in brackets is said too
where the catalog knows it. A purpose no template matches (one a person typed: ``campaign roll --purpose``)
reads as recorded."""

from __future__ import annotations

import re
from functools import cache

from campaign.i18n import DEFAULT, N_, _, language

PURPOSES = (
    # grimdark
    N_("morale test ({why}), {who}"),
    N_("Fearless, {who}"),
    N_("casualty roll, {who}"),
    N_("special objective, {who}"),
    N_("{trait_kind} trait, {who}"),
    N_("{skill_set} skill, {who}"),
    # mass_combat and fighting_spirit
    N_("morale check, {who}"),
    N_("rally, {who}"),
    N_("Morale roll, {who}"),
    N_("Morale roll for an unpaid day, {who}"),
    N_("Morale roll after an enemy atrocity, {who}"),
    N_("army Morale roll after an enemy atrocity, {who}"),
    N_("catastrophe roll, {who}"),
    N_("catastrophe reroll (Luck), {who}"),
    N_("Glory roll, {who}"),
    N_("Luck reroll of the contest, {who}"),
    N_("rout row shift, {who}"),
    N_("Strategy roll, {who}"),
    N_("Tactics roll, {who}"),
    N_("Survival roll, {who}"),
    N_("Survival roll again (Luck), {who}"),
    N_("second Survival roll (losing side), {who}"),
    N_("second Survival roll (his unit routed or was wiped out), {who}"),
    N_("second Survival roll (losing side) again (Luck), {who}"),
    N_("second Survival roll (his unit routed or was wiped out) again (Luck), {who}"),
    N_("damage, column {column}, wound {n}, {who}"),
    N_("Reputation duration, {who}"),
    N_("promotion reaction roll, {who}"),
    N_("high command's reaction roll, {who}"),
    N_("Morale roll for missed pay, {who}"),
    N_("Morale roll after treason, {who}"),
    N_("which major unit, {who}"),
    N_("troop quality of {who}"),
    N_("quality of {n} recruits for {who}"),
    # disorder
    N_("morale test of {who}"),
    N_("panic test of {who}"),
    N_("rally test of {who} (inspired)"),
    N_("rally test of {who}"),
    N_("No step back test of {who}"),
    N_("defence of {who} against small arms"),
    N_("reaction test of {who}: {action}"),
    N_("communication test, {officer} → {who}"),
    N_("psi {effect} by {psion} on {who}"),
)
"""The purposes the rules write, as their English templates: ``{who}`` the unit's (or side's, or character's)
name, ``{why}`` the cause the rules give in brackets, any other (``{column}``, ``{n}``) a short term as
recorded. A longer template is tried before one it begins like."""

CAUSES = {
    "wounds at half strength": N_("wounds at half strength"),
    "lost a melee": N_("lost a melee"),
    "shooting": N_("shooting"),
    "melee": N_("melee"),
}
"""The causes the rules give, in a purpose's brackets and as the source of wounds (``battle.wounds_taken``)."""


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    def pattern(template: str) -> re.Pattern[str]:
        text = re.escape(template).replace(r"\{who\}", "(?P<who>.+)").replace(r"\{why\}", "(?P<why>[^()]+)")
        text = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^,()]+)", text)  # a short term of its own: a column, a count
        return re.compile(f"^{text}$")

    return tuple((pattern(t), t) for t in PURPOSES)


def cause_said(recorded: object) -> object:
    """A cause the rules recorded (a purpose's bracket, the source of wounds) in the reader's language; anything
    else as recorded."""
    if language() == DEFAULT or not isinstance(recorded, str) or recorded not in CAUSES:
        return recorded
    return _(CAUSES[recorded])


def purpose_said(recorded: str) -> str:
    """A roll's recorded purpose in the reader's language, its names as recorded; as recorded in English or
    where no template of the rules matches it."""
    if language() == DEFAULT:
        return recorded
    for pattern, template in _patterns():
        found = pattern.match(recorded)
        if found is not None:
            fields = found.groupdict()
            if "why" in fields:
                fields["why"] = str(cause_said(fields["why"]))
            if "action" in fields:  # a five-grade reaction (§0.7), in the seed's words
                from campaign.i18n.terms import shown

                fields["action"] = shown("fighting-spirit", "action", fields["action"].replace(" ", "_"))
            if "effect" in fields:  # a psion's action (§0.8), in the seed's words
                from campaign.i18n.terms import shown

                fields["effect"] = shown("fighting-spirit", "psi_effect", fields["effect"])
            for grimdark in ("trait_kind", "skill_set"):  # Grimdark's trait tables and heroes' skill sets (§4.2)
                if grimdark in fields:
                    from campaign.i18n.terms import shown

                    fields[grimdark] = shown("grimdark", grimdark, fields[grimdark])
            return _(template).format(**fields)
    return recorded


_AMENDED_DICE = re.compile(r"^amend of seq (?P<seq>\d+): table dice corrected to (?P<faces>[\d, ]+) \((?P<why>.*)\)$")
_AMENDED = re.compile(r"^amend of seq (?P<seq>\d+)(?: \((?P<why>.*)\))?$")


def amend_said(recorded: str) -> str:
    """The reason an amendment's rewind records ("amend of seq 15: table dice corrected to 5 (misread)", as
    ``campaign.timeline`` words it) in the reader's language; the reason a person typed in it as typed."""
    if language() == DEFAULT:
        return recorded
    found = _AMENDED_DICE.match(recorded)
    if found is not None:
        return _("amend of seq {seq}: table dice corrected to {faces} ({why})").format(**found.groupdict())
    found = _AMENDED.match(recorded)
    if found is None:
        return recorded
    if found["why"] is None:
        return _("amend of seq {seq}").format(seq=found["seq"])
    return _("amend of seq {seq} ({why})").format(**found.groupdict())


REASONS = (
    N_("raising {who}: {n} men"),
    N_("{n} recruits for {who}"),
    N_("pay for {who}"),
    N_("{n} months of training"),
    N_("pay, month {n}"),
    N_("month {n} upkeep and pay"),
    N_("bought {who}"),
    N_("sold {who}"),
    N_("defected at {who}"),
    N_("dead: casualty roll {n}"),
    N_("special objective {who} achieved"),
)
"""The reasons the rules word themselves for a sum or a unit leaving (``economy.funds_changed``'s "pay for
Caliburn's gang"), as their English templates: ``{who}`` a name, ``{n}`` a number, as recorded."""


MODIFIERS = (
    N_("vs {who}: beat them this year"),
    N_("vs {who}: lost to them this year"),
    N_("the day after ({who}, day {n})"),
    N_("commander lost ({who}, day {n})"),
    N_("treason"),
)
"""The names the rules give a lasting Morale modifier (``morale.modifier_set``'s: Mass Combat's record against
the same enemy this year, a commander lost, the day after a battle, treason; RULES.md §2.11), as their English
templates, as :data:`REASONS` are; a modifier the game master named (``mc morale``) reads as named."""


@cache
def _templates(templates: tuple[str, ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    def pattern(template: str) -> re.Pattern[str]:
        text = re.escape(template).replace(r"\{who\}", "(?P<who>.+)").replace(r"\{n\}", r"(?P<n>\d+)")
        return re.compile(f"^{text}$")

    return tuple((pattern(t), t) for t in templates)


def _templated(recorded: str, templates: tuple[str, ...]) -> str | None:
    for pattern, template in _templates(templates):
        found = pattern.match(recorded)
        if found is not None:
            return _(template).format(**found.groupdict())
    return None


def reason_template_said(recorded: str) -> str | None:
    """A reason the rules worded by a template of :data:`REASONS`, in the reader's language; None for any other."""
    return _templated(recorded, REASONS)


def modifier_said(recorded: str) -> str:
    """A Morale modifier's name (:data:`MODIFIERS`) in the reader's language; one a person named as named."""
    if language() == DEFAULT:
        return recorded
    return _templated(recorded, MODIFIERS) or recorded


def recorded_said(key: str, recorded: object) -> object:
    """A field of an event the rules (or the timeline) worded in English, in the reader's language: a cause
    (``source``, ``reason``), an amendment's reason; anything else as recorded."""
    if language() == DEFAULT or not isinstance(recorded, str):
        return recorded
    if key == "reason" and recorded.startswith("amend of seq "):
        return amend_said(recorded)
    if key == "reason" and (undone := UNDO_OF.match(recorded)) is not None:
        return undo_said(*undone.groups())
    if key == "reason" and (said := reason_template_said(recorded)) is not None:
        return said
    return cause_said(recorded)


UNDO_OF = re.compile(r"^undo of (.+) \(#(\d+)–#(\d+)\)$")
"""The reason an undo records for its rewind (the timeline writes it: "undo of fs attack (#10–#14)")."""
_UNDO_OF_OWN = {
    "undo": N_("undo of the undo at {span}"),
    "rewind": N_("undo of the rewind at {span}"),
    "amend": N_("undo of the amendment at {span}"),
}
"""An undo of one of the timeline's own commands, a sentence each (the languages inflect the command's name)."""


def undo_said(what: str, first: str, last: str) -> str:
    """An undo's recorded reason in the reader's language: what it took back, and from where to where."""
    span = f"#{first}" if first == last else f"#{first}–#{last}"
    if what in _UNDO_OF_OWN:
        return _(_UNDO_OF_OWN[what]).format(span=span)
    return _("undo of {command} ({span})").format(command=what, span=span)
