"""Mass battles' results for units and the careers of player characters."""

from __future__ import annotations

from events.registry import Event, registry


@registry.register
class CasualtiesTaken(Event):
    """A unit's losses in a battle: the dead (or permanently maimed) and the wounded who may return."""

    event_name = "battle.casualties_taken"

    battle_id: str
    unit_id: str
    percent: int
    dead: int
    wounded: int


@registry.register
class UnitFate(Event):
    """How a unit came out of the battle: holds, retreats (in good order), routs or surrenders."""

    event_name = "battle.unit_fate"

    battle_id: str
    unit_id: str
    fate: str


@registry.register
class PcWounded(Event):
    event_name = "career.pc_wounded"

    battle_id: str
    pc: str
    damage: int
    wounds: tuple[int, ...]


@registry.register
class ReputationChanged(Event):
    """Glory: a temporary Reputation change for ``months`` (0 = permanent)."""

    event_name = "career.reputation_changed"

    battle_id: str
    pc: str
    change: int
    months: int


@registry.register
class PromotionRolled(Event):
    event_name = "career.promotion_rolled"

    battle_id: str
    pc: str
    reaction: str
    rank_change: int


@registry.register
class OfficerAppointed(Event):
    """An officer takes command of a side's force; his career (running Glory, rank) follows him by name."""

    event_name = "career.officer_appointed"

    side: str
    officer: str
    rank: str = ""
    """His rank on taking command (by his running Glory, from the tables in force)."""


@registry.register
class GloryAwarded(Event):
    """A force's Glory for one scenario, added to its officer's running total; ``sources`` says where it came from."""

    event_name = "career.glory_awarded"

    battle_id: str
    side: str
    officer: str
    glory: int
    sources: dict[str, int]


@registry.register
class RankReached(Event):
    """An officer's running Glory reached a new career rank."""

    event_name = "career.rank_reached"

    officer: str
    rank: str
    glory: int


@registry.register
class XpGained(Event):
    """A unit's campaign experience from one battle; ``sources`` says where it came from."""

    event_name = "career.xp_gained"

    battle_id: str
    unit_id: str
    xp: int
    sources: dict[str, int]


@registry.register
class TraitGained(Event):
    """A trait rolled in the campaign: ``kind`` unit (a level-up), injury or talent (a hero's casualty roll);
    ``points`` is what it changes the unit's cost by, ``tough`` its Tough."""

    event_name = "career.trait_gained"

    unit_id: str
    kind: str
    trait: str
    points: int = 0
    tough: int = 0


@registry.register
class XpSet(Event):
    """A unit's XP set outside a battle: brought from a campaign begun elsewhere (an army list, a muster) or
    corrected by an edit. ``xp`` is its XP from now on; ``reason`` says where it came from."""

    event_name = "career.xp_set"

    unit_id: str
    xp: int
    reason: str
