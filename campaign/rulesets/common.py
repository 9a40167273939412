"""What every ruleset's commands share: finding a unit, checking a new one or a transfer, a muster, an edit, a
house rule, and the one command that belongs to no ruleset (a plain roll of the campaign's dice)."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any, ClassVar, Protocol, TypeVar

from pydantic import BaseModel, Field, ValidationError, field_validator

from campaign.i18n import N_
from campaign.rulesets.command import Command, EnteredBy, Situation
from campaign.rulesets.inputs import (
    ARGUMENT,
    Called,
    Kind,
    NewUnit,
    OwnSide,
    OwnUnit,
    Typed,
    names_in,
    not_a_profile,
    said_problems,
)
from campaign.rulesets.state import Listed
from campaign.rulesets.tables import GivenValue, RuleTables, check_override, check_path
from events.dice import parse
from events.errors import InvalidInputError, Words
from events.families.roster import UnitMustered, UnitProfileChanged
from events.families.rules import TableOverridden
from events.recorded import JsonValue
from events.registry import Event

M = TypeVar("M", bound=BaseModel)
S = TypeVar("S")
T = TypeVar("T", bound=RuleTables)

NAME_MAX = 100


U_co = TypeVar("U_co", bound=Listed, covariant=True)
U = TypeVar("U", bound=Listed)
Item = TypeVar("Item")


class Roster(Protocol[U_co]):
    @property
    def roster(self) -> Mapping[str, U_co]: ...
    def unit_by_name(self, name: str) -> U_co | None: ...


class Profiled(Listed, Protocol):
    """A unit on the roster with its ruleset's profile (a pydantic model)."""

    @property
    def profile(self) -> BaseModel: ...


R = TypeVar("R", bound=Roster[Listed])
"""A ruleset's campaign state, as the commands every ruleset shares read its roster."""
P = TypeVar("P", bound=Roster[Profiled])
"""A ruleset's campaign state whose units have profiles (a muster's, an edit's)."""


def same_name(a: str, b: str) -> bool:
    """Two names a person means as one: spaces around them and letter case do not count."""
    return a.strip().casefold() == b.strip().casefold()


def known_side(state: Roster[Listed], side: str) -> str:
    """``side`` as the campaign already spells it (letter case and spaces around it aside: "saurians" is the
    "Saurians" a unit fights for or a treasury is kept for), or as typed, trimmed, for a side new to it: a side
    typed in another case was a second side (names are matched whatever their letter case)."""
    sides = {u.side for u in state.roster.values()} | set(getattr(state, "treasury", None) or {})
    spelled = _spelled(sides, side)
    if spelled is None:
        check_not_confusable(side, sides, "side")
    return spelled or side.strip()


LOOKS_LIKE = {
    "unit": N_(
        "{name!r} looks like the unit {like!r} already on the roster (letters of another alphabet, letters without "
        "their accents, or characters that read alike): give it a name that reads differently"
    ),
    "side": N_(
        "{name!r} looks like the side {like!r} of this campaign (letters of another alphabet, letters without their "
        "accents, or characters that read alike): name the side as the campaign spells it, or give it a name that "
        "reads differently"
    ),
    "officer": N_(
        "{name!r} looks like the officer {like!r} of this campaign (letters of another alphabet, letters without "
        "their accents, or characters that read alike): give a name that reads differently"
    ),
}


def check_not_confusable(name: str, known: Iterable[str], what: str) -> None:
    """A new ``what`` (a key of :data:`LOOKS_LIKE`) is refused when its name looks like one already there ("Kеno"
    with a Cyrillic е beside "Keno"): a reader could not tell which is meant (``events/confusables.py``)."""
    from events.confusables import confusable_with  # loaded by the commands that name something new only

    like = confusable_with(name, known)
    if like is not None:
        raise InvalidInputError.saying(LOOKS_LIKE[what], name=name.strip(), like=like)


