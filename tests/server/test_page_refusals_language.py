"""Every refusal a browser's page shows is said in the reader's language (``Accept-Language``), with the status the
API answers: no address, no campaign, a role that may not, a lost race, a body too large, a malformed address, a
throttled sign-in, a database gone or a server busy, a defect — and a form sent from a page left open past its
session, which tells the reader what happened and to reload the page, never the mechanism's name. The JSON API
keeps its English ``{"detail": …}``, whatever the headers."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from campaign.access.throttle import Policy
from campaign.bootstrap import bootstrap
from campaign.server.app import create_app
from campaign.server.guard import Settings
from events.errors import ConcurrencyError
from tests.server.conftest import FAST_HASHER, PASSWORD, SQUAD, World, sign_in

HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
NBSP = "\u00a0"


def asked_in(lang: str) -> dict[str, str]:
    return {"Accept": HTML, "Accept-Language": lang}


def shown(page: Any) -> str:
    """The page's text as its reader reads it: entities unescaped, white space collapsed, tags left as they are."""
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(page.text))  # a no-break space is the reader's, kept


def said_on_a_page(page: Any, code: int, said: str, english: str) -> None:
    """``page`` is a page (not the API's JSON) with status ``code``, saying ``said``, and not its English."""
    assert page.status_code == code, page.text
    assert page.headers["content-type"].startswith("text/html"), page.text
    text = shown(page)
    assert said in text, text
    assert english not in text
    assert '"detail"' not in text


@pytest.mark.parametrize(
    ("lang", "said"),
    [("ru", "по адресу /nowhere ничего нет"), ("pl", "pod adresem /nowhere nic nie ma")],
)
def test_an_address_with_nothing_at_it(world: World, lang: str, said: str) -> None:
    page = TestClient(world.app).get("/nowhere", headers=asked_in(lang))
    said_on_a_page(page, 404, said, "there is nothing at /nowhere")


@pytest.mark.parametrize(
    ("lang", "nul", "not_get"),
    [
        (
            "ru",
            "в адресе есть символ NUL (%00): его нет ни в одном имени или тексте",
            "/signout не принимает запросы GET",
        ),
        (
            "pl",
            "adres zawiera znak NUL (%00): nie ma go w żadnej nazwie ani tekście",
            "/signout nie przyjmuje żądań GET",
        ),
    ],
)
def test_an_address_no_page_takes(world: World, lang: str, nul: str, not_get: str) -> None:
    browser = TestClient(world.app)
    said_on_a_page(browser.get("/c/a%00b", headers=asked_in(lang)), 400, nul, "the address holds a NUL character")
    said_on_a_page(browser.get("/signout", headers=asked_in(lang)), 405, not_get, "does not take GET requests")
    api = browser.get("/api/campaigns/a%00b", headers=asked_in(lang))
    assert api.status_code == 400
    assert api.json() == {"detail": "the address holds a NUL character (%00): no name or text does"}
    api = browser.get("/api/session", headers=asked_in(lang))
    assert api.status_code == 405 and api.json() == {"detail": "/api/session does not take GET requests"}


@pytest.mark.parametrize(
    ("lang", "said"),
    [("ru", "на этом сервере нет кампании 'nosuch'"), ("pl", "na tym serwerze nie ma kampanii 'nosuch'")],
)
def test_a_campaign_that_is_not_there(world: World, lang: str, said: str) -> None:
    page = world.client("gina").get("/c/nosuch", headers=asked_in(lang))
    said_on_a_page(page, 404, said, "no campaign 'nosuch' on this server")
    api = world.client("gina").get("/api/campaigns/nosuch", headers=asked_in(lang))
    assert api.status_code == 404 and api.json() == {"detail": "no campaign 'nosuch' on this server"}


