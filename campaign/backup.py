"""``backup``: a consistent copy of the database made while others write, checked before it is said to be done.

On SQLite the copy is the database file itself, made by SQLite's online backup API (``events.backup``): restore it
by putting it where the database was (or naming it with ``--db``). Before the copy gets its name it is checked as
``verify`` checks a database: every page (``quick_check``), its tables' revision, every campaign's hash chain,
schemas and dice, the seeds it holds against their commitments, and that it holds every campaign's head as it was
acknowledged when the backup began. On PostgreSQL the backup is a campaign's export with its secrets, which
``import`` restores, read back and checked the same way before it is named.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from campaign.bootstrap import SCHEMA_HEAD, App, bootstrap, current_revision
from campaign.exchange import Reader, export_lines, read_lines
from campaign.executor import Ledger
from events.backup import copy_sqlite, new_file
from events.db import close
from events.dice.derive import seed_commitment
from events.envelope import RecordedEvent
from events.errors import ConfigurationError, InvalidInputError, VerificationError
from events.registry import registry
from events.verify import VerifyReport, check_held_seeds, verify_events
from projections.state.campaigns import CampaignInfo

Progress = Callable[[int], None]
"""Told each event checked."""


@dataclass
class BackupReport:
    target: Path
    kind: str
    """"database" (a copy of the SQLite file) or "export" (a campaign's export with its secrets)."""
    campaigns: list[tuple[str, int, str]] = field(default_factory=list)
    """Each campaign backed up: its name, its events and its head hash, as the checked copy holds them."""

    @property
    def events(self) -> int:
        return sum(n for _, n, _ in self.campaigns)


def backup(
    app: App, target: Path, campaign: CampaignInfo | None = None, on_event: Progress | None = None
) -> BackupReport:
    """Back up the database of ``app`` into the new file ``target`` (never over an existing file), checked."""
    ledger = app.ledger
    if app.engine.dialect.name == "sqlite":
        if campaign is not None:
            raise InvalidInputError.saying("a backup of a SQLite database copies the whole file: leave out --campaign")
        database = str(app.engine.url.database or "")
        if database in ("", ":memory:"):
            raise InvalidInputError.saying("an in-memory database has no file to back up")
        acknowledged = {c.campaign_id: c for c in ledger.directory.all()}
        with new_file(target) as partial:
            copy_sqlite(database, partial)
            return _check_copy(partial, target, acknowledged, on_event)
    info = campaign if campaign is not None else ledger.resolve(None)
    with new_file(target) as partial:
        with partial.open("wb") as handle:
            for line in export_lines(ledger, info, with_secrets=True):
                handle.write(line + b"\n")
        return _check_export(partial, target, info, on_event)


def _check_copy(
    copy: Path, target: Path, acknowledged: dict[str, CampaignInfo], on_event: Progress | None
) -> BackupReport:
    """The copied file checked as ``verify`` checks a database; it must hold every head acknowledged before."""
    opened = bootstrap(str(copy), create=False, actor="backup")
    try:
        if current_revision(opened.engine) != SCHEMA_HEAD:
            raise ConfigurationError.saying("the copy of the database reads at another revision: no backup was written")
        ledger = opened.ledger
        report = BackupReport(target, "database")
        copied = {c.campaign_id: c for c in ledger.directory.all()}
        for campaign_id, info in acknowledged.items():
            held = copied.get(campaign_id)
            if held is None or held.last_seq < info.last_seq or not _holds(ledger, held, info.last_seq, info.head_hash):
                raise VerificationError.saying(
                    "the copy lacks campaign {name!r} as it stood when the backup began (#{seq}): no backup was "
                    "written",
                    name=info.name,
                    seq=info.last_seq,
                )
        for info in copied.values():
            checked = _verified(ledger, info, ledger.store.read(info.campaign_id), on_event)
            report.campaigns.append((info.name, checked.events, checked.head_hash))
        return report
    finally:
        close(opened.engine)


def _holds(ledger: Ledger, info: CampaignInfo, seq: int, head_hash: str) -> bool:
    found = list(ledger.store.read(info.campaign_id, after_seq=seq - 1, upto_seq=seq))
    return bool(found) and found[0].hash == head_hash


def _verified(
    ledger: Ledger | None, info: CampaignInfo, events: Iterable[RecordedEvent], on_event: Progress | None
) -> VerifyReport:
    report = verify_events(
        info.campaign_id,
        events,
        registry,
        on_event=(lambda _e: on_event(1)) if on_event is not None else None,
    )
    if ledger is not None:
        from campaign.read.verify import check_held

        check_held(ledger, info.campaign_id, report)
    if not report.ok:
        raise VerificationError.saying(
            "the copy of {name!r} fails verification at {first}: no backup was written",
            name=info.name,
            first=report.first,
        )
    return report


def _check_export(export: Path, target: Path, info: CampaignInfo, on_event: Progress | None) -> BackupReport:
    """The export written read back as ``import`` reads it (header, chain, schemas, dice, seeds against their
    commitments), without importing it: it must end at the head acknowledged when it was written."""
    with export.open("rb") as handle:
        reader = Reader(read_lines(handle))
        report = _verified(None, info, reader.events(), on_event)
    if reader.count != info.last_seq or report.head_hash != info.head_hash:
        raise VerificationError.saying(
            "the export of {name!r} read back ends elsewhere than its head: no backup", name=info.name
        )
    held = dict(reader.secrets)
    check_held_seeds(report, held.get)
    if not report.ok or any(report.commitments.get(e, (0, "", ""))[2] != seed_commitment(s) for e, s in held.items()):
        raise VerificationError.saying(
            "the export of {name!r} holds a seed that is not its commitment: no backup", name=info.name
        )
    return BackupReport(target, "export", [(info.name, report.events, report.head_hash)])


def restore_hint(report: BackupReport, database: str) -> str:
    """How to restore what ``report`` backed up, in one command."""
    if report.kind == "database":
        return f"restore it by copying it where the database was (`cp {report.target} {database}`), or use it with --db"
    return f"restore it into a database with `campaign --db URL import {report.target}`"
