"""The campaign page's command forms, generated from the command models, and the page without JavaScript.

In-process (TestClient): the forms' controls come from what each input is (a picker of the campaign's units, a
fieldset of a profile's fields with the profile model's bounds, ticks for a list of units), no JSON is typed; a
refused input comes back in words beside its field; a command that rolls first says which dice to roll, then
takes them die by die; a player's form for another side's unit is refused before any dice are asked for, in the
API's words. A plain form post (no htmx) carries the CSRF token as a field and is
answered by a redirect back to the page, which shows the answer once.

Grimdark (RULES.md §4): Quality N+ is 2–6; a unit at half strength or less after shooting tests Quality on a d6
(§4.1 A), Shaken on a fail; in a melee the side that caused fewer wounds tests (§4.1 B).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from campaign.rulesets.command import Phase
from tests.server.conftest import SQUAD, World, post

HTMX = {"HX-Request": "true"}
MUSTER = {"_command": "gf.muster", "name": "Robot Squad", "side": "Robots", "profile.points": "150"}


def muster(world: World, name: str, side: str) -> None:
    body = {"command": "gf.muster", "args": {"name": name, "side": side, "profile": SQUAD}}
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", body)


def battle(world: World) -> None:
    muster(world, "Robot Squad", "Robots")
    muster(world, "Saurian Warriors", "Saurians")
    body = {"command": "gf.battle_start", "args": {"name": "Ruins", "units": ["Robot Squad", "Saurian Warriors"]}}
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", body)


def form_of(page: str, command: str) -> str:
    found = re.search(rf'<details class="command" id="cmd-{command}".*?</details>', page, re.S)
    assert found, f"no form for {command}"
    return found.group(0)


def field(html: str, name: str) -> str:
    """The control's block (its label, input, help and error) for the form field ``name``."""
    found = re.search(
        rf'<div class="field[^"]*">(?:(?!<div class="field).)*?name="{re.escape(name)}".*?</div>', html, re.S
    )
    assert found, f"no field {name}"
    return found.group(0)


def head(world: World) -> int:
    info = world.opened.ledger.directory.get(world.campaign_id)
    assert info is not None
    return info.last_seq


def send(client: TestClient, world: World, fields: dict[str, Any], *, htmx: bool = True) -> Any:
    return client.post(
        f"/c/{world.campaign_id}/command", data=fields, headers=HTMX if htmx else {}, follow_redirects=False
    )


def test_the_forms_are_the_models_no_json_is_typed(world: World) -> None:
    muster(world, "Robot Squad", "Robots")
    muster(world, "Saurian Warriors", "Saurians")
    page = world.client("gina").get(f"/c/{world.campaign_id}").text
    assert "(JSON)" not in page and "<textarea" not in page
    muster_form = form_of(page, "gf-muster")
    quality = field(muster_form, "profile.quality")
    assert 'type="number"' in quality and 'min="2"' in quality and 'max="6"' in quality  # Quality 2–6
    assert "<legend>profile</legend>" in muster_form
    start = form_of(page, "gf-battle_start")
    # the units a battle starts with: a tick per unit of the campaign, with its side
    assert 'name="units" value="Robot Squad"' in start and "Saurian Warriors (Saurians)" in start
    body = {"command": "gf.battle_start", "args": {"name": "Ruins", "units": ["Robot Squad", "Saurian Warriors"]}}
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", body)
    page = world.client("gina").get(f"/c/{world.campaign_id}").text
    melee = form_of(page, "gf-melee")
    assert '<select id="gf-melee-f-a" name="a"' in melee
    assert "<b>melee</b>" in melee  # named as typed on the command line after "gf", not gf.melee


def test_a_players_own_unit_picker_offers_its_own_sides_units_only(world: World) -> None:
    battle(world)
    page = world.client("pat").get(f"/c/{world.campaign_id}").text
    shoot = field(form_of(page, "gf-shoot"), "unit_name")
    assert "Robot Squad (Robots)" in shoot and "Saurian" not in shoot
    assert "cmd-gf-battle_start" not in page  # the game master's to enter: not offered


