"""Where a branch's dice come from (DESIGN.md, "Dice"): kept from its parent, offered again, or new.

``branch NAME --at SEQ`` copies the parent's events up to SEQ, dice included: those rolls are *kept*, the same
dice under the same roll indexes. Dice that the parent's retracted commands had left on the table at SEQ are on
the branch's table too, and are *offered again*, in order, to the branch's next commands that roll the same dice
(as after a rewind): entering the parent's next command gives the parent's dice where those were on the table.
Every other roll of the branch is *new*: drawn from the branch's own seed (committed when it was made, secret
until ``reveal``), or table dice entered on the branch. The rolls the parent made after SEQ are not the branch's:
none of them is offered to it.

Read by point reads of the store's indexes, whatever the log's length: the branch's last ``timeline.branched``
event, the last roll it shares, the seed it committed to, and for an offered roll the rolls it came from.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from campaign.possessive import possessive
from campaign.replay import roll_seq
from events.envelope import RecordedEvent
from events.families.dice import DiceRolled
from events.recorded import whole
from events.store import EventStore
from projections.state.campaigns import CampaignInfo

KEPT = "kept"
OFFERED_AGAIN = "offered_again"
NEW = "new"


class RollOrigin(TypedDict):
    """Where a roll of a branch came from (as ``--json`` and the log's pages show it)."""

    kind: str
    """:data:`KEPT`, :data:`OFFERED_AGAIN` or :data:`NEW`."""
    words: str
    from_roll: NotRequired[int]
    """For a roll offered again: the roll of the shared history whose dice it has."""


class KeptRolls(TypedDict):
    count: int
    first_roll: int | None
    last_roll: int | None


class DieOnTable(TypedDict):
    seq: int
    roll: int
    notation: str
    faces: list[int]
    purpose: str


class BranchMade(TypedDict):
    """What ``branch`` says of a new branch's dice (:func:`made`)."""

    parent: str
    at_seq: int
    kept: KeptRolls
    on_table: list[DieOnTable]
    new_from_roll: int
    seed_epoch: int | None


@dataclass(frozen=True)
class BranchPoint:
    """Where a branch left its parent."""

    parent_name: str
    parent_id: str
    at_seq: int
    """The last seq the branch shares with its parent: its events up to here are the parent's."""
    branched_seq: int
    """The seq of the branch's own ``timeline.branched`` event."""
    first_new: int
    """The first roll index after the shared history: rolls below it are the parent's."""
    seed_epoch: int | None
    """The epoch of the seed the branch committed to when it was made (None: not found in its log)."""

    @property
    def kept(self) -> int:
        """How many rolls the shared history holds (roll indexes 0 to ``first_new`` - 1, without gaps)."""
        return self.first_new


def branch_point(store: EventStore, campaign_id: str) -> BranchPoint | None:
    """Where the campaign branched from its parent (its last ``timeline.branched`` event), or None for a campaign
    that is no branch. A branch of a branch copied its parent's ``timeline.branched`` too: the last one is its own.
    """
    found = store.read_types(campaign_id, ["timeline.branched"], limit=1, last=True)
    if not found:
        return None
    event = found[0]
    at_seq = whole(event.payload["at_seq"])
    last_kept = store.read_types(campaign_id, ["dice.rolled"], upto_seq=at_seq, limit=1, last=True)
    committed = store.read_types(campaign_id, ["dice.seed_committed"], after_seq=event.seq, limit=1)
    return BranchPoint(
        parent_name=str(event.payload["parent_name"]),
        parent_id=str(event.payload["parent_id"]),
        at_seq=at_seq,
        branched_seq=event.seq,
        first_new=whole(last_kept[0].payload["roll_index"]) + 1 if last_kept else 0,
        seed_epoch=whole(committed[0].payload["epoch"]) if committed else None,
    )


class Origins:
    """Each roll of a branch labelled with its origin: kept from the parent, offered again, or new."""

    def __init__(self, store: EventStore, campaign_id: str, point: BranchPoint) -> None:
        self.store = store
        self.campaign_id = campaign_id
        self.point = point
        self._offered_from: dict[int, int | None] = {}
        """Roll index → the roll index whose dice it took off the table (None: its dice were its own)."""

    def _source_of(self, index: int) -> int | None:
        if index not in self._offered_from:
            seq = roll_seq(self.store, self.campaign_id, index, self.store.head(self.campaign_id).seq)
            found = self.store.read(self.campaign_id, after_seq=seq - 1, upto_seq=seq) if seq is not None else []
            rolled = next((e for e in found if e.type == "dice.rolled"), None)
            self._offered_from[index] = _offered_from(rolled) if rolled is not None else None
        return self._offered_from[index]

    def note(self, events: Iterable[RecordedEvent]) -> None:
        """Remember the rolls among ``events`` (a page being shown), so that following an offered roll back to
        the roll its dice first came from reads the store only for rolls not shown."""
        for event in events:
            if event.type == "dice.rolled":
                self._offered_from[whole(event.payload["roll_index"])] = _offered_from(event)

    def origin(self, event: RecordedEvent) -> RollOrigin:
        """A roll's origin: ``kind`` (kept, offered_again, new), ``words``, and for an offered roll ``from_roll``,
        the roll of the shared history whose dice it has."""
        p, parent = event.payload, self.point.parent_name
        if event.seq <= self.point.at_seq:
            return {"kind": KEPT, "words": f"kept from {parent}: shared history, the same dice"}
        index = whole(p["roll_index"])
        seen = {index}
        source = _offered_from(event)
        while source is not None and source >= self.point.first_new and source not in seen:
            seen.add(source)  # offered again on the branch itself: where did those dice come from?
            source = self._source_of(source)
        if source is not None and source < self.point.first_new:
            return {
                "kind": OFFERED_AGAIN,
                "from_roll": source,
                "words": f"offered again: the dice of {possessive(parent)} roll #{source}",
            }
        if p["source"] == "table":
            how = "table dice entered on this branch"
        elif p["source"] == "offered":
            how = "dice first rolled on this branch, offered again"
        else:
            how = f"from this branch's own seed (epoch {p.get('seed_epoch')})"
        return {"kind": NEW, "words": f"new on this branch: {how}"}

    def of(self, events: Iterable[RecordedEvent]) -> dict[int, RollOrigin]:
        """The origin of every roll among ``events``, by seq."""
        shown = list(events)
        self.note(shown)
        return {e.seq: self.origin(e) for e in shown if e.type == "dice.rolled"}


def made(point: BranchPoint, name: str, on_table: Iterable[tuple[int, DiceRolled]]) -> BranchMade:
    """What ``branch`` says of a new branch's dice: the rolls kept, those on its table, where new ones begin."""
    return {
        "parent": point.parent_name,
        "at_seq": point.at_seq,
        "kept": {
            "count": point.kept,
            "first_roll": 0 if point.kept else None,
            "last_roll": point.first_new - 1 if point.kept else None,
        },
        "on_table": [
            {"seq": seq, "roll": d.roll_index, "notation": d.notation, "faces": list(d.faces), "purpose": d.purpose}
            for seq, d in on_table
        ],
        "new_from_roll": point.first_new,
        "seed_epoch": point.seed_epoch,
    }


def made_in_words(story: BranchMade, name: str) -> list[str]:
    """:func:`made` as people read it."""
    parent, kept, table = story["parent"], story["kept"], story["on_table"]
    lines = [
        f"rolls #{kept['first_roll']}–#{kept['last_roll']} ({kept['count']}) kept from {parent}: the shared history, "
        "the same dice"
        if kept["count"]
        else f"no rolls kept from {parent}: the shared history rolled no dice"
    ]
    if table:
        lines.append(
            f"{len(table)} on the table, offered again in order to the next commands of {name} that roll the same dice:"
        )
        lines.extend(
            f"  roll #{d['roll']} {d['notation']}: {'+'.join(map(str, d['faces']))} (“{d['purpose']}”)" for d in table
        )
    else:
        lines.append("no dice on the table")
    every = "every other roll" if table else "every roll"
    lines.append(
        f"{every} from #{story['new_from_roll']} on is new: drawn from {possessive(name)} own seed (epoch "
        f"{story['seed_epoch']}, committed, secret until `reveal`) or table dice entered on it; "
        f"the dice {parent} rolled after #{story['at_seq']} are not offered to it"
    )
    return lines


def _offered_from(event: RecordedEvent) -> int | None:
    source = event.payload.get("offered_from")
    return whole(source) if event.payload.get("source") == "offered" and source is not None else None


def may_be_branch(info: CampaignInfo) -> bool:
    """Whether the campaign can be a branch, without reading its log: a branch derives its dice under its root's
    id (``dice_campaign_id``), every other campaign under its own."""
    return bool(info.dice_id) and info.dice_id != info.campaign_id


def origins(store: EventStore, info: CampaignInfo, events: Iterable[RecordedEvent]) -> dict[int, RollOrigin]:
    """The origin of each roll among ``events`` if the campaign is a branch, by seq; nothing otherwise."""
    point = branch_point(store, info.campaign_id) if may_be_branch(info) else None
    return {} if point is None else Origins(store, info.campaign_id, point).of(events)
