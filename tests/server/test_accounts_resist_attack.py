"""Accounts that resist attack: easily guessed passwords refused, sign-in guessing slowed then locked (per account
and per address), sessions and tokens that expire and end when signed out, listed and revoked, and a password
change that ends the other sessions. The clock is the test's: each wait and lifetime is stepped over exactly.

The policies are the server's own (campaign/access/throttle.py): an account's 4th failure in a row makes the
next attempt wait 1 s, then 2, 4 … 32 s, and its 10th locks it for 15 minutes; an address's 11th makes 1 s."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from campaign.bootstrap import bootstrap
from campaign.server.app import create_app
from campaign.server.context import SESSION_COOKIE
from tests.server.conftest import FAST_HASHER, PASSWORD

WRONG = "not the password at all"


@dataclass
class Clock:
    t: float = 1_900_000_000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@dataclass
class Site:
    app: object
    clock: Clock
    clients: list[TestClient] = field(default_factory=list)

    def client(self) -> TestClient:
        client = TestClient(self.app)  # type: ignore[arg-type]
        self.clients.append(client)
        return client

    def sign_in(self, name: str, password: str = PASSWORD) -> tuple[int, dict[str, object], TestClient]:
        client = self.client()
        answer = client.post("/api/session", json={"name": name, "password": password})
        if answer.status_code == 200:
            client.headers["X-CSRF-Token"] = answer.json()["csrf"]
        return answer.status_code, answer.json() | {"retry-after": answer.headers.get("retry-after")}, client


@pytest.fixture
def site(tmp_path: Path, migrated: Path) -> Iterator[Site]:
    import shutil

    shutil.copy(migrated, tmp_path / "server.db")
    opened = bootstrap(str(tmp_path / "server.db"), actor="test")
    clock = Clock()
    app = create_app(opened, hasher=FAST_HASHER, now=clock)
    with TestClient(app) as first:
        assert first.post("/api/accounts", json={"name": "gina", "password": PASSWORD}).status_code == 201
        yield Site(app, clock)
    opened.close()


def test_a_common_password_is_refused_at_sign_up_in_words(site: Site) -> None:
    client = site.client()
    for weak in ("password12", "qwertyuiop", "1234567890", "aaaaaaaaaaaa", "pat-pat-pat"):
        answer = client.post("/api/accounts", json={"name": "pat", "password": weak})
        assert answer.status_code == 400, weak
        assert "too easy to guess" in answer.json()["detail"], weak
    assert client.post("/api/accounts", json={"name": "pat", "password": PASSWORD}).status_code == 201


def test_an_account_name_that_reads_like_another_is_refused_in_words(site: Site) -> None:
    first = site.client()
    for name in ("olive", "mallory"):
        assert first.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    for name, like in (("0live", "olive"), ("rnallory", "mallory")):
        answer = site.client().post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 400
        assert answer.json()["detail"].startswith(f"the account name {name!r} reads like {like!r}")
    assert site.client().post("/api/accounts", json={"name": "oliver", "password": PASSWORD}).status_code == 201


def test_wrong_guesses_on_one_account_wait_twice_as_long_each_time_then_lock_it(site: Site) -> None:
    for _ in range(3):  # three mistyped passwords cost nothing
        assert site.sign_in("gina", WRONG)[0] == 400
    assert site.sign_in("gina", WRONG)[0] == 400  # the 4th: the next one waits 1 s
    for wait in (1, 2, 4, 8, 16, 32):
        code, said, _ = site.sign_in("gina", PASSWORD)  # even the right password, while the wait lasts
        assert code == 429 and said["retry-after"] == str(wait), (wait, said)
        assert said["detail"] == f"too many failed sign-ins for account gina: wait {wait} s before trying again"
        site.clock.advance(wait - 0.001)
        assert site.sign_in("gina", WRONG)[0] == 429  # a millisecond early
        site.clock.advance(0.001)
        assert site.sign_in("gina", WRONG)[0] == 400  # counted: the 5th … 10th failure
    code, said, _ = site.sign_in("gina", PASSWORD)
    assert code == 429 and said["retry-after"] == "900"
    assert said["detail"] == (
        "too many failed sign-ins for account gina: it is locked for 15 more minutes, the right password too; "
        "nothing was checked"
    )
    site.clock.advance(899)
    assert site.sign_in("gina", PASSWORD)[0] == 429
    site.clock.advance(1)
    assert site.sign_in("gina", PASSWORD)[0] == 200
    # The success cleared the account's count, not its address's: the address's 11th failure makes it wait.
    assert site.sign_in("gina", WRONG)[0] == 400
    code, said, _ = site.sign_in("gina", WRONG)
    assert code == 429 and said["detail"] == "too many failed sign-ins for your address: wait 1 s before trying again"


def test_an_unknown_account_is_throttled_as_a_known_one_is(site: Site) -> None:
    """Else the 429 would tell a guesser which names are accounts."""
    for _ in range(4):
        assert site.sign_in("nobody-here", WRONG)[0] == 400
    code, said, _ = site.sign_in("nobody-here", WRONG)
    assert code == 429
    assert said["detail"] == "too many failed sign-ins for account nobody-here: wait 1 s before trying again"


def test_one_address_spraying_many_accounts_is_slowed_on_its_address(site: Site) -> None:
    for i in range(11):
        assert site.sign_in(f"member{i}", WRONG)[0] == 400
    code, said, _ = site.sign_in("gina", PASSWORD)
    assert code == 429 and said["detail"] == "too many failed sign-ins for your address: wait 1 s before trying again"
    site.clock.advance(1)
    assert site.sign_in("gina", PASSWORD)[0] == 200


def test_a_flood_of_sign_ups_from_one_address_is_slowed(site: Site) -> None:
    client = site.client()  # gina's account was the address's first
    for i in range(4):
        assert client.post("/api/accounts", json={"name": f"new{i}", "password": PASSWORD}).status_code == 201
    answer = client.post("/api/accounts", json={"name": "new4", "password": PASSWORD})  # the 6th: then 5 s
    assert answer.status_code == 201
    answer = client.post("/api/accounts", json={"name": "new5", "password": PASSWORD})
    assert answer.status_code == 429 and answer.headers["retry-after"] == "5"
    assert answer.json()["detail"] == "too many new accounts from your address: wait 5 s before making another"


def test_the_sign_in_page_says_when_to_try_again(site: Site) -> None:
    import re

    for _ in range(4):
        site.sign_in("gina", WRONG)
    page = site.client()
    pre = re.search(r'name="pre" value="([^"]+)"', page.get("/signin").text)
    assert pre is not None
    answer = page.post("/signin", data={"name": "gina", "password": PASSWORD, "pre": pre.group(1)})
    assert answer.status_code == 429 and answer.headers["retry-after"] == "1"
    assert "wait 1 s before trying again" in answer.text and SESSION_COOKIE not in answer.cookies


def test_a_session_unused_for_its_lifetime_ends_and_each_use_slides_it(site: Site) -> None:
    _, _, client = site.sign_in("gina")
    lifetime = 14 * 24 * 3600
    for _ in range(2):  # used every 13 days: still open after 26 (its absolute end is at 30)
        site.clock.advance(lifetime - 24 * 3600)
        assert client.get("/api/campaigns").status_code == 200
    site.clock.advance(lifetime)
    assert client.get("/api/campaigns").status_code == 401


def test_a_session_from_ten_years_ago_opens_nothing(site: Site) -> None:
    _, _, client = site.sign_in("gina")
    site.clock.advance(10 * 365 * 24 * 3600)
    assert client.get("/api/campaigns").status_code == 401
    assert client.get("/", follow_redirects=False).headers["location"] == "/signin"


def test_a_token_ends_after_its_lifetime_however_often_it_is_used(site: Site) -> None:
    _, _, client = site.sign_in("gina")
    token = client.post("/api/tokens", json={"label": "nightly export"}).json()
    script = TestClient(site.app, headers={"Authorization": f"Bearer {token['token']}"})  # type: ignore[arg-type]
    for _ in range(9):  # used every 10 days for 90 days
        site.clock.advance(10 * 24 * 3600 - 1)
        assert script.get("/api/campaigns").status_code == 200  # past the 30 days of the session it was made in
    site.clock.advance(9)
    assert script.get("/api/campaigns").status_code == 401
    assert client.get("/api/campaigns").status_code == 401


def test_a_token_cannot_make_a_token_that_would_outlive_it(site: Site) -> None:
    """A token lives its own lifetime from when it is made: one made with another token would live 90 days past its
    maker, and so on, and a stolen token would never end."""
    _, _, client = site.sign_in("gina")
    token = client.post("/api/tokens", json={"label": "nightly export"}).json()["token"]
    script = TestClient(site.app, headers={"Authorization": f"Bearer {token}"})  # type: ignore[arg-type]
    refused = script.post("/api/tokens", json={"label": "another"})
    assert refused.status_code == 403 and "a token cannot make another token" in refused.json()["detail"]
    assert "another" not in [s["label"] for s in client.get("/api/sessions").json()]


def test_signing_out_ends_the_session_and_the_tokens_made_in_it(site: Site) -> None:
    _, _, browser = site.sign_in("gina")
    _, _, laptop = site.sign_in("gina")
    made_here = browser.post("/api/tokens").json()["token"]
    made_there = laptop.post("/api/tokens").json()["token"]
    assert browser.delete("/api/session").status_code == 200
    assert browser.get("/api/campaigns").status_code == 401
    for token, code in ((made_here, 401), (made_there, 200)):
        script = TestClient(site.app, headers={"Authorization": f"Bearer {token}"})  # type: ignore[arg-type]
        assert script.get("/api/campaigns").status_code == code
    assert laptop.get("/api/campaigns").status_code == 200


def test_an_account_lists_its_sessions_and_revokes_one(site: Site) -> None:
    _, _, browser = site.sign_in("gina")
    _, _, phone = site.sign_in("gina")
    token = browser.post("/api/tokens", json={"label": "league table"}).json()
    listed = browser.get("/api/sessions").json()
    assert sorted((s["kind"], s["label"], s["current"]) for s in listed) == [
        ("session", "", False),
        ("session", "", True),
        ("token", "league table", False),
    ]
    assert all("token" not in s and "csrf" not in s for s in listed)  # no secret is listed
    phone_id = next(s["id"] for s in listed if s["kind"] == "session" and not s["current"])
    assert browser.delete(f"/api/sessions/{phone_id}").json() == {"revoked": phone_id}
    assert phone.get("/api/campaigns").status_code == 401
    assert browser.delete(f"/api/sessions/{token['id']}").status_code == 200
    script = TestClient(site.app, headers={"Authorization": f"Bearer {token['token']}"})  # type: ignore[arg-type]
    assert script.get("/api/campaigns").status_code == 401
    answer = browser.delete(f"/api/sessions/{phone_id}")
    assert answer.status_code == 404 and "no session or token" in answer.json()["detail"]


def test_another_account_s_session_cannot_be_revoked(site: Site) -> None:
    _, _, gina = site.sign_in("gina")
    other = site.client()
    assert other.post("/api/accounts", json={"name": "mallory", "password": PASSWORD}).status_code == 201
    _, _, mallory = site.sign_in("mallory")
    gina_id = gina.get("/api/sessions").json()[0]["id"]
    assert mallory.delete(f"/api/sessions/{gina_id}").status_code == 404
    assert gina.get("/api/campaigns").status_code == 200


def test_a_password_change_checks_the_old_one_and_ends_every_other_session(site: Site) -> None:
    _, _, here = site.sign_in("gina")
    _, _, elsewhere = site.sign_in("gina")
    token = elsewhere.post("/api/tokens").json()["token"]
    new = "a fresh passphrase for the league"
    wrong = here.post("/api/account/password", json={"current": WRONG, "new": new})
    assert wrong.status_code == 400 and wrong.json()["detail"] == "wrong account name or password"
    weak = here.post("/api/account/password", json={"current": PASSWORD, "new": "password12"})
    assert weak.status_code == 400 and "too easy to guess" in weak.json()["detail"]
    done = here.post("/api/account/password", json={"current": PASSWORD, "new": new})
    assert done.json() == {"account": "gina", "sessions_ended": 2}
    assert here.get("/api/campaigns").status_code == 200
    assert elsewhere.get("/api/campaigns").status_code == 401
    script = TestClient(site.app, headers={"Authorization": f"Bearer {token}"})  # type: ignore[arg-type]
    assert script.get("/api/campaigns").status_code == 401
    assert site.sign_in("gina", PASSWORD)[0] == 400
    assert site.sign_in("gina", new)[0] == 200


def test_a_password_changed_with_a_token_ends_that_token_too(site: Site) -> None:
    """A token ends when the password changes, even the one that changed it: one who holds a stolen token cannot
    keep it by changing the password; the browser session stays signed in only when it is the one asking."""
    _, _, browser = site.sign_in("gina")
    token = browser.post("/api/tokens").json()["token"]
    script = TestClient(site.app, headers={"Authorization": f"Bearer {token}"})  # type: ignore[arg-type]
    done = script.post("/api/account/password", json={"current": PASSWORD, "new": "a fresh passphrase for the league"})
    assert done.status_code == 200 and done.json() == {"account": "gina", "sessions_ended": 2}  # the token, the page
    assert script.get("/api/campaigns").status_code == 401
    assert browser.get("/api/campaigns").status_code == 401


def test_wrong_current_passwords_are_throttled_as_sign_ins(site: Site) -> None:
    _, _, here = site.sign_in("gina")
    for _ in range(4):
        here.post("/api/account/password", json={"current": WRONG, "new": "a fresh passphrase for the league"})
    answer = here.post("/api/account/password", json={"current": PASSWORD, "new": "a fresh passphrase for the league"})
    assert answer.status_code == 429


def test_a_new_password_refused_as_weak_counts_as_no_failed_sign_in(site: Site) -> None:
    """The current password was right each time: trying ten new ones the rules refuse (too easy to guess) is no
    guessing, and neither waits nor locks the account; only a wrong current one counts."""
    _, _, here = site.sign_in("gina")
    for _ in range(10):
        weak = here.post("/api/account/password", json={"current": PASSWORD, "new": "password12"})
        assert weak.status_code == 400 and "too easy to guess" in weak.json()["detail"], weak.text
    assert site.sign_in("gina")[0] == 200
    done = here.post("/api/account/password", json={"current": PASSWORD, "new": "a fresh passphrase for the league"})
    assert done.status_code == 200, done.text


def test_a_session_ends_thirty_days_after_signing_in_however_often_it_is_used(site: Site) -> None:
    _, _, client = site.sign_in("gina")
    for _ in range(29):  # every day for 29 days: its sliding end never comes
        site.clock.advance(24 * 3600)
        assert client.get("/api/campaigns").status_code == 200
    site.clock.advance(24 * 3600 - 1)
    assert client.get("/api/campaigns").status_code == 200
    site.clock.advance(1)
    assert client.get("/api/campaigns").status_code == 401
    assert client.get("/", follow_redirects=False).headers["location"] == "/signin"
    assert site.sign_in("gina")[0] == 200  # signing in again opens a new one


def plain_form_client(site: Site) -> tuple[TestClient, str]:
    """A browser without JavaScript: its CSRF token only as the form's hidden field, read off the page."""
    _, _, client = site.sign_in("gina")
    client.headers.pop("X-CSRF-Token")
    client.follow_redirects = False
    page = client.get("/account")
    assert page.status_code == 200
    found = re.search(r'name="_csrf" value="([^"]+)"', page.text)
    assert found is not None
    return client, found.group(1)


