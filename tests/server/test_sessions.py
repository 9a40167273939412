"""Sessions: CSRF protection, no session fixation, forged and closed sessions, bearer tokens, password hashes."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlalchemy import select

from campaign.access.tables import account_sessions, accounts
from campaign.server.context import SESSION_COOKIE
from tests.server.conftest import PASSWORD, World


def plant(client: TestClient, value: str) -> None:
    """A session cookie set as if by the server (the domain the test client's cookie jar gives its cookies)."""
    client.cookies.set(SESSION_COOKIE, value, domain="testserver.local")


def heads(world: World) -> int:
    info = world.opened.ledger.directory.get(world.campaign_id)
    assert info is not None
    return info.last_seq


def page_sign_in(client: TestClient, name: str, password: str = PASSWORD) -> TestClient:
    form = client.get("/signin")
    pre = re.search(r'name="pre" value="([^"]+)"', form.text)
    assert pre is not None
    client.post("/signin", data={"name": name, "password": password, "pre": pre.group(1)}, follow_redirects=False)
    return client


def test_a_change_with_the_session_cookie_but_without_the_csrf_token_is_refused_and_appends_nothing(
    world: World,
) -> None:
    gina = world.client("gina")
    before = heads(world)
    token = gina.headers.pop("X-CSRF-Token")
    answer = gina.post(f"/api/campaigns/{world.campaign_id}/commands", json={"command": "gf.round", "args": {}})
    assert answer.status_code == 403 and "CSRF" in answer.json()["detail"]
    gina.headers["X-CSRF-Token"] = token[:-1] + ("x" if token[-1] != "x" else "y")
    assert gina.post(f"/api/campaigns/{world.campaign_id}/reveal").status_code == 403
    assert heads(world) == before
    gina.headers["X-CSRF-Token"] = token
    assert gina.post(f"/api/campaigns/{world.campaign_id}/reveal").status_code == 200
    assert heads(world) == before + 2


def test_reading_needs_no_csrf_token(world: World) -> None:
    olive = world.client("olive")
    olive.headers.pop("X-CSRF-Token")
    assert olive.get(f"/api/campaigns/{world.campaign_id}/log").status_code == 200


def test_the_session_cookie_is_http_only_and_same_site(world: World) -> None:
    client = TestClient(world.app)
    answer = client.post("/api/session", json={"name": "gina", "password": PASSWORD})
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=") and "HttpOnly" in cookie and "SameSite=lax" in cookie


def test_signing_in_never_keeps_a_session_id_chosen_before_it(world: World) -> None:
    victim = TestClient(world.app)
    plant(victim, "planted-by-an-attacker")
    page_sign_in(victim, "pat")
    assert victim.cookies.get(SESSION_COOKIE) not in (None, "planted-by-an-attacker")
    attacker = TestClient(world.app)
    plant(attacker, "planted-by-an-attacker")
    assert attacker.get("/api/campaigns").status_code == 401


def test_a_valid_session_planted_by_an_attacker_is_closed_when_the_victim_signs_in(world: World) -> None:
    attacker = TestClient(world.app)
    page_sign_in(attacker, "sam")
    planted = attacker.cookies.get(SESSION_COOKIE)
    assert planted and attacker.get("/api/campaigns").status_code == 200
    victim = TestClient(world.app)
    plant(victim, planted)
    page_sign_in(victim, "pat")
    assert victim.cookies.get(SESSION_COOKIE) != planted
    assert [c["name"] for c in victim.get("/api/campaigns").json()] == ["Kessel"]
    assert attacker.get("/api/campaigns").status_code == 401


def test_the_sign_in_form_refuses_a_post_without_its_own_token(world: World) -> None:
    client = TestClient(world.app)
    answer = client.post("/signin", data={"name": "pat", "password": PASSWORD, "pre": "guess"})
    assert answer.status_code == 403 and "expired" in answer.text
    assert client.cookies.get(SESSION_COOKIE) is None


def test_a_wrong_password_and_an_unknown_account_get_the_same_refusal(world: World) -> None:
    client = TestClient(world.app)
    wrong = client.post("/api/session", json={"name": "pat", "password": "not the password"})
    unknown = client.post("/api/session", json={"name": "nobody", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 400
    assert wrong.json() == unknown.json() == {"detail": "wrong account name or password"}


def test_signing_out_closes_the_session(world: World) -> None:
    pat = world.client("pat")
    assert pat.delete("/api/session").status_code == 200
    assert pat.get("/api/campaigns").status_code == 401


def test_a_bearer_token_works_without_csrf_and_a_wrong_one_is_refused(world: World) -> None:
    token = world.client("pat").post("/api/tokens").json()["token"]
    script = TestClient(world.app)
    script.headers["Authorization"] = f"Bearer {token}"
    assert [c["role"] for c in script.get("/api/campaigns").json()] == ["player"]
    muster = {
        "command": "gf.muster",
        "args": {"name": "Robot Squad", "side": "Robots", "profile": {"models": 5, "quality": 4, "points": 50}},
    }
    assert script.post(f"/api/campaigns/{world.campaign_id}/commands", json=muster).status_code == 200
    script.headers["Authorization"] = "Bearer " + token[::-1]
    assert script.get("/api/campaigns").status_code == 401


def test_only_hashes_are_stored(world: World) -> None:
    with world.opened.engine.connect() as conn:
        hashes = [r[0] for r in conn.execute(select(accounts.c.password_hash))]
        stored = [r[0] for r in conn.execute(select(account_sessions.c.token_hash))]
    assert hashes and all(h.startswith("$argon2id$") and PASSWORD not in h for h in hashes)
    cookie = world.client("gina").cookies.get(SESSION_COOKIE)
    assert cookie and cookie not in stored and all(len(s) == 64 for s in stored)