@pytest.mark.parametrize(
    ("lang", "player", "observer", "observer_plays"),
    [
        (
            "ru",
            "это может делать только ведущий; pat — игрок в кампании Kessel",
            "это может делать только ведущий; olive — наблюдатель в кампании Kessel",
            "это может делать только ведущий или игрок; olive — наблюдатель в кампании Kessel",
        ),
        (
            "pl",
            "to może zrobić tylko mistrz gry; pat jest graczem w kampanii Kessel",
            "to może zrobić tylko mistrz gry; olive jest obserwatorem w kampanii Kessel",
            "to może zrobić tylko mistrz gry lub gracz; olive jest obserwatorem w kampanii Kessel",
        ),
    ],
)
def test_a_role_that_may_not(world: World, lang: str, player: str, observer: str, observer_plays: str) -> None:
    undo = f"/c/{world.campaign_id}/undo"
    said_on_a_page(
        world.client("pat").post(undo, headers=asked_in(lang)),
        403,
        player,
        "only the game master may do this; pat is player in Kessel",
    )
    said_on_a_page(
        world.client("olive").post(undo, headers=asked_in(lang)),
        403,
        observer,
        "only the game master may do this; olive is observer in Kessel",
    )
    said_on_a_page(
        world.client("olive").post(
            f"/c/{world.campaign_id}/command", data={"_command": "gf.round"}, headers=asked_in(lang)
        ),
        403,
        observer_plays,
        "only a game master or a player may do this; olive is observer in Kessel",
    )
    api = world.client("olive").post(f"/api/campaigns/{world.campaign_id}/undo", json={}, headers=asked_in(lang))
    assert api.status_code == 403
    assert api.json() == {"detail": "only the game master may do this; olive is observer in Kessel"}


@pytest.mark.parametrize(
    ("lang", "not_theirs", "not_their_side", "not_their_unit"),
    [
        (
            "ru",
            "команду gf.battle_end вводит ведущий",
            "вы играете за Robots, а не за Saurians",
            "Saurian Warriors не сражается на вашей стороне (Robots)",
        ),
        (
            "pl",
            "polecenie gf.battle_end wprowadza mistrz gry",
            "grasz za Robots, nie za Saurians",
            "Saurian Warriors nie walczy po twojej stronie (Robots)",
        ),
    ],
)
def test_a_players_command_that_is_not_the_players(
    world: World, lang: str, not_theirs: str, not_their_side: str, not_their_unit: str
) -> None:
    gina, pat = world.client("gina"), world.client("pat")
    commands = f"/api/campaigns/{world.campaign_id}/commands"
    for name, side in (("Robot Squad", "Robots"), ("Saurian Warriors", "Saurians")):
        post = gina.post(
            commands, json={"command": "gf.muster", "args": {"name": name, "side": side, "profile": SQUAD}}
        )
        assert post.status_code == 200, post.text
    form = f"/c/{world.campaign_id}/command"
    said_on_a_page(
        pat.post(form, data={"_command": "gf.battle_end"}, headers=asked_in(lang)),
        403,
        not_theirs,
        "is the game master's to enter",
    )
    muster = {"_command": "gf.muster", "name": "Raptors", "side": "Saurians", "profile.models": "5"}
    muster |= {"profile.quality": "4", "profile.points": "100"}
    said_on_a_page(pat.post(form, data=muster, headers=asked_in(lang)), 403, not_their_side, "you play Robots")
    shoot = {"_command": "gf.shoot", "unit_name": "Saurian Warriors", "wounds": "6", "_step": "nodice"}
    said_on_a_page(pat.post(form, data=shoot, headers=asked_in(lang)), 403, not_their_unit, "does not fight for")
    api = pat.post(commands, json={"command": "gf.battle_end", "args": {}}, headers=asked_in(lang))
    assert api.status_code == 403 and api.json() == {"detail": "gf.battle_end is the game master's to enter"}


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "ru",
            "кампанию 'Kessel' в тот же момент изменила другая команда: ничего не записано; "
            "откройте её заново и отправьте команду ещё раз",
        ),
        (
            "pl",
            "kampanię 'Kessel' w tej samej chwili zmieniło inne polecenie: nic nie zapisano; "
            "wczytaj ją ponownie i wyślij polecenie jeszcze raz",
        ),
    ],
)
def test_a_lost_race_names_the_campaign(world: World, monkeypatch: pytest.MonkeyPatch, lang: str, said: str) -> None:
    def lose(*_: Any, **__: Any) -> Any:
        exc = ConcurrencyError(f"campaign {world.campaign_id} changed while appending: re-read and retry")
        exc.campaign_id = world.campaign_id
        raise exc

    monkeypatch.setattr(type(world.opened.ledger), "execute", lose)
    gina = world.client("gina")
    page = gina.post(f"/c/{world.campaign_id}/command", data={"_command": "gf.round"}, headers=asked_in(lang))
    said_on_a_page(page, 409, said, "was changed by another command at the same moment")
    api = gina.post(f"/api/campaigns/{world.campaign_id}/commands", json={"command": "gf.round", "args": {}})
    assert api.status_code == 409
    assert api.json() == {
        "detail": "campaign 'Kessel' was changed by another command at the same moment: nothing was recorded; "
        "read it again and send the command again"
    }


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ru", f"запрос больше 1{NBSP}000{NBSP}000 байт: ничего не прочитано и не добавлено"),
        ("pl", f"żądanie jest większe niż 1{NBSP}000{NBSP}000 bajtów: niczego nie odczytano ani nie dopisano"),
    ],
)
def test_a_body_too_large(world: World, lang: str, said: str) -> None:
    gina = world.client("gina")
    headers = {**asked_in(lang), "Content-Type": "application/x-www-form-urlencoded"}
    page = gina.post(f"/c/{world.campaign_id}/command", content=b"x" * 1_000_001, headers=headers)
    said_on_a_page(page, 413, said, "the request is larger than")
    api = gina.post("/api/campaigns", content=b"x" * 1_000_001, headers=headers)
    assert api.status_code == 413
    assert api.json() == {"detail": "the request is larger than 1,000,000 bytes: nothing was read or appended"}


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ru", "номер записи: нужно целое число"),
        ("pl", "numer wpisu: potrzebna liczba całkowita"),
    ],
)
def test_a_malformed_address_says_which_input_and_what_is_wrong(world: World, lang: str, said: str) -> None:
    page = world.client("gina").get(f"/c/{world.campaign_id}/audit/abc", headers=asked_in(lang))
    said_on_a_page(page, 422, said, "whole number")


