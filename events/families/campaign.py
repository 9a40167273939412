"""Campaign lifecycle events."""

from __future__ import annotations

from events.registry import Event, registry


@registry.register
class CampaignCreated(Event):
    """A campaign began. It commits to the dice seed (its SHA-256) without revealing it."""

    event_name = "campaign.created"

    name: str
    ruleset: str
    ruleset_version: str
    seed_commitment: str
    dice_derivation: str
    dice_campaign_id: str | None = None
    """The campaign id its dice are derived with, when not its own: a branch keeps its parent's, so that
    the rolls it shares with the parent still verify."""
