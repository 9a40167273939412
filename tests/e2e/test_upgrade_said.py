"""The first command on a database an older version wrote says, on stderr, that its tables are being brought up
to date (a migration may refold a long campaign's read models: seconds, once); the next command says nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.e2e.test_cli import Cli


def test_the_first_command_after_an_upgrade_says_so_once(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    cli = Cli(str(db))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    assert "older version" not in cli("list").stderr
    with sqlite3.connect(db) as conn:  # as the version before 0011 left it (0011 refolds the read models)
        conn.execute("UPDATE alembic_version SET version_num = '0010'")
    conn.close()
    first = cli("list")
    assert (
        f"{db} was written by an older version of Campaign Ledger (tables at revision 0010): bringing them up to "
        "date, once; nothing in the log changes." in first.stderr
    )
    assert "Otlok Front" in first.stdout
    assert cli("list").stderr == ""