def signin_form(client: TestClient, lang: str, password: str) -> Any:
    """The sign-in form sent, as a browser sends it (its own token read off the form)."""
    form = client.get("/signin", headers=asked_in(lang)).text
    found = re.search(r'name="pre" value="([^"]+)"', form)
    assert found is not None
    return client.post(
        "/signin", data={"name": "gina", "password": password, "pre": found.group(1)}, headers=asked_in(lang)
    )


@pytest.fixture
def strict(tmp_path: Path, migrated: Path) -> Any:
    """A server whose clock stands still and that lets one wrong password pass free, then asks for 30 s, and
    locks the account for five minutes at the third."""
    shutil.copy(migrated, tmp_path / "server.db")
    opened = bootstrap(str(tmp_path / "server.db"), actor="test")
    account = Policy(free=1, first_wait_s=30, max_wait_s=60, lock_after=3, lock_s=300, forget_s=3600)
    clock = [1_000_000.0]
    app = create_app(opened, hasher=FAST_HASHER, settings=Settings(account=account), now=lambda: clock[0])
    app.state.clock = clock
    with TestClient(app):
        sign_in(app, "gina")
        yield app


@pytest.mark.parametrize(
    ("lang", "waits", "locked"),
    [
        (
            "ru",
            "слишком много неудачных входов в учётную запись gina: подождите 30 с перед следующей попыткой",
            "слишком много неудачных входов в учётную запись gina: она заблокирована ещё на 5 минут, даже для "
            "верного пароля; ничего не проверялось",
        ),
        (
            "pl",
            "zbyt wiele nieudanych logowań na konto gina: poczekaj 30 s przed kolejną próbą",
            "zbyt wiele nieudanych logowań na konto gina: jest zablokowane jeszcze przez 5 minut, także dla "
            "właściwego hasła; niczego nie sprawdzono",
        ),
    ],
)
def test_too_many_sign_ins(strict: Any, lang: str, waits: str, locked: str) -> None:
    client = TestClient(strict)
    assert signin_form(client, lang, "wrong one").status_code == 400
    assert signin_form(client, lang, "wrong two").status_code == 400
    said_on_a_page(signin_form(client, lang, "wrong three"), 429, waits, "too many failed sign-ins")
    api = client.post("/api/session", json={"name": "gina", "password": PASSWORD})
    assert api.status_code == 429
    assert api.json() == {"detail": "too many failed sign-ins for account gina: wait 30 s before trying again"}
    strict.state.clock[0] += 31
    assert signin_form(client, lang, "wrong three").status_code == 400
    said_on_a_page(signin_form(client, lang, PASSWORD), 429, locked, "too many failed sign-ins")