def check_officers_apart(command: BaseModel, careers: Iterable[str]) -> None:
    """Every officer ``command`` names (its inputs typed :data:`~campaign.rulesets.inputs.OfficerName`, at any
    depth: a battle's commanders and player characters) that is not one of ``careers`` already (letter case and
    spaces around it aside) is refused when it looks like one of them, or like another officer the command names
    before it ("Coke", then "СОКЕ" in Cyrillic capitals): a career would go on under a name a reader cannot tell
    apart from another's."""
    named = [n.value for n in names_in(command) if n.meaning.kind is Kind.OFFICER]
    known = list(careers)
    for i, name in enumerate(named):
        if not any(same_name(name, career) for career in known):
            check_not_confusable(name, [*known, *named[:i]], "officer")


A_SIDE_OF_THIS_BATTLE = Words("a side of this battle")


def side_named(sides: Iterable[str], side: str, what: str | Words = A_SIDE_OF_THIS_BATTLE) -> str:
    """The one of ``sides`` that ``side`` names, letter case and spaces around it aside ("saurians" is "Saurians");
    refused in words, with the close names, when it names none."""
    listed = sorted(sides)
    found = _spelled(listed, side)
    if found is None:
        raise InvalidInputError.saying(
            "{side!r} is not {what} ({sides}){hint}",
            side=side.strip(),
            what=what,
            sides=", ".join(listed),
            hint=did_you_mean(side, listed),
        )
    return found


def _spelled(sides: Iterable[str], side: str) -> str | None:
    """The one of ``sides`` that ``side`` names, letter case and spaces around it aside; None for none."""
    return next((known for known in sorted(sides) if same_name(known, side)), None)


def did_you_mean(name: str, known: Iterable[str]) -> Words:
    """ "; did you mean 'Alpha'?" with the names close to ``name`` (difflib), or nothing when none is."""
    names = sorted(set(known))
    by_fold = {n.casefold(): n for n in names}
    close = difflib.get_close_matches(name.strip().casefold(), list(by_fold), n=3, cutoff=0.6)
    # the words come where the refusal is shown, in the reader's language; empty (false) when no name is close
    if not close:
        return Words()
    listed: str | Words = repr(by_fold[close[0]])
    for other in close[1:]:
        listed = Words("{some} or {last}", some=listed, last=repr(by_fold[other]))
    return Words("; did you mean {names}?", names=listed)


def named(items: Iterable[Item], name: str, key: Callable[[Item], str]) -> Item | None:
    """The item whose ``key`` is ``name`` exactly, else the one it names case-insensitively and trimmed."""
    listed = list(items)
    exact = next((i for i in listed if key(i) == name), None)
    return exact or next((i for i in listed if same_name(key(i), name)), None)


def unit_called(
    units: Iterable[Item], name: str, name_of: Callable[[Item], str], id_of: Callable[[Item], str]
) -> Item | None:
    """The unit of ``units`` that ``name`` means, the one way every command (:func:`find_unit`) and the server's
    authorisation read it, so that the unit authorised is the unit the command acts on: the one whose name or id
    is ``name`` exactly, else the one whose name it is, letter case and spaces around it aside. An id only
    exactly, never in another case: a muster refuses a name that is a unit's id in any case (:func:`new_unit`),
    and ids are no names a person types."""
    listed = list(units)
    exact = next((u for u in listed if name in (name_of(u), id_of(u))), None)
    return exact or next((u for u in listed if same_name(name_of(u), name)), None)


def check_new_battle(name: str, fought: Iterable[str]) -> None:
    """A new battle's name is its own: a battle is referred to by it (or its number) later."""
    taken = next((b for b in fought if same_name(b, name)), None)
    if taken is not None:
        raise InvalidInputError.saying(
            "a battle named {name!r} was fought already: give this one a name of its own", name=taken
        )


