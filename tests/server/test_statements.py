"""What a command costs the database on a group's server (PostgreSQL): statements and connections per request.

Counted at the driver (tests/statements.py), not timed: every statement psycopg sends, a ping, ``BEGIN``,
``COMMIT`` and ``ROLLBACK`` included; and how many times a request took a connection out of the pool.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event

from campaign.bootstrap import App, bootstrap
from campaign.server.app import create_app
from tests.conftest import empty_tables
from tests.server.conftest import FAST_HASHER, SQUAD, post, sign_in
from tests.statements import counted

pytestmark = pytest.mark.postgres
COMMANDS = 6


@pytest.fixture
def group(pg_engine: Engine, pg_url: str) -> Iterator[tuple[App, TestClient, TestClient, str]]:
    """A Grimdark campaign on PostgreSQL: gina its GM, pat a player of the Robots with a bearer token."""
    empty_tables(pg_engine)
    opened = bootstrap(pg_url, actor="test")
    app = create_app(opened, hasher=FAST_HASHER)
    with TestClient(app):
        gina, pat = sign_in(app, "gina"), sign_in(app, "pat")
        cid = post(gina, "/api/campaigns", {"name": "Kessel", "ruleset": "grimdark"}, 201)["campaign_id"]
        post(gina, f"/api/campaigns/{cid}/members", {"account": "pat", "role": "player", "sides": ["Robots"]})
        token = post(pat, "/api/tokens", None, 201)["token"]
        script = TestClient(app, headers={"Authorization": f"Bearer {token}"})
        yield opened, gina, script, cid
    opened.close()
    empty_tables(pg_engine)


def muster(client: TestClient, cid: str, name: str, side: str, command_id: str | None = None) -> Any:
    body = {"command": "gf.muster", "args": {"name": name, "side": side, "profile": SQUAD}, "command_id": command_id}
    return post(client, f"/api/campaigns/{cid}/commands", body)


def test_a_command_costs_five_statements_at_most_and_one_connection(
    group: tuple[App, TestClient, TestClient, str],
) -> None:
    opened, gina, script, cid = group
    muster(script, cid, "Robot 0", "Robots")  # this process has now read the campaign's state once
    checkouts = []
    event.listen(opened.engine, "checkout", lambda *_: checkouts.append(1))
    for who, client, side in (("pat", script, "Robots"), ("gina", gina, "Saurians")):
        checkouts.clear()
        with counted() as sent:
            for k in range(COMMANDS):
                muster(client, cid, f"{who} {k}", side, command_id=f"{who}-{k}")
        # who asks, in which campaign, with which role: one read; then the command's own (3 for a muster)
        assert sent.count / COMMANDS <= 5, sent.texts
        assert len(checkouts) == COMMANDS, "one connection taken out of the pool per request"
        assert not [t for t in sent.texts if t in (";", "BEGIN", "ROLLBACK")], "no ping and no empty transaction"
