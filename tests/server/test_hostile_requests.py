"""Hostile HTTP requests, by hand: each found by hunting the API (a 500, or text a name must not hold reaching
the log), each answered with a 4xx in the product's own words and nothing appended.

The rules are those of ``events/limits.py`` (names, text, numbers within ±1,000,000,000, command ids), held by
``Command.build`` for every way a command comes in, and by the server for its own inputs; a request over
1,000,000 bytes is refused before it is read (``campaign/server/app.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from campaign.bootstrap import App, bootstrap
from campaign.server.app import create_app
from tests.conftest import empty_tables
from tests.server.conftest import FAST_HASHER, PASSWORD, SQUAD, World, sign_in

JSON = {"content-type": "application/json"}


def muster(name: str = '"Robot Squad 2"', side: str = '"Robots"', extra: str = "") -> bytes:
    """A muster's body as raw JSON text, so that what a JSON encoder would refuse to write can be sent."""
    profile = '{"models":10,"quality":4,"points":150,"tough":1' + extra + "}"
    return (
        '{"command":"gf.muster","args":{"name":' + name + ',"side":' + side + ',"profile":' + profile + "}}"
    ).encode()


def roll(extra: str = "", purpose: str = "a") -> bytes:
    return ('{"command":"ledger.roll","args":{"notation":"d6","purpose":"' + purpose + '"}' + extra + "}").encode()


@pytest.fixture
def head(world: World) -> Iterator[Any]:
    def seq() -> int:
        info = world.opened.ledger.directory.get(world.campaign_id)
        assert info is not None
        return info.last_seq

    yield seq


def refused(client: TestClient, method: str, url: str, body: bytes | None, code: int) -> str:
    answer = client.request(method, url, content=body, headers=JSON)
    assert answer.status_code == code, answer.text
    detail = answer.json()["detail"]
    assert isinstance(detail, str), detail  # words, not pydantic's error list
    return detail


# What each request holds, where, the status it gets and a phrase its refusal says.
COMMANDS = [
    ("NUL in a unit's name", muster(name='"Robot\\u0000Squad"'), 400, "U+0000): not in a name"),
    ("a newline in a side", muster(side='"Robots\\nX"'), 400, "U+000A): not in a name"),
    ("a right-to-left override in a side", muster(side='"Robots\\u202e"'), 400, "U+202E): not in a name"),
    ("a lone surrogate in a name", muster(name='"\\udc80"'), 400, "name is not valid UTF-8 text"),
    ("NaN in a profile", muster(extra=',"junk":NaN'), 400, "profile.junk nan is out of range"),
    ("-Infinity in a profile", muster(extra=',"junk":-Infinity'), 400, "profile.junk -inf is out of range"),
    ("a 30-digit number in a profile", muster(extra=',"junk":' + "9" * 30), 400, "is out of range"),
    ("NUL in a profile's text", muster(extra=',"junk":"a\\u0000"'), 400, "holds a control character (U+0000)"),
    ("a lone surrogate in a profile's key", muster(extra=',"\\udc80":1'), 400, "a key of profile is not valid"),
    ("a profile nested 20 deep", muster(extra=',"junk":' + "[" * 20 + "]" * 20), 400, "nests deeper than 8"),
    ("NUL in a roll's purpose", roll(purpose="a\\u0000"), 400, "purpose 'a\\x00' holds a control character"),
    ("an empty command id", roll(',"command_id":""'), 400, "a command id must not be empty"),
    ("a blank command id", roll(',"command_id":"   "'), 400, "a command id must not be empty"),
    ("NUL in a command id", roll(',"command_id":"a\\u0000"'), 400, "a command id 'a\\x00' holds a control"),
    ("a lone surrogate in a command id", roll(',"command_id":"\\udc80"'), 422, "command_id is not valid UTF-8 text"),
    ("a lone surrogate in table dice", roll(',"dice":"\\udc80"'), 422, "dice is not valid UTF-8 text"),
    ("bytes that are not UTF-8", b'{"command":"\xff\xfe"}', 400, "the request's body is not JSON this server reads"),
    ("JSON nested past the stack", b'{"args":' + b"[" * 100_000 + b"]" * 100_000 + b"}", 400, "is not JSON this"),
    ("a list for a body", b"[1]", 422, "the body must be a JSON object"),
    ("a list for the inputs", b'{"command":"gf.muster","args":[1]}', 422, "args must be a JSON object"),
]


