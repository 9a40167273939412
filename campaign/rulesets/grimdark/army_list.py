"""``gf.import_list``: an army list kept in another program (One Page Rules' Army Forge) joins the army sheet in
one command, and a later version of the same list updates the units it names.

The command's inputs are the list as the rules read it (each entry a name, a profile, its XP and traits, the
entry it joins), not the file: the file is read and checked by ``campaign.rulesets.grimdark.army_forge``. Each entry
keeps the list's own id for it (Army Forge's ``selectionId``), so importing the list again finds the units it
made: their profile, XP, traits and joins are changed to the list's, new entries are mustered, and what the list
no longer holds is left on the roster and said so. Several entries of one name are numbered (``Name 1``,
``Name 2``…), as :func:`numbered` numbers them; a name the roster already holds takes the next free number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from campaign.rulesets.battles import between_battles
from campaign.rulesets.common import known_side, same_name
from campaign.rulesets.grimdark.carried import carried_facts, carried_traits, trait_named
from campaign.rulesets.grimdark.commands import At, GfCommand, checked_profile
from campaign.rulesets.grimdark.edit import check_profile
from campaign.rulesets.grimdark.profile import UnitProfile
from campaign.rulesets.grimdark.state import CampaignState, RosterUnit
from campaign.rulesets.grimdark.tables import Tables
from campaign.rulesets.inputs import NewUnit, OwnSide
from events.errors import InvalidInputError, Term, Words
from events.families.roster import JoinPlanned, UnitListed, UnitMustered, UnitProfileChanged
from events.registry import Event

GF = "grimdark"
"""The ruleset whose terms (``terms.toml``) the plan's words name: Quality, Tough, Fearless."""


class ListedUnit(BaseModel):
    """One entry of an army list: the unit as the rules read it, and the list's id for the entry."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    entry: str = Field(min_length=1, max_length=40)
    """The list's own id for the entry (Army Forge's ``selectionId``)."""
    name: NewUnit
    """The entry's name in the list (its custom name, if it has one): the unit it makes, or updates."""
    profile: UnitProfile
    xp: int = Field(default=0, ge=0, le=10_000)
    traits: tuple[str, ...] = Field(default=(), max_length=30)
    joins: str | None = Field(default=None, max_length=40)
    """The entry it joins at the start of a battle (a hero attached to a unit, a combined unit's second half)."""


@dataclass(frozen=True)
class Change:
    """What importing the list does to one unit, in words, and the facts that do it."""

    name: str
    said: tuple[Words | Term, ...]
    """What it does, a phrase each: said in the reader's language where the plan is shown."""
    facts: tuple[Event, ...] = ()


@dataclass(frozen=True)
class ImportPlan:
    """What importing a list does: the units mustered, those updated (each change said), those the list holds
    as the roster has them, those it no longer holds, and what else is worth saying (a name numbered, a trait
    no rule reads)."""

    list_name: str
    side: str
    added: tuple[Change, ...] = ()
    updated: tuple[Change, ...] = ()
    unchanged: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    notes: tuple[Words, ...] = ()
    events: tuple[Event, ...] = field(default=(), repr=False)

    @property
    def changes_units(self) -> bool:
        """Whether it changes units already on the roster (shown before it is run, as an amendment is)."""
        return bool(self.updated)


class ImportList(GfCommand):
    """An army list joins the army sheet of its side: every entry a unit (models, Quality, Defense, Tough,
    Fearless, hero, points, XP and traits), its joins planned for each battle's start. Importing a later
    version of the same list (the same list id) updates the units its entries made instead of adding them again."""

    name: ClassVar[str] = "gf.import_list"
    rolls: ClassVar[bool] = False

    side: OwnSide
    """The army it is: a player imports lists to its own sides (it adds and updates that side's units only)."""
    source: str = Field(default="Army Forge", min_length=1, max_length=40)
    list_id: str = Field(min_length=1, max_length=100)
    list_name: str = Field(min_length=1, max_length=200)
    entries: tuple[ListedUnit, ...] = Field(min_length=1, max_length=200)

    def decide(self, s: At) -> list[Event]:
        plan = plan_import(s.state, s.tables, self, s.new_id)
        if not plan.events:
            raise InvalidInputError.saying(
                "{list}: every unit is on the army sheet of {side} as the list has it: nothing to change",
                list=plan.list_name,
                side=plan.side,
            )
        return list(plan.events)


