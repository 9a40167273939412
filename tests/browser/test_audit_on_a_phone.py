"""The audit page on a phone (390 px) in Russian and in Polish, chosen from the browser's own language: its heading
and the entry audited in the reader's words, and nothing scrolls sideways — the longest lines of a match's end
(its mission rewards, RULES.md §4.2) and of a morale test (§4.1) wrap within the width.

Grimdark: ten models of Quality 4+ taking 6 wounds are four left, at half strength, and test on a d6; the table's
2 fails (Shaken). The Saurians win the match."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_page_on_a_phone import no_sideways_scroll
from tests.server.conftest import PASSWORD, SQUAD

PHONE = {"width": 390, "height": 844}


def _campaign(page: Any) -> tuple[str, int, int]:
    """A Grimdark match played through the API in the page's own session: the campaign's id, the seq of the
    morale test and of the match's end."""
    request = page.context.request
    assert request.post("/api/accounts", data={"name": "gina", "password": PASSWORD}).status == 201
    signed_in = request.post("/api/session", data={"name": "gina", "password": PASSWORD})
    headers = {"X-CSRF-Token": signed_in.json()["csrf"]}
    made = request.post("/api/campaigns", data={"name": "Kessel", "ruleset": "grimdark"}, headers=headers)
    campaign_id = made.json()["campaign_id"]

    def command(command: str, dice: str | None = None, **args: object) -> list[dict[str, Any]]:
        answer = request.post(
            f"/api/campaigns/{campaign_id}/commands",
            data={"command": command, "args": args, "dice": dice},
            headers=headers,
        )
        assert answer.status == 200, answer.text()
        events: list[dict[str, Any]] = answer.json()["events"]
        return events

    for name, side in (("Robot Squad", "Robots"), ("Saurian Warriors", "Saurians")):
        command("gf.muster", name=name, side=side, profile=SQUAD)
    command("gf.battle_start", name="Ruins", units=["Robot Squad", "Saurian Warriors"])
    shot = command("gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    ended = command("gf.battle_end", winner="Saurians")
    test = max(e["seq"] for e in shot if e["type"] == "rules.applied")
    return campaign_id, test, ended[0]["seq"]


@pytest.mark.parametrize(
    ("locale", "heading", "ruling"),
    [
        ("ru-RU", "Проверка записи #{seq}",
         "Robot Squad, тест морали (раны при половинной численности): выпало 2 против Quality 4+: тест провален → "
         "Shaken (потрясён)"),
        ("pl-PL", "Audyt #{seq}",
         "Robot Squad, test morale (rany przy połowie stanu): wyrzucono 2 przeciw Quality 4+: nie zdaje → Shaken"),
    ],
)  # fmt: skip
def test_the_audit_page_reads_in_the_browsers_language_and_fits_a_phone(
    browser: Any, base_url: str, contexts: list[Any], screenshots: Path, locale: str, heading: str, ruling: str
) -> None:
    context = browser.new_context(base_url=base_url, locale=locale, viewport=PHONE, is_mobile=True, has_touch=True)
    contexts.append(context)
    page = context.new_page()
    campaign_id, test, ended = _campaign(page)
    lang = locale[:2]
    for seq in (test, ended):
        page.goto(f"/c/{campaign_id}/audit/{seq}")
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("h1").inner_text() == heading.format(seq=seq)
        if seq == test:
            assert page.locator("#audit .what").inner_text() == ruling
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the audit of #{seq} is {width} px wide on a {PHONE['width']} px phone"
        no_sideways_scroll(page)  # and no table cut at the edge of its region
        page.screenshot(path=str(screenshots / f"audit-{seq}-{lang}-390.png"), full_page=True)
