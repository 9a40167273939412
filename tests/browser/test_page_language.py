"""The page in Russian and in Polish in a real browser: chosen from the browser's own language (its
``Accept-Language``), then switched by the reader with a tap on the header's switch (a plain link: no script),
at a phone's 390 px."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from campaign.bootstrap import bootstrap
from campaign.server.app import create_app
from tests.live_server import serving
from tests.server.conftest import FAST_HASHER


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    opened = bootstrap(str(tmp_path / "lang.db"), actor="server")
    with serving(create_app(opened, hasher=FAST_HASHER)) as url:
        yield url
    opened.close()


def test_the_page_speaks_the_browsers_language_and_the_one_the_reader_picks(
    browser: Any, base_url: str, screenshots: Path
) -> None:
    context = browser.new_context(base_url=base_url, locale="ru-RU", viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto("/signin")
        assert page.locator("html").get_attribute("lang") == "ru"
        assert page.locator("h1").inner_text() == "Войти"
        assert "Имя учётной записи" in page.locator("form").inner_text()
        page.screenshot(path=str(screenshots / "signin-ru-390.png"))
        page.locator("#languages a[lang=pl]").click()
        page.wait_for_url(f"{base_url}/signin")
        assert page.locator("html").get_attribute("lang") == "pl"
        assert page.locator("h1").inner_text() == "Zaloguj się"
        page.goto("/signup")  # the choice is kept over the browser's Russian
        assert page.locator("h1").inner_text() == "Rejestracja"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, "the header with its switch fits a phone's width"
    finally:
        context.close()