def test_the_account_page_lists_the_sessions_and_a_plain_form_ends_another(site: Site) -> None:
    _, _, phone = site.sign_in("gina")
    phone.post("/api/tokens", json={"label": "league table"})
    browser, csrf = plain_form_client(site)
    page = browser.get("/account").text
    assert "this browser" in page and "a browser" in page and "token: league table" in page
    sessions = page[page.index('id="sessions"') : page.index("</table>", page.index('id="sessions"'))]
    assert not re.search(r"\d{4}-\d\d-\d\dT", sessions)  # times in words ("2 Dec 2026, 04:19 UTC"), not ISO
    assert re.search(r"<td[^>]*>\d{1,2} \w{3} \d{4}, \d\d:\d\d UTC</td>", sessions), sessions
    ids = re.findall(r'action="/account/sessions/([0-9a-f]+)/end"', page)
    assert len(ids) == 3
    phone_id = next(s["id"] for s in phone.get("/api/sessions").json() if s["current"])
    assert browser.post(f"/account/sessions/{phone_id}/end").status_code == 403  # no CSRF token: refused
    assert phone.get("/api/campaigns").status_code == 200
    ended = browser.post(f"/account/sessions/{phone_id}/end", data={"_csrf": csrf})
    assert ended.status_code == 303 and ended.headers["location"] == "/account#said"
    assert phone.get("/api/campaigns").status_code == 401
    assert "That session is ended" in browser.get("/account").text
    mine = next(s["id"] for s in browser.get("/api/sessions").json() if s["current"])
    out = browser.post(f"/account/sessions/{mine}/end", data={"_csrf": csrf})
    assert out.status_code == 303 and out.headers["location"] == "/signin"
    assert browser.get("/api/campaigns").status_code == 401


def test_a_password_changed_by_a_plain_form_ends_every_other_session(site: Site) -> None:
    _, _, elsewhere = site.sign_in("gina")
    browser, csrf = plain_form_client(site)
    new = "a fresh passphrase for the league"
    wrong = browser.post("/account/password", data={"_csrf": csrf, "current": WRONG, "new": new})
    assert wrong.status_code == 303
    assert "the current password is not right" in browser.get("/account").text
    assert elsewhere.get("/api/campaigns").status_code == 200
    assert browser.post("/account/password", data={"current": PASSWORD, "new": new}).status_code == 403
    done = browser.post("/account/password", data={"_csrf": csrf, "current": PASSWORD, "new": new})
    assert done.status_code == 303 and done.headers["location"] == "/account#said"
    assert "Your password is changed; 1 other session or token was ended." in browser.get("/account").text
    assert elsewhere.get("/api/campaigns").status_code == 401
    assert browser.get("/api/campaigns").status_code == 200
    assert site.sign_in("gina", new)[0] == 200