def find_unit(state: Roster[U], name: str, *, active: bool = True) -> U:
    """The roster unit of that name (or id; letter case and spaces around it aside); with ``active``, a
    disbanded one is refused. An unknown name is answered with the close ones."""
    found = unit_called(state.roster.values(), name, lambda u: u.name, lambda u: u.unit_id)
    if found is None:
        every = [u.name for u in state.roster.values()]
        hint = did_you_mean(name, every)
        known = hint or (
            Words(" (units: {units})", units=", ".join(sorted(every))) if every else Words(" (units: none yet)")
        )
        raise InvalidInputError.saying("unknown unit {name!r}{known}", name=name.strip(), known=known)
    if active and found.disbanded:
        raise InvalidInputError.saying("{unit} was disbanded ({reason})", unit=found.name, reason=found.disbanded)
    return found


def _spare(what: str, giver: str, available: int, men: int) -> Words | None:
    """What a giver has too few of, by the word its ruleset counts it in (``what`` of :func:`check_transfer`): each
    a whole sentence with its plural forms, so that a reader's language words the count and the noun together
    ("1 man", "у Alpha 2 человека"); None for a word of a ruleset's own."""
    if what == "men":
        return Words.counted(
            "{giver} has {n} man; it cannot transfer {men}",
            "{giver} has {n} men; it cannot transfer {men}",
            n=available,
            giver=giver,
            men=men,
        )
    if what == "fit men":
        return Words.counted(
            "{giver} has {n} fit man; it cannot transfer {men}",
            "{giver} has {n} fit men; it cannot transfer {men}",
            n=available,
            giver=giver,
            men=men,
        )
    if what == "models to spare (one stays)":
        return Words.counted(
            "{giver} has {n} model to spare (one stays); it cannot transfer {men}",
            "{giver} has {n} models to spare (one stays); it cannot transfer {men}",
            n=available,
            giver=giver,
            men=men,
        )
    return None


def check_transfer(giver: Listed, receiver: Listed, men: int, available: int, what: str) -> None:
    """What every ruleset asks of a transfer of ``men`` from ``giver`` (``available`` of ``what``, a key of
    word :func:`_spare` knows, or words of its own said in English)."""
    if men <= 0:
        raise InvalidInputError.saying("transfer at least one man")
    if giver.unit_id == receiver.unit_id:
        raise InvalidInputError.saying("a unit cannot transfer men to itself")
    if giver.side != receiver.side:
        raise InvalidInputError.saying(
            "{giver} fights for {side} and {receiver} for {other}",
            giver=giver.name,
            side=giver.side,
            receiver=receiver.name,
            other=receiver.side,
        )
    if men > available:
        said = _spare(what, giver.name, available, men)
        if said is None:  # a ruleset's own word (the fifth ruleset's), in its English
            raise InvalidInputError(f"{giver.name} has {available} {what}; it cannot transfer {men}")
        raise InvalidInputError.saying(said)


def new_unit(
    state: Roster[Listed], name: str, side: str, model: type[M], profile: Mapping[str, object], what: str
) -> M:
    """A unit about to join the roster: a name and a side, a name not taken, and a valid ``what`` profile."""
    if not name.strip() or not side.strip():
        raise InvalidInputError.saying("a unit needs a name and a side")
    taken = named(state.roster.values(), name, lambda u: u.name)
    if taken is not None:
        raise InvalidInputError.saying(
            "a unit named {name!r} is already on the roster (a name differing only in case counts as the same)",
            name=taken.name,
        )
    # a unit is also named by its id: a name that is one (in any case) would name two units, and a player could
    # name another side's unit by it
    by_id = next((u for u in state.roster.values() if same_name(u.unit_id, name)), None)
    if by_id is not None:
        raise InvalidInputError.saying(
            "{name!r} is the id of the unit {unit!r}: give the new unit a name of its own",
            name=name.strip(),
            unit=by_id.name,
        )
    check_not_confusable(name, (u.name for u in state.roster.values()), "unit")
    try:
        return model.model_validate(profile)
    except ValidationError as exc:
        from campaign.i18n.terms import reread

        worded = reread(model, profile, exc.errors())  # a quality typed in the seed's words ("Новобранцы")
        if worded is not None:
            return new_unit(state, name, side, model, worded, what)
        raise not_a_profile(what, said_problems(exc.errors(), Words("profile"))) from None


