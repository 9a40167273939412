"""The campaign roster: units, their ruleset profiles and the chain of command."""

from __future__ import annotations

from events.registry import Event, JsonValue, registry


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
class UnitQualityChanged(Event):
    """A unit's quality, experience or commander changed outside battle (a new commander, training)."""

    event_name = "roster.unit_quality_changed"

    unit_id: str
    quality: str
    experience: int
    leader_leadership: int | None = None
    reason: str
