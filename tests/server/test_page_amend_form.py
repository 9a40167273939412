"""The game master amends a command from its log row in the command's own generated form, filled with the inputs
the log recorded: only what is changed is amended, after a preview that appends nothing; with or without
JavaScript; a player is never offered it.

Grimdark (RULES.md §4.1 A, O2): a 10-model squad that takes 6 wounds has 4 left, at half strength or less, and
tests morale at the end of the activation (Quality 4+: a 2 fails, Shaken); with 1 wound it has 9 left, above half,
and no test is taken.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import SQUAD, World, post

HTMX = {"HX-Request": "true"}


def run(world: World, command: str, dice: str | None = None, **args: Any) -> dict[str, Any]:
    body = {"command": command, "args": args, "dice": dice}
    answer: dict[str, Any] = post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", body)
    return answer


@pytest.fixture
def shot(world: World) -> int:
    """Robot Squad (10 models, Quality 4+) shot for 6 wounds in a battle, its morale test's die a 2: the seq of
    the shot's command."""
    run(world, "gf.muster", name="Robot Squad", side="Robots", profile=SQUAD)
    run(world, "gf.muster", name="Saurian Warriors", side="Saurians", profile=SQUAD)
    run(world, "gf.battle_start", name="Ruins", units=["Robot Squad", "Saurian Warriors"])
    answer = run(world, "gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    said = [e["what"] for e in answer["events"] if e["what"]]
    assert "Robot Squad takes 6 wounds: 6 models killed, 4 of 10 left" in said
    assert any("morale test" in s and "Shaken" in s for s in said)
    seq: int = answer["events"][0]["seq"]
    assert answer["events"][0]["type"] == "timeline.command_issued"
    return seq


def head(world: World) -> int:
    info = world.opened.ledger.directory.get(world.campaign_id)
    assert info is not None
    return info.last_seq


def amend_form(page: str) -> str:
    found = re.search(r'<form method="post" action="/c/[^"]+/amend".*?</form>', page, re.S)
    assert found, "no amend form"
    return found.group(0)


def fields_of(form: str) -> dict[str, str]:
    """What a browser sends for ``form`` as it is drawn: each named input's value, each select's chosen option,
    ticked boxes only (the buttons left out)."""
    sent: dict[str, str] = {}
    for tag in re.findall(r"<input\b[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if not name:
            continue
        value = re.search(r'value="([^"]*)"', tag)
        if 'type="checkbox"' in tag and " checked" not in tag:
            continue
        sent[name.group(1)] = value.group(1) if value else ""
    for name, body in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', body)
        sent[name] = chosen.group(1) if chosen else ""
    return sent


def state_of(world: World) -> str:
    """The Robot Squad's card on the battle sheet, its tags dropped."""
    page = world.client("gina").get(f"/c/{world.campaign_id}").text
    sheet = page.split('<ul class="sheet">', 1)[1].split("</ul>", 1)[0]
    card = next(c for c in sheet.split('<li class="unit-card')[1:] if "Robot Squad" in c)
    return " ".join(re.sub(r"<[^>]+>", " ", card.split(">", 1)[1]).split())


def test_the_gm_amends_a_shots_wounds_in_its_own_form_after_a_preview(world: World, shot: int) -> None:
    gina = world.client("gina")
    assert "Shaken" in state_of(world) and "4/10" in state_of(world)
    page = gina.get(f"/c/{world.campaign_id}", params={"amend": shot}).text
    assert '<details class="tool" id="tool-amend" open>' in page
    form = amend_form(page)
    assert "INPUT=VALUE" not in form, "the command's inputs are its own fields, not command-line syntax"
    assert "Amending shoot at #" in form  # as the page's own list names it
    sent = fields_of(form)
    assert sent["in.wounds"] == "6" and sent["in.unit_name"] == "Robot Squad"  # as recorded
    label = r'<label for="amend-f-in-wounds">(.*?)</label>.*?<span class="help"[^>]*>(.*?)</span>'
    wounds = re.search(label, form, re.S)
    assert wounds and wounds.group(1).strip().startswith("wounds")
    assert wounds.group(2) == "Unblocked wounds it took in this activation."  # the model's own help
    before = head(world)
    preview = gina.post(f"/c/{world.campaign_id}/amend", data={**sent, "in.wounds": "1", "preview": "1"}, headers=HTMX)
    assert preview.status_code == 200, preview.text
    assert "Preview of amending shoot" in preview.text and "wounds: 6 → 1" in preview.text
    assert "unit name" not in preview.text, "only the input changed is amended"
    # what the amendment takes away is shown before it is confirmed: nine models left, above half, so the morale
    # test is no longer taken (§4.1 A) and its die goes back on the table
    shown = " ".join(re.sub(r"<[^>]+>", " ", preview.text).split())
    assert re.search(r"no longer [^;]*morale test", shown), shown
    assert "1 roll of its own no longer asked for: back on the table" in shown
    assert head(world) == before, "a preview appends nothing"
    confirm = fields_of(amend_form(preview.text.replace('id="amend-confirm"', "")))
    assert confirm["preview"] == "0" and confirm["in.wounds"] == "1"
    done = gina.post(f"/c/{world.campaign_id}/amend", data=confirm, headers=HTMX)
    assert done.status_code == 200 and "Amended shoot" in done.text, done.text
    card = state_of(world)
    assert "9/10" in card and "Shaken" not in card, card  # above half: no morale test (§4.1 A)
    events = gina.get(f"/api/campaigns/{world.campaign_id}/log").json()["events"]
    said = [e["what"] for e in events if e["seq"] > before and e["what"]]
    assert "Robot Squad takes 1 wound: 1 model killed, 9 of 10 left" in said, said
    assert not any("morale test" in s for s in said)


def test_a_preview_says_each_outcome_in_the_readers_language(world: World, shot: int) -> None:
    """On a Russian page the preview's was/now lines were the recorded English; each rule's sentence is rendered
    from its record, as the log says it (§4.1 A: 6 wounds leave 4 of 10, at half, and the test fails on a 2; 1
    wound leaves 9, and no test)."""
    gina = world.client("gina")
    sent = fields_of(amend_form(gina.get(f"/c/{world.campaign_id}", params={"amend": shot}).text))
    ru = {**HTMX, "Accept-Language": "ru"}
    preview = gina.post(f"/c/{world.campaign_id}/amend", data={**sent, "in.wounds": "1", "preview": "1"}, headers=ru)
    shown = " ".join(re.sub(r"<[^>]+>", " ", preview.text).split())
    assert "было: Robot Squad получает 6 ран: убито 6 моделей, осталось 4 из 10" in shown, shown
    assert "теперь: Robot Squad получает 1 рану: убита 1 модель, осталось 9 из 10" in shown, shown
    assert "больше не: Robot Squad, тест морали" in shown and "тест провален" in shown, shown
    assert "takes" not in shown and "models killed" not in shown, shown


def test_a_preview_says_the_morale_test_an_amendment_now_calls_for(world: World) -> None:
    """The other way: 3 wounds leave 7 of 10, above half, and no test; amended to 6 they leave 4, at half or less,
    and the shot now calls for a morale test (§4.1 A): the preview says it will be taken, with its new die."""
    run(world, "gf.muster", name="Robot Squad", side="Robots", profile=SQUAD)
    run(world, "gf.muster", name="Saurian Warriors", side="Saurians", profile=SQUAD)
    run(world, "gf.battle_start", name="Ruins", units=["Robot Squad", "Saurian Warriors"])
    seq = run(world, "gf.shoot", unit_name="Robot Squad", wounds=3)["events"][0]["seq"]
    gina = world.client("gina")
    sent = fields_of(amend_form(gina.get(f"/c/{world.campaign_id}", params={"amend": seq}).text))
    preview = gina.post(f"/c/{world.campaign_id}/amend", data={**sent, "in.wounds": "6", "preview": "1"}, headers=HTMX)
    shown = " ".join(re.sub(r"<[^>]+>", " ", preview.text).split())
    assert "wounds: 3 → 6" in shown and "needs new dice" in shown and "morale test" in shown, shown


def test_an_unchanged_form_says_there_is_nothing_to_change(world: World, shot: int) -> None:
    gina = world.client("gina")
    sent = fields_of(amend_form(gina.get(f"/c/{world.campaign_id}", params={"amend": shot}).text))
    before = head(world)
    answer = gina.post(f"/c/{world.campaign_id}/amend", data={**sent, "preview": "1"}, headers=HTMX)
    assert answer.status_code == 200
    assert "Nothing to change" in answer.text and "Preview of amending" not in answer.text
    assert "--set" not in answer.text
    typo = gina.post(f"/c/{world.campaign_id}/amend", data={**sent, "in.wounds": "six"}, headers=HTMX)
    assert typo.status_code == 400 and "wounds: a whole number, not &#39;six&#39;" in typo.text
    gina.get("/lang/pl", params={"next": "/"})  # the form and its answer in the reader's language
    polish = amend_form(gina.get(f"/c/{world.campaign_id}", params={"amend": shot}).text)
    assert "Poprawka shoot pod #" in polish
    answer = gina.post(f"/c/{world.campaign_id}/amend", data={**fields_of(polish), "preview": "1"}, headers=HTMX)
    assert "Nic do zmiany" in answer.text
    assert head(world) == before


def test_a_player_is_never_offered_the_amend_form(world: World, shot: int) -> None:
    pat = world.client("pat")
    page = pat.get(f"/c/{world.campaign_id}", params={"amend": shot}).text
    assert 'id="tool-amend"' not in page and 'name="in.wounds"' not in page and "Amending" not in page
    before = head(world)
    refused = pat.post(f"/c/{world.campaign_id}/amend", data={"seq": shot, "_amending": "gf.shoot", "in.wounds": "1"})
    assert refused.status_code == 403
    assert head(world) == before


def without_js(client: TestClient) -> TestClient:
    plain = TestClient(client.app)
    plain.cookies.update(client.cookies)
    return plain


def test_without_javascript_the_amend_form_posts_previews_and_redirects(world: World, shot: int) -> None:
    plain = without_js(world.client("gina"))
    page = plain.get(f"/c/{world.campaign_id}", params={"amend": shot}).text
    sent = fields_of(amend_form(page))
    assert sent["_csrf"], "a plain form carries the page's token"
    before = head(world)
    unchanged = plain.post(f"/c/{world.campaign_id}/amend", data=sent, follow_redirects=False)
    assert unchanged.status_code == 303 and unchanged.headers["location"].endswith(f"?amend={shot}#said")
    again = plain.get(unchanged.headers["location"]).text
    assert "Nothing to change" in again and 'name="in.wounds" value="6"' in again  # back at the same form
    preview = plain.post(f"/c/{world.campaign_id}/amend", data={**sent, "in.wounds": "1"}, follow_redirects=False)
    assert preview.status_code == 200 and "wounds: 6 → 1" in preview.text  # a page of its own
    assert head(world) == before
    confirm = fields_of(amend_form(preview.text))
    done = plain.post(f"/c/{world.campaign_id}/amend", data=confirm, follow_redirects=False)
    assert done.status_code == 303
    assert "Amended shoot" in plain.get(done.headers["location"]).text
    assert "9/10" in state_of(world)


def test_the_filled_form_reads_back_as_recorded_and_names_what_it_cannot_show() -> None:
    """A battle's start (a list of units, a mapping of joins, a flag): filled from its recorded inputs and sent
    unchanged, it changes nothing; a ticked flag and an emptied mapping are the changes. Its one input nobody
    types, a joined hero counted as a model (R2-32), kept from the first edition (False) is what the form
    cannot show: amended as INPUT=VALUE."""
    from campaign.commands import command_type
    from campaign.server import forms

    model = command_type("gf.battle_start")
    recorded = model.build(name="Ruins", units=["Hero", "Robot Squad"], joins={"Hero": "Robot Squad"}).inputs()
    raw = forms.raw_of(model, recorded, "in.") | {forms.FILLED: ["gf.battle_start"]}
    assert raw["in.units"] == ["Hero", "Robot Squad"] and raw["in.joins.0.key"] == ["Hero"]
    assert forms.unshown(model, recorded, "in.") == []
    assert forms.changed(model, recorded, raw, "in.") == {}
    edited = {k: v for k, v in raw.items() if not k.startswith("in.joins")} | {"in.special": ["true"]}
    assert forms.changed(model, recorded, edited, "in.") == {"joins": {}, "special": True}
    first_edition = recorded | {"hero_is_model": False}
    assert forms.unshown(model, first_edition, "in.") == ["hero_is_model"]
    assert forms.changed(model, first_edition, raw, "in.") == {}, "what the form cannot show is kept as recorded"
    widgets = forms.filled(model, forms.Choices(), recorded, "in.")
    units = next(w for w in widgets if w.path == "in.units")
    assert units.chosen == {"Hero", "Robot Squad"} and ("Hero", "Hero") in units.options  # kept, though not offered


def test_a_preview_is_said_in_the_readers_language(world: World, shot: int) -> None:
    """The same amendment (wounds 6 → 1: nine models left, the morale test no longer taken, its die back on the
    table) previewed on a Russian page: each line of the preview in Russian, none left in English."""
    gina = world.client("gina")
    gina.get("/lang/ru", params={"next": "/"})
    sent = fields_of(amend_form(gina.get(f"/c/{world.campaign_id}", params={"amend": shot}).text))
    preview = gina.post(f"/c/{world.campaign_id}/amend", data={**sent, "in.wounds": "1", "preview": "1"}, headers=HTMX)
    assert preview.status_code == 200, preview.text
    lines = [
        " ".join(re.sub(r"<[^>]+>", " ", p).split()) for p in re.findall(r'<p class="detail">(.*?)</p>', preview.text)
    ]
    assert lines, preview.text
    english = ("no longer", "now also", "was ", "unchanged", "back on the table", "of its own", "table dice")
    assert [line for line in lines if any(e in line for e in english)] == [], lines