class HouseRule(Command[S, T]):
    """Override one table value from now on (a house rule, recorded as an event).

    An event, so a replay uses the tables in force at each point. Each ruleset subclasses it under its own name
    (``gf.house_rule``), with an example of its tables' paths; what a value may be is its field's type's to say."""

    rolls: ClassVar[bool] = False
    ruleset_name: ClassVar[str]

    path: Annotated[str, ARGUMENT] = Field(
        min_length=1, max_length=200, description="Table path, as the tables name it."
    )
    value: Annotated[GivenValue, ARGUMENT] = Field(
        title="new value", description="The new value: a whole number, NTR, true/false or a word."
    )
    note: str = Field(default="", max_length=500)

    def decide(self, s: Situation[S, T]) -> list[Event]:
        check_path(s.tables, self.path)  # a field of the tables' model, not an alternative reading
        check_override(s.tables, self.path, self.value)  # of its field's kind and bounds, as the model declares
        return [
            TableOverridden(
                ruleset=self.ruleset_name,
                path=self.path,
                value=self.value,
                source=f"HOUSE RULE by {s.actor}",
                note=self.note,
            )
        ]


class MusterUnit(Command[R, T]):
    """A unit joins the roster under a name and a side, with its ruleset's profile. Each ruleset subclasses it
    under its own name (``gf.muster``) and checks the profile as its rules need."""

    rolls: ClassVar[bool] = False

    unit_name: Annotated[NewUnit, ARGUMENT] = Field(alias="name")
    side: OwnSide
    profile: dict[str, JsonValue]
    """Each ruleset types it as its profile (``profile_of``); the command line takes its fields as options."""

    def side_in(self, state: Roster[Listed]) -> str:
        """The side as the campaign spells it (see :func:`known_side`)."""
        return known_side(state, self.side)

    def mustered(self, s: Situation[R, T], profile: BaseModel, reports_to: str | None = None) -> UnitMustered:
        """The unit joining the roster under a fresh id, with ``profile`` as checked."""
        checked = profile.model_dump(mode="json")
        return UnitMustered(
            unit_id=s.new_id(), name=self.unit_name, side=self.side_in(s.state), profile=checked, reports_to=reports_to
        )


class TransferMen(Command[S, T]):
    """Men (or models) move from one unit to another of its side. Each ruleset subclasses it under its own name
    (``dis.transfer``), with the bounds of ``men`` and the checks its rules need."""

    rolls: ClassVar[bool] = False

    from_unit: Annotated[OwnUnit, ARGUMENT]
    to_unit: Annotated[OwnUnit, ARGUMENT]


SIZES = frozenset({"men", "models", "size"})
"""A unit's strength moves only by what happens to it (recruits, transfers, losses), never by an edit."""