def test_a_refused_input_is_said_beside_its_field_and_nothing_is_appended(world: World) -> None:
    before = head(world)
    fields = MUSTER | {"profile.models": "10"}
    answer = send(world.client("gina"), world, {**fields, "profile.quality": "7"})
    assert answer.status_code == 400
    quality = field(answer.text, "profile.quality")
    assert 'class="field-error"' in quality and "6" in quality  # at most 6 (Quality 2–6)
    assert 'value="Robot Squad"' in answer.text  # what was typed is kept
    not_a_number = send(world.client("gina"), world, {**fields, "profile.quality": "four"})
    assert "a whole number, not &#39;four&#39;" in field(not_a_number.text, "profile.quality")
    assert head(world) == before


def test_which_dice_then_die_by_die(world: World) -> None:
    battle(world)
    pat = world.client("pat")
    fields = {"_command": "gf.shoot", "unit_name": "Robot Squad", "wounds": "6"}
    before = head(world)
    counted = send(pat, world, {**fields, "_step": "count"})
    assert counted.status_code == 200, counted.text
    # 4 models of 10 left: under half, it tests Quality on one d6 (§4.1 A)
    dice = re.findall(
        r'<input id="die-[^"]+" name="_die" type="number" inputmode="numeric" min="1" max="6"', counted.text
    )
    assert len(dice) == 1 and "Record these dice" in counted.text
    assert head(world) == before  # asking appends nothing
    seven = send(pat, world, {**fields, "_step": "table", "_die": "7"})
    assert seven.status_code == 400 and head(world) == before
    assert 'name="_die"' in seven.text  # the dice asked for again, with the refusal
    entered = send(pat, world, {**fields, "_step": "table", "_die": "3"})
    assert entered.status_code == 200, entered.text
    assert "shoot: Robot Squad" in entered.text and "Shaken" in entered.text  # a 3 fails Quality 4+
    rolled = [e for e in world.opened.ledger.store.read(world.campaign_id, after_seq=before) if e.type == "dice.rolled"]
    assert [(e.payload["faces"], e.payload["source"]) for e in rolled] == [([3], "table")]


def test_a_players_melee_that_sets_the_other_sides_fate_is_refused_before_its_dice(world: World) -> None:
    """Wounds dealt to another side's unit are the GM's to enter (README's role table): the player's form is
    refused when it asks which dice to roll, as the API refuses it, before any die (even one waiting for the
    Saurians, who caused fewer wounds and test, §4.1 B) is asked for."""
    battle(world)
    pat = world.client("pat")
    fields = {"_command": "gf.melee", "a": "Robot Squad", "b": "Saurian Warriors", "wounds_by_a": "9"}
    fields["wounds_by_b"] = "0"
    before = head(world)
    counted = send(pat, world, {**fields, "_step": "count"})
    assert counted.status_code == 403 and "game master" in counted.text
    assert "Waiting for" not in counted.text and "Record these dice" not in counted.text
    anyway = send(pat, world, {**fields, "_step": "seeded"})
    assert anyway.status_code == 403 and "game master" in anyway.text
    assert head(world) == before
    gm = send(world.client("gina"), world, {**fields, "_step": "count"})
    assert "Waiting for" not in gm.text and "Record these dice" in gm.text  # the GM enters any side's dice