def numbered(name: str, taken: Callable[[str], bool], *, several: bool) -> str:
    """A name for a new unit that ``taken`` says is free: ``name`` itself when it is the only one of its name and
    free, else ``name`` followed by the smallest number not taken (from 1 when ``several`` units share it, from
    2 when the roster already has the name)."""
    if not several and not taken(name):
        return name
    n = 1 if several else 2
    while taken(f"{name} {n}"):
        n += 1
    return f"{name} {n}"


def plan_import(state: CampaignState, tables: Tables, command: ImportList, new_id: Callable[[], str]) -> ImportPlan:
    """What importing ``command``'s list does to the campaign as it stands (pure: the command's decision, and
    the preview shown before it runs)."""
    side = known_side(state, command.side)
    listed = _listed_units(state, command, side)
    by_entry = {e.entry: e for e in command.entries}
    _check_entries(command.entries, by_entry)
    notes: list[Words] = []
    # First every entry's unit: those earlier imports made, and a name and an id for each new one, so that a
    # join can name a unit mustered further down the list.
    entry_unit = {e: u.unit_id for e, u in listed.items() if u.disbanded is None}
    new_names: dict[str, str] = {}
    taken = [u.name for u in state.roster.values()]
    several = Counter(_spaced(e.name).casefold() for e in command.entries)
    for entry in command.entries:
        unit = listed.get(entry.entry)
        if unit is not None:
            if unit.disbanded is not None:
                notes.append(
                    Words("{unit} is off the roster ({why}): not mustered again", unit=unit.name, why=unit.disbanded)
                )
            continue
        shared = several[_spaced(entry.name).casefold()] > 1
        name = numbered(_spaced(entry.name), lambda n: any(same_name(n, t) for t in taken), several=shared)
        taken.append(name)
        new_names[entry.entry] = name
        entry_unit[entry.entry] = new_id()
        if name != _spaced(entry.name):
            why = (
                Words("several units of the list share its name")
                if shared
                else Words("the roster has a unit of its name")
            )
            notes.append(
                Words(
                    "{unit} (entry {entry}) is mustered as {name}: {why}",
                    unit=entry.name,
                    entry=entry.entry,
                    name=name,
                    why=why,
                )
            )
    called = {e: u.name for e, u in listed.items()} | new_names
    added: list[Change] = []
    updated: list[Change] = []
    unchanged: list[str] = []
    for entry in command.entries:
        if entry.entry not in entry_unit:
            continue
        joins = entry_unit.get(entry.joins) if entry.joins is not None else None
        unit = listed.get(entry.entry)
        if unit is None:
            name = new_names[entry.entry]
            added.append(_mustered(state, tables, command, entry, side, name, entry_unit, joins, called))
            continue
        change = _updated(state, tables, command, entry, unit, joins, called)
        if change.facts:
            updated.append(change)
        else:
            unchanged.append(unit.name)
        notes.extend(_kept_traits(tables, entry, unit))
    missing = tuple(u.name for e, u in listed.items() if e not in by_entry and u.disbanded is None)
    read = [trait_named(tables, t) for e in command.entries for t in e.traits]
    renamed = sorted({(t.written, t.name) for t in read if t.renamed})
    notes += [
        Words("the trait {written} is recorded as the tables name it: {name}", written=written, name=name)
        for written, name in renamed
    ]
    carried = sorted({t for e in command.entries for t in e.traits if trait_named(tables, t).kind == "carried"})
    if len(carried) == 1:
        notes.append(Words("no rule reads the trait {traits}: kept as written", traits=carried[0]))
    elif carried:
        notes.append(Words("no rule reads the traits {traits}: kept as written", traits=", ".join(carried)))
    events = tuple(f for change in (*added, *updated) for f in change.facts)
    return ImportPlan(
        command.list_name, side, tuple(added), tuple(updated), tuple(unchanged), missing, tuple(notes), events
    )


def _spaced(name: str) -> str:
    return " ".join(name.split())


def _listed_units(state: CampaignState, command: ImportList, side: str) -> dict[str, RosterUnit]:
    """The units earlier imports of this list made, by entry; refused if the list was imported for another side."""
    found: dict[str, RosterUnit] = {}
    for unit in state.roster.values():
        if unit.listed is None or unit.listed[0] != command.list_id:
            continue
        if unit.side != side:
            raise InvalidInputError.saying(
                "the {source} list “{list}” belongs to {owner} ({unit} came from it): it cannot be imported for "
                "{side} too",
                source=command.source,
                list=command.list_name,
                owner=unit.side,
                unit=unit.name,
                side=side,
            )
        found[unit.listed[1]] = unit
    return found


