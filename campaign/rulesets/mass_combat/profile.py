"""A unit under GURPS Mass Combat (§2.2–2.3): what it is made of, and how good it is."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from campaign.rulesets.inputs import UNTYPED, Typed, WordedError, not_a_profile
from events.errors import Words

Armour = Literal["none", "light", "medium", "heavy"]
Mount = Literal["none", "light_horse", "medium_horse", "heavy_horse"]
Quality = Literal["inexperienced", "green", "average", "seasoned", "veteran", "elite"]


class NonHuman(BaseModel):
    """±½ × (ST mod + HT mod + extra HP); each level of Super-Strength counts +10 to the ST mod."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    st_mod: int = 0
    ht_mod: int = 0
    extra_hp: int = 0
    super_strength: int = Field(default=0, ge=0)


class UnitProfile(BaseModel):
    """Men and their equipment; ``quality`` and ``experience`` (average battles per man).

    ``special`` counts special weapons (chariots, engines, tanks, aircraft) by name; each adds its own TS
    and its crew is included. ``irregular`` troops lose a third of their TS and, when Inexperienced,
    3 Morale. ``leader_leadership`` is the unit commander's Leadership skill (Morale ±1 per 3 from 12).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    men: Annotated[int, Typed(names=("--men",), old=("--size",))] = Field(
        ge=0, le=1_000_000, description="Men (troops) in the unit at full strength; 0 only for crewed objects."
    )
    tl: int = Field(
        default=3, ge=0, le=16, description="Its tech level (TL): APCs, flying vehicles and rifles add it to TS."
    )
    armour: Armour = Field(default="none", description="none, light, medium, heavy.")
    high_tech_dr: Annotated[int, UNTYPED] = Field(default=0, ge=0)
    fine_weapons: Annotated[bool, UNTYPED] = False
    mount: Mount = Field(default="none", description="none, light_horse, medium_horse, heavy_horse.")
    no_stirrups: Annotated[bool, UNTYPED] = False
    apc: Annotated[bool, UNTYPED] = False
    flying: Annotated[bool, UNTYPED] = False
    ranged: str = Field(default="none", description="sling, javelins, bow, longbow, crossbow, pistol …")
    rifle: Annotated[bool, UNTYPED] = False
    special: Annotated[dict[str, int], UNTYPED] = Field(default_factory=dict)
    crew: Annotated[int, UNTYPED] = Field(default=0, ge=0, le=1_000_000)
    """Men who serve the crewed objects in ``special``, beyond ``men``: an object's TS includes its crew (§2.2), and
    they count as men towards the 200 of R2-15. A crew without its objects fights alone at ``ts.rules.crew_alone``
    TS each."""
    irregular: bool = Field(default=False, description="Irregulars (militia, guerrillas): −⅓ TS (§2.2, R2-29).")
    pikemen: Annotated[bool, UNTYPED] = False
    non_human: Annotated[NonHuman | None, UNTYPED] = None
    quality: Annotated[Quality, Typed(given_only=True)] = Field(
        default="average",
        description="inexperienced, green, average, seasoned, veteran, elite (none: the band of its experience; "
        "with neither, rolled on the 3d table).",
    )
    """Left out of a muster's profile unless given: with neither it nor an experience, a muster rolls it (R3-23)."""
    experience: Annotated[int, Typed(given_only=True)] = Field(default=3, ge=0, description="Average battles per man.")
    """Average battles per man; a unit mustered without it gets its quality's lower bound (R2-12): left out of a
    muster's profile unless given."""
    leader_leadership: Annotated[int | None, Typed(names=("--leadership",))] = Field(
        default=None, ge=1, le=30, description="The unit commander's Leadership."
    )
    ts_per_man: Annotated[int | None, UNTYPED] = Field(default=None, ge=0)
    """Quick-and-dirty armies (§2, "Быстрый и Грязный"): the TS of an average man, worked out by hand."""
    troop_type: str | None = Field(
        default=None, description="Yrth type for its price: HC, MC, LC, IC, HI, MI, PI, LI, II, SE, LE."
    )
    """A priced troop type (the Yrth list: HC, MC, LC, IC, HI, MI, PI, LI, II, SE, LE)."""
    cost_per_man: int | None = Field(default=None, ge=0, description="Recruitment cost of a man in $.")
    """Recruitment cost of one man in $, where no troop type prices it."""
    conscript: Annotated[bool, UNTYPED] = False
    healing: Annotated[Literal["slow", "normal", "fast"], UNTYPED] = "normal"
    categories: Annotated[tuple[str, ...], UNTYPED] = ()
    """Extra special-unit categories (e.g. "neutralizes:cavalry" for pikemen)."""
    no_morale: Annotated[bool, UNTYPED] = False
    """Not subject to Morale (R2-26): zombies, skeletons, or any troop the GM marks so."""
    untrained: Annotated[bool, UNTYPED] = False
    """Raw men with no training yet (§2.3, C-6): Inexperienced in every table; ``training.inexperienced_months``
    of training make them trained Inexperienced troops, ``training.green_months`` Green (R2-36)."""
    trained_months: Annotated[int, UNTYPED] = Field(default=0, ge=0, le=10_000)
    """Months of training the unit has had, every period recorded added up (R3-21); 0 for a unit mustered as it is
    (an Inexperienced unit not untrained counts ``training.inexperienced_months``)."""

    @model_validator(mode="after")
    def _untrained_are_inexperienced(self) -> UnitProfile:
        if self.untrained and self.quality != "inexperienced":
            raise WordedError(Words("untrained men are Inexperienced: training, then battle, make them better"))
        return self

    @property
    def all_men(self) -> int:
        """The men who fight, the crews of their objects included (R2-15)."""
        return self.men + self.crew

    def special_categories(self) -> set[str]:
        found = set(self.categories)
        if self.mount != "none":
            found.add("cavalry")
        if self.ranged != "none" or self.rifle:
            found.add("missile")
        for item in self.special:
            if "artillery" in item or "ballista" in item or "siege" in item:
                found.add("artillery")
            if "tank" in item:
                found.add("armour")
            if item in ("fighter", "bomber", "helicopter"):
                found.add("air")
        if self.flying:
            found.add("air")
        return found

    def casualty_armour(self) -> str:
        """Which armour row shift applies on the casualty table: HC/HI 4, MC/MI 2, LC/LI/pikemen 1."""
        if self.irregular or (self.special and not self.men):
            return "none"
        if self.armour in ("heavy", "medium", "light"):
            return self.armour
        return "light" if self.pikemen else "none"


def check_manned(profile: UnitProfile) -> None:
    """Refuse a unit with nobody in it: no men, no crew and no crewed object. ``men`` may be 0 only for a unit of
    crewed objects or a crew alone (§2.2: "a crewed object includes its crew"), as R3-24's chariots are; the
    profile itself takes 0, so that a log that recorded such a unit before this check still folds."""
    if profile.all_men == 0 and not profile.special:
        raise not_a_profile(
            "Mass Combat", Words("men must be at least 1 (0 only for a unit of crewed objects, given as special)")
        )
