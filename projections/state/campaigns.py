"""The campaign directory fold: name, ruleset, dice state and head of each campaign."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from events.envelope import RecordedEvent
from events.recorded import JsonObject, maybe_text, seq, text, whole


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
    epoch_shares: int = 0
    """Shares of entropy committed for the current seed epoch (``dice.share_committed``): its dice are derived
    from the seed and these (``events.dice.derive.dice_key``)."""


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
    # Read as the JSON it is recorded as: each value is narrowed to what the entry holds.
    p: JsonObject = event.payload
    if event.type == "campaign.created":
        return CampaignInfo(
            campaign_id=event.campaign_id,
            name=text(p["name"]),
            ruleset=text(p["ruleset"]),
            ruleset_version=text(p["ruleset_version"]),
            seed_epoch=0,
            seed_commitment=text(p["seed_commitment"]),
            revealed_epochs=(),
            next_roll_index=0,
            last_seq=event.seq,
            head_hash=event.hash,
            dice_id=maybe_text(p.get("dice_campaign_id")) or event.campaign_id,
        )
    if info is None:
        return None
    # One constructor call per event, not dataclasses.replace (two per event were half of a rebuild).
    kind = event.type
    next_roll_index, revealed, epoch, commitment = (
        info.next_roll_index,
        info.revealed_epochs,
        info.seed_epoch,
        info.seed_commitment,
    )
    on_table, on_table_index, shares = info.on_table, info.on_table_index, info.epoch_shares
    if kind == "dice.rolled":
        # max(), not +1: roll indexes only grow, whatever order a replay or import brings them in.
        next_roll_index = max(next_roll_index, whole(p["roll_index"]) + 1)
    elif kind == "timeline.rewound" and p.get("on_table") is not None:
        pairs = [tuple(seq(pair)) for pair in seq(p["on_table"])]
        on_table, on_table_index = tuple(whole(s) for s, _ in pairs), tuple(whole(i) for _, i in pairs)
    elif kind == "dice.seed_revealed":
        revealed = (*revealed, whole(p["epoch"]))
    elif kind == "dice.seed_committed":
        epoch, commitment, shares = whole(p["epoch"]), text(p["commitment"]), 0
    elif kind == "dice.share_committed" and p["epoch"] == epoch:
        shares += 1
    info = CampaignInfo(
        info.campaign_id,
        info.name,
        info.ruleset,
        info.ruleset_version,
        epoch,
        commitment,
        revealed,
        next_roll_index,
        event.seq,
        event.hash,
        info.dice_id,
        on_table,
        on_table_index,
        shares,
    )
    if kind == "dice.rolled":
        offered = p.get("offered_from")
        return _off_table(info, None if offered is None else whole(offered))
    if kind == "dice.set_aside":
        return _off_table(info, whole(p["roll_index"]))
    return info


_ENTRY_FACTS = frozenset(
    {
        "campaign.created",
        "timeline.rewound",
        "dice.seed_revealed",
        "dice.seed_committed",
        "dice.set_aside",
        "dice.share_committed",
    }
)
"""The types that change a directory entry beyond its head and next roll index."""


def apply_all(info: CampaignInfo | None, events: Iterable[RecordedEvent]) -> CampaignInfo | None:
    """:func:`apply` of each event in turn, building one entry per run of events that only move the head and
    the next roll index (rolls not taken off the table, and every other fact of no directory interest): a
    rebuild folds every event of the log, and a new entry per event was most of this fold's cost."""
    events = iter(events)
    if info is None:
        for event in events:  # up to the campaign's creation, event by event
            info = apply(info, event)
            if info is not None:
                break
        else:
            return info
    next_roll_index, last_seq, head_hash = info.next_roll_index, info.last_seq, info.head_hash
    moved = False
    for event in events:
        kind = event.type
        if kind not in _ENTRY_FACTS:
            if kind != "dice.rolled":
                last_seq, head_hash, moved = event.seq, event.hash, True
                continue
            p: JsonObject = event.payload
            if p.get("offered_from") is None:
                # max(), not +1: roll indexes only grow, whatever order a replay or import brings them in.
                next_roll_index = max(next_roll_index, whole(p["roll_index"]) + 1)
                last_seq, head_hash, moved = event.seq, event.hash, True
                continue
        if moved:
            info = _moved(info, next_roll_index, last_seq, head_hash)
            moved = False
        info = apply(info, event)
        assert info is not None  # an entry is never taken away
        next_roll_index, last_seq, head_hash = info.next_roll_index, info.last_seq, info.head_hash
    return _moved(info, next_roll_index, last_seq, head_hash) if moved else info


def _moved(info: CampaignInfo, next_roll_index: int, last_seq: int, head_hash: str) -> CampaignInfo:
    return CampaignInfo(
        info.campaign_id,
        info.name,
        info.ruleset,
        info.ruleset_version,
        info.seed_epoch,
        info.seed_commitment,
        info.revealed_epochs,
        next_roll_index,
        last_seq,
        head_hash,
        info.dice_id,
        info.on_table,
        info.on_table_index,
        info.epoch_shares,
    )