def _check_entries(entries: Sequence[ListedUnit], by_entry: dict[str, ListedUnit]) -> None:
    """A list the rules can represent: each entry once, a join to an entry of the list that joins nothing, a
    hero joining a unit that is no hero, a unit joined by one hero and one twin at most, the twins alike."""
    if len(by_entry) != len(entries):
        twice = next(e for e, n in Counter(x.entry for x in entries).items() if n > 1)
        raise InvalidInputError.saying(
            "the list holds the entry {entry} twice: not a list the ledger can take", entry=twice
        )
    joined: Counter[tuple[str, bool]] = Counter()
    for entry in entries:
        if entry.joins is None:
            continue
        target = by_entry.get(entry.joins)
        if target is None:
            raise InvalidInputError.saying(
                "{unit} joins an entry ({entry}) that is not in the list", unit=entry.name, entry=entry.joins
            )
        if target.entry == entry.entry or target.joins is not None:
            raise InvalidInputError.saying(
                "{unit} joins {target}, which joins another unit itself", unit=entry.name, target=target.name
            )
        if target.profile.hero:
            raise InvalidInputError.saying(
                "{unit} joins {target}, a hero: a hero joins a unit, not a hero", unit=entry.name, target=target.name
            )
        if not entry.profile.hero and (entry.profile.quality, entry.profile.tough) != (
            target.profile.quality,
            target.profile.tough,
        ):
            raise InvalidInputError.saying(
                "{unit} and {target} are combined in the list but differ in Quality or Tough: only like units "
                "combine (RULES.md §4.1)",
                unit=entry.name,
                target=target.name,
            )
        joined[(target.entry, entry.profile.hero)] += 1
        if joined[(target.entry, entry.profile.hero)] > 1:
            if entry.profile.hero:
                raise InvalidInputError.saying(
                    "{unit} is joined by more than one hero in the list: one at most", unit=target.name
                )
            raise InvalidInputError.saying(
                "{unit} is joined by more than one combined unit in the list: one at most", unit=target.name
            )


def _mustered(  # noqa: PLR0913 (the command's inputs, by keyword)
    state: CampaignState,
    tables: Tables,
    command: ImportList,
    entry: ListedUnit,
    side: str,
    name: str,
    entry_unit: dict[str, str],
    joins: str | None,
    called: dict[str, str],
) -> Change:
    """A new unit from an entry: mustered under ``name``, its XP and traits carried, its entry kept, its join
    planned."""
    unit_id = entry_unit[entry.entry]
    try:
        profile = checked_profile(state, tables, name, side, _with_skill_set(tables, entry).model_dump(mode="json"))
        traits = carried_traits(tables, name, entry.traits)
    except InvalidInputError as exc:
        raise InvalidInputError.saying(
            "{unit} (entry {entry}): {problem}", unit=entry.name, entry=entry.entry, problem=exc.words or str(exc)
        ) from None
    facts: list[Event] = [
        UnitMustered(unit_id=unit_id, name=name, side=side, profile=profile.model_dump(mode="json")),
        UnitListed(
            unit_id=unit_id,
            source=command.source,
            list_id=command.list_id,
            list_name=command.list_name,
            entry=entry.entry,
        ),
        *carried_facts(unit_id, entry.xp or None, traits, f"from the {command.source} list"),
    ]
    if joins is not None:
        facts.append(JoinPlanned(unit_id=unit_id, joins=joins))
    said: list[Words | Term] = [
        Words(
            "{models}, {quality} {value}+",
            models=Words.counted("{n} model", "{n} models", n=profile.models),
            quality=Term(GF, "rule", "quality"),
            value=profile.quality,
        )
    ]
    said += [Words("Defense {value}+", value=profile.defense)] if profile.defense else []
    if profile.tough > 1:
        said.append(Words("{tough}({value})", tough=Term(GF, "rule", "tough"), value=profile.tough))
    said += [Term(GF, "rule", "fearless")] if profile.fearless else []
    said += [Words("hero")] if profile.hero else []  # the English word in lower case, as it always was
    said += [Words("{points} pts", points=profile.points)] + ([Words("{xp} XP", xp=entry.xp)] if entry.xp else [])
    said += [Words("traits {traits}", traits=", ".join(t.name for t in traits))] if traits else []
    said += [_joins(called.get(str(entry.joins), entry.joins))] if joins is not None else []
    return Change(name, tuple(said), tuple(facts))