def test_a_players_unit_pickers_offer_only_the_units_it_may_name_there(world: World) -> None:
    """A player names only its own sides' units where a unit acts (the shooter's target takes the test) and where
    one is acted on (each unit of a melee): another side's is the GM's to enter (README's role table), so the
    player's pickers do not offer it; the GM's offer every unit."""
    battle(world)

    def melee_form(who: str) -> str:
        page = world.client(who).get(f"/c/{world.campaign_id}").text
        return page.split('id="cmd-gf-melee"', 1)[1].split("</details>", 1)[0]

    for picker in ("a", "b"):
        mine = melee_form("pat").split(f'name="{picker}"', 1)[1].split("</select>", 1)[0]
        assert 'value="Robot Squad"' in mine and "Saurian Warriors" not in mine
        gms = melee_form("gina").split(f'name="{picker}"', 1)[1].split("</select>", 1)[0]
        assert 'value="Robot Squad"' in gms and 'value="Saurian Warriors"' in gms


def test_another_sides_unit_is_refused_before_any_dice_are_asked_for(world: World) -> None:
    """Counting the dice is not a way round the refusal: the page refuses first, in the API's words."""
    battle(world)
    pat = world.client("pat")
    fields = {"_command": "gf.shoot", "unit_name": "Saurian Warriors", "wounds": "6"}
    args = {"unit_name": "Saurian Warriors", "wounds": 6}
    api = pat.post(f"/api/campaigns/{world.campaign_id}/commands", json={"command": "gf.shoot", "args": args})
    assert api.status_code == 403
    said = api.json()["detail"]
    assert said == "Saurian Warriors does not fight for your side (Robots)"
    before = head(world)
    for step in ("count", "nodice"):
        counted = send(pat, world, {**fields, "_step": step})
        assert counted.status_code == 403, counted.text
        assert said in counted.text and "Waiting for" not in counted.text and 'name="_die"' not in counted.text
    assert head(world) == before


def test_a_players_form_of_the_game_masters_command_is_refused_as_the_api_refuses_it(world: World) -> None:
    """Not allowed is 403 in the API and on the page, in the same words (a command of the campaign that the
    player's role may not enter is not "not a command")."""
    battle(world)
    pat = world.client("pat")
    api = pat.post(f"/api/campaigns/{world.campaign_id}/commands", json={"command": "gf.battle_end", "args": {}})
    assert api.status_code == 403
    assert api.json()["detail"] == "gf.battle_end is the game master's to enter"
    before = head(world)
    page = send(pat, world, {"_command": "gf.battle_end"})
    assert page.status_code == 403 and "gf.battle_end is the game master&#39;s to enter" in page.text
    assert "not a command you may enter here" not in page.text
    assert head(world) == before


def without_js(client: TestClient) -> TestClient:
    """The same browser session as a plain form posts it: the session cookie, no CSRF header, no htmx."""
    plain = TestClient(client.app)
    plain.cookies.update(client.cookies)
    return plain


def csrf_of(client: TestClient, world: World) -> str:
    page = client.get(f"/c/{world.campaign_id}").text
    found = re.search(r'name="_csrf" value="([^"]+)"', page)
    assert found
    return found.group(1)


def test_without_javascript_a_form_posts_and_redirects_back(world: World) -> None:
    plain = without_js(world.client("gina"))
    token = csrf_of(plain, world)
    fields = MUSTER | {"profile.models": "10"}
    answer = send(plain, world, {**fields, "profile.quality": "4", "_csrf": token}, htmx=False)
    assert answer.status_code == 303 and answer.headers["location"].endswith("#cmd-gf-muster")
    page = plain.get(answer.headers["location"])
    assert "muster: Robot Squad mustered for Robots" in page.text
    assert "Robot Squad" in page.text.split('id="roster"')[1].split("</section>")[0]
    again = plain.get(f"/c/{world.campaign_id}")
    assert 'role="status">muster:' not in again.text  # shown once


