"""Export and import a campaign as JSON Lines: lossless, checked whole on the way in.

Line 1 is a header; then one line per event, the canonical JSON of its envelope (the database position is
left out: it belongs to one database); then, only when asked for, one line per secret dice seed.
Exporting, importing into an empty database and exporting again gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from campaign.executor import Ledger
from events.canonical import canonical_json
from events.dice.derive import seed_commitment
from events.envelope import GENESIS_HASH, RecordedEvent, compute_hash
from events.errors import CampaignError, InvalidInputError, NotFoundError
from events.registry import registry
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

FORMAT = "campaign-ledger/export"
VERSION = 1


def export_lines(ledger: Ledger, info: CampaignInfo, *, with_secrets: bool = False) -> Iterator[bytes]:
    events = list(ledger.store.read(info.campaign_id))
    yield canonical_json(
        {
            "format": FORMAT,
            "version": VERSION,
            "campaign_id": info.campaign_id,
            "name": info.name,
            "ruleset": info.ruleset,
            "events": len(events),
            "head_hash": events[-1].hash if events else GENESIS_HASH,
            "secrets": with_secrets,
        }
    )
    for event in events:
        envelope = event.as_dict()
        del envelope["position"]
        yield canonical_json(envelope)
    if with_secrets:
        epochs = sorted({0} | {int(e.payload["epoch"]) for e in events if e.type == "dice.seed_committed"})
        for epoch in epochs:
            try:
                seed = ledger.vault.seed(info.campaign_id, epoch)
            except NotFoundError:
                continue
            yield canonical_json({"secret": {"epoch": epoch, "seed": seed.hex()}})


@dataclass(frozen=True)
class Parsed:
    header: dict[str, Any]
    events: list[RecordedEvent]
    secrets: dict[int, bytes]


def parse(lines: Iterable[bytes]) -> Parsed:
    """Read and check a whole export; any problem refuses the file, naming the line."""
    header: dict[str, Any] | None = None
    parsed: list[RecordedEvent] = []
    secrets: dict[int, bytes] = {}
    prev = GENESIS_HASH
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        try:
            item = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise InvalidInputError(f"line {number} is not JSON: {exc}") from None
        if not isinstance(item, dict):
            raise InvalidInputError(f"line {number} is not a JSON object")
        if header is None:
            if item.get("format") != FORMAT or item.get("version") != VERSION:
                raise InvalidInputError(f"line 1 is not a Campaign Ledger export (format {FORMAT}, version {VERSION})")
            header = item
            continue
        if "secret" in item:
            secret = item["secret"]
            try:
                secrets[int(secret["epoch"])] = bytes.fromhex(secret["seed"])
            except (KeyError, TypeError, ValueError):
                raise InvalidInputError(f"line {number}: a malformed secret") from None
            continue
        try:
            event = RecordedEvent(
                0,
                str(item["campaign_id"]),
                int(item["seq"]),
                str(item["type"]),
                int(item["schema_version"]),
                item["payload"],
                item["meta"],
                str(item["prev_hash"]),
                str(item["hash"]),
                canonical_json(item["payload"]),
                canonical_json(item["meta"]),
            )
        except (KeyError, TypeError, ValueError, CampaignError) as exc:
            raise InvalidInputError(f"line {number}: not an event envelope ({exc})") from None
        if event.campaign_id != header["campaign_id"]:
            raise InvalidInputError(f"line {number}: an event of another campaign")
        if event.seq != len(parsed) + 1:
            raise InvalidInputError(f"line {number}: expected seq {len(parsed) + 1}, found {event.seq}")
        if event.prev_hash != prev or compute_hash(event) != event.hash:
            raise InvalidInputError(f"line {number} (seq {event.seq}): the hash chain is broken")
        try:
            registry.decode(event)
        except CampaignError as exc:
            raise InvalidInputError(f"line {number} (seq {event.seq}): {exc}") from None
        parsed.append(event)
        prev = event.hash
    if header is None:
        raise InvalidInputError("the file is empty")
    if len(parsed) != header.get("events") or (parsed and parsed[-1].hash != header.get("head_hash")):
        raise InvalidInputError("the file holds fewer events than its header says, or a different head: truncated?")
    if not parsed or parsed[0].type != "campaign.created":
        raise InvalidInputError("a campaign export starts with the campaign's creation")
    commitments = {0: parsed[0].payload["seed_commitment"]} | {
        int(e.payload["epoch"]): str(e.payload["commitment"]) for e in parsed if e.type == "dice.seed_committed"
    }
    for epoch, seed in secrets.items():
        if commitments.get(epoch) != seed_commitment(seed):
            raise InvalidInputError(f"the secret seed of epoch {epoch} does not match the campaign's commitment")
    return Parsed(header, parsed, secrets)


def import_campaign(ledger: Ledger, lines: Iterable[bytes]) -> AppendResult:
    parsed = parse(lines)
    campaign_id = str(parsed.header["campaign_id"])
    if ledger.directory.get(campaign_id) is not None:
        raise InvalidInputError(f"campaign {campaign_id} is already in this database")
    name = str(parsed.events[0].payload["name"])
    if ledger.directory.find(name) is not None:
        raise InvalidInputError(f"a campaign named {name!r} is already in this database")
    result = ledger.store.import_stream(campaign_id, parsed.events)
    for epoch, seed in sorted(parsed.secrets.items()):
        ledger.vault.keep(campaign_id, epoch, seed)
    return result
