"""What a unit brings from a campaign begun elsewhere (another program, an army sheet on paper): its XP and its
traits, recorded when it is mustered or edited (RULES.md §4.2: "XP is recorded on the army sheet").

A trait is recorded under the tables' name for it, so that the rules read it (Headstrong's +1, Motivated, a
Toughened hero's Tough) and a level-up never rolls it a second time: "Traumatised" is the tables' "Traumatized",
"Specialist (Melee)" their "Specialist" (one trait, whichever roll it improves). A trait the tables do not name
(a skill of a skill set they lack) is kept as written: no rule reads it, and it is said so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from campaign.rulesets.grimdark.tables import TRAIT_KINDS, Tables
from events.errors import InvalidInputError
from events.families.career import TraitGained, XpSet
from events.registry import Event

TOUGH_TRAIT = "Toughened"
"""The talent that gives Tough(+1) (§4.2), as the casualty roll records it."""


@dataclass(frozen=True)
class Trait:
    """A trait as the ledger records it: the tables' name and kind (``carried`` when the tables do not name it),
    and the words the unit's sheet gave it when they differ."""

    name: str
    kind: str
    written: str

    @property
    def renamed(self) -> bool:
        return self.name != self.written


def _key(name: str) -> str:
    """A trait's name as two spellings of it compare: no choice in brackets, case, spaces or -ise/-ize."""
    bare = re.sub(r"\s*\(.*\)\s*$", "", name).strip().casefold()
    return re.sub(r"is(e|ed|ing)\b", r"iz\1", " ".join(bare.split()))


def known_traits(tables: Tables) -> dict[str, tuple[str, str]]:
    """Every trait the tables name, by its compared spelling: (its name, its kind)."""
    known: dict[str, tuple[str, str]] = {}
    for kind in TRAIT_KINDS:
        for name in tables.trait_names(kind):
            known.setdefault(_key(name), (name, kind))
    for skill_set in tables.skill_sets:
        for name in tables.skill_names(skill_set):
            known.setdefault(_key(name), (name, "skill"))
    return known


def trait_named(tables: Tables, written: str) -> Trait:
    """The trait ``written`` stands for in the tables, or the trait as written (kind ``carried``)."""
    text = " ".join(written.split())
    if not text:
        raise InvalidInputError.saying("a trait needs a name")
    found = known_traits(tables).get(_key(text))
    if found is None:
        return Trait(text, "carried", text)
    return Trait(found[0], found[1], text)


def carried_traits(tables: Tables, unit_name: str, written: Sequence[str], had: Sequence[str] = ()) -> list[Trait]:
    """The traits a unit brings, each once; one the tables take for a death ("Dead") is refused: a unit that
    died is not mustered."""
    traits: list[Trait] = []
    dead = tables.trait_names("injury")[0]
    for text in written:
        trait = trait_named(tables, text)
        if trait.name == dead:
            raise InvalidInputError.saying(
                "{unit} cannot bring the injury {injury}: a dead hero is off the roster", unit=unit_name, injury=dead
            )
        if trait.name in had or any(t.name == trait.name for t in traits):
            raise InvalidInputError.saying(
                "{unit} has the trait {trait} once only (each trait at most once)", unit=unit_name, trait=trait.name
            )
        traits.append(trait)
    return traits


def carried_facts(unit_id: str, xp: int | None, traits: Sequence[Trait], reason: str) -> list[Event]:
    """The facts of what a unit brings: its XP (when given) and each trait, costing nothing more (the points
    given for the unit are its cost as its sheet has it, levels and traits included); Toughened adds its
    Tough(+1) as the casualty roll's does."""
    facts: list[Event] = []
    if xp is not None:
        facts.append(XpSet(unit_id=unit_id, xp=xp, reason=reason))
    facts.extend(
        TraitGained(unit_id=unit_id, kind=t.kind, trait=t.name, tough=1 if t.name == TOUGH_TRAIT else 0) for t in traits
    )
    return facts