def test_a_form_sent_twice_is_recorded_once(world: World) -> None:
    """Without JavaScript a double tap, or the form sent again after the back button, posts the same form twice:
    it carries the id it was drawn with, so the second is the same command, answered "already recorded"; a form
    drawn again afterwards is a new command."""
    plain = without_js(world.client("gina"))
    page = plain.get(f"/c/{world.campaign_id}").text
    token = csrf_of(plain, world)
    drawn = re.search(r'name="_command_id" value="([^"]+)"', form_of(page, "gf-muster"))
    assert drawn, "the form carries its id"
    fields = {**MUSTER, "profile.models": "10", "profile.quality": "4", "_csrf": token, "_command_id": drawn[1]}
    before = head(world)
    for _ in range(2):
        answer = send(plain, world, fields, htmx=False)
        assert answer.status_code == 303
    assert head(world) > before
    once = head(world)
    again = plain.get(answer.headers["location"]).text
    assert "muster: already recorded, nothing new was appended" in again
    redrawn = re.search(r'name="_command_id" value="([^"]+)"', form_of(again, "gf-muster"))
    assert redrawn and redrawn[1] != drawn[1], "drawn again, the form is a new command"
    renamed = {**fields, "name": "Robot Squad 2", "_command_id": redrawn[1]}
    assert send(plain, world, renamed, htmx=False).status_code == 303
    assert head(world) > once


def test_an_undo_sent_twice_takes_back_one_command(world: World) -> None:
    """The GM's undo carries the head the page showed: sent twice (a double tap without JavaScript), the second
    is refused in words, for what it would take back (the first undo) came after that page; the command before
    stays in effect."""
    muster(world, "Robot Squad", "Robots")
    muster(world, "Saurian Warriors", "Saurians")
    plain = without_js(world.client("gina"))
    page = plain.get(f"/c/{world.campaign_id}").text
    token = csrf_of(plain, world)
    shown = re.search(r'name="head" value="(\d+)" data-live-head', page)
    assert shown and int(shown[1]) == head(world)
    fields = {"_csrf": token, "head": shown[1]}
    first = plain.post(f"/c/{world.campaign_id}/undo", data=fields, follow_redirects=False)
    assert first.status_code == 303
    undone = head(world)
    plain.post(f"/c/{world.campaign_id}/undo", data=fields, follow_redirects=False)
    assert head(world) == undone, "the second post took back nothing more"
    roster = world.client("gina").get(f"/api/campaigns/{world.campaign_id}").json()
    assert [u["name"] for u in roster["units"]] == ["Robot Squad"]


def test_a_said_cookie_the_server_did_not_leave_is_not_read(world: World) -> None:
    """The answer a plain post leaves for the next page is sealed to the browser's session: a cookie of another
    shape set from elsewhere (a sibling subdomain can set one) made the campaign page a 500; it is ignored."""
    import base64

    import orjson

    client = world.client("pat")
    for forged in (
        {"command": "gf.shoot", "dice": [{"x": 1}], "values": {"unit_name": 5}},
        {"message": "hi", "lines": [True]},
    ):
        packed = base64.urlsafe_b64encode(orjson.dumps(forged)).decode()
        for cookie in (packed, f"{'0' * 32}.{packed}"):
            client.cookies.set("campaign_said", cookie)
            page = client.get(f"/c/{world.campaign_id}")
            assert page.status_code == 200, page.text[-400:]
            assert "gf.shoot" not in page.text.split('id="roster"')[0]
    client.cookies.delete("campaign_said")


def test_a_rewind_from_a_page_that_did_not_see_a_command_takes_nothing_back(world: World) -> None:
    """The rewind form carries the head its page showed, as the undo does: a player's command appended after
    the GM's page was drawn is not retracted unseen; refused in words, nothing appended."""
    muster(world, "Robot Squad", "Robots")
    plain = without_js(world.client("gina"))
    page = plain.get(f"/c/{world.campaign_id}").text
    token = csrf_of(plain, world)
    shown = re.search(r'name="head" value="(\d+)" data-live-head>\s*<div class="field"><label for="rewind-to"', page)
    assert shown, "the rewind form carries its page's head"
    to = int(shown[1]) - 1
    muster(world, "Saurian Warriors", "Saurians")  # after the GM's page was drawn
    before = head(world)
    fields = {"_csrf": token, "head": shown[1], "to": str(to), "reason": "a mistake"}
    answer = plain.post(f"/c/{world.campaign_id}/rewind", data=fields, follow_redirects=False)
    assert answer.status_code == 303
    assert head(world) == before, "nothing taken back the GM did not see"
    said = plain.get(answer.headers["location"]).text
    assert "Saurian Warriors" in said or "moved on" in said


