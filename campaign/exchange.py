"""Export and import a campaign as JSON Lines: lossless, checked whole on the way in.

Line 1 is a header; then one line per event, the canonical JSON of its envelope (the database position is
left out: it belongs to one database); then, only when asked for, one line per secret dice seed.
Exporting, importing into an empty database and exporting again gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import partial
from typing import BinaryIO, NoReturn, TypedDict

from campaign.executor import NAME_PATTERN, Ledger
from events.canonical import canonical_json
from events.dice.derive import seed_commitment, share_commitment
from events.envelope import GENESIS_HASH, RecordedEvent, compute_hash
from events.errors import CampaignError, InvalidInputError, NotFoundError, Words, json_object
from events.limits import check_command_id
from events.recorded import obj, text, whole
from events.registry import registry
from events.store import ImportSink
from events.vault import HeldShare
from events.verify import verify_events
from projections.state.campaigns import CampaignInfo

FORMAT = "campaign-ledger/export"
VERSION = 1


def export_lines(ledger: Ledger, info: CampaignInfo, *, with_secrets: bool = False) -> Iterator[bytes]:
    """The export, line by line, streamed from the log (the header's count and head come from the directory,
    checked against what was read: a campaign appended to meanwhile is refused, not half-exported)."""
    yield canonical_json(
        {
            "format": FORMAT,
            "version": VERSION,
            "campaign_id": info.campaign_id,
            "name": info.name,
            "ruleset": info.ruleset,
            "events": info.last_seq,
            "head_hash": info.head_hash,
            "secrets": with_secrets,
        }
    )
    epochs = {0}
    last: RecordedEvent | None = None
    for event in ledger.store.read(info.campaign_id, upto_seq=info.last_seq):
        envelope: dict[str, object] = {**event.as_dict()}
        del envelope["position"]
        if event.type == "dice.seed_committed":
            epochs.add(whole(event.payload["epoch"]))
        last = event
        yield canonical_json(envelope)
    if last is None or last.hash != info.head_hash:
        raise InvalidInputError.saying(
            "campaign {campaign} changed while it was exported: export it again", campaign=info.name
        )
    if with_secrets:
        for epoch in sorted(epochs):
            try:
                seed = ledger.vault.seed(info.campaign_id, epoch)
            except NotFoundError:
                continue
            yield canonical_json({"secret": {"epoch": epoch, "seed": seed.hex()}})
        for held in ledger.vault.shares(info.campaign_id):
            yield canonical_json(
                {"share": {"epoch": held.epoch, "seq": held.seq, "account": held.account, "share": held.share}}
            )


class Header(TypedDict):
    """What an import reads of an export's header (line 1), checked."""

    campaign_id: str
    events: int
    head_hash: object
    """As the header says it (compared with the last event's hash as it is: a header without one holds None)."""


MAX_LINE = 1 << 20
"""The longest line an import reads (1 MiB; the longest event of a played campaign is a few KiB)."""
MAX_EVENTS = 100_000_000
MAX_SECRETS = 10_000


def read_lines(handle: BinaryIO, limit: int = MAX_LINE) -> Iterator[bytes]:
    """The lines of an export, each at most ``limit`` bytes: endless or oversize input is refused, not read."""
    number = 0
    while line := handle.readline(limit + 1):
        number += 1
        if len(line) > limit:
            raise InvalidInputError.saying(
                "line {number} is longer than {kib} KiB: not a Campaign Ledger export (or a damaged one)",
                number=number,
                kib=limit // 1024,
            )
        yield line


