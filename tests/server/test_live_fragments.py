"""The live page's fragments: rendered once per head for every open page, and from paged reads, so that what a
page costs does not grow with the campaign's log (rows read are counted, not time)."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import orjson
import pytest
from sqlalchemy import Engine

from campaign.access.memberships import Memberships, grant
from campaign.bootstrap import bootstrap
from campaign.commands import command_type
from campaign.executor import Ledger
from campaign.server.app import create_app
from campaign.server.fragments import GM, OTHERS, Fragments, Rendered, RoleKind
from campaign.server.live import update_of
from campaign.server.live_parts import PAGE
from campaign.server.timeline_ops import undo
from tests.conftest import Backend, empty_tables, make_ledger
from tests.live_server import serving
from tests.server.conftest import FAST_HASHER, PASSWORD, SQUAD
from tests.statements import counted

STREAMS = 12


def signed_in(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=httpx.Timeout(10, read=None))
    assert client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    answer = client.post("/api/session", json={"name": name, "password": PASSWORD})
    client.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return client


@contextmanager
def page_stream(base: str, cookies: Any, campaign_id: str, after: int) -> Iterator[queue.Queue[dict[str, Any]]]:
    """What one open page is sent: each ``fragments`` event, decoded."""
    got: queue.Queue[dict[str, Any]] = queue.Queue()
    client = httpx.Client(base_url=base, cookies=cookies, timeout=httpx.Timeout(10, read=None))

    def read() -> None:
        try:
            url = f"/api/campaigns/{campaign_id}/events"
            with client.stream("GET", url, params={"after": after, "fragments": True}) as r:
                got.put({"status": r.status_code})
                kind = ""
                for line in r.iter_lines():
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: ") and kind == "fragments":
                        got.put(orjson.loads(line[6:]))
        except httpx.HTTPError:
            return

    threading.Thread(target=read, daemon=True).start()
    assert got.get(timeout=10) == {"status": 200}
    try:
        yield got
    finally:
        client.close()


def test_an_append_renders_the_page_once_and_every_open_page_is_sent_what_changed(tmp_path: Path) -> None:
    opened = bootstrap(str(tmp_path / "live.db"), actor="test")
    app = create_app(opened, hasher=FAST_HASHER)
    fragments: Fragments = app.state.server.fragments
    with serving(app) as base:
        gina = signed_in(base, "gina")
        cid = gina.post("/api/campaigns", json={"name": "Kessel", "ruleset": "grimdark"}).json()["campaign_id"]
        head = gina.get(f"/api/campaigns/{cid}").json()["seq"]
        assert gina.get(f"/c/{cid}").status_code == 200  # the page as it opens: its fragments at the head
        before = fragments.renderings
        with contextlib.ExitStack() as stack:
            pages = [stack.enter_context(page_stream(base, gina.cookies, cid, head)) for _ in range(STREAMS)]
            body = {"command": "gf.muster", "args": {"name": "Robot Squad", "side": "Robots", "profile": SQUAD}}
            now = gina.post(f"/api/campaigns/{cid}/commands", json=body).json()["head_seq"]
            sent = [page.get(timeout=20) for page in pages]
        assert fragments.renderings == before + 1, "one rendering for the new head, whatever the pages"
        assert all(s["head"] == now for s in sent)
        assert all(s == sent[0] for s in sent), "every page is sent the same"
        # What changed: the roster, the log, and the charts' point of now (the new unit's strength); not the battle
        # part (none is fought, and the members are the same); on these game master's pages, the invitation's sides
        # too (Robots is a side now). The log as its new rows only.
        drawn_again = {"roster", "charts", "link-for", "invite-side-list"}
        assert set(sent[0]["parts"]) == drawn_again and set(sent[0]["rows"]) == {"log"}
        assert "Robot Squad" in sent[0]["parts"]["roster"]
        assert {int(k) for k in sent[0]["rows"]["log"]["rows"]} >= set(range(head + 1, now + 1))
        gina.close()
    opened.close()


def grown(ledger: Ledger, rolls: int) -> str:
    """A Grimdark campaign with two units, a battle fought and ended, a house rule, then ``rolls`` rolls."""
    cid = ledger.create_campaign("Long", "grimdark").events[0].campaign_id
    run: list[tuple[str, dict[str, object]]] = [
        ("gf.muster", {"name": "Robot Squad", "side": "Robots", "profile": SQUAD}),
        ("gf.muster", {"name": "Saurian Warriors", "side": "Saurians", "profile": SQUAD}),
        ("gf.battle_start", {"name": "Ruins", "units": ["Robot Squad", "Saurian Warriors"]}),
        ("gf.battle_end", {"winner": "Robots"}),
        ("gf.battle_start", {"name": "Ridge", "units": ["Robot Squad", "Saurian Warriors"]}),
    ]
    for name, args in run:
        ledger.execute(ledger.resolve("Long"), command_type(name).build(**args))
    for _ in range(rolls):
        ledger.roll(ledger.resolve("Long"), "d6", "the weather")
    return cid


@pytest.mark.postgres
def test_what_a_page_reads_does_not_grow_with_the_log(pg_engine: Engine, pg_url: str) -> None:
    empty_tables(pg_engine)
    opened = bootstrap(pg_url, actor="test")
    rows = {}
    for rolls in (150, 1500):  # 300 and 3,000 events after the same first commands
        memory = make_ledger(Backend("memory"))
        cid = grown(memory, rolls)
        opened.ledger.store.import_stream(cid, list(memory.store.read(cid)))
        grant(opened.ledger, Memberships(opened.engine), opened.ledger.resolve(cid), "gina", "gm", account_exists=True)
        info = opened.ledger.resolve(cid)
        with counted() as read:
            rendered = Fragments(opened.ledger, Memberships(opened.engine), PAGE).at(info)
        assert "Ridge" in rendered.parts["battle"] and f"after entry {info.last_seq}" in rendered.parts["roster"]
        rows[rolls] = read.rows
        opened.close()
        empty_tables(pg_engine)
        opened = bootstrap(pg_url, actor="test")
    opened.close()
    assert rows[1500] == rows[150], rows


def test_a_page_one_head_behind_is_sent_the_logs_new_rows_not_the_whole_log(tmp_path: Path) -> None:
    """The log is a list of rows keyed by seq: an append sends the new row (and, to the GM, the row before it,
    whose "undo" became "rewind to here"), the keys' order, and no row a page already shows; an undo sends the
    row it retracts. A page that shows an older head is sent every fragment whole."""
    opened = bootstrap(str(tmp_path / "rows.db"), actor="test")
    members = Memberships(opened.engine)
    cid = grown(opened.ledger, 40)
    grant(opened.ledger, members, opened.ledger.resolve(cid), "gina", "gm", account_exists=True)
    fragments = Fragments(opened.ledger, members, PAGE)

    def rendered(kind: RoleKind) -> Rendered:
        return fragments.at(opened.ledger.resolve(cid), "en", kind)

    before = {kind: rendered(kind) for kind in (OTHERS, GM)}
    shown = [key for key, _ in before[OTHERS].rows["log"]]
    head = opened.ledger.resolve(cid).last_seq
    opened.ledger.roll(opened.ledger.resolve(cid), "d6", "the weather")
    news = tuple(str(seq) for seq in range(opened.ledger.resolve(cid).last_seq, head, -1))  # the roll's entries
    new = news[0]
    for kind, also in ((OTHERS, set()), (GM, {shown[0]})):
        now = rendered(kind)
        changes = now.row_changes["log"]
        assert changes.order == (*news, *shown)  # newest first, every row the page shows kept in its place
        assert set(changes.rows) == set(news) | also
        assert "the weather" in " ".join(changes.rows[n] for n in news)
        assert ("undo" in changes.rows[new]) == (kind == GM)
        sent = update_of(now)
        event = orjson.loads(sent.changed.split(b"data: ", 1)[1])
        assert "log" not in event["parts"] and set(event["rows"]["log"]["rows"]) == set(news) | also
        assert len(sent.changed) * 10 < len(sent.every), "a new row, not the whole log again"
        assert f'data-key="{shown[-1]}"' in now.parts["log"]  # the whole fragment still, for a page behind

    undone = opened.ledger.resolve(cid)
    undo(opened.ledger, undone)
    now = rendered(OTHERS)
    changes = now.row_changes["log"]
    retracted = [key for key, row in changes.rows.items() if 'class="retracted"' in row]
    assert retracted == [news[-1]]  # the roll's command, retracted (its die stays on the record)
    assert changes.order[1:3] == news  # the undo's own row first, the roll's kept below it
    opened.close()
