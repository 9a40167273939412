"""API fuzzing from the OpenAPI document (schemathesis) against a running server, signed in as each role of a
campaign with units (its game master, a player of one side, an observer: hostile requests differ by role), on
SQLite and on PostgreSQL, with every check schemathesis has: no input makes a 5xx, every answer's status, media
type, headers and body are the ones the document gives (refusals included, all ``{"detail": "…"}``), data the
schema forbids is refused and data it allows is not refused for its shape, methods a path does not take are
405 with ``Allow``; and after every request the campaign's log verifies and holds no half-appended command (each
``timeline.command_issued`` is followed by its effects in the same append).

A 400 counts as accepting well-formed data: it is the rules' refusal in words (an unknown unit, a 7 on a d6, a
weak password), which no schema can say in advance (``EXPECTED`` below).

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
from schemathesis.checks import CHECKS as ALL_CHECKS
from schemathesis.checks import load_all_checks
from schemathesis.config import SchemathesisConfig

from campaign.bootstrap import App, bootstrap
from campaign.server.app import create_app
from events.registry import registry
from events.verify import verify_events
from tests.conftest import empty_tables
from tests.live_server import serving
from tests.server.conftest import FAST_HASHER, PASSWORD, SQUAD

DEEP = int(os.environ.get("CAMPAIGN_FUZZ_EXAMPLES", "0"))
load_all_checks()
CHECKS = ALL_CHECKS.get_all()
EXPECTED = ["2xx", "3xx", "400", "401", "403", "404", "409", "410", "429"]
"""What schema-valid data may get: what the document says each of these means."""
CONFIG = SchemathesisConfig.from_dict({"checks": {"positive_data_acceptance": {"expected-statuses": EXPECTED}}})


ROLES = {"gina": "gm", "pat": "player", "olive": "observer"}


@dataclass
class Target:
    url: str
    tokens: dict[str, str]
    """A bearer token per role."""
    campaign_id: str
    opened: App


def token_of(url: str, name: str) -> str:
    with httpx.Client(base_url=url) as client:
        assert client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
        client.headers["X-CSRF-Token"] = client.post("/api/session", json={"name": name, "password": PASSWORD}).json()[
            "csrf"
        ]
        token: str = client.post("/api/tokens").json()["token"]
        return token


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def target(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    if request.param == "postgres":
        empty_tables(request.getfixturevalue("pg_engine"))
        opened = bootstrap(request.getfixturevalue("pg_url"), actor="server")
    else:
        opened = bootstrap(str(tmp_path_factory.mktemp("fuzz") / "fuzz.db"), actor="server")
    with serving(create_app(opened, hasher=FAST_HASHER)) as url:
        tokens = {role: token_of(url, name) for name, role in ROLES.items()}
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {tokens['gm']}"}) as gm:
            cid = gm.post("/api/campaigns", json={"name": "Kessel", "ruleset": "grimdark"}).json()["campaign_id"]
            for name, side in (("Robot Squad", "Robots"), ("Saurian Warriors", "Saurians")):
                muster = {"command": "gf.muster", "args": {"name": name, "side": side, "profile": SQUAD}}
                assert gm.post(f"/api/campaigns/{cid}/commands", json=muster).status_code == 200
            for grant in (
                {"account": "pat", "role": "player", "sides": ["Robots"]},
                {"account": "olive", "role": "observer"},
            ):
                assert gm.post(f"/api/campaigns/{cid}/members", json=grant).status_code == 200
        yield Target(url, tokens, cid, opened)
    opened.close()


def whole(target: Target) -> None:
    events = list(target.opened.ledger.store.read(target.campaign_id))
    assert verify_events(target.campaign_id, events, registry).ok
    for i, event in enumerate(events):
        if event.type == "timeline.command_issued":
            assert i + 1 == len(events) or events[i + 1].meta.get("command") == event.meta.get("command")


@pytest.mark.parametrize("role", ["observer", "player", "gm"])  # the GM last: it may remove the others
def test_no_input_makes_a_server_error_or_a_partial_append(target: Target, role: str) -> None:
    schema = schemathesis.openapi.from_url(f"{target.url}/openapi.json", config=CONFIG)
    assert len(CHECKS) >= 14
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
            case.call_and_validate(headers={"Authorization": f"Bearer {target.tokens[role]}"}, checks=CHECKS)
            whole(target)

        call()
