"""``branch``: a what-if campaign sharing a parent's history up to a seq."""

from __future__ import annotations

import contextlib

from campaign.executor import NAME_PATTERN, Ledger
from campaign.replay import (
    iter_command_groups,
)
from events.dice.derive import seed_commitment
from events.envelope import NewEvent
from events.errors import InvalidInputError, NotFoundError
from events.families.dice import SeedCommitted
from events.families.timeline import Branched
from events.recorded import maybe_text
from events.recorded import whole as whole_number
from events.registry import registry
from events.store import EMPTY_HEAD, AppendResult, Head, prepare_events
from projections.state.campaigns import CampaignInfo


def branch(ledger: Ledger, parent: CampaignInfo, name: str, at_seq: int) -> AppendResult:
    """A what-if campaign sharing ``parent``'s history up to ``at_seq``; the parent is untouched.

    The shared events are copied command by command (their meta kept) and chained under the branch's own
    id. The branch derives the shared dice as its parent did, and commits to a fresh seed of its own, so
    that nobody can branch to see the parent's coming dice; it holds only the parent's revealed seeds.

    Streamed (bounded memory): the parent is read page by page and written through the store's import session, one
    command at a time, all in one transaction; memory stays bounded by a page, not the log. The result holds
    the branch's own events (``timeline.branched`` and its seed's commitment), not the copied history.
    """
    if not NAME_PATTERN.match(name or ""):  # the rule `new` applies
        raise InvalidInputError.saying(
            "campaign name {name!r} is not usable: 1–100 letters, digits, spaces, dots, dashes or apostrophes",
            name=name,
        )
    if ledger.directory.find(name) is not None:
        raise InvalidInputError.saying("a campaign named {name!r} already exists in this database", name=name)
    store = ledger.store
    last = store.head(parent.campaign_id).seq
    if not 1 <= at_seq <= last:
        raise InvalidInputError.saying("branch at a seq between 1 and {last}", last=last)
    committed = store.read_types(parent.campaign_id, ["dice.seed_committed"], upto_seq=at_seq)
    epochs = sorted({0} | {whole_number(e.payload["epoch"]) for e in committed})
    # Only the parent's seeds that the parent has revealed: one it still rolls with stays the parent's
    # secret (else `export --with-secrets` of the branch would hand out the parent's coming dice). The
    # branch's rolls of that epoch are checked once the parent reveals it (`verify` of the parent).
    revealed = {whole_number(e.payload["epoch"]) for e in store.read_types(parent.campaign_id, ["dice.seed_revealed"])}
    branch_id = ledger.new_id()
    seed = ledger.fresh_seed()
    # Staged, the seeds are stored by the vault's inline projector in the transaction that writes the branch's
    # events (each with the event committing to it): a branch is never left without its seeds.
    for epoch in epochs:
        if epoch in revealed:
            with contextlib.suppress(NotFoundError):  # a seed not held here (an import without secrets)
                ledger.vault.stage(ledger.vault.seed(parent.campaign_id, epoch))
    ledger.vault.stage(seed)
    for held in ledger.vault.shares(parent.campaign_id):  # the shares of entropy of those seeds, likewise
        if held.seq <= at_seq and held.epoch in revealed:
            ledger.vault.stage_share(held.share)
    with store.import_session(branch_id) as sink:
        head, parent_hash = EMPTY_HEAD, ""
        # One event past SEQ tells whether SEQ ends its command.
        for group in iter_command_groups(store.read(parent.campaign_id, upto_seq=at_seq + 1)):
            if group.first_seq > at_seq:
                break
            if group.last_seq > at_seq:
                whole = next(iter_command_groups(store.read(parent.campaign_id, after_seq=group.first_seq - 1)))
                raise InvalidInputError.saying(
                    "seq {seq} is in the middle of a command (seqs {first}–{last}): branch at {before} or {last}",
                    seq=at_seq,
                    first=whole.first_seq,
                    last=whole.last_seq,
                    before=whole.first_seq - 1,
                )
            batch = []
            for event in group.events:
                payload = dict(event.payload)
                if event.type == "campaign.created":
                    payload.update(
                        name=name,
                        dice_campaign_id=payload.get("dice_campaign_id") or parent.dice_id or parent.campaign_id,
                    )
                batch.append(NewEvent(event.type, payload, event.schema_version))
            first_meta = group.events[0].meta
            meta = {k: v for k, v in first_meta.items() if k != "command_id"}
            for chained in prepare_events(branch_id, batch, head, 0, maybe_text(first_meta.get("command_id")), meta):
                sink.add(chained)
                head = Head(chained.seq, chained.hash)
            parent_hash = group.events[-1].hash
        own = [
            registry.encode(
                Branched(parent_id=parent.campaign_id, parent_name=parent.name, at_seq=at_seq, parent_hash=parent_hash)
            ),
            registry.encode(SeedCommitted(epoch=epochs[-1] + 1, commitment=seed_commitment(seed))),
        ]
        meta = {"actor": ledger.actor, "command": "branch", "recorded_at": ledger.now()}
        for chained in prepare_events(branch_id, own, head, 0, ledger.new_id(), meta):
            sink.add(chained)
    return AppendResult(tuple(store.read_last(branch_id, len(own))), duplicate=False)
