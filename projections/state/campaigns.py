"""The campaign directory fold: name, ruleset, dice state and head of each campaign."""

from __future__ import annotations

from dataclasses import dataclass, replace

from events.envelope import RecordedEvent


@dataclass(frozen=True, slots=True)
class CampaignInfo:
    campaign_id: str
    name: str
    ruleset: str
    ruleset_version: str
    seed_epoch: int
    seed_commitment: str
    revealed_epochs: tuple[int, ...]
    next_roll_index: int
    last_seq: int
    head_hash: str
    dice_id: str = ""
    """The campaign id dice are derived with (its own, or a branch's parent's)."""


def apply(info: CampaignInfo | None, event: RecordedEvent) -> CampaignInfo | None:
    """Fold one event of the campaign's stream into its directory entry."""
    p = event.payload
    if event.type == "campaign.created":
        return CampaignInfo(
            campaign_id=event.campaign_id,
            name=p["name"],
            ruleset=p["ruleset"],
            ruleset_version=p["ruleset_version"],
            seed_epoch=0,
            seed_commitment=p["seed_commitment"],
            revealed_epochs=(),
            next_roll_index=0,
            last_seq=event.seq,
            head_hash=event.hash,
            dice_id=p.get("dice_campaign_id") or event.campaign_id,
        )
    if info is None:
        return None
    info = replace(info, last_seq=event.seq, head_hash=event.hash)
    if event.type == "dice.rolled":
        # max(), not +1: roll indexes only grow, whatever order a replay or import brings them in.
        return replace(info, next_roll_index=max(info.next_roll_index, p["roll_index"] + 1))
    if event.type == "dice.seed_revealed":
        return replace(info, revealed_epochs=(*info.revealed_epochs, p["epoch"]))
    if event.type == "dice.seed_committed":
        return replace(info, seed_epoch=p["epoch"], seed_commitment=p["commitment"])
    return info
