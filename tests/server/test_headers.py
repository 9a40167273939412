"""Security headers on every answer (pages, the API, refusals, the static files), and templates the CSP can
serve as they are: no inline script, style or event handler anywhere in them."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from campaign.server.app import create_app
from tests.server.conftest import FAST_HASHER, World

TEMPLATES = Path(__file__).resolve().parents[2] / "campaign" / "server" / "templates"


def csp_of(answer: object) -> dict[str, str]:
    header: str = answer.headers["content-security-policy"]  # type: ignore[attr-defined]
    return {d.split(" ", 1)[0]: d.split(" ", 1)[1] for d in (x.strip() for x in header.split(";")) if d}


def test_every_kind_of_answer_carries_the_security_headers(world: World) -> None:
    gina = world.client("gina")
    answers = {
        "a page": gina.get(f"/c/{world.campaign_id}"),
        "the API": gina.get(f"/api/campaigns/{world.campaign_id}/log"),
        "a refusal": gina.get("/api/campaigns/no-such-campaign"),
        "an unknown address": gina.get("/nothing-here"),
        "a body too large": gina.post("/api/session", headers={"content-length": "2000000"}, content=b"x"),
        "the sign-in form": TestClient(world.app).get("/signin"),
        "a static file": gina.get("/static/ledger.js"),
    }
    for what, answer in answers.items():
        csp = csp_of(answer)
        assert csp["frame-ancestors"] == "'none'", what
        assert csp["script-src"] == "'self'" and csp["style-src"] == "'self'", what  # no 'unsafe-inline'
        assert "'unsafe-inline'" not in answer.headers["content-security-policy"], what
        assert answer.headers["x-frame-options"] == "DENY", what
        assert answer.headers["x-content-type-options"] == "nosniff", what
        assert answer.headers["referrer-policy"] == "no-referrer", what
        assert "strict-transport-security" not in answer.headers, what  # plain HTTP: HSTS would be a lie
    for what in ("a page", "the API", "a refusal", "the sign-in form"):
        assert answers[what].headers["cache-control"] == "no-store", what
    assert answers["a static file"].headers.get("cache-control") != "no-store"


def test_behind_https_every_answer_asks_for_https_from_then_on(world: World) -> None:
    app = create_app(world.opened, secure_cookies=True, hasher=FAST_HASHER)
    with TestClient(app) as client:
        for url in ("/signin", "/api/campaigns", "/static/ledger.css"):
            assert client.get(url).headers["strict-transport-security"].startswith("max-age=31536000"), url


def test_no_template_holds_inline_script_style_or_event_handlers() -> None:
    found = []
    for template in sorted(TEMPLATES.glob("*.html")):
        text = template.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            if "src=" not in tag and 'type="application/json"' not in tag:  # a data block is never run
                found.append(f"{template.name}: {tag}")
        found += [f"{template.name}: <style>" for _ in re.findall(r"<style\b", text)]
        found += [f"{template.name}: {a}" for a in re.findall(r"\s(style|on[a-z]+)\s*=", text)]
    assert found == []


def test_the_swagger_page_is_not_served_from_a_cdn(world: World) -> None:
    gina = world.client("gina")
    for url in ("/docs", "/redoc"):
        answer = gina.get(url)
        assert answer.status_code == 404 and "cdn" not in answer.text.lower(), url
    assert gina.get("/openapi.json").json()["info"]["title"] == "Campaign Ledger"