@pytest.mark.parametrize("sent", ["999999999", "abc", "\u00b2", "-1", "1e3"])
def test_an_undo_with_a_head_that_is_no_entry_of_the_campaign_is_refused(world: World, sent: str) -> None:
    """A stray head (huge, not a number, a superscript digit) no longer turns the check of what the GM saw off
    (or failed as a 500): refused in words, nothing appended."""
    muster(world, "Robot Squad", "Robots")
    client = world.client("gina")
    before = head(world)
    answer = client.post(f"/c/{world.campaign_id}/undo", data={"head": sent}, headers=HTMX)
    assert answer.status_code == 400, answer.text
    assert "reload the page" in answer.text
    assert head(world) == before


def test_without_javascript_a_refusal_comes_back_beside_its_field(world: World) -> None:
    plain = without_js(world.client("gina"))
    token = csrf_of(plain, world)
    before = head(world)
    fields = MUSTER | {"profile.models": "0"}
    answer = send(plain, world, {**fields, "profile.quality": "4", "_csrf": token}, htmx=False)
    assert answer.status_code == 303
    page = plain.get(answer.headers["location"]).text
    assert 'class="field-error"' in field(form_of(page, "gf-muster"), "profile.models")
    assert "<details" in page and 'id="cmd-gf-muster" open' in page
    assert head(world) == before


def test_a_plain_form_without_the_pages_token_is_refused(world: World) -> None:
    plain = without_js(world.client("gina"))
    before = head(world)
    fields = MUSTER | {"profile.models": "10"}
    for token in ({}, {"_csrf": "guessed"}):
        answer = send(plain, world, {**fields, "profile.quality": "4", **token}, htmx=False)
        assert answer.status_code == 403 and "reload the page and send the form again" in answer.text
        assert "CSRF" not in answer.text  # the reader is told what to do, not the mechanism's name
    assert head(world) == before


def test_without_javascript_the_game_masters_forms_redirect_too(world: World) -> None:
    plain = without_js(world.client("gina"))
    token = csrf_of(plain, world)
    answer = plain.post(
        f"/c/{world.campaign_id}/invite",
        data={"account": "sam", "role": "observer", "_csrf": token},
        follow_redirects=False,
    )
    assert answer.status_code == 303 and answer.headers["location"].endswith("#invite-result")
    page = plain.get(answer.headers["location"]).text
    # the answer under the invite tool's own button, the tool open; not in the page's shared region at its top
    under = re.search(r'<div id="invite-result"[^>]*>(.*?)</div>', page, re.S)
    assert under is not None and "sam joins as" in under.group(1), page
    assert '<details class="tool" id="tool-invite" open>' in page and 'id="said"' not in page
    removed = plain.post(
        f"/c/{world.campaign_id}/remove", data={"account": "sam", "_csrf": token}, follow_redirects=False
    )
    assert removed.headers["location"].endswith("#remove-result")
    page = plain.get(removed.headers["location"]).text
    under = re.search(r'<div id="remove-result"[^>]*>(.*?)</div>', page, re.S)
    assert under is not None and "sam is no longer a member" in under.group(1)
    signed_out = plain.post("/signout", data={"_csrf": token}, follow_redirects=False)
    assert signed_out.status_code == 303 and signed_out.headers["location"] == "/signin"


