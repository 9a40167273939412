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
    on_table: tuple[int, ...] = ()
    """Seqs of the ``dice.rolled`` events left on the table by retracted commands, offered again in order."""
    on_table_index: tuple[int, ...] = ()
    """Their roll indexes, in the same order (what an offered roll or a set-aside names)."""


def _off_table(info: CampaignInfo, roll_index: int | None) -> CampaignInfo:
    if roll_index is None or roll_index not in info.on_table_index:
        return info
    at = info.on_table_index.index(roll_index)
    return replace(
        info,
        on_table=info.on_table[:at] + info.on_table[at + 1 :],
        on_table_index=info.on_table_index[:at] + info.on_table_index[at + 1 :],
    )


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
        info = replace(info, next_roll_index=max(info.next_roll_index, p["roll_index"] + 1))
        return _off_table(info, p.get("offered_from"))
    if event.type == "dice.set_aside":
        return _off_table(info, p["roll_index"])
    if event.type == "timeline.rewound" and p.get("on_table") is not None:
        pairs = [tuple(pair) for pair in p["on_table"]]
        return replace(info, on_table=tuple(s for s, _ in pairs), on_table_index=tuple(i for _, i in pairs))
    if event.type == "dice.seed_revealed":
        return replace(info, revealed_epochs=(*info.revealed_epochs, p["epoch"]))
    if event.type == "dice.seed_committed":
        return replace(info, seed_epoch=p["epoch"], seed_commitment=p["commitment"])
    return info
