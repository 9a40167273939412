"""PostgreSQL going away under load: every server connection cut at once, again and again, while a member reads
and a game master appends. Every answer is either served or a 503 in the API's words (never a plain-text 500),
the log has no traceback, nothing half-appended is left, and the next request after the database is back is
served. (Cutting every backend with ``pg_terminate_backend`` is what clients see when PostgreSQL restarts.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx2 as httpx
import psycopg
import pytest
from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from campaign.bootstrap import bootstrap
from campaign.server.app import create_app
from events.db import database_url
from events.registry import registry
from events.verify import verify_events
from tests.conftest import empty_tables
from tests.live_server import serving
from tests.server.conftest import FAST_HASHER, PASSWORD

CUTS = 6


def cut_every_connection(pg_url: str) -> None:
    """Every other backend of the database ended, through a connection of its own: one lent by the tests' shared
    engine could be one an earlier cut ended (that engine, like the server's, pings none, and after the rest of
    the suite its pool holds several idle connections)."""
    plain = make_url(database_url(pg_url)).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture
def served(pg_url: str, pg_engine: Engine) -> Iterator[tuple[str, object]]:
    empty_tables(pg_engine)
    opened = bootstrap(pg_url, actor="server")
    with serving(create_app(opened, hasher=FAST_HASHER)) as url:
        yield url, opened
    opened.close()
    pg_engine.dispose()  # its idle connections were cut: the tests after this one get new ones


@pytest.mark.postgres
def test_postgresql_cut_under_load_gives_503s_in_words_and_no_traceback(
    served: tuple[str, object], pg_url: str, capfd: pytest.CaptureFixture[str]
) -> None:
    url, opened = served
    with httpx.Client(base_url=url, timeout=30) as gm:
        assert gm.post("/api/accounts", json={"name": "gina", "password": PASSWORD}).status_code == 201
        gm.headers["X-CSRF-Token"] = gm.post("/api/session", json={"name": "gina", "password": PASSWORD}).json()["csrf"]
        cid = gm.post("/api/campaigns", json={"name": "Kessel", "ruleset": "grimdark"}).json()["campaign_id"]
        answers: list[httpx.Response] = []
        lost: list[str] = []
        done = threading.Event()

        def load() -> None:
            n = 0
            while not done.is_set():
                n += 1
                roll = {"command": "ledger.roll", "args": {"notation": "d6", "purpose": f"roll {n}"}}
                try:
                    answers.append(gm.get(f"/api/campaigns/{cid}/log"))
                    answers.append(gm.post(f"/api/campaigns/{cid}/commands", json=roll))
                except httpx.TransportError as exc:
                    # Seen once in CI on a loaded machine: the client's own socket gone (EBADF) mid-request. It
                    # is the transport's, not an answer of the server; counted, bounded below, and the load goes on
                    # (an uncaught error here would end the thread and hide every answer after it).
                    lost.append(repr(exc))

        worker = threading.Thread(target=load)
        worker.start()
        try:
            for _ in range(CUTS):
                time.sleep(0.3)
                cut_every_connection(pg_url)
            time.sleep(0.3)
        finally:  # a failure here must not close the client under the load's feet (its error would hide this one)
            done.set()
            worker.join()
        after = gm.get(f"/api/campaigns/{cid}/log")
    assert len(lost) <= CUTS and len(answers) > 4 * len(lost), lost
    codes = [a.status_code for a in answers]
    assert set(codes) <= {200, 503}, [a.text for a in answers if a.status_code not in (200, 503)][:3]
    for answer in answers:
        assert answer.headers["content-type"] == "application/json"
        if answer.status_code == 503:
            assert (
                answer.json()["detail"].startswith("the database is not answering") or "busy" in answer.json()["detail"]
            )
            assert answer.headers["retry-after"] == "2"
    assert after.status_code == 200  # served again at once: the cut connections were dropped from the pool
    assert "Traceback" not in capfd.readouterr().err
    events = list(opened.ledger.store.read(cid))  # type: ignore[attr-defined]
    assert verify_events(cid, events, registry).ok
    issued = [e for e in events if e.type == "timeline.command_issued"]
    assert all(
        any(x.meta.get("command") == e.meta.get("command") for x in events if x.seq == e.seq + 1) for e in issued
    )
