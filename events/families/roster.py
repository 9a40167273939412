"""The campaign roster: units, their ruleset profiles and the chain of command."""

from __future__ import annotations

from events.recorded import JsonValue
from events.registry import Event, registry


@registry.register
class UnitMustered(Event):
    """A unit joined the campaign. ``profile`` follows its ruleset's unit profile schema."""

    event_name = "roster.unit_mustered"

    unit_id: str
    name: str
    side: str
    profile: dict[str, JsonValue]
    reports_to: str | None = None


@registry.register
class UnitProfileChanged(Event):
    """Fields of a unit's profile were corrected or changed (``campaign <ruleset> edit``): only those given,
    each with its new value under its ruleset's unit profile schema."""

    event_name = "roster.unit_profile_changed"

    unit_id: str
    profile: dict[str, JsonValue]


@registry.register
class UnitQualityChanged(Event):
    """A unit's quality, experience or commander changed outside battle (a new commander, training)."""

    event_name = "roster.unit_quality_changed"

    unit_id: str
    quality: str
    experience: int
    leader_leadership: int | None = None
    reason: str


@registry.register
class MenTransferred(Event):
    """Fit men moved between two units of one side between battles (a depleted unit merged into another).

    ``experience`` is the giving unit's at the time; the receiving unit's is re-averaged with it, as for recruits.
    """

    event_name = "roster.men_transferred"

    from_unit_id: str
    to_unit_id: str
    men: int
    experience: int


@registry.register
class UnitWentOver(Event):
    """A unit went over to another side, and belongs to it from now on (Mass Combat's catastrophe 14: the troops
    of a defecting leader join the enemy, RULES.md R3-17)."""

    event_name = "roster.unit_went_over"

    unit_id: str
    side: str
    reason: str


@registry.register
class UnitListed(Event):
    """A unit is a line of an army list kept in another program (``source``: "Army Forge"): the list's id and the
    line's own id there, so that a later version of the same list updates this unit instead of adding another."""

    event_name = "roster.unit_listed"

    unit_id: str
    source: str
    list_id: str
    list_name: str
    entry: str


@registry.register
class JoinPlanned(Event):
    """A unit joins another of its side at the start of every battle both are deployed in (a hero attached to a
    unit, one half of a combined unit), until changed; ``joins`` None: it fights on its own again."""

    event_name = "roster.join_planned"

    unit_id: str
    joins: str | None