@pytest.mark.parametrize(
    ("lang", "gone", "busy"),
    [
        (
            "ru",
            "база данных не отвечает (возможно, она перезапускается): ничего не добавлено; "
            "попробуйте ещё раз чуть позже",
            "сервер занят: ничего не добавлено, попробуйте ещё раз",
        ),
        (
            "pl",
            "baza danych nie odpowiada (może właśnie się restartuje): nic nie dopisano; spróbuj ponownie za chwilę",
            "serwer jest zajęty: nic nie dopisano, spróbuj ponownie",
        ),
    ],
)
def test_a_database_gone_or_a_server_busy(
    world: World, monkeypatch: pytest.MonkeyPatch, lang: str, gone: str, busy: str
) -> None:
    olive = world.client("olive")
    directory = world.opened.ledger.directory

    def cut(*_: Any, **__: Any) -> Any:
        raise OperationalError("SELECT …", None, Exception("terminating connection"), connection_invalidated=True)

    def waited(*_: Any, **__: Any) -> Any:
        raise PoolTimeout("QueuePool limit of size 5 overflow 10 reached")

    for broken, said, english in ((cut, gone, "the database is not answering"), (waited, busy, "the server is busy")):
        monkeypatch.setattr(directory, "entry", broken)  # the one-statement access read builds its campaign here
        page = olive.get(f"/c/{world.campaign_id}", headers=asked_in(lang))
        said_on_a_page(page, 503, said, english)
    api = olive.get(f"/api/campaigns/{world.campaign_id}/log", headers=asked_in(lang))
    assert api.status_code == 503
    assert api.json() == {"detail": "the server is busy: nothing was appended, try again"}
    monkeypatch.undo()

    def refused(*_: Any) -> Any:  # the page's language is read from the account before any route runs
        raise OperationalError("SELECT …", None, Exception("connection refused"))

    monkeypatch.setattr(world.app.state.server.accounts, "language_of_session", refused)
    page = olive.get(f"/c/{world.campaign_id}", headers=asked_in(lang))
    said_on_a_page(page, 503, gone, "the database is not answering")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ru", "сервер не смог обработать этот запрос (ошибка программы, она записана в журнал): ничего не добавлено"),
        ("pl", "serwer zawiódł przy tym żądaniu (błąd programu, zapisany w dzienniku): nic nie dopisano"),
    ],
)
def test_a_defect(world: World, monkeypatch: pytest.MonkeyPatch, lang: str, said: str) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("a defect")

    monkeypatch.setattr(world.opened.ledger.directory, "entry", broken)
    olive = TestClient(world.app, raise_server_exceptions=False)
    olive.cookies = world.client("olive").cookies
    said_on_a_page(olive.get(f"/c/{world.campaign_id}", headers=asked_in(lang)), 500, said, "the server failed")
    api = olive.get(f"/api/campaigns/{world.campaign_id}/log", headers=asked_in(lang))
    assert api.status_code == 500
    assert api.json() == {"detail": "the server failed on this request (a defect, logged): nothing was appended"}


