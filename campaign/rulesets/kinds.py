"""What a name input names, and whose it is: the markers of ``campaign/rulesets/inputs.py``'s vocabulary.

Kept apart, and light (two enums and a small class), because the command line marks its own parameters with
them (``campaign unit NAME`` is ``Annotated[str, UNIT]``): a command that only reads a campaign loads these and
not the vocabulary's machinery (pydantic's validators, the meanings read from models). Read the vocabulary in
``inputs.py``: it re-exports all of this.
"""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    """What an input is."""

    UNIT = "unit"
    SIDE = "side"
    CAMPAIGN = "campaign"
    OFFICER = "officer"
    BATTLE = "battle"
    NAME = "name"
    """A name of something else (a Morale modifier, a prisoner): held to the name rule, completed from nothing."""
    TEXT = "text"
    NUMBER = "number"
    FLAG = "flag"
    CHOICE = "choice"
    FACES = "faces"
    INCHES = "inches"
    """A distance measured on the table, as typed ("6", "6.5"): kept as text, read exactly by the rules."""
    PROFILE = "profile"
    RECORD = "record"
    VALUE = "value"
    """Any JSON value (a table value, a profile's changes)."""

    @property
    def names(self) -> bool:
        """Whether an input of this kind is a name (and so held to the name rule)."""
        return self in _NAMES


_NAMES = frozenset({Kind.UNIT, Kind.SIDE, Kind.CAMPAIGN, Kind.OFFICER, Kind.BATTLE, Kind.NAME})


class Whose(StrEnum):
    """Whose unit (or side) a name input names, as the server's authorisation reads it."""

    ANY = "any"
    OWN = "own"
    TARGET = "target"
    ENEMY = "enemy"
    """A unit of another side than the unit that acts, named for what it did to it (the shooter, the unit credited
    with its destruction): its side's or the game master's to name, never the acting unit's player's."""


class Means:
    """The marker an annotated type carries: what it names, and whose (and ``new``: a name the command gives to
    something it creates). A plain class, not a dataclass: the command line marks its own parameters with it, and
    a command that reads (``status``) should not pay for more than the few lines here."""

    __slots__ = ("kind", "new", "whose")

    def __init__(self, kind: Kind, whose: Whose = Whose.ANY, new: bool = False) -> None:
        self.kind, self.whose, self.new = kind, whose, new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Means) and (self.kind, self.whose, self.new) == (other.kind, other.whose, other.new)

    def __hash__(self) -> int:
        return hash((self.kind, self.whose, self.new))

    def __repr__(self) -> str:
        return f"Means({self.kind!r}, {self.whose!r}, new={self.new})"


UNIT, OWN_UNIT, TARGET_UNIT, ENEMY_UNIT, NEW_UNIT = (
    Means(Kind.UNIT),
    Means(Kind.UNIT, Whose.OWN),
    Means(Kind.UNIT, Whose.TARGET),
    Means(Kind.UNIT, Whose.ENEMY),
    Means(Kind.UNIT, new=True),
)
SIDE, OWN_SIDE = Means(Kind.SIDE), Means(Kind.SIDE, Whose.OWN)
CAMPAIGN, NEW_CAMPAIGN = Means(Kind.CAMPAIGN), Means(Kind.CAMPAIGN, new=True)
OFFICER, NAME = Means(Kind.OFFICER), Means(Kind.NAME)
BATTLE, NEW_BATTLE = Means(Kind.BATTLE), Means(Kind.BATTLE, new=True)
"""The markers alone: an interface's own parameter of that kind (the command line's ``unit NAME``) is
``Annotated[str, UNIT]``, and the interface holds it to the name rule itself (in its own words)."""
