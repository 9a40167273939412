"""Every route × every kind of caller gets exactly what the role table says (issue 15).

Generated from the application's route table: each route declares its access level (``x-access``), and a
route added without one fails here. Callers: nobody, a forged session cookie, a member of another campaign
only, and the campaign's observer, player and game master. Refused: 401 (no session: a page redirects to
the sign-in form instead), 403 (signed in, not allowed). Allowed: neither, and never a 5xx.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from campaign.server.app import create_app, route_table
from campaign.server.context import LEVELS, SESSION_COOKIE
from tests.server.conftest import SQUAD, World

CALLERS = ("nobody", "forged", "stranger", "olive", "pat", "gina")
ROLE_OF = {"stranger": None, "olive": "observer", "pat": "player", "gina": "gm"}
ALLOWED_ROLES = {"member": {"observer", "player", "gm"}, "play": {"player", "gm"}, "gm": {"gm"}}


def routes() -> list[APIRoute]:
    return route_table()


def route_id(route: APIRoute) -> str:
    return f"{sorted(route.methods)[0]} {route.path}"


def bodies(route: APIRoute) -> dict[str, Any]:
    """A request each route would accept from a caller allowed to make it (JSON for the API, forms for pages)."""
    path = route.path
    json: dict[str, dict[str, Any]] = {
        "/api/accounts": {"name": "newcomer", "password": "a long enough password"},
        "/api/session": {"name": "gina", "password": "correct horse battery"},
        "/api/campaigns": {"name": "Another", "ruleset": "grimdark"},
        "/api/campaigns/{campaign_id}/commands": {
            "command": "gf.muster",
            "args": {"name": "Robot Squad B", "side": "Robots", "profile": SQUAD},
        },
        "/api/campaigns/{campaign_id}/members": {"account": "sam", "role": "observer"},
        "/api/campaigns/{campaign_id}/rewind": {"to": 6},
        "/api/campaigns/{campaign_id}/amend": {"seq": 5, "set": {"side": "Robots"}, "preview": True},
        "/api/campaigns/{campaign_id}/entropy": {},
    }
    form: dict[str, dict[str, Any]] = {
        "/campaigns": {"name": "Another page", "ruleset": "grimdark"},
        "/c/{campaign_id}/command": {"_command": "gf.recover", "name": "Robot Squad"},
        "/c/{campaign_id}/invite": {"account": "sam", "role": "observer"},
        "/c/{campaign_id}/remove": {"account": "sam"},
        "/c/{campaign_id}/amend": {"seq": "5", "set": "side=Robots", "preview": "1"},
        "/c/{campaign_id}/rewind": {"to": "6"},
        "/c/{campaign_id}/entropy": {"share": "a line of our own"},
        "/signin": {"name": "gina", "password": "x", "pre": "x"},
        "/signup": {"name": "x", "password": "x", "pre": "x"},
    }
    if path in json:
        return {"json": json[path]}
    if path in form:
        return {"data": form[path]}
    return {}


def url(route: APIRoute, world: World) -> str:
    values = {
        "campaign_id": world.campaign_id,
        "name": "Robot Squad",
        "pc": "nobody",
        "seq": "6",
        "account": "sam",
        "session_id": "0123456789abcdef",
    }
    return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], route.path)


def expected(level: str, caller: str, route: APIRoute) -> set[int] | None:
    """The statuses the role table gives ``caller`` (None: any answer but a refusal or a 5xx; a public route's
    own refusal, a wrong password say, is the route's business)."""
    page_get = "GET" in route.methods and not route.path.startswith("/api/")
    if level == "public":
        return set(range(200, 500))
    if caller in ("nobody", "forged"):
        return {303} if page_get else {401}
    if level == "account":
        return None
    role = ROLE_OF[caller]
    return None if role in ALLOWED_ROLES[level] else {403}


def client_for(world: World, caller: str) -> TestClient:
    if caller == "nobody":
        return TestClient(world.app, follow_redirects=False)
    if caller == "forged":
        forged = TestClient(world.app, follow_redirects=False)
        forged.cookies.set(SESSION_COOKIE, "forged-session-value-0123456789")
        forged.headers["X-CSRF-Token"] = "forged"
        return forged
    client = world.client("sam" if caller == "stranger" else caller)
    client.follow_redirects = False
    return client


@pytest.fixture
def seeded(world: World) -> World:
    gina = world.client("gina")
    muster = {"command": "gf.muster", "args": {"name": "Robot Squad", "side": "Robots", "profile": SQUAD}}
    assert gina.post(f"/api/campaigns/{world.campaign_id}/commands", json=muster).status_code == 200
    return world


def test_the_route_table_is_every_route_of_the_api() -> None:
    documented = {
        (method.upper(), path)
        for path, operations in create_app(":memory:").openapi()["paths"].items()
        for method in operations
    }
    assert documented <= {(m, r.path) for r in routes() for m in r.methods}
    assert len(routes()) >= 30


def test_every_route_declares_its_access_level() -> None:
    undeclared = [route_id(r) for r in routes() if (r.openapi_extra or {}).get("x-access") not in LEVELS]
    assert undeclared == []


@pytest.mark.parametrize("route", routes(), ids=route_id)
def test_each_caller_gets_what_the_role_table_says(route: APIRoute, seeded: World) -> None:
    level = (route.openapi_extra or {})["x-access"]
    if route.path.endswith("/events"):
        callers = [c for c in CALLERS if expected(level, c, route) is not None]  # an allowed one streams for ever
    else:
        callers = list(CALLERS)
    method = sorted(route.methods)[0]
    for caller in callers:
        answer = client_for(seeded, caller).request(method, url(route, seeded), **bodies(route))
        allowed = expected(level, caller, route)
        assert answer.status_code < 500, (caller, answer.text)
        if allowed is None:
            assert answer.status_code not in (401, 403), (caller, answer.status_code, answer.text)
        else:
            assert answer.status_code in allowed, (caller, answer.status_code, answer.text)
            if answer.status_code == 303:
                assert answer.headers["location"] == "/signin"