@pytest.mark.parametrize(
    ("lang", "stale", "ended", "expired"),
    [
        (
            "ru",
            "эта страница устарела (её открыли до вашего последнего входа): обновите страницу и отправьте форму снова",
            "ваш сеанс завершён (вы вышли или он истёк, пока страница была открыта): войдите снова, затем обновите "
            "страницу и отправьте форму ещё раз",
            "форма устарела: войдите ещё раз",
        ),
        (
            "pl",
            "ta strona jest nieaktualna (otwarto ją przed twoim ostatnim zalogowaniem): odśwież stronę i wyślij "
            "formularz ponownie",
            "twoja sesja się zakończyła (nastąpiło wylogowanie albo wygasła, gdy strona była otwarta): zaloguj się "
            "ponownie, potem odśwież stronę i wyślij formularz jeszcze raz",
            "formularz wygasł: zaloguj się ponownie",
        ),
    ],
)
def test_a_form_from_a_page_left_open(world: World, lang: str, stale: str, ended: str, expired: str) -> None:
    """A page opened before the browser signed in again carries the old session's token; one whose session has
    ended carries a cookie that opens nothing; the sign-in form has a token of its own."""
    undo = f"/c/{world.campaign_id}/undo"
    browser = TestClient(world.app)  # a browser without JavaScript: its forms post their fields
    browser.cookies.update(world.client("gina").cookies)
    for token in ({}, {"_csrf": "from a page of an earlier session"}):
        page = browser.post(undo, data=token, headers=asked_in(lang), follow_redirects=False)
        said_on_a_page(page, 403, stale, "reload the page")
        assert "CSRF" not in page.text
    htmx = world.client("gina").post(undo, headers={**asked_in(lang), "HX-Request": "true", "X-CSRF-Token": "old"})
    assert htmx.status_code == 403 and stale in shown(htmx) and "CSRF" not in htmx.text

    pat = world.client("pat")
    session = next(s for s in pat.get("/api/sessions").json() if s["current"])
    assert pat.delete(f"/api/sessions/{session['id']}").status_code == 200  # signed out elsewhere: the cookie stays
    page = pat.post(f"/c/{world.campaign_id}/command", data={"_command": "gf.round"}, headers=asked_in(lang))
    said_on_a_page(page, 401, ended, "sign in first")
    assert "CSRF" not in page.text

    signin = TestClient(world.app).post(
        "/signin", data={"name": "gina", "password": PASSWORD, "pre": "a form of yesterday"}, headers=asked_in(lang)
    )
    said_on_a_page(signin, 403, expired, "the form expired")

    api = TestClient(world.app)
    api.cookies.update(world.client("gina").cookies)
    answer = api.post(f"/api/campaigns/{world.campaign_id}/undo", json={}, headers=asked_in(lang))
    assert answer.status_code == 403
    assert answer.json() == {"detail": "this request lacks the page's CSRF token: reload the page and try again"}
    signed_out = TestClient(world.app).post(f"/api/campaigns/{world.campaign_id}/undo", json={})
    assert signed_out.status_code == 401 and signed_out.json() == {"detail": "sign in first"}


@pytest.mark.parametrize(("lang", "who"), [("ru", "вы вошли как"), ("pl", "zalogowano jako"), ("en", "signed in as")])
def test_a_refusal_page_keeps_its_readers_header(world: World, lang: str, who: str) -> None:
    """A page asked for by a signed-in reader and refused (no such address, no such campaign) still says who is
    signed in and offers to sign out, as every other page does; a reader not signed in gets no such header."""
    for path in ("/nowhere", "/c/nosuch"):
        page = world.client("gina").get(path, headers=asked_in(lang))
        assert page.status_code == 404
        text = shown(page)
        assert f'{who} <b id="account">gina</b>' in text, text
        assert 'name="_csrf"' in text  # the sign-out form posts with the session's token
    stranger = TestClient(world.app).get("/nowhere", headers=asked_in(lang))
    assert stranger.status_code == 404 and who not in shown(stranger)