class Reader:
    """Reads an export line by line: the header, then each event checked for shape and chain as it passes
    (its schema and dice are checked by :func:`events.verify.verify_events`), then the secret seeds."""

    def __init__(self, lines: Iterable[bytes]) -> None:
        self._lines = enumerate(lines, start=1)
        self.secrets: dict[int, bytes] = {}
        self.shares: dict[int, HeldShare] = {}
        """Secret shares of entropy by the seq of their commitment."""
        self.count = 0
        self.last_hash = GENESIS_HASH
        self.header = self._header()

    def _items(self) -> Iterator[tuple[int, dict[str, object]]]:
        for number, raw in self._lines:
            line = raw.strip()
            if not line:
                continue
            try:
                item = json_object(line, partial(_not_json, number), "not a JSON object")
            except InvalidInputError as exc:
                if exc.words is not None:  # not JSON at all: _not_json's own refusal, in words
                    raise
                raise InvalidInputError.saying("line {number} is not a JSON object", number=number) from None
            yield number, item

    def _header(self) -> Header:
        for _, item in self._items():
            count, campaign_id = item.get("events"), item.get("campaign_id")
            if item.get("format") != FORMAT or item.get("version") != VERSION:
                break
            if type(count) is not int or not 1 <= count <= MAX_EVENTS:
                raise InvalidInputError.saying(
                    "line 1: the header's event count must be a whole number 1–{most}", most=format(MAX_EVENTS, ",")
                )
            if not isinstance(campaign_id, str) or not 1 <= len(campaign_id) <= 64:
                raise InvalidInputError.saying("line 1: the header's campaign id must be text of 1–64 characters")
            return {"campaign_id": campaign_id, "events": count, "head_hash": item.get("head_hash")}
        raise InvalidInputError.saying(
            "line 1 is not a Campaign Ledger export (format {format}, version {version})",
            format=FORMAT,
            version=VERSION,
        )

    def events(self) -> Iterator[RecordedEvent]:
        for number, item in self._items():
            if "secret" in item:
                self._secret(number, item["secret"])
                continue
            if "share" in item:
                self._share(number, item["share"])
                continue
            if self.secrets or self.shares:
                raise InvalidInputError.saying("line {number}: an event after the secret seeds", number=number)
            event = self._event(number, item)
            self.count += 1
            self.last_hash = event.hash
            yield event

    def _secret(self, number: int, secret: object) -> None:
        try:  # what is not an object, or holds no text seed, raises TypeError as an index into it would
            fields = obj(secret)
            epoch, seed = fields["epoch"], bytes.fromhex(text(fields["seed"]))
        except (KeyError, TypeError, ValueError):
            raise _malformed_secret(number) from None
        if type(epoch) is not int or not 0 <= epoch < MAX_SECRETS or len(self.secrets) >= MAX_SECRETS:
            raise _malformed_secret(number)
        self.secrets[epoch] = seed

    def _share(self, number: int, share: object) -> None:
        try:
            fields = obj(share)
            epoch, seq, account, value = fields["epoch"], fields["seq"], fields["account"], fields["share"]
        except (KeyError, TypeError):
            raise _malformed_share(number) from None
        if not (
            type(epoch) is int
            and type(seq) is int
            and isinstance(account, str)
            and isinstance(value, str)
            and len(self.shares) < MAX_SECRETS
        ):
            raise _malformed_share(number)
        self.shares[seq] = HeldShare(epoch, seq, account, value)

    def _event(self, number: int, item: dict[str, object]) -> RecordedEvent:
        try:
            payload, meta = item["payload"], item["meta"]
            if not isinstance(payload, dict) or not isinstance(meta, dict):
                raise InvalidInputError.saying("its payload and meta must be JSON objects")
            command_id = meta.get("command_id")
            if command_id is not None:
                check_command_id(command_id if isinstance(command_id, str) else "")
            campaign_id, type_, prev_hash, hash_ = item["campaign_id"], item["type"], item["prev_hash"], item["hash"]
            if (
                not (isinstance(campaign_id, str) and isinstance(type_, str))
                or not (isinstance(prev_hash, str) and isinstance(hash_, str))
                or type(seq := item["seq"]) is not int
            ):
                raise InvalidInputError.saying("campaign_id, type and hashes are text, seq a whole number")
            if type(version := item["schema_version"]) is not int:
                raise InvalidInputError.saying("schema_version is a whole number")
            event = RecordedEvent(
                0,
                campaign_id,
                seq,
                type_,
                version,
                payload,
                meta,
                prev_hash,
                hash_,
                canonical_json(payload),
                canonical_json(meta),
            )
        except (KeyError, TypeError, ValueError, CampaignError) as exc:
            raise InvalidInputError.saying(
                "line {number}: not an event envelope ({why})", number=number, why=_said(exc)
            ) from None
        if event.campaign_id != self.header["campaign_id"]:
            raise InvalidInputError.saying("line {number}: an event of another campaign", number=number)
        if event.seq != self.count + 1:
            raise InvalidInputError.saying(
                "line {number}: expected seq {expected}, found {seq}",
                number=number,
                expected=self.count + 1,
                seq=event.seq,
            )
        if self.count >= self.header["events"]:
            raise InvalidInputError.saying(
                "line {number}: more events than the header's {count}", number=number, count=self.header["events"]
            )
        if event.prev_hash != self.last_hash or compute_hash(event) != event.hash:
            raise InvalidInputError.saying(
                "line {number} (seq {seq}): the hash chain is broken", number=number, seq=event.seq
            )
        if event.seq == 1 and event.type != "campaign.created":
            raise InvalidInputError.saying("a campaign export starts with the campaign's creation")
        return event


