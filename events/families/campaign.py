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
