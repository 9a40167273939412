"""The scale benchmark's campaigns: played once through the executor, kept in a cache, reused.

A campaign of N events takes minutes to hours to play (one ``Ledger.execute`` per command, as a table plays
it). So each size is built once and its database file kept under the cache folder, named by a content key: a
SHA-256 of this recipe and of the code that decides what the log holds (event families, the store's
encoding, the executor, the Mass Combat ruleset, the migrations). Change any of them and the key changes:
the campaign is played again. A bigger size continues from the biggest smaller one with the same key, so
10k → 100k → 300k → 1M is played once in all. The read models are not in the key: every use refolds them
with the code of the day (``rebuild``) before measuring.

PostgreSQL gets the same campaign through the product's own export and import (chain, schemas and dice
checked on the way in) into a database this module creates, and drops when done.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from campaign.bootstrap import App, bootstrap
from campaign.executor import Ledger
from campaign.rulesets.mass_combat import calendar_commands as mct
from campaign.rulesets.mass_combat import commands as mcc
from projections.state.campaigns import CampaignInfo

ROOT = Path(__file__).resolve().parents[1]
RECIPE = "mass-combat v1: war chest, 3 units a side, rolls of 3d, a funds rule command every tenth turn"
NAME = "Scale"
KIT = {"Blue": {"troop_type": "MI", "armour": "medium"}, "Red": {"troop_type": "LI", "armour": "light"}}
# What decides the log's contents (not its read models): a change here plays the campaign again.
KEYED = (
    "events/families/*.py",
    "events/canonical.py",
    "events/envelope.py",
    "events/store.py",
    "events/schema.py",
    "campaign/executor.py",
    "campaign/rulesets/mass_combat/**/*",
    "campaign/migrations/versions/*.py",
)


def build_key() -> str:
    digest = hashlib.sha256(RECIPE.encode())
    for pattern in KEYED:
        for path in sorted(ROOT.glob(pattern)):
            if path.is_file() and path.suffix in (".py", ".toml"):
                digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "campaign-ledger-bench"


class Ids:
    """Entity and command ids in a fixed sequence (seeded dice derive from the campaign id), resumable."""

    def __init__(self, start: int = 0) -> None:
        self.n = start

    def __call__(self) -> str:
        self.n += 1
        return f"scale{self.n:09d}"


class Campaign:
    """The bench's campaign, played through the executor (``Ledger.execute``) with fixed ids and seed."""

    def __init__(self, app: App, ids: Ids, turn: int | None = None) -> None:
        self.app, self.ids = app, ids
        self.ledger: Ledger = app.ledger
        if turn is None:
            self.ledger.create_campaign(NAME, "mass-combat", seed=hashlib.sha256(b"scale bench").digest())
            for side in ("Blue", "Red"):
                self.ledger.execute(self.info(), mct.Funds(side=side, amount=10**9, reason="war chest"))
                for n in range(3):
                    name, profile = f"{side} {n + 1}", {"men": 300, **KIT[side]}
                    self.ledger.execute(self.info(), mcc.Raise(unit_name=name, side=side, profile=profile))
            self.ledger.reveal(self.info())  # the seed so far is public: verify re-derives the early rolls
        self._turn = itertools.count((turn or 0) + 1)
        self.turn = turn or 0

    def info(self) -> CampaignInfo:
        return self.ledger.resolve(NAME)

    def grow_to(self, size: int, progress: Callable[[str], None]) -> None:
        """Rolls (two events each: the command and its dice) and a rule command every tenth turn, until the
        log holds ``size`` events."""
        while (info := self.info()).last_seq < size:
            self.turn = next(self._turn)
            if self.turn % 10 == 0:
                self.rule_command(info)
            else:
                self.ledger.roll(info, "3d", "bench filler")
            if self.turn % 1000 == 0:
                progress(f"\r  {info.last_seq:,} events")
        progress(f"\r  {self.info().last_seq:,} events\n")

    def rule_command(self, info: CampaignInfo) -> None:
        self.ledger.execute(info, mct.Funds(side="Blue", amount=1, reason="a patron's purse"))

    def roll(self) -> None:
        self.ledger.roll(self.info(), "3d", "bench roll")


