"""The game master's tools as a new group uses them, in Debian's Chromium: a side that musters its first unit is
offered at once by the invitation link's picker (live, as the roster is; without JavaScript, on the page the
muster's redirect draws), a unit mustered by the commands' pickers (the battle's start), and inviting or removing
a member answers under its own button, in view, at a desk (1280) and on a phone (390). Screenshots:
test-output/browser/gm-tools-*.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.test_page_on_a_phone import (
    DESK,
    LIVE_MS,
    PHONE,
    comes_into_view,
    open_command,
    open_tool,
    person,
    shoot_both_widths,
)


def new_campaign(gm: Any, base_url: str) -> str:
    gm.fill("#new-campaign input[name=name]", "Kessel")
    gm.check("#ruleset-grimdark")
    gm.click("#new-campaign button")
    gm.wait_for_url(f"{base_url}/c/*")
    return str(gm.url)


def muster(page: Any, name: str, side: str) -> None:
    box = open_command(page, "gf.muster")
    box.get_by_label("name", exact=True).fill(name)
    box.locator("input[name=side]").fill(side)
    box.get_by_label("models").fill("10")
    box.get_by_label("quality").fill("4")
    box.get_by_label("points").fill("150")
    box.get_by_role("button", name="muster", exact=True).click()


def link_choices(page: Any) -> list[str]:
    return [str(v) for v in page.locator("#link-whom option").evaluate_all("(os) => os.map((o) => o.value)")]


def test_a_side_mustered_is_offered_by_the_link_picker_live(
    browser: Any, base_url: str, contexts: list[Any], screenshots: Path
) -> None:
    gm = person(contexts, browser, base_url, "gina", DESK)
    new_campaign(gm, base_url)
    gm.locator("#live-state.ok").wait_for(timeout=LIVE_MS)
    assert link_choices(gm) == ["observer"]  # no side yet: a link can invite only an observer
    muster(gm, "Robot Squad", "Robots")
    gm.locator("#cmd-gf-muster .command-result .ok").wait_for()
    # no reload: the picker is drawn again with the page's other live parts
    gm.locator('#link-whom option[value="player:Robots"]').wait_for(state="attached", timeout=LIVE_MS)
    assert link_choices(gm) == ["player:Robots", "observer"]
    assert gm.locator("#link-whom").input_value() == "player:Robots"  # left as drawn: the new side offered first
    assert gm.locator("#link-no-side").count() == 0
    assert gm.locator('#invite-side-list option[value="Robots"]').count() == 1  # the invite by name's suggestion
    # a choice made in the picker stays as another side is first known
    gm.select_option("#link-whom", "observer")
    muster(gm, "Saurian Warriors", "Saurians")
    gm.locator('#link-whom option[value="player:Saurians"]').wait_for(state="attached", timeout=LIVE_MS)
    assert gm.locator("#link-whom").input_value() == "observer"
    # and the commands' pickers follow the roster: the battle's start offers both units, no reload
    start = open_command(gm, "gf.battle_start")
    start.get_by_label("Saurian Warriors (Saurians)").wait_for(timeout=LIVE_MS)
    assert start.get_by_label("Robot Squad (Robots)").count() == 1
    gm.select_option("#link-whom", "player:Saurians")
    gm.click("#make-link")
    gm.locator("#invitation-made", has_text="Saurians").wait_for()
    open_tool(gm, "tool-invite")
    shoot_both_widths(gm, screenshots, "gm-tools-live-picker")
    gm.locator("#gm").screenshot(path=str(screenshots / "gm-tools-section-1280.png"))


def test_inviting_and_removing_answer_under_their_own_buttons_on_a_phone(
    browser: Any, base_url: str, contexts: list[Any], screenshots: Path
) -> None:
    person(contexts, browser, base_url, "pat", PHONE)  # an account to invite
    gm = person(contexts, browser, base_url, "gina", PHONE)
    new_campaign(gm, base_url)
    muster(gm, "Robot Squad", "Robots")
    gm.locator("#cmd-gf-muster .command-result .ok").wait_for()
    open_tool(gm, "tool-invite")
    gm.fill("#invite input[name=account]", "pat")
    gm.fill("#invite input[name=sides]", "Robots")
    gm.click("#invite button")
    gm.locator("#invite-result", has_text="pat joins").wait_for()
    assert comes_into_view(gm, "#invite-result .ok")
    shoot_both_widths(gm, screenshots, "gm-tools-invited")
    gm.locator("#gm").screenshot(path=str(screenshots / "gm-tools-section-390.png"))
    open_tool(gm, "tool-remove")
    gm.fill("#remove-member input[name=account]", "pat")
    gm.once("dialog", lambda dialog: dialog.accept())
    gm.click("#remove-member button")
    gm.locator("#remove-result", has_text="pat is no longer a member").wait_for()
    assert comes_into_view(gm, "#remove-result .ok")
    gm.screenshot(path=str(screenshots / "gm-tools-removed-390.png"), full_page=False)


def test_without_javascript_the_muster_redirect_draws_the_picker_and_the_answer_under_its_tool(
    browser: Any, base_url: str, contexts: list[Any], screenshots: Path
) -> None:
    person(contexts, browser, base_url, "pat", PHONE)
    gm = person(contexts, browser, base_url, "gina", PHONE, js=False)
    new_campaign(gm, base_url)
    muster(gm, "Robot Squad", "Robots")
    gm.wait_for_load_state()
    gm.locator("#cmd-gf-muster .command-result .ok").wait_for()
    assert link_choices(gm) == ["player:Robots", "observer"]
    open_tool(gm, "tool-invite")
    gm.fill("#invite input[name=account]", "pat")
    gm.fill("#invite input[name=sides]", "Robots")
    gm.click("#invite button")
    gm.wait_for_load_state()
    assert gm.url.endswith("#invite-result")
    assert "pat joins" in gm.locator("#invite-result").inner_text()
    assert gm.locator("#tool-invite").get_attribute("open") is not None
    gm.screenshot(path=str(screenshots / "gm-tools-nojs-invited-390.png"), full_page=True)