def _joins(unit: str | None) -> Words:
    return Words("joins {unit} at each battle's start", unit=unit)


def _with_skill_set(tables: Tables, entry: ListedUnit) -> UnitProfile:
    """A hero's skill set, when the list gives none and its traits are the skills of one set of the tables: its
    next level-up rolls on that set (§4.2)."""
    if not entry.profile.hero or entry.profile.skill_set is not None:
        return entry.profile
    kinds = {
        s for s in tables.skill_sets if any(trait_named(tables, t).name in tables.skill_names(s) for t in entry.traits)
    }
    return entry.profile.model_copy(update={"skill_set": kinds.pop()}) if len(kinds) == 1 else entry.profile


def _updated(
    state: CampaignState,
    tables: Tables,
    command: ImportList,
    entry: ListedUnit,
    unit: RosterUnit,
    joins: str | None,
    called: dict[str, str],
) -> Change:
    """An entry already on the roster: its profile, XP, traits and join changed to the list's (between battles)."""
    try:
        wanted = _with_skill_set(tables, entry)
        if wanted.skill_set is None and unit.profile.skill_set is not None:
            wanted = wanted.model_copy(update={"skill_set": unit.profile.skill_set})
        check_profile(tables, wanted)
        new = [t for t in entry.traits if trait_named(tables, t).name not in unit.traits]
        traits = carried_traits(tables, unit.name, new)
    except InvalidInputError as exc:
        raise InvalidInputError.saying(
            "{unit} (entry {entry}): {problem}", unit=unit.name, entry=entry.entry, problem=exc.words or str(exc)
        ) from None
    before, after = unit.profile.model_dump(mode="json"), wanted.model_dump(mode="json")
    changed = {k: after.get(k) for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)}
    facts: list[Event] = []
    said: list[Words | Term] = []
    if changed:
        facts.append(UnitProfileChanged(unit_id=unit.unit_id, profile=changed))
        said += [_changed(k, before.get(k), v) for k, v in changed.items()]
    xp = entry.xp if entry.xp != unit.xp else None
    if xp is not None:
        said.append(Words("XP {before} → {after}", before=unit.xp, after=entry.xp))
    facts.extend(carried_facts(unit.unit_id, xp, traits, f"from the {command.source} list"))
    said += [Words("trait {trait} added", trait=t.name) for t in traits]
    if joins != unit.joins:
        facts.append(JoinPlanned(unit_id=unit.unit_id, joins=joins))
        joined = called.get(str(entry.joins), entry.joins)
        said.append(_joins(joined) if joins is not None else Words("no longer joins another unit"))
    if facts:
        between_battles(state, unit, Words("import the list again once the battle is over"))
    return Change(unit.name, tuple(said), tuple(facts))


_CHANGED = {
    "models": Words("models {before} → {after}"),
    "quality": Words("quality {before} → {after}"),
    "defense": Words("defense {before} → {after}"),
    "tough": Words("tough {before} → {after}"),
    "fearless": Words("fearless {before} → {after}"),
    "hero": Words("hero {before} → {after}"),
    "points": Words("points {before} → {after}"),
    "skill_set": Words("skill set {before} → {after}"),
}
"""A profile field's change, each field's own sentence (its name as the seed's terms say it, word order the
language's)."""


def _changed(field: str, before: object, after: object) -> Words:
    said = {"before": _value(field, before), "after": _value(field, after)}
    known = _CHANGED.get(field)
    if known is None:  # a field the profile may gain later: named as recorded
        return Words("{field} {before} → {after}", field=field.replace("_", " "), **said)
    return Words(known.template, **said)


def _value(field: str, v: object) -> object:
    if v is None:
        return Words("none")
    if isinstance(v, bool):
        return Words("yes") if v else Words("no")
    return Term(GF, "skill_set", str(v)) if field == "skill_set" else v


def _kept_traits(tables: Tables, entry: ListedUnit, unit: RosterUnit) -> list[Words]:
    """Traits the ledger recorded and this version of the list drops: kept (no trait is ever taken away)."""
    listed = {trait_named(tables, t).name for t in entry.traits}
    gone = [t for t in unit.traits if t not in listed]
    if not gone:
        return []
    if len(gone) == 1:
        return [Words("{unit} keeps the trait {traits} the list no longer shows", unit=unit.name, traits=gone[0])]
    return [Words("{unit} keeps the traits {traits} the list no longer shows", unit=unit.name, traits=", ".join(gone))]