def _copy_sqlite(source: Path, target: Path) -> None:
    """A consistent copy (SQLite's backup API), whatever WAL the source still has."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    with sqlite3.connect(target) as dst:
        dst.execute("PRAGMA journal_mode = WAL")


def cached_campaign(size: int, cache: Path, progress: Callable[[str], None]) -> tuple[Path, dict[str, Any]]:
    """The cached database of ``size`` events and its sidecar (turn, ids), playing what is missing."""
    key = build_key()
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / f"scale-{key}-{size}.db"
    sidecar = target.with_suffix(".json")
    if target.exists() and sidecar.exists():
        progress(f"reusing {target} (played through the executor earlier, key {key})\n")
        return target, json.loads(sidecar.read_text())
    smaller = sorted(
        (int(p.stem.rsplit("-", 1)[1]), p)
        for p in cache.glob(f"scale-{key}-*.db")
        if p.with_suffix(".json").exists() and int(p.stem.rsplit("-", 1)[1]) < size
    )
    work = cache / f"building-{key}-{size}-{uuid.uuid4().hex[:8]}.db"
    state: dict[str, Any] | None = None
    if smaller:
        from_size, from_path = smaller[-1]
        progress(f"playing {size:,} events on from the cached {from_size:,}\n")
        _copy_sqlite(from_path, work)
        state = json.loads(from_path.with_suffix(".json").read_text())
    else:
        progress(f"playing a new campaign of {size:,} events (key {key})\n")
    ids = Ids(state["ids"] if state else 0)
    app = bootstrap(str(work), actor="bench", new_id=ids)
    try:
        campaign = Campaign(app, ids, state["turn"] if state else None)
        campaign.grow_to(size, progress)
        state = {"turn": campaign.turn, "ids": ids.n, "events": campaign.info().last_seq, "key": key}
    finally:
        app.close()
    with sqlite3.connect(work) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for suffix in ("-wal", "-shm"):
        Path(f"{work}{suffix}").unlink(missing_ok=True)
    work.rename(target)
    sidecar.write_text(json.dumps(state))
    return target, state


def working_copy(cached: Path, folder: Path) -> Path:
    """The measured file: a copy, so the commands a measurement appends never reach the cache."""
    db = folder / "campaign.db"
    _copy_sqlite(cached, db)
    return db


def open_campaign(db: str, state: dict[str, Any]) -> Campaign:
    ids = Ids(state["ids"])
    app = bootstrap(db, actor="bench", new_id=ids)
    return Campaign(app, ids, state["turn"])


@contextmanager
def postgres_copy(sqlite_db: Path, server_url: str, progress: Callable[[str], None]) -> Iterator[str]:
    """The campaign moved to a new PostgreSQL database by ``export --secrets`` and ``import``; dropped after."""
    import psycopg

    from campaign.exchange import export_lines, import_campaign
    from events.db import database_url

    driver_url = database_url(server_url).replace("postgresql+psycopg://", "postgresql://", 1)
    name = f"scale_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(driver_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = driver_url.rpartition("/")
    url = f"{base}/{name}".replace("postgresql://", "postgresql+psycopg://", 1)
    try:
        source = bootstrap(str(sqlite_db), create=False)
        target = bootstrap(url)
        try:
            progress(f"importing the campaign into PostgreSQL database {name}\n")
            info = source.ledger.resolve(NAME)
            started = time.perf_counter()
            import_campaign(target.ledger, export_lines(source.ledger, info, with_secrets=True))
            progress(f"  moved {info.last_seq:,} events in {time.perf_counter() - started:.1f} s wall\n")
        finally:
            source.close()
            target.close()
        yield url
    finally:
        with psycopg.connect(driver_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def remove_cache(cache: Path) -> None:
    """``--clear-cache``: only this benchmark's own files."""
    for path in [*cache.glob("scale-*.db"), *cache.glob("scale-*.json"), *cache.glob("building-*.db*")]:
        path.unlink()
    if cache.exists() and not any(cache.iterdir()):
        shutil.rmtree(cache)
