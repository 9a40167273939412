"""Playwright driving Debian's Chromium (/usr/bin/chromium, installed by scripts/browser-setup) against a real
server. Without Chromium the browser tests skip, saying so, unless CAMPAIGN_REQUIRE_BROWSER is set (CI sets
it): then they fail."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from campaign.bootstrap import bootstrap
from campaign.server.app import create_app
from tests.live_server import serving
from tests.server.conftest import FAST_HASHER

CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "browser"


def chromium_path() -> str | None:
    return os.environ.get("CAMPAIGN_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    # A module's browser, not the session's: Playwright's sync API keeps an event loop running in this thread
    # while it is open, and a later test's asyncio.run() would find it (a launch costs about a second).
    path = chromium_path()
    if path is None:
        reason = "Debian's chromium is not installed: run scripts/browser-setup (as root) to run the browser tests"
        if os.environ.get("CAMPAIGN_REQUIRE_BROWSER"):
            pytest.fail(reason + " (CAMPAIGN_REQUIRE_BROWSER is set: they must run)")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    opened = bootstrap(str(tmp_path / "table.db"), actor="server")
    with serving(create_app(opened, hasher=FAST_HASHER)) as url:
        yield url
    opened.close()


@pytest.fixture
def contexts(browser: Any) -> Iterator[list[Any]]:
    """Each person's own browser (cookies apart); closed before the server stops (their live streams end)."""
    opened: list[Any] = []
    yield opened
    for context in opened:
        context.close()