@pytest.mark.parametrize(("what", "body", "code", "says"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_a_hostile_command_is_refused_in_words_and_appends_nothing(
    world: World, head: Any, what: str, body: bytes, code: int, says: str
) -> None:
    before = head()
    for who in ("gina", "pat") if b"gf.muster" in body else ("gina",):  # a player may muster for its side
        detail = refused(world.client(who), "POST", f"/api/campaigns/{world.campaign_id}/commands", body, code)
        assert says in detail, (what, detail)
    assert head() == before


ACCOUNTS = [
    ("/api/accounts", b'{"name":"\\udc80","password":"correct horse battery"}', "name is not valid UTF-8 text"),
    ("/api/accounts", b'{"name":"zed","password":"%s"}' % (b"\\udc80" * 10), "password is not valid UTF-8"),
    ("/api/session", b'{"name":"gina","password":"\\udc80"}', "password is not valid UTF-8 text"),
    ("/api/campaigns", b'{"name":"\\udc80","ruleset":"grimdark"}', "name is not valid UTF-8 text"),
    ("/api/campaigns", b'{"name":"Elsewhere","ruleset":"\\udc80"}', "ruleset is not valid UTF-8 text"),
]  # fmt: skip


@pytest.mark.parametrize(("url", "body", "says"), ACCOUNTS, ids=[f"{a[0]} {a[2]}" for a in ACCOUNTS])
def test_text_that_is_not_utf8_in_the_servers_own_inputs_is_a_422_in_words_not_a_500(
    world: World, url: str, body: bytes, says: str
) -> None:
    assert says in refused(world.client("gina"), "POST", url, body, 422)


def test_a_refused_seq_is_a_422_in_words(world: World) -> None:
    answer = world.client("olive").get(f"/api/campaigns/{world.campaign_id}/log", params={"at": 10**20})
    assert answer.status_code == 422
    assert answer.json() == {"detail": "at must be at most 1000000000"}


def test_the_game_masters_inputs_are_held_to_the_same_rules(world: World, head: Any) -> None:
    gina, cid = world.client("gina"), world.campaign_id
    first = {"command": "gf.muster", "args": {"name": "Robot Squad", "side": "Robots", "profile": SQUAD}}
    assert gina.post(f"/api/campaigns/{cid}/commands", json=first).status_code == 200
    before = head()
    members, amend, at = f"/api/campaigns/{cid}/members", f"/api/campaigns/{cid}/amend", b'{"seq":%d,' % before
    hostile = [
        (members, b'{"account":"pat","role":"player","sides":["Robots\\u0000"]}', 400, "a side 'Robots\\x00' holds"),
        (members, b'{"account":"pat","role":"player","sides":["\\udc80"]}', 400, "a side is not valid UTF-8 text"),
        (
            members,
            b'{"account":"pat","role":"player","sides":[%s]}' % b",".join([b'"S"'] * 21),
            400,
            "at most 20 sides",
        ),
        (members, b'{"account":"\\udc80","role":"player"}', 422, "account is not valid UTF-8 text"),
        (f"/api/campaigns/{cid}/rewind", b'{"to":2,"reason":"a\\u0000"}', 400, "a rewind's reason 'a\\x00' holds"),
        (amend, at + b'"set":{"\\udc80":1}}', 400, "an input's name is not valid"),
        (amend, at + b'"set":{"name":"X\\u0000"}}', 400, "name 'X\\x00' holds"),
        (amend, at + b'"set":{"name":%s}}' % (b"9" * 40), 400, "is out of range"),
        (amend, at + b'"set":{"profile":NaN},"preview":true}', 400, "nan is out of range"),
    ]
    for url, body, code, says in hostile:
        assert says in refused(gina, "POST", url, body, code), body
    assert head() == before


def test_a_body_over_a_million_bytes_is_refused_before_it_is_read(world: World, head: Any) -> None:
    url, before = f"/api/campaigns/{world.campaign_id}/commands", head()
    big = muster(name='"' + "x" * 1_000_001 + '"')
    assert "larger than 1,000,000 bytes" in refused(world.client("gina"), "POST", url, big, 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: cut off as it passes the limit
        yield b'{"command":"gf.muster","args":{"name":"'
        yield from (b"x" * 100_000 for _ in range(11))
        yield b'"}}'

    answer = world.client("gina").post(url, content=chunks(), headers=JSON)
    assert answer.status_code == 413
    assert answer.json() == {"detail": "the request is larger than 1,000,000 bytes: nothing was read or appended"}
    form = world.client("gina").post(
        f"/c/{world.campaign_id}/command",
        content=chunks(),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert form.status_code == 413
    assert head() == before


def test_a_body_of_exactly_a_million_bytes_is_read(world: World) -> None:
    body = muster(name='"Robot Squad 2"', extra=',"junk":"%s"')
    body = body.replace(b"%s", b"x" * (1_000_000 - len(body) + 2))
    assert len(body) == 1_000_000
    detail = refused(world.client("gina"), "POST", f"/api/campaigns/{world.campaign_id}/commands", body, 400)
    assert "characters long: at most 1000" in detail  # read whole, then refused by the text rule


def test_a_header_sent_twice_is_refused_not_guessed_at(world: World, head: Any) -> None:
    gina, url, before = world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", head()
    roll = {"command": "ledger.roll", "args": {"notation": "d6", "purpose": "weather"}}
    token = gina.headers["X-CSRF-Token"]
    twice = gina.post(url, json=roll, headers=[("X-CSRF-Token", token), ("X-CSRF-Token", "forged")])
    assert twice.status_code == 400
    assert twice.json() == {"detail": "this request carries X-CSRF-Token more than once: send it once"}
    bearer = TestClient(world.app).get(url, headers=[("Authorization", "Bearer a"), ("Authorization", "Bearer b")])
    assert bearer.json() == {"detail": "this request carries authorization more than once: send it once"}
    assert head() == before
    assert gina.post(url, json=roll, headers={"X-CSRF-Token": token}).status_code == 200  # once: as ever


def test_a_method_or_address_the_server_lacks_is_refused_in_words(world: World) -> None:
    url = f"/api/campaigns/{world.campaign_id}/commands"
    put = world.client("gina").put(url, json={})
    assert put.status_code == 405
    assert put.json() == {"detail": f"{url} does not take PUT requests"}
    assert world.client("gina").get("/api/nowhere").json() == {"detail": "there is nothing at /api/nowhere"}


def test_head_is_answered_wherever_get_is_with_the_same_status_and_headers_and_no_body(world: World) -> None:
    """A monitor or a browser probing with HEAD got 405 on every page and read view (FastAPI's routes, unlike
    Starlette's, do not take HEAD for GET); a method the address does not take is still refused."""
    gina, campaign = world.client("gina"), f"/api/campaigns/{world.campaign_id}"
    for url in ("/signin", "/", f"/c/{world.campaign_id}", campaign, f"{campaign}/log", "/static/ledger.css"):
        get, head = gina.get(url), gina.head(url)
        assert (head.status_code, head.content) == (200, b""), url
        assert head.headers["content-type"] == get.headers["content-type"], url
        assert head.headers["content-length"] == str(len(get.content)), url
    events = gina.head(f"{campaign}/events")  # the live stream: its headers, then the answer ends
    assert (events.status_code, events.headers["content-type"], events.content) == (
        200,
        "text/event-stream; charset=utf-8",
        b"",
    )
    stranger = TestClient(world.app)
    assert stranger.head(f"/c/{world.campaign_id}", follow_redirects=False).headers["location"] == "/signin"
    assert stranger.head(f"{campaign}/log").status_code == 401
    assert gina.head("/api/nowhere").status_code == 404
    only_post = gina.head(f"{campaign}/reveal")
    assert (only_post.status_code, only_post.headers["allow"]) == (405, "POST")


def test_an_audit_of_nothing_named_asks_for_a_seq_or_a_roll(world: World) -> None:
    """It said 'no event None in this campaign' (a 404 in Python's words)."""
    answer = world.client("olive").get(f"/api/campaigns/{world.campaign_id}/audit")
    assert answer.status_code == 400
    assert answer.json() == {"detail": "name what to audit: an event's seq, or a roll's number"}
    assert world.client("olive").get(f"/api/campaigns/{world.campaign_id}/audit", params={"seq": 1}).status_code == 200


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[App]:
    if request.param == "postgres":
        empty_tables(request.getfixturevalue("pg_engine"))
        opened = bootstrap(request.getfixturevalue("pg_url"), actor="test")
    else:
        opened = bootstrap(str(tmp_path / "nul.db"), actor="test")
    yield opened
    opened.close()


def test_a_nul_asked_for_is_refused_alike_on_sqlite_and_postgresql(any_db: App) -> None:
    """The fuzzer's find on PostgreSQL (POST /api/session with a NUL in the name → 500: PostgreSQL refuses a NUL
    even in a query). No name holds one, so none is looked up: the same 4xx on both databases."""
    app = create_app(any_db, hasher=FAST_HASHER)
    with TestClient(app):
        gina = sign_in(app, "gina")
        cid = gina.post("/api/campaigns", json={"name": "Kessel", "ruleset": "grimdark"}).json()["campaign_id"]
        head = any_db.ledger.store.head(cid).seq
        wrong = gina.post("/api/session", json={"name": "gi\x00na", "password": PASSWORD})
        assert (wrong.status_code, wrong.json()) == (400, {"detail": "wrong account name or password"})
        invite = gina.post(f"/api/campaigns/{cid}/members", json={"account": "p\x00t", "role": "observer"})
        assert invite.status_code == 400
        assert invite.json()["detail"].startswith("no account named 'p\\x00t'")
        nul = {"detail": "the address holds a NUL character (%00): no name or text does"}
        for method, url in [
            ("GET", "/api/campaigns/a%00b"),
            ("GET", f"/api/campaigns/{cid}/units/a%00b"),
            ("GET", f"/api/campaigns/{cid}/log?type=%00"),
            ("POST", f"/api/campaigns/{cid}/members/a%00/remove"),
            ("GET", "/c/a%00b"),
        ]:
            answer = gina.request(method, url)
            assert (answer.status_code, answer.json()) == (400, nul), url
        assert gina.get(f"/api/campaigns/{cid}/log", params={"type": "campaign"}).status_code == 200  # no NUL: read
        assert any_db.ledger.store.head(cid).seq == head
