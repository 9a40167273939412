"""Campaign lifecycle events."""

from __future__ import annotations

from typing import Any

from pydantic import SerializerFunctionWrapHandler, model_serializer

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
    seed_chosen: bool = False
    """True when the campaign's creator typed its seed in (``new --seed``) rather than drawing it: whoever
    chose it knew every roll in advance. ``verify`` and ``audit`` flag it. Left out of the payload when false,
    so the creation events of drawn seeds keep the bytes they always had."""

    @model_serializer(mode="wrap")
    def _omit_drawn(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if not data.get("seed_chosen"):
            data.pop("seed_chosen", None)
        return data