def _check_name(ledger: Ledger, name: object) -> str:
    if not isinstance(name, str) or not NAME_PATTERN.match(name):
        raise InvalidInputError.saying(
            "the campaign's name {name!r} is not usable: 1–100 letters, digits, spaces, dots, dashes or apostrophes",
            name=name,
        )
    if ledger.directory.find(name) is not None:
        raise InvalidInputError.saying("a campaign named {name!r} is already in this database", name=name)
    return name


def import_campaign(ledger: Ledger, lines: Iterable[bytes] | Reader) -> ImportSink:
    """Import an export, streamed: each event is checked (shape, chain, schema, dice) and written as it
    passes, in one transaction with the secret seeds; any fault refuses the whole file and leaves nothing.
    ``lines`` may be a :class:`Reader` that has read the header already (before the database was opened: a
    file that is no export at all is refused without making one)."""
    reader = lines if isinstance(lines, Reader) else Reader(lines)
    campaign_id = reader.header["campaign_id"]
    there = ledger.directory.get(campaign_id)
    if there is not None:
        raise InvalidInputError.saying(
            "campaign {name!r} is already in this database (the same campaign, by its id)", name=there.name
        )
    with ledger.store.import_session(campaign_id) as sink:

        def write(event: RecordedEvent | None) -> None:
            if event is not None and event.seq == 1:
                _check_name(ledger, event.payload.get("name"))
            try:
                sink.add(event) if event is not None else sink.flush()
            except CampaignError:
                raise
            except Exception as exc:  # a crafted file whose events no fold can follow
                where = (
                    Words("seq {seq} or the events just before it", seq=event.seq)
                    if event
                    else Words("the last events")
                )
                raise InvalidInputError.saying(
                    "{where} cannot be folded ({error}): a damaged export", where=where, error=type(exc).__name__
                ) from None

        report = verify_events(campaign_id, reader.events(), registry, on_checked=write)
        if not report.ok:
            raise InvalidInputError.saying(
                "the file fails verification at {first}: nothing imported", first=report.first
            )
        if reader.count != reader.header["events"] or reader.last_hash != reader.header["head_hash"]:
            raise InvalidInputError.saying(
                "the file holds fewer events than its header says, or a different head: truncated?"
            )
        for epoch, seed in sorted(reader.secrets.items()):
            committed = report.commitments.get(epoch)
            if committed is None or committed[2] != seed_commitment(seed):
                raise InvalidInputError.saying(
                    "the secret seed of epoch {epoch} does not match the campaign's commitment", epoch=epoch
                )
            ledger.vault.keep_in(sink.connection, campaign_id, epoch, seed)
        by_seq = {seq: (epoch, by, c) for epoch, rows in report.shares.items() for seq, by, c in rows}
        for seq, held in sorted(reader.shares.items()):
            found = by_seq.get(seq)
            if found != (held.epoch, held.account, share_commitment(held.share)):
                raise InvalidInputError.saying(
                    "the secret share of entropy of #{seq} does not match its commitment", seq=seq
                )
            ledger.vault.keep_share_in(sink.connection, campaign_id, held)
        for seq, (epoch, by, _) in sorted(by_seq.items()):
            if epoch in reader.secrets and seq not in reader.shares:
                raise InvalidInputError.saying(
                    "the file holds the seed of epoch {epoch} but not the share of entropy {by} committed at #{seq}: "
                    "the epoch's dice could not be derived (a damaged export)",
                    epoch=epoch,
                    by=by,
                    seq=seq,
                )
        write(None)  # the last page, inside the transaction
    return sink


def _not_json(number: int, why: str) -> NoReturn:
    """Refused in words where a line is not JSON (``json_object`` asks for the message, this says it)."""
    raise InvalidInputError.saying("line {number} is not JSON: {why}", number=number, why=why)


def _malformed_secret(number: int) -> InvalidInputError:
    return InvalidInputError.saying("line {number}: a malformed secret", number=number)


def _malformed_share(number: int) -> InvalidInputError:
    return InvalidInputError.saying("line {number}: a malformed share of entropy", number=number)


def _said(error: BaseException) -> Words | str:
    """An error's message as a clause of another refusal: its words where it was raised with them."""
    words = getattr(error, "words", None)
    return words if isinstance(words, Words) else str(error)
