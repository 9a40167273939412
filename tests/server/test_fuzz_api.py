"""API fuzzing from the OpenAPI document (schemathesis) against a running server, signed in as the game master
of a campaign with units: no input makes a 5xx, and after every request the campaign's log verifies and holds
no half-appended command (each ``timeline.command_issued`` is followed by its effects in the same append).

The suite's run is derandomized (the same examples on every machine, so CI cannot fail on a draw it never made
before); a deeper, random hunt is ``CAMPAIGN_FUZZ_EXAMPLES=300 pytest tests/server/test_fuzz_api.py``, and
whatever it finds becomes a test of its own (see tests/integration/test_store_contract.py's 64-bit bounds)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2 as httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from campaign.bootstrap import App, bootstrap
from campaign.server.app import create_app
from events.registry import registry
from events.verify import verify_events
from tests.live_server import serving
from tests.server.conftest import FAST_HASHER, PASSWORD, SQUAD

DEEP = int(os.environ.get("CAMPAIGN_FUZZ_EXAMPLES", "0"))


@dataclass
class Target:
    url: str
    token: str
    campaign_id: str
    opened: App


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    opened = bootstrap(str(tmp_path_factory.mktemp("fuzz") / "fuzz.db"), actor="server")
    with serving(create_app(opened, hasher=FAST_HASHER)) as url, httpx.Client(base_url=url) as client:
        assert client.post("/api/accounts", json={"name": "gina", "password": PASSWORD}).status_code == 201
        client.headers["X-CSRF-Token"] = client.post(
            "/api/session", json={"name": "gina", "password": PASSWORD}
        ).json()["csrf"]
        token = client.post("/api/tokens").json()["token"]
        cid = client.post("/api/campaigns", json={"name": "Kessel", "ruleset": "grimdark"}).json()["campaign_id"]
        for name, side in (("Robot Squad", "Robots"), ("Saurian Warriors", "Saurians")):
            muster = {"command": "gf.muster", "args": {"name": name, "side": side, "profile": SQUAD}}
            assert client.post(f"/api/campaigns/{cid}/commands", json=muster).status_code == 200
        yield Target(url, token, cid, opened)
    opened.close()


def whole(target: Target) -> None:
    events = list(target.opened.ledger.store.read(target.campaign_id))
    assert verify_events(target.campaign_id, events, registry).ok
    for i, event in enumerate(events):
        if event.type == "timeline.command_issued":
            assert i + 1 == len(events) or events[i + 1].meta.get("command") == event.meta.get("command")


def test_no_input_makes_a_server_error_or_a_partial_append(target: Target) -> None:
    schema = schemathesis.openapi.from_url(f"{target.url}/openapi.json")
    operations = [r.ok() for r in schema.get_all_operations()]
    assert len(operations) >= 20
    for operation in operations:
        if operation.path.endswith("/events"):  # a stream: it answers for as long as the page is open
            continue

        @given(case=operation.as_strategy())
        @settings(
            max_examples=DEEP or 15,
            derandomize=not DEEP,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
        def call(case: Any) -> None:
            if "campaign_id" in (case.path_parameters or {}):
                case.path_parameters["campaign_id"] = target.campaign_id
            response = case.call(headers={"Authorization": f"Bearer {target.token}"})
            assert response.status_code < 500, (case.method, case.formatted_path, response.text[:300])
            whole(target)

        call()
