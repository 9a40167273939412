"""Invitations by link in Debian's Chromium, on a phone (390×844): the game master makes a link for the Robots'
player on the campaign page; a newcomer opens it in a browser of its own, signs up on the link's page and lands
on the campaign as the Robots' player, and the GM's open page lists the new member live. A revoked link's page
says so. The same with JavaScript turned off (forms post and redirect). Each new page (the link's, the GM's
section with a link made, a refused link's) is scanned by axe-core at both widths, never scrolls sideways, and is
screenshotted (test-output/browser/).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.test_page_on_a_phone import (
    LIVE_MS,
    PHONE,
    axe_ready,
    no_sideways_scroll,
    open_command,
    person,
    shoot_both_widths,
    small_targets,
)
from tests.server.conftest import PASSWORD


def new_campaign(gm: Any, base_url: str) -> str:
    gm.fill("#new-campaign input[name=name]", "Kessel")
    gm.check("#ruleset-grimdark")
    gm.click("#new-campaign button")
    gm.wait_for_url(f"{base_url}/c/*")
    return str(gm.url)


def stranger(contexts: list[Any], browser: Any, base_url: str, js: bool = True) -> Any:
    """Someone with no account yet, on a phone of its own (no cookies shared with anyone)."""
    context = browser.new_context(
        base_url=base_url, viewport=PHONE, java_script_enabled=js, is_mobile=True, has_touch=True, bypass_csp=True
    )
    contexts.append(context)
    return context.new_page()


def test_a_newcomer_joins_by_the_game_masters_link_on_a_phone(
    browser: Any, base_url: str, contexts: list[Any], screenshots: Path
) -> None:
    scan: list[str] | None = [] if axe_ready() else None
    gm = person(contexts, browser, base_url, "gina", PHONE)
    campaign_url = new_campaign(gm, base_url)
    # a side the campaign knows: a unit of the Robots mustered (a link for an unknown side is refused when made)
    box = open_command(gm, "gf.muster")
    box.get_by_label("name", exact=True).fill("Robot Squad")
    box.locator("input[name=side]").fill("Robots")
    box.get_by_label("models").fill("10")
    box.get_by_label("quality").fill("4")
    box.get_by_label("points").fill("150")
    box.get_by_role("button", name="muster", exact=True).click()
    gm.locator("#cmd-gf-muster .command-result .ok").wait_for()
    gm.reload()

    # one choice of whom the link is for: a player always with its side
    assert gm.locator("#link-whom option").all_inner_texts() == ["a player for Robots", "an observer"]
    gm.select_option("#link-whom", "player:Robots")
    gm.click("#make-link")
    made = gm.locator("#invitation-made")
    made.locator(".ok", has_text="A link for a player for Robots").wait_for()
    link = gm.locator("#invitation-link").input_value()
    assert "/join/" in link
    assert gm.locator("#invitation-list li[data-state=open]").count() == 1
    gm.locator("#invitations").screenshot(path=str(screenshots / "invitation-made-section-390.png"))
    assert small_targets(gm) == []
    shoot_both_widths(gm, screenshots, "invitation-made-gm", scan)

    newcomer = stranger(contexts, browser, base_url)
    newcomer.goto(link)
    assert (
        "gina invites you to Kessel (One Page Rules Grimdark Future) as player for Robots"
        in newcomer.locator("#invitation-words").inner_text()
    )
    assert small_targets(newcomer) == []
    shoot_both_widths(newcomer, screenshots, "join-signed-out", scan)
    newcomer.fill("#signup-name", "pat")
    newcomer.fill("#signup-password", PASSWORD)
    newcomer.click("#signup-submit")
    newcomer.wait_for_url(campaign_url)
    assert newcomer.locator("#role").inner_text() == "player"
    assert "for Robots" in newcomer.locator(".sub").inner_text()
    assert newcomer.locator("#cmd-gf-muster").count() == 1 and newcomer.locator("#cmd-gf-battle_start").count() == 0
    no_sideways_scroll(newcomer)
    gm.locator("#members", has_text="pat — player (Robots)").wait_for(timeout=LIVE_MS)  # live on the GM's page

    # the used link opens nothing more; a link the GM revokes neither
    again = stranger(contexts, browser, base_url)
    again.goto(link)
    assert "was used already (pat joined by it)" in again.locator("#join-said").inner_text()
    gm.reload()
    gm.select_option("#link-whom", "observer")
    gm.click("#make-link")
    gm.locator("#invitation-made .ok").wait_for()
    revoked = gm.locator("#invitation-link").input_value()
    gm.locator("#invitation-list li[data-state=open] button.revoke").click()
    gm.locator("#invitation-made .ok", has_text="revoked").wait_for()
    assert gm.locator("#invitation-list li[data-state=revoked]").count() == 1
    again.goto(revoked)
    assert "revoked by the game master" in again.locator("#join-said").inner_text()
    shoot_both_widths(again, screenshots, "join-revoked", scan)
    assert not scan, "\n".join(scan)


def test_without_javascript_the_link_is_made_opened_and_joined(
    browser: Any, base_url: str, contexts: list[Any], screenshots: Path
) -> None:
    gm = person(contexts, browser, base_url, "gina", PHONE, js=False)
    campaign_url = new_campaign(gm, base_url)
    gm.select_option("#link-whom", "observer")
    gm.click("#make-link")
    gm.wait_for_load_state()
    assert "A link for an observer" in gm.locator("#invitation-made").inner_text()
    link = gm.locator("#invitation-link").input_value()
    gm.screenshot(path=str(screenshots / "nojs-invitation-made-390.png"), full_page=True)

    newcomer = stranger(contexts, browser, base_url, js=False)
    newcomer.goto(link)
    newcomer.fill("#signup-name", "olive")
    newcomer.fill("#signup-password", PASSWORD)
    newcomer.click("#signup-submit")
    newcomer.wait_for_url(campaign_url)
    assert newcomer.locator("#role").inner_text() == "observer"
    assert newcomer.locator("#commands").count() == 0  # an observer enters nothing
    no_sideways_scroll(newcomer)
    newcomer.screenshot(path=str(screenshots / "nojs-joined-390.png"), full_page=True)
