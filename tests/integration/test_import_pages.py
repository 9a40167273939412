"""An import writes a campaign page by page (events.sql_import): each command's row holds the seqs of its events,
however the pages cut its commands, and a page costs a few batched statements, not one for every command."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import event, select

import events.sql_import
from events.envelope import NewEvent
from events.schema import commands
from events.sql import SqlEventStore
from tests.conftest import Backend

SIZES = (1, 3, 5, 1, 7, 2, 1, 1, 4)
"""Commands of these many events: 25 in all, so pages of 3 cut commands of 3, 5, 7 and 4 events."""


def _source(store: SqlEventStore) -> None:
    seq = 0
    for i, size in enumerate(SIZES):
        batch = [NewEvent("test.happened", {"n": seq + k}) for k in range(size)]
        store.append("source", batch, seq, command_id=f"c{i}" if i % 2 else None, meta={"actor": f"a{i}"})
        seq += size


def _command_rows(store: SqlEventStore, campaign_id: str) -> list[tuple[Any, ...]]:
    with store.engine.connect() as conn:
        return [
            tuple(r)
            for r in conn.execute(
                select(commands.c.first_seq, commands.c.last_seq, commands.c.command_id, commands.c.meta)
                .where(commands.c.campaign_id == campaign_id)
                .order_by(commands.c.first_seq)
            )
        ]


@pytest.mark.parametrize("page", [3, 4, 1000])
def test_an_import_keeps_every_command_s_seqs_whatever_the_page(
    sql_backend: Backend, monkeypatch: pytest.MonkeyPatch, page: int
) -> None:
    store = sql_backend.store()
    assert isinstance(store, SqlEventStore)
    _source(store)
    statements: list[str] = []
    listener = lambda *args: statements.append(args[2])  # noqa: E731  (conn, cursor, statement, …)
    monkeypatch.setattr(events.sql_import, "IMPORT_PAGE", page)
    event.listen(store.engine, "before_cursor_execute", listener)
    try:
        with store.import_session("copy") as sink:
            for recorded in store.read("source"):
                sink.add(recorded)
    finally:
        event.remove(store.engine, "before_cursor_execute", listener)
    assert _command_rows(store, "copy") == _command_rows(store, "source")
    assert [(e.seq, e.hash, e.meta) for e in store.read("copy")] == [
        (e.seq, e.hash, e.meta) for e in store.read("source")
    ]
    # Commands at seqs 1, 2–4, 5–9, 10, 11–17, 18–19, 20, 21, 22–25. Pages of 3 (1–3, 4–6, …): 2–4 runs on into
    # the second page, 5–9 into the third, 11–17 into the fifth and sixth, 18–19 into the seventh, 22–25 into the
    # ninth: 6 updates. Pages of 4 (1–4, 5–8, …): 5–9 once, 11–17 twice, 22–25 once: 4. One page: none (the
    # import wrote an update for each of the 5 commands of more than one event before).
    updates = [s for s in statements if s.lstrip().upper().startswith("UPDATE COMMANDS")]
    assert len(updates) == {3: 6, 4: 4, 1000: 0}[page]
    inserts = [s for s in statements if s.lstrip().upper().startswith("INSERT INTO COMMANDS")]
    pages = -(-sum(SIZES) // page)
    assert len(inserts) <= pages  # one batched statement a page (SQLite's executemany, PostgreSQL's VALUES lists)
