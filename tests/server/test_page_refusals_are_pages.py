"""A browser that asks a page route with bad input, without the page's CSRF token or for what its role may not
do gets a page with the product's message and the refusal's status, never raw JSON; the API keeps JSON."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import World

HTML = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def a_page(answer_text: str, content_type: str) -> bool:
    return content_type.startswith("text/html") and "<!doctype html>" in answer_text and '"detail"' not in answer_text


def test_bad_input_to_a_page_is_refused_on_a_page(world: World) -> None:
    gina = world.client("gina")
    for path in (f"/c/{world.campaign_id}?amend=abc", f"/c/{world.campaign_id}/audit/abc"):
        answer = gina.get(path, headers=HTML)
        assert answer.status_code == 422, path
        assert a_page(answer.text, answer.headers["content-type"]), answer.text
        assert 'role="alert"' in answer.text and "whole number" in answer.text


def test_a_form_without_the_pages_token_is_refused_on_a_page(world: World) -> None:
    plain = TestClient(world.app)
    plain.cookies.update(world.client("gina").cookies)
    answer = plain.post(f"/c/{world.campaign_id}/undo", data={}, headers=HTML, follow_redirects=False)
    assert answer.status_code == 403 and a_page(answer.text, answer.headers["content-type"])
    assert "this page is out of date" in answer.text and "CSRF" not in answer.text


def test_a_players_amend_or_undo_is_refused_on_a_page_in_the_apis_words(world: World) -> None:
    pat = world.client("pat")
    for form in ("amend", "undo"):
        page = pat.post(f"/c/{world.campaign_id}/{form}", data={"seq": "1"}, headers=HTML)
        api = pat.post(f"/api/campaigns/{world.campaign_id}/{form}", json={"seq": 1}, headers=HTML)
        assert page.status_code == api.status_code == 403, (form, page.text, api.text)
        assert a_page(page.text, page.headers["content-type"])
        assert api.headers["content-type"] == "application/json"  # the API keeps JSON, whatever is accepted
        assert api.json()["detail"].replace("'", "&#39;") in page.text


def test_the_api_keeps_json_for_a_browser(world: World) -> None:
    answer = world.client("pat").get(f"/api/campaigns/{world.campaign_id}/log?last=-5", headers=HTML)
    assert answer.status_code == 422 and answer.json() == {"detail": "last cannot be negative"}
