"""The SQLite file itself: a consistent copy made while others write (SQLite's online backup API), and the file's
own integrity (``PRAGMA quick_check``), said in words.

Both open the file with the driver directly: a backup reads the source in one read transaction (in WAL mode
writers go on meanwhile, and the copy holds exactly the commits made before it began), and an integrity check is
of the file, below anything the store reads.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from events.db import SQLITE_BUSY_TIMEOUT_MS
from events.errors import ConfigurationError, InvalidInputError, Words

SQLITE_MAGIC = b"SQLite format 3\x00"
PROBLEMS_SHOWN = 3
"""Integrity problems quoted in a message (SQLite lists up to a hundred)."""


def is_sqlite_file(path: Path) -> bool:
    """Whether ``path`` is a file that begins as an SQLite database does."""
    try:
        with path.open("rb") as handle:
            return handle.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def integrity_problems(database: str | Path) -> list[str]:
    """What SQLite's ``quick_check`` finds wrong with the file (every page and index entry read), as it says it;
    [] for a sound file. A file SQLite cannot even open as a database is one problem."""
    try:
        with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as conn:
            conn.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
            rows = [str(r[0]) for r in conn.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as exc:
        return [str(exc)]
    if rows == ["ok"]:
        return []
    # SQLite heads its findings "*** in database main ***" and breaks lines: one finding a line, said plainly.
    said = (" ".join(r.replace("*** in database main ***", "").split()) for r in rows)
    return [r for r in said if r]


def damage_in_words(database: str | Path, problems: list[str]) -> str:
    """The file's damage as a person reads it, in English (:func:`damage_words` in English)."""
    return str(damage_words(database, problems))


def damage_words(database: str | Path, problems: list[str]) -> Words:
    """The file's damage as a person reads it: what it means, a few of SQLite's own findings (its English), what
    to do; said in the reader's language where it is shown."""
    more = len(problems) - PROBLEMS_SHOWN
    listed = "; ".join(problems[:PROBLEMS_SHOWN])
    shown: str | Words = Words("{listed}; and {more} more", listed=listed, more=more) if more > 0 else listed
    return Words.counted(
        "the database file {database} is damaged: SQLite's check of every page found {n} problem ({shown}). "
        "Events stored there may be lost or wrong; restore the campaign from a backup (`campaign backup`) or an "
        "export",
        "the database file {database} is damaged: SQLite's check of every page found {n} problems ({shown}). "
        "Events stored there may be lost or wrong; restore the campaign from a backup (`campaign backup`) or an "
        "export",
        n=len(problems),
        database=str(database),
        shown=shown,
    )


@contextmanager
def new_file(target: Path) -> Iterator[Path]:
    """A temporary path beside ``target`` to write a new file at; moved to ``target`` when the block ends well,
    removed on any failure or interrupt (nothing half-written is left). ``target`` must not exist: nothing here
    replaces a file."""
    try:
        if target.exists() or target.is_symlink():
            raise InvalidInputError.saying(
                "{target} already exists: a backup is written to a new file, never over one", target=str(target)
            )
        folder = target.parent if str(target.parent) else Path(".")
        if not folder.is_dir():
            raise InvalidInputError.saying(
                "folder {folder} does not exist (for {target})", folder=str(folder), target=str(target)
            )
    except OSError as exc:
        raise _cannot_write(target, exc) from None
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        yield partial
        try:
            os.link(partial, target)  # fails if target appeared meanwhile: it is never replaced
        except FileExistsError:
            raise InvalidInputError.saying(
                "{target} appeared while the backup was written: nothing replaced it", target=str(target)
            ) from None
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV) or target.exists():
                raise _cannot_write(target, exc) from None
            os.rename(partial, target)  # a file system without hard links
        _sync_folder(target.parent)
    finally:
        for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm"), Path(f"{partial}-journal")):
            with suppress(FileNotFoundError):
                leftover.unlink()


@contextmanager
def written_whole(target: Path) -> Iterator[BinaryIO]:
    """A file written whole or not at all: into a temporary file beside ``target``, which replaces ``target`` only
    when the block ends well and is removed otherwise (an interrupt included). A database is never replaced."""
    if is_sqlite_file(target):
        raise InvalidInputError.saying(
            "{target} is a database: an export is written to a file of its own, never over one", target=str(target)
        )
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        with partial.open("wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, target)
    finally:
        with suppress(FileNotFoundError):
            partial.unlink()


def _sync_folder(folder: Path) -> None:
    """The new name on disk too (a rename is durable once its folder is synced)."""
    try:
        handle = os.open(folder if str(folder) else ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def copy_sqlite(database: str, copy: Path) -> None:
    """Copy the SQLite database ``database`` into the new file ``copy`` with the online backup API, in one step:
    one read transaction, so the copy is one consistent state of the file however many write meanwhile (a
    stepwise copy starts again whenever another connection writes). Synced to disk, then checked page by page."""
    try:
        source = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise ConfigurationError.saying(
            "cannot open {database} to back it up: {why}", database=str(database), why=str(exc)
        ) from None
    with closing(source), closing(sqlite3.connect(copy)) as into:
        source.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        try:
            source.backup(into, pages=-1)
        except sqlite3.DatabaseError as exc:
            raise ConfigurationError.saying(
                "cannot back up {database}: SQLite says {why}", database=str(database), why=str(exc)
            ) from None
    with copy.open("rb+") as handle:
        os.fsync(handle.fileno())
    problems = integrity_problems(copy)
    if problems:
        raise ConfigurationError.saying("{damage}: no backup was written", damage=damage_words(database, problems))


def _cannot_write(target: Path, exc: OSError) -> InvalidInputError:
    # the system's own reason (strerror) is English: the sentence around it is said in the reader's language
    return InvalidInputError.saying("cannot write {target}: {why}", target=str(target), why=exc.strerror)
