"""Invitations by link: the game master makes a link for a role; whoever opens it signs up or signs in and joins
with that role, as the ``membership.granted`` event an invitation by name appends. A link opens once, until it
expires or is revoked; a used, revoked or expired one is refused in words (410), one that is no link of the server
404, and guesses from one address are throttled (429). A link for a side the campaign does not know is refused when
made; only the game master makes them.

In-process (TestClient), on the campaign of ``tests/server/conftest.py``: GM gina, pat plays Robots, olive
observes, sam is a stranger.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from fastapi.testclient import TestClient

from campaign.access.throttle import Policy
from campaign.bootstrap import bootstrap
from campaign.server.app import create_app
from campaign.server.context import SESSION_COOKIE
from tests.server.conftest import FAST_HASHER, PASSWORD, World, post, sign_in


def make(world: World, body: dict[str, Any], who: str = "gina", code: int = 201) -> dict[str, Any]:
    answer: dict[str, Any] = post(world.client(who), f"/api/campaigns/{world.campaign_id}/invitations", body, code)
    return answer


def secret(link: str) -> str:
    found = re.search(r"/join/([\w-]+)$", link)
    assert found, link
    return found.group(1)


def members(world: World) -> dict[str, tuple[str, list[str]]]:
    found = world.client("gina").get(f"/api/campaigns/{world.campaign_id}/members").json()
    return {m["account"]: (m["role"], m["sides"]) for m in found}


def events(world: World) -> int:
    info = world.opened.ledger.directory.get(world.campaign_id)
    assert info is not None
    return info.last_seq


def sign_up_by_page(world: World, link: str, name: str) -> tuple[TestClient, Any]:
    """A newcomer opens the link signed out, and signs up on its page (the form's own CSRF token sent back)."""
    newcomer = TestClient(world.app, follow_redirects=False)
    page = newcomer.get(link)
    assert page.status_code == 200, page.text
    pre = re.search(r'id="join-signup">\s*<input type="hidden" name="pre" value="([^"]+)"', page.text)
    assert pre, page.text
    sent = newcomer.post(
        "/signup", data={"name": name, "password": PASSWORD, "pre": pre.group(1), "invite": secret(link)}
    )
    return newcomer, sent


def test_a_newcomer_opens_the_link_signs_up_and_joins_as_the_sides_player(world: World) -> None:
    made = make(world, {"role": "player", "sides": ["robots"]})  # spelled as the campaign spells it
    assert made["sides"] == ["Robots"] and made["state"] == "open" and made["link"].startswith("http")
    before = events(world)
    newcomer, sent = sign_up_by_page(world, made["link"], "newbie")
    assert sent.status_code == 303 and sent.headers["location"] == f"/c/{world.campaign_id}"
    assert members(world)["newbie"] == ("player", ["Robots"])
    page = newcomer.get(sent.headers["location"])
    assert page.status_code == 200 and 'id="role">player</b> for Robots' in page.text
    # the same event joining always is, entered by the account that joined
    assert events(world) == before + 1  # one membership.granted, as an invitation by name appends
    log = world.client("gina").get(f"/api/campaigns/{world.campaign_id}/log").json()["events"]
    joined = next(e for e in reversed(log) if e["type"] == "membership.granted")
    assert joined["actor"] == "newbie" and joined["what"] == "newbie joins as player for Robots"
    stored = world.opened.ledger.store.read(world.campaign_id, after_seq=before)
    assert [(e.type, e.payload) for e in stored] == [
        ("membership.granted", {"account": "newbie", "role": "player", "sides": ["Robots"]})
    ]
    listed = world.client("gina").get(f"/api/campaigns/{world.campaign_id}/invitations").json()
    assert [(i["id"], i["state"], i["used_by"]) for i in listed] == [(made["id"], "used", "newbie")]


def test_a_used_link_opens_nothing_more_and_no_one_else_joins_by_it(world: World) -> None:
    made = make(world, {"role": "observer"})
    assert sign_up_by_page(world, made["link"], "first")[1].status_code == 303
    before = events(world)
    again = TestClient(world.app, follow_redirects=False).get(made["link"])
    assert again.status_code == 410 and "was used already (first joined by it)" in again.text
    sam = world.client("sam")
    refused = sam.post(f"/api/invitations/{secret(made['link'])}")
    assert refused.status_code == 410 and "used already" in refused.json()["detail"]
    assert "sam" not in members(world) and events(world) == before


def test_an_expired_link_is_refused_in_words(world: World) -> None:
    invitations = world.app.state.server.invitations
    made_at = 1_800_000_000
    invitations.now = lambda: made_at
    made = make(world, {"role": "observer", "hours": 1})
    invitations.now = lambda: made_at + 3600  # an hour on: it has expired
    opened = TestClient(world.app).get(made["link"])
    assert opened.status_code == 410 and "this invitation link expired on 15 Jan 2027, 09:00 UTC" in opened.text
    refused = world.client("sam").post(f"/api/invitations/{secret(made['link'])}")
    assert refused.status_code == 410 and "expired" in refused.json()["detail"]
    assert "sam" not in members(world)
    invitations.now = lambda: made_at + 3599  # a second before: it still opens
    assert TestClient(world.app).get(made["link"]).status_code == 200


def test_a_revoked_link_is_refused_and_the_page_revokes_too(world: World) -> None:
    made = make(world, {"role": "player", "sides": ["Robots"]})
    gina = world.client("gina")
    assert gina.delete(f"/api/campaigns/{world.campaign_id}/invitations/{made['id']}").json() == {"revoked": made["id"]}
    opened = TestClient(world.app).get(made["link"])
    assert opened.status_code == 410 and "revoked by the game master" in opened.text
    refused = world.client("sam").post(f"/api/invitations/{secret(made['link'])}")
    assert refused.status_code == 410 and "sam" not in members(world)
    # the page's own revoke button (in place with htmx; a plain post redirects back)
    other = make(world, {"role": "observer"})
    page = gina.get(f"/c/{world.campaign_id}").text
    assert f"/invitations/{other['id']}/revoke" in page and f"/invitations/{made['id']}/revoke" not in page
    answer = gina.post(f"/c/{world.campaign_id}/invitations/{other['id']}/revoke", headers={"HX-Request": "true"})
    assert answer.status_code == 200 and "revoked: it opens nothing now" in answer.text
    assert TestClient(world.app).get(other["link"]).status_code == 410


def test_a_link_used_while_it_is_revoked_is_said_used_not_revoked(world: World) -> None:
    """The game master revokes a link in the instant someone joins by it on another server process (in one the
    campaign's turn keeps them apart): the join lands between the revoke's read of the link and its write. The
    revoke must say the link was used (by whom), never that it is dead while its holder is a member."""
    made = make(world, {"role": "observer"})
    invitations = world.app.state.server.invitations
    read = invitations._one
    other = bootstrap(str(world.opened.engine.url.database), actor="elsewhere")
    sam = TestClient(create_app(other, hasher=FAST_HASHER), cookies=dict(world.client("sam").cookies))
    sam.headers["X-CSRF-Token"] = world.client("sam").headers["X-CSRF-Token"]

    def read_then_join(condition: Any) -> Any:
        found = read(condition)
        invitations._one = read  # the join happens once, after the revoke's read
        assert post(sam, f"/api/invitations/{secret(made['link'])}", {}, 200)
        return found

    invitations._one = read_then_join  # one interleaving, made on purpose
    try:
        answer = world.client("gina").delete(f"/api/campaigns/{world.campaign_id}/invitations/{made['id']}")
    finally:
        invitations._one = read
        other.close()
    assert answer.status_code == 400 and "used a moment ago (sam joined by it)" in answer.text
    assert members(world)["sam"][0] == "observer"
    listed = world.client("gina").get(f"/api/campaigns/{world.campaign_id}/invitations").json()
    assert [i["state"] for i in listed if i["id"] == made["id"]] == ["used"]


def test_a_link_for_a_side_the_campaign_does_not_know_or_for_a_gm_is_refused_when_made(world: World) -> None:
    said = make(world, {"role": "player", "sides": ["Lizards"]}, code=400)["detail"]
    assert "Kessel has no side 'Lizards' (its sides are Robots)" in said
    assert "a player's link names the side" in make(world, {"role": "player"}, code=400)["detail"]
    assert "not 'gm'" in make(world, {"role": "gm"}, code=400)["detail"]
    assert (
        "only a player is bound to sides" in make(world, {"role": "observer", "sides": ["Robots"]}, code=400)["detail"]
    )
    assert world.client("gina").get(f"/api/campaigns/{world.campaign_id}/invitations").json() == []


def test_only_the_game_master_makes_lists_or_revokes_links(world: World) -> None:
    made = make(world, {"role": "observer"})
    for who, refused in (("pat", 403), ("olive", 403), ("sam", 404)):  # sam, not a member: as for no campaign
        client = world.client(who)
        made_one = client.post(f"/api/campaigns/{world.campaign_id}/invitations", json={"role": "observer"})
        assert made_one.status_code == refused
        assert client.get(f"/api/campaigns/{world.campaign_id}/invitations").status_code == refused
        gone = client.delete(f"/api/campaigns/{world.campaign_id}/invitations/{made['id']}")
        assert gone.status_code == refused
        form = client.post(f"/c/{world.campaign_id}/invitations", data={"role": "observer"})
        assert form.status_code == refused
    assert "Invite by link" not in world.client("pat").get(f"/c/{world.campaign_id}").text
    assert [i["state"] for i in world.client("gina").get(f"/api/campaigns/{world.campaign_id}/invitations").json()] == [
        "open"
    ]


def test_a_signed_in_account_joins_by_the_api_and_a_member_leaves_the_link_for_someone_else(world: World) -> None:
    made = make(world, {"role": "observer"})
    token = secret(made["link"])
    pat = world.client("pat")
    before = events(world)
    kept = pat.post(f"/api/invitations/{token}")
    assert kept.status_code == 400 and "pat is a member of Kessel already (player for Robots)" in kept.json()["detail"]
    assert events(world) == before and members(world)["pat"] == ("player", ["Robots"])
    shown = TestClient(world.app).get(f"/api/invitations/{token}").json()
    assert (shown["campaign"], shown["role"], shown["state"]) == ("Kessel", "observer", "open")
    joined = world.client("sam").post(f"/api/invitations/{token}")
    assert joined.status_code == 200 and joined.json()["campaign"] == "Kessel"
    assert members(world)["sam"] == ("observer", [])


def test_an_account_signs_in_on_the_links_page_and_joins(world: World) -> None:
    made = make(world, {"role": "observer"})
    sign_in(world.app, "ursula")  # an account already, signed in elsewhere
    visitor = TestClient(world.app, follow_redirects=False)
    page = visitor.get(made["link"])
    assert "gina</b> invites you to <b>Kessel</b>" in page.text and "Sign in and join" in page.text
    pre = re.search(r'id="join-signin">\s*<input type="hidden" name="pre" value="([^"]+)"', page.text)
    assert pre
    wrong = visitor.post(
        "/signin", data={"name": "ursula", "password": "wrong one", "pre": pre.group(1), "invite": secret(made["link"])}
    )
    assert wrong.status_code == 400 and f'name="invite" value="{secret(made["link"])}"' in wrong.text  # kept
    pre = re.search(r'name="pre" value="([^"]+)"', wrong.text)
    assert pre
    sent = visitor.post(
        "/signin", data={"name": "ursula", "password": PASSWORD, "pre": pre.group(1), "invite": secret(made["link"])}
    )
    assert sent.status_code == 303 and sent.headers["location"] == f"/c/{world.campaign_id}"
    assert members(world)["ursula"] == ("observer", [])


def test_signed_in_the_links_page_joins_by_a_plain_form_with_its_csrf_token(world: World) -> None:
    made = make(world, {"role": "observer"})
    sam = world.client("sam")
    page = sam.get(made["link"])
    assert "Join as observer" in page.text
    csrf = re.search(r'id="join">\s*<input type="hidden" name="_csrf" value="([^"]+)"', page.text)
    assert csrf
    bare = TestClient(world.app, follow_redirects=False)
    bare.cookies.set(SESSION_COOKIE, sam.cookies[SESSION_COOKIE])
    assert bare.post(f"/join/{secret(made['link'])}", data={}).status_code == 403  # no token: another site's post
    assert "sam" not in members(world)
    joined = bare.post(f"/join/{secret(made['link'])}", data={"_csrf": csrf.group(1)})
    assert joined.status_code == 303 and joined.headers["location"] == f"/c/{world.campaign_id}"
    assert members(world)["sam"] == ("observer", [])


def test_the_game_masters_page_makes_a_link_without_javascript(world: World) -> None:
    gina = world.client("gina")
    csrf = gina.headers.pop("X-CSRF-Token")  # a plain form: the token is a field, as the page's forms send it
    try:
        sent = gina.post(
            f"/c/{world.campaign_id}/invitations",
            data={"_csrf": csrf, "role": "player", "side": "Robots", "hours": "5"},
            follow_redirects=False,
        )
        assert sent.status_code == 303 and sent.headers["location"].endswith("#invitations")
        page = gina.get(sent.headers["location"]).text
        link = re.search(r'id="invitation-link" class="link-text" value="([^"]+)"', page)
        assert link and "A link for a player for Robots" in page
        assert 'id="invitation-link"' not in gina.get(f"/c/{world.campaign_id}").text  # shown once
        refused = gina.post(
            f"/c/{world.campaign_id}/invitations", data={"_csrf": csrf, "role": "player", "side": "Orks"}
        )
        assert refused.status_code == 200 and "has no side &#39;Orks&#39;" in refused.text
    finally:
        gina.headers["X-CSRF-Token"] = csrf
    assert TestClient(world.app).get(link.group(1)).status_code == 200


def test_link_guesses_from_one_address_are_throttled_and_a_real_link_is_not_a_guess(world: World) -> None:
    guard = world.app.state.guard
    guard.settings = replace(
        guard.settings,
        link_guess=Policy(free=2, first_wait_s=30, max_wait_s=60, lock_after=5, lock_s=900, forget_s=3600),
    )
    made = make(world, {"role": "observer"})
    guesser = TestClient(world.app)
    for _ in range(3):
        assert guesser.get(made["link"]).status_code == 200  # real: never counted
    answers = [guesser.get(f"/join/{'x' * 32}{i}") for i in range(4)]
    assert [a.status_code for a in answers] == [404, 404, 404, 429]
    assert (
        "this invitation link is not one of this server" in answers[0].text
        and "too many invitation links tried" in answers[3].text
    )
    assert int(answers[3].headers["Retry-After"]) > 0
    assert guesser.get(made["link"]).status_code == 429  # the address waits, whatever it opens
    assert guesser.post(f"/api/invitations/{'y' * 32}").status_code in (401, 429)


def test_the_links_pages_speak_the_readers_language_and_the_api_stays_english(world: World) -> None:
    invitations = world.app.state.server.invitations
    made_at = 1_800_000_000
    invitations.now = lambda: made_at
    gina = world.client("gina")
    gina.get("/lang/pl", params={"next": "/"})
    page = gina.get(f"/c/{world.campaign_id}").text
    assert "Zaproś przez link" in page and "Utwórz link" in page and "Invite by link" not in page
    made = gina.post(
        f"/c/{world.campaign_id}/invitations",
        data={"role": "player", "side": "Robots", "hours": "2"},
        headers={"HX-Request": "true"},
    )
    assert "Link dla gracza strony Robots, ważny do 15 sty 2027, 10:00 UTC" in made.text
    link = re.search(r'id="invitation-link" class="link-text" value="([^"]+)"', made.text)
    assert link
    opened = TestClient(world.app).get(link.group(1), headers={"Accept-Language": "ru"})
    assert opened.status_code == 200 and "Вступить в кампанию Kessel" in opened.text
    assert "<b>gina</b> приглашает вас в кампанию <b>Kessel</b> (One Page Rules Grimdark Future); роль:" in opened.text
    assert '<b id="invitation-role">игрок за Robots</b>' in opened.text and "до 15 янв. 2027, 10:00 UTC" in opened.text
    invitations.now = lambda: made_at + 7200  # expired: said in the reader's words, and in English to a script
    gone = TestClient(world.app).get(link.group(1), headers={"Accept-Language": "ru"})
    assert gone.status_code == 410 and "срок этой ссылки-приглашения истёк 15 янв. 2027, 10:00 UTC" in gone.text
    refused = world.client("sam").post(f"/api/invitations/{secret(link.group(1))}", headers={"Accept-Language": "ru"})
    assert refused.status_code == 410 and "this invitation link expired on 15 Jan 2027, 10:00 UTC" in refused.text
    unknown = TestClient(world.app).get("/join/no-such-link", headers={"Accept-Language": "pl"})
    assert unknown.status_code == 404 and "ten link z zaproszeniem nie pochodzi z tego serwera" in unknown.text


def test_a_link_made_with_the_cli_names_no_os_user_as_the_inviter(world: World) -> None:
    # the CLI records its actor (the OS user: root on a server); the invitee knows the campaign's game master
    from campaign.access.invitations import Invitations
    from campaign.access.memberships import Memberships

    info = world.opened.ledger.directory.get(world.campaign_id)
    assert info is not None
    token, _ = Invitations(world.opened.engine).make(
        Memberships(world.opened.engine), info, "observer", [], "root", 3600
    )
    page = TestClient(world.app).get(f"/join/{token}").text
    assert "The game master invites you to <b>Kessel</b>" in page and "root" not in page
    by_gina = TestClient(world.app).get(make(world, {"role": "observer"})["link"]).text
    assert "gina</b> invites you to <b>Kessel</b>" in by_gina  # the game master who made it, by name
