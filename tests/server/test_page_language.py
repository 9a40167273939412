"""The page in the reader's language, through the server: from ``Accept-Language``, and switched by the reader
(a plain link, kept in a cookie, over the browser's header); the JSON API stays English."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import SQUAD, World, post, sign_in


def test_the_sign_in_page_follows_accept_language(world: World) -> None:
    anonymous = TestClient(world.app)
    ru = anonymous.get("/signin", headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.8"})
    assert ru.status_code == 200
    assert '<html lang="ru">' in ru.text and "Имя учётной записи" in ru.text and "Пароль" in ru.text
    assert ru.headers["content-language"] == "ru" and "Accept-Language" in ru.headers["vary"]
    pl = anonymous.get("/signin", headers={"Accept-Language": "de, pl;q=0.5"})  # German is not spoken: Polish
    assert '<html lang="pl">' in pl.text and "Nazwa konta" in pl.text and "Hasło" in pl.text
    en = anonymous.get("/signin", headers={"Accept-Language": "de"})
    assert '<html lang="en">' in en.text and "Account name" in en.text


def test_the_switch_keeps_the_choice_over_the_browsers_header(world: World) -> None:
    gina = world.client("gina")
    assert "Your campaigns" in gina.get("/").text
    switched = gina.get("/lang/pl", params={"next": "/"}, follow_redirects=False)
    assert switched.status_code == 303 and switched.headers["location"] == "/"
    page = gina.get("/", headers={"Accept-Language": "ru"})
    assert "Twoje kampanie" in page.text and "zalogowano jako" in page.text and '<html lang="pl">' in page.text
    # each language offered by its own name; the one being read is not a link
    assert '<b lang="pl">Polski</b>' in page.text and 'href="/lang/ru?next=/"' in page.text
    gina.get("/lang/ru", params={"next": "/"})
    assert "Ваши кампании" in gina.get("/").text
    gina.get("/lang/en", params={"next": "/"})
    assert "Your campaigns" in gina.get("/").text


def test_the_switch_goes_back_to_this_server_only_and_knows_its_languages(world: World) -> None:
    anonymous = TestClient(world.app)
    for elsewhere in ("//evil.example/", "https://evil.example/", "\\\\evil", ""):
        answer = anonymous.get("/lang/ru", params={"next": elsewhere}, follow_redirects=False)
        assert answer.headers["location"] == "/"
    assert anonymous.get("/lang/de", follow_redirects=False).status_code == 404


def test_a_refusal_on_the_page_is_in_the_readers_words_and_the_api_stays_english(world: World) -> None:
    gina = world.client("gina")
    gina.get("/lang/ru", params={"next": "/"})
    page = gina.post("/campaigns", data={"name": "Kessel", "ruleset": "grimdark"})
    assert page.status_code == 400 and "кампания &#39;Kessel&#39; в этой базе данных уже есть" in page.text
    api = gina.post("/api/campaigns", json={"name": "Kessel", "ruleset": "grimdark"})
    assert api.status_code == 400 and "a campaign named 'Kessel' already exists" in api.text
    assert api.headers["content-language"] == "en"


def test_the_campaign_page_and_its_log_in_russian(world: World) -> None:
    gina = world.client("gina")
    gina.get("/lang/ru", params={"next": "/"})
    page = gina.get(f"/c/{world.campaign_id}")
    assert page.status_code == 200
    for said in ("Список подразделений", "Идущий бой", "Сейчас бой не идёт.", "Участники", "Журнал", "что произошло"):
        assert said in page.text
    assert "кампания «Kessel» создана по правилам grimdark" in page.text  # the log's first sentence
    # who the reader is, the sections and the generated forms' words (tests/server/test_page_forms_language.py)
    assert 'вы — <b id="role">ведущий</b>' in page.text and "Enter a command" not in page.text
    assert "Ввести команду" in page.text and "Ведущий" in page.text and "Энтропия кубиков" in page.text
    assert "gina — ведущий" in page.text and "olive — наблюдатель" in page.text  # the members, by their roles
    assert "pat присоединяется как игрок за Robots" in page.text  # and the log says so
    pat = world.client("pat")
    pat.get("/lang/pl", params={"next": "/"})
    said = pat.get(f"/c/{world.campaign_id}").text
    assert 'jesteś: <b id="role">gracz</b> za Robots' in said and "Wpisz polecenie" in said
    assert "(opcjonalnie)" in said and "(optional)" not in said
    pat.get("/lang/en", params={"next": "/"})
    assert 'you are <b id="role">player</b> for Robots' in pat.get(f"/c/{world.campaign_id}").text


def test_the_accounts_choice_follows_it_to_another_browser_over_accept_language(world: World) -> None:
    world.client("gina").get("/lang/pl", params={"next": "/"})
    elsewhere = sign_in(world.app, "gina", sign_up=False)  # another browser: no switch cookie of its own
    assert "lang" not in elsewhere.cookies
    page = elsewhere.get("/", headers={"Accept-Language": "ru"})
    assert '<html lang="pl">' in page.text and "Twoje kampanie" in page.text
    assert page.headers["content-language"] == "pl"
    # signed out, the browser's header rules again; another account's choice is its own
    assert '<html lang="ru">' in TestClient(world.app).get("/signin", headers={"Accept-Language": "ru"}).text
    assert '<html lang="ru">' in world.client("pat").get("/", headers={"Accept-Language": "ru"}).text
    elsewhere.post("/signout", headers={"Accept-Language": "ru"})
    assert '<html lang="ru">' in elsewhere.get("/signin", headers={"Accept-Language": "ru"}).text
    # the JSON API stays English for a signed-in account that chose Polish
    assert world.client("gina").get("/api/campaigns").headers["content-language"] == "en"


def test_the_account_page_chooses_the_language_and_can_give_it_back_to_the_browser(world: World) -> None:
    browser = sign_in(world.app, "pat", sign_up=False)
    csrf = browser.headers.pop("X-CSRF-Token")  # a plain form: its token is a field, as no script sent it
    page = browser.get("/account", headers={"Accept-Language": "en"})
    assert 'name="language"' in page.text and '<option value="" selected>' in page.text
    chose = browser.post("/account/language", data={"_csrf": csrf, "language": "pl"}, follow_redirects=False)
    assert chose.status_code == 303 and chose.headers["location"] == "/account"
    again = browser.get("/account", headers={"Accept-Language": "ru"})
    assert '<html lang="pl">' in again.text and '<option value="pl" lang="pl" selected>' in again.text
    other = world.client("pat")  # another browser of the same account
    assert '<html lang="pl">' in other.get("/", headers={"Accept-Language": "ru"}).text
    refused = other.post("/account/language", data={"language": "de"}, headers={"HX-Request": "true"})
    assert refused.status_code == 400
    assert '<html lang="pl">' in other.get("/", headers={"Accept-Language": "ru"}).text  # nothing changed
    back = other.post("/account/language", data={"language": ""}, headers={"HX-Request": "true"})
    assert back.status_code == 204 and back.headers["hx-redirect"] == "/account"
    assert '<html lang="ru">' in browser.get("/", headers={"Accept-Language": "ru"}).text


def _battle(world: World) -> None:
    """Robot Squad (pat's, Robots) and Saurian Warriors (the GM's, Saurians) in a match."""
    for who, name, side in (("pat", "Robot Squad", "Robots"), ("gina", "Saurian Warriors", "Saurians")):
        _command(world, who, "gf.muster", name=name, side=side, profile=SQUAD)
    _command(world, "gina", "gf.battle_start", name="Ruins", units=["Robot Squad", "Saurian Warriors"])


def _command(world: World, who: str, command: str, dice: str | None = None, **args: object) -> None:
    body = {"command": command, "args": args, "dice": dice}
    post(world.client(who), f"/api/campaigns/{world.campaign_id}/commands", body)


RULING_RU = "Robot Squad, тест морали (раны при половинной численности): выпало 2 против Quality 4+"


def test_the_pages_log_and_battle_lines_word_a_ruling_in_the_readers_language(world: World) -> None:
    """Six wounds leave 4 of 10 models, at half strength: a morale test (RULES.md §4.1) on the table's 2 against
    Quality 4+ fails, Shaken. Its row, its roll's purpose and the wounds' source read in Russian, as the audit
    page and ``campaign log --lang ru`` say them; the recorded English is not shown."""
    _battle(world)
    _command(world, "pat", "gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    gina = world.client("gina")
    gina.get("/lang/ru", params={"next": "/"})
    page = gina.get(f"/c/{world.campaign_id}").text
    log = page[page.index('id="log"') :]
    battle = page[page.index('id="battle"') : page.index('id="log"')]
    for said in (log, battle):
        assert RULING_RU in said and "against Quality 4+" not in said and "(shooting)" not in said
    # the facts the ruling's line says: in the log's rows, and not said again under the battle sheet
    assert "Robot Squad: потрясено (раны при половинной численности)" in log
    assert "получает 6 ран (стрельба)" in log
    assert "потрясено (раны при половинной численности)" not in battle and "(стрельба)" not in battle
    assert "бросок №0 к6 на «тест морали (раны при половинной численности), Robot Squad»: 2" in log
    # the live part is the same rendering, and English readers still read the recorded text
    english = world.client("olive").get(f"/c/{world.campaign_id}").text
    assert "Robot Squad, morale test (wounds at half strength): rolled 2 against Quality 4+" in english
    assert "roll #0 d6 for “morale test (wounds at half strength), Robot Squad”" in english


def test_an_amended_roll_and_its_correction_read_in_the_readers_language(world: World) -> None:
    _battle(world)
    _command(world, "pat", "gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    events = world.opened.ledger.store.read(world.campaign_id)
    shot = max(e.seq for e in events if e.type == "timeline.command_issued")
    post(
        world.client("gina"),
        f"/api/campaigns/{world.campaign_id}/amend",
        {"seq": shot, "dice": "5", "reason": "misread"},
    )
    gina = world.client("gina")
    gina.get("/lang/ru", params={"next": "/"})
    log = gina.get(f"/c/{world.campaign_id}").text.split('id="log"', 1)[1]
    assert (
        f"кубики со стола броска №0 (к6) исправлены с 2 на 5 (бросок №1), исправил(а) gina, исправление №{shot}" in log
    )
    assert f"исправление записи №{shot}: кубики со стола исправлены на 5 (misread)" in log
    assert "corrected from" not in log and "amend of seq" not in log


def test_the_pages_small_words_and_the_dice_step_in_the_readers_language(world: World) -> None:
    _battle(world)
    pat = world.client("pat")
    pat.get("/lang/ru", params={"next": "/"})
    page = pat.get(f"/c/{world.campaign_id}").text
    campaigns = pat.get("/").text
    assert "Перейти к содержанию" in campaigns and "Skip to the content" not in campaigns
    assert 'data-live="в эфире"' in page and 'data-reconnecting="переподключение…"' in page
    fields = {"_command": "gf.shoot", "unit_name": "Robot Squad", "wounds": "6"}
    url, htmx = f"/c/{world.campaign_id}/command", {"HX-Request": "true"}
    counted = pat.post(url, data={**fields, "_step": "count"}, headers=htmx).text
    assert "Тест морали (раны при половинной численности), Robot Squad" in counted and "Morale test" not in counted
    seven = pat.post(url, data={**fields, "_step": "table", "_die": "7"}, headers=htmx)
    assert seven.status_code == 400 and "7 — не грань к6 (грани 1–6)" in seven.text
    assert "is not a face" not in seven.text