def test_every_rulesets_forms_are_drawn_and_read_back(world: World) -> None:
    """Each ruleset's every command has a form of its own controls (none asks for JSON), and an empty form is read
    back as the model's defaults or refused in words beside its fields, never a failure."""
    from campaign.rulesets import RULESETS
    from campaign.server import forms, runner

    gina = world.client("gina")
    for ruleset in RULESETS:
        cid = post(gina, "/api/campaigns", {"name": f"All of {ruleset}", "ruleset": ruleset}, 201)["campaign_id"]
        page = gina.get(f"/c/{cid}")
        assert page.status_code == 200 and "(JSON)" not in page.text and "<textarea" not in page.text
        for spec in runner.commands_for(ruleset):
            listed = f'id="cmd-{spec.name.replace(".", "-")}"' in page.text
            offered = spec.model.listed and spec.model.phase is not Phase.BATTLE  # no battle yet: not offered
            assert listed == offered, spec.name
            assert forms.fields_of(spec.model, forms.Choices(), {}) or not spec.model.model_fields  # drawn all the same
            try:
                inputs = forms.read(spec.model, {})
            except forms.FormError as exc:
                assert exc.errors
                continue
            assert isinstance(forms.field_errors(spec.model, inputs), dict)


def test_a_die_still_on_the_table_is_asked_for_with_its_face(world: World) -> None:
    """A shot rewound leaves its morale test's die on the table (its 2): asked for again, the form says which face
    to enter, not only that one is there (RULES.md §4.1 A: 6 wounds of 10 models, a test on a d6)."""
    battle(world)
    before = head(world)
    pat = world.client("pat")
    fields = {"_command": "gf.shoot", "unit_name": "Robot Squad", "wounds": "6"}
    shot = send(pat, world, {**fields, "_step": "table", "_die": "2"})
    assert shot.status_code == 200 and head(world) > before, shot.text
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/rewind", {"to": before, "reason": "misread"})
    asked = " ".join(re.sub(r"<[^>]+>", " ", send(pat, world, {**fields, "_step": "count"}).text).split())
    assert "(still on the table: 2; enter them again)" in asked, asked


@pytest.mark.parametrize(
    ("lang", "done", "again"),
    [
        (
            "ru",
            "отменено: muster (с #",
            "эта отмена уже записана (#{seq}): кнопку нажали дважды, больше ничего не отменено",
        ),
        (
            "pl",
            "cofnięto: muster (od #",
            "to cofnięcie jest już zapisane (#{seq}): przycisk naciśnięto dwa razy, nic więcej nie cofnięto",
        ),
    ],
)
def test_an_undo_tapped_twice_says_it_was_done(world: World, lang: str, done: str, again: str) -> None:
    """The second of two undo taps from one page is the first one sent again: the page says, in the reader's
    language, that it is already recorded and nothing more was taken back — not that the campaign moved on
    with something the GM has not seen (what the GM sees on the page is the undo it just made)."""
    muster(world, "Robot Squad", "Robots")
    muster(world, "Saurian Warriors", "Saurians")
    plain = without_js(world.client("gina"))
    plain.headers["Accept-Language"] = lang
    page = plain.get(f"/c/{world.campaign_id}").text
    shown = re.search(r'name="head" value="(\d+)" data-live-head', page)
    assert shown
    fields = {"_csrf": csrf_of(plain, world), "head": shown[1]}
    first = plain.post(f"/c/{world.campaign_id}/undo", data=fields)
    assert done in " ".join(re.sub(r"<[^>]+>", " ", first.text).split())
    undone = head(world)
    second = plain.post(f"/c/{world.campaign_id}/undo", data=fields)
    assert head(world) == undone, "the second tap took back nothing more"
    said = " ".join(re.sub(r"<[^>]+>", " ", second.text).split())
    assert again.format(seq=undone) in said.replace("&#39;", "'")
    assert "moved on" not in said and "undo (" not in said