class EditUnit(Command[P, T]):
    """Change fields of a unit's profile (recorded: the log keeps what it was before).

    A troop type left out at muster, a mistyped value: checked as a muster checks them. Each ruleset subclasses
    it under its own name (``gf.edit``)."""

    rolls: ClassVar[bool] = False
    # A correction of the record, the game master's: a quality comes by the rules only (Elite and Untrained by a
    # scenario or training, RULES.md §5 and R3-7; the rest by experience), a Leadership by a commander, so a
    # player who could edit its own units would make them Elite or better led at will.
    entered_by: ClassVar[EnteredBy] = EnteredBy.GM

    unit_name: Annotated[OwnUnit, ARGUMENT]
    changes: Annotated[
        dict[Annotated[str, Called("profile field")], Annotated[JsonValue, Called("new value")]],
        Typed(names=("--set",), form="KEY=VALUE"),
    ] = Field(min_length=1, max_length=50, description="A profile field and its new value.")

    profile_model: ClassVar[type[BaseModel] | None] = None
    """The ruleset's unit profile: a closed set's value given in the seed's words is read as its value as the
    command is made, so the command (and the log) holds ``veteran`` for ``quality=Weterani``, as a muster's does."""

    @field_validator("changes")
    @classmethod
    def _seed_words(cls, changes: dict[str, JsonValue]) -> dict[str, JsonValue]:
        if cls.profile_model is None:
            return changes
        try:
            cls.profile_model.model_validate(changes)  # the fields left out are missing: only the sets are read
        except ValidationError as exc:
            from campaign.i18n.terms import reread

            worded = reread(cls.profile_model, changes, exc.errors())
            if worded is not None:
                return {k: worded.get(k, v) for k, v in changes.items()}  # type: ignore[misc]
        return changes

    def check(self, tables: T, profile: Any) -> None:
        """What a ruleset's muster checks beyond the profile's schema (its tables' names): none here."""
        # Untyped: each ruleset's edit takes its own profile model, which is the profile of its units (``P``'s). That
        # link cannot be stated (a type variable's bound cannot name another: ``P`` a roster of units whose
        # profile is ``M``), and an override cannot narrow a parameter typed BaseModel here.

    def decide(self, s: Situation[P, T]) -> list[Event]:
        return self.profile_changed(s, find_unit(s.state, self.unit_name))

    def profile_changed(self, s: Situation[P, T], unit: Profiled) -> list[Event]:
        """The change of ``unit``'s profile that ``changes`` asks for, checked as a muster checks a profile."""
        current = unit.profile.model_dump(mode="json")
        fields = set(type(unit.profile).model_fields)  # a field left out of the recorded profile is one too
        unknown = sorted(set(self.changes) - fields)
        if unknown:
            raise InvalidInputError.saying(
                "the profile of {unit} has no {unknown}: its fields are {fields}",
                unit=unit.name,
                unknown=", ".join(unknown),
                fields=", ".join(sorted(fields)),
            )
        sizes = sorted(SIZES & set(self.changes))
        if sizes:
            raise InvalidInputError.saying(
                "the {field} of {unit} change by recruits, transfers and losses, not by an edit",
                unit=unit.name,
                field=sizes[0],
            )
        profile = self._validated(unit, {**current, **self.changes})
        self.check(s.tables, profile)
        checked = profile.model_dump(mode="json")
        changed = {k: v for k, v in checked.items() if v != current.get(k)}
        if not changed:
            raise InvalidInputError.saying(
                "the profile of {unit} has those values already: nothing to change", unit=unit.name
            )
        return [UnitProfileChanged(unit_id=unit.unit_id, profile=changed)]

    @staticmethod
    def _validated(unit: Profiled, data: Mapping[str, object]) -> BaseModel:
        """The profile ``data`` makes, a closed set's value read in the seed's words as a muster reads it
        (``quality=Weterani`` is ``veteran``): what is recorded is the set's value, never the word typed."""
        model = type(unit.profile)
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            from campaign.i18n.terms import reread, sets_of

            worded = reread(model, data, exc.errors())
            if worded is not None and worded != data:
                return EditUnit._validated(unit, worded)
            raise InvalidInputError.saying(
                "not a profile for {unit}: {problems}",
                unit=unit.name,
                problems=said_problems(exc.errors(), Words("profile"), sets_of(model)),
            ) from None


class RollDice(Command[None, None]):
    """A roll of the campaign's dice for anything the rules do not cover (a scatter, a random event)."""

    name: ClassVar[str] = "ledger.roll"

    notation: Annotated[str, ARGUMENT] = Field(min_length=1, max_length=200)
    purpose: str = Field(max_length=200)

    def decide(self, s: Situation[None, None]) -> list[Event]:
        spec = parse(self.notation)
        if not self.purpose.strip():
            raise InvalidInputError.saying("--purpose must say what the roll is for")
        s.dice.roll(spec, self.purpose.strip())
        return []


COMMON: tuple[type[Command[None, None]], ...] = (RollDice,)
"""The commands of no ruleset, recorded under ``ledger.…``."""
