"""The page at a table: a player on a phone (390×844, one thumb), the game master at a desk (1280×800), and the
same flow with JavaScript turned off, in Debian's Chromium.

The player musters a unit through the generated form (no JSON typed: a picker of its own sides, number fields),
the GM starts a battle by ticking the units; the player asks which dice its shot rolls, enters the die, and the
GM's open page shows the outcome live; a melee against the other side's unit shows that side's die waiting. On
every page and at both widths nothing scrolls sideways, and at 390 px every control is a 44 px tap target.
Without JavaScript a command still posts, redirects back and shows its answer, and the dice are asked for and
entered. Screenshots of every page at both widths go to test-output/browser/ (gitignored).

Grimdark, RULES.md §4.1 A: ten models of Quality 4+ taking 6 wounds are four left, at half strength or less, and
test on a d6; a 2 fails (Shaken). §4.1 B: in a melee the side that caused fewer wounds tests.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import PASSWORD

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
LIVE_MS = 5000
TAP = 44
"""The smallest tap target, in CSS pixels (WCAG 2.5.5)."""
AXE = Path(__file__).resolve().parents[2] / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
"""npm's axe-core, installed by scripts/browser-setup."""
SERIOUS = ("serious", "critical")
SHAKEN = "Robot Squad, morale test (wounds at half strength): rolled 2 against Quality 4+: fails → Shaken"


def person(contexts: list[Any], browser: Any, base_url: str, name: str, size: dict[str, int], js: bool = True) -> Any:
    phone = size["width"] < 500
    # bypass_csp: axe-core is injected as a script of the test's own (tests/browser/test_group_at_the_table.py
    # checks that the pages need nothing the CSP refuses)
    context = browser.new_context(
        base_url=base_url, viewport=size, java_script_enabled=js, is_mobile=phone, has_touch=phone, bypass_csp=True
    )
    contexts.append(context)
    page = context.new_page()
    page.goto("/signup")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("#submit")
    page.wait_for_url(f"{base_url}/")
    return page


def no_sideways_scroll(page: Any) -> None:
    wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    past = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
             .filter((e) => !e.closest('.scroll') && e.getBoundingClientRect().right > window.innerWidth + 1)
             .slice(0, 5).map((e) => e.outerHTML.slice(0, 100))"""
    )
    assert wide[0] <= wide[1], f"{page.url} is {wide[0]} px wide at {wide[1]} px: {past}"
    if wide[1] < 500:  # at a phone's width a table fits too (its rows stacked), not cut at the edge of its region
        cut = page.evaluate(
            """() => [...document.querySelectorAll('.scroll')]
                 .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
                 .map((e) => `${e.getAttribute('aria-label')}: ${e.scrollWidth} px in ${e.clientWidth} px`)"""
        )
        assert cut == [], f"{page.url}: tables cut at {wide[1]} px: {cut}"


def room_to_spare(page: Any) -> list[str]:
    """What draws empty room a reader scrolls past: a card taller than what it holds (stretched beside a longer
    one), a short card beside a far longer one, a chart with nothing to draw kept at a chart's height; and a
    table cut at its region's right edge."""
    found: list[str] = page.evaluate(
        """() => [
             ...[...document.querySelectorAll('.card')].filter((c) => c.offsetParent !== null && c.children.length)
               .filter((c) => c.getBoundingClientRect().bottom
                              - Math.max(...[...c.children].map((e) => e.getBoundingClientRect().bottom)) > 48)
               .map((c) => `${c.id || c.className}: empty room below its content`),
             ...[...document.querySelectorAll('.chart[data-empty]')].filter((c) => c.offsetHeight > 80)
               .map((c) => `${c.parentElement.id}: ${c.offsetHeight} px for nothing to draw`),
             ...[...document.querySelectorAll('#log .scroll')].filter((e) => e.scrollWidth > e.clientWidth + 1)
               .map((e) => `the log is cut: ${e.scrollWidth} px in ${e.clientWidth} px`),
             ...[...document.querySelectorAll('.cols')].filter((c) => c.children.length === 2)
               .map((c) => [...c.children].map((e) => e.getBoundingClientRect()))
               .filter(([a, b]) => Math.abs(a.top - b.top) < 1 && Math.abs(a.height - b.height) > 400)
               .map(([a, b]) => `side by side, ${Math.round(Math.abs(a.height - b.height))} px of one left empty`),
           ]"""
    )
    return found


def small_targets(page: Any) -> list[str]:
    """Visible controls shorter or narrower than a thumb's tap target (a tick box counts by its label's row)."""
    found: list[str] = page.evaluate(
        """(tap) => [...document.querySelectorAll('button, select, summary, .field.check > label, a.audit-link, '
                                                 + 'a.tab-link, a.campaign-link, '
                                                 + 'input:not([type=hidden]):not([type=checkbox]):not([type=radio])')]
             .filter((e) => e.offsetParent !== null)
             .filter((e) => { const r = e.getBoundingClientRect(); return r.height < tap || r.width < tap; })
             .map((e) => e.outerHTML.slice(0, 80))""",
        TAP,
    )
    return found


def in_view(page: Any, selector: str) -> bool:
    """Whether the element's top is within the viewport, where the person who acted is looking."""
    box = page.locator(selector).bounding_box()  # relative to the viewport
    size = page.viewport_size
    return box is not None and -1 < box["y"] < size["height"] and box["height"] > 0  # -1: sub-pixel scrolls


def comes_into_view(page: Any, selector: str) -> bool:
    """Whether the element's top comes within the viewport within a few seconds: the page brings an answer into
    view once htmx has settled it, a moment after it is in the page."""
    found = page.wait_for_function(
        """(sel) => { const e = document.querySelector(sel); if (!e) return false;
                      const r = e.getBoundingClientRect();
                      return r.height > 0 && r.top > -1 && r.top < innerHeight; }""",
        arg=selector,
        timeout=5000,
    )
    return bool(found.json_value())


def axe_ready() -> bool:
    if AXE.exists():
        return True
    if os.environ.get("CAMPAIGN_REQUIRE_BROWSER"):
        pytest.fail(f"{AXE} is missing: scripts/browser-setup installs npm's axe-core (CAMPAIGN_REQUIRE_BROWSER)")
    return False


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page as it is (WCAG 2.1 A and AA rules)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']})).violations"
    )
    return [
        f"{page.url} {v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in SERIOUS
    ]


def shoot_both_widths(page: Any, screenshots: Path, name: str, scan: list[str] | None = None) -> None:
    """A screenshot of the page at the phone's width and the desk's (the viewport put back after); with ``scan``,
    axe-core's serious findings at each width added to it."""
    was = page.viewport_size
    for label, size in (("390", PHONE), ("1280", DESK)):
        page.set_viewport_size(size)
        page.wait_for_timeout(300)  # the charts redraw at the new width
        no_sideways_scroll(page)
        page.screenshot(path=str(screenshots / f"{name}-{label}.png"), full_page=True)
        assert room_to_spare(page) == [], f"{page.url} at {label} px"
        if scan is not None:
            scan.extend(f"{label} px: {v}" for v in serious_violations(page))
    page.set_viewport_size(was)


def shoot_charts(page: Any, screenshots: Path, name: str, scan: list[str] | None) -> None:
    """The charts with their tables opened, at both widths: each chart named (its figure and its canvas), its
    table's rows named in the campaign's calendar; a screenshot of the charts' section, and axe's findings."""
    # a Grimdark campaign's: its heroes earn XP, not Glory (no chart for that)
    charts = (("strength", "Units' strength on the roster"), ("treasury", "Treasury"))
    for key, _title in charts:
        page.locator(f"#table-{key} > summary").click()
    for key, title in charts:
        assert page.get_by_role("figure", name=title).count() == 1
        assert page.locator(f"#chart-{key}").get_attribute("aria-label").startswith(title)
    assert page.locator("#figure-glory").count() == 0
    # the battle's end is the head: the last point is it, not "now" besides
    assert page.locator("#table-strength tbody th").all_inner_texts() == ["end of Ruins"]
    was = page.viewport_size
    for label, size in (("390", PHONE), ("1280", DESK)):
        page.set_viewport_size(size)
        page.wait_for_timeout(300)  # the charts redraw at the new width
        no_sideways_scroll(page)
        page.locator("#charts").screenshot(path=str(screenshots / f"{name}-{label}.png"))
        if scan is not None:
            scan.extend(f"{label} px: {v}" for v in serious_violations(page))
    page.set_viewport_size(was)


def shoot_printed(page: Any, screenshots: Path, name: str, scan: list[str] | None) -> None:
    """The page as its print style sheet lays it out, at both widths: black on white, no navigation, no forms."""
    page.emulate_media(media="print")
    try:
        for label, size in (("390", PHONE), ("1280", DESK)):
            page.set_viewport_size(size)
            page.wait_for_timeout(200)
            for hidden in ("header", "form", "nav"):
                assert all(not e.is_visible() for e in page.locator(hidden).all()), f"{hidden} is printed"
            colours = page.evaluate(
                "() => [getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor]"
            )
            assert colours == ["rgb(0, 0, 0)", "rgb(255, 255, 255)"]
            page.screenshot(path=str(screenshots / f"{name}-{label}.png"), full_page=True)
            if scan is not None:
                scan.extend(f"print {label} px: {v}" for v in serious_violations(page))
    finally:
        page.emulate_media(media="screen")


def open_tool(page: Any, tool: str) -> Any:
    """Unfold a folded section (``details``, by its id): a GM's tool, a group of commands."""
    box = page.locator(f"#{tool}")
    if box.get_attribute("open") is None:
        box.locator(":scope > summary").click()
    return box


def open_command(page: Any, command: str) -> Any:
    box = page.locator(f"#cmd-{command.replace('.', '-')}")
    group = page.locator("details.command-group").filter(has=box)
    if group.get_attribute("open") is None:
        group.locator(":scope > summary").click()
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    return box


def test_a_player_on_a_phone_and_the_gm_at_a_desk(
    browser: Any, base_url: str, contexts: list[Any], screenshots: Path
) -> None:
    gm = person(contexts, browser, base_url, "gina", DESK)
    player = person(contexts, browser, base_url, "pat", PHONE)
    shoot_both_widths(player, screenshots, "campaigns-new-player")
    gm.fill("#new-campaign input[name=name]", "Kessel")
    gm.check("#ruleset-grimdark")
    gm.click("#new-campaign button")
    gm.wait_for_url(f"{base_url}/c/*")
    campaign_url = gm.url
    open_tool(gm, "tool-invite")
    gm.fill("#invite input[name=account]", "pat")
    gm.fill("#invite input[name=sides]", "Robots")
    gm.click("#invite button")
    gm.locator("#invite-result", has_text="pat joins").wait_for()

    player.goto(campaign_url)
    assert small_targets(player) == []
    box = open_command(player, "gf.muster")
    assert box.locator("textarea").count() == 0 and "JSON" not in box.inner_text()
    box.get_by_label("name", exact=True).fill("Robot Squad")
    assert box.locator("select[name=side] option").all_inner_texts() == ["Robots"]  # its own side, picked
    box.get_by_label("models").fill("10")
    box.get_by_label("quality").fill("4")
    box.get_by_label("points").fill("150")
    box.get_by_role("button", name="muster", exact=True).click()
    box = player.locator("#cmd-gf-muster")
    box.locator(".command-result .ok").wait_for()
    assert "muster: Robot Squad mustered for Robots" in box.locator(".command-result").inner_text()
    gm.locator("#roster", has_text="Robot Squad").wait_for(timeout=LIVE_MS)

    box = open_command(gm, "gf.muster")
    box.get_by_label("name", exact=True).fill("Saurian Warriors")
    box.locator("input[name=side]").fill("Saurians")  # a side not fighting yet: the GM types it
    box.get_by_label("models").fill("10")
    box.get_by_label("quality").fill("4")
    box.get_by_label("points").fill("150")
    box.get_by_role("button", name="muster", exact=True).click()
    gm.locator("#cmd-gf-muster .command-result .ok").wait_for()
    gm.reload()  # the pickers list the units mustered since the page was drawn
    box = open_command(gm, "gf.battle_start")
    box.locator("input[name=battle_name], input[name=name]").first.fill("Ruins")
    box.get_by_label("Robot Squad (Robots)").check()
    box.get_by_label("Saurian Warriors (Saurians)").check()
    # no special objectives: it rolls nothing, so its form offers no dice (RULES.md §4.2)
    assert box.get_by_role("button", name="Which dice to roll?").count() == 0
    box.get_by_role("button", name="battle-start", exact=True).click()
    gm.locator("#cmd-gf-battle_start .command-result .ok").wait_for()
    player.locator("#battle", has_text="Ruins").wait_for(timeout=LIVE_MS)
    # no reload: the battle's commands come in live (the page asks for its own list once the battle has begun),
    # and the GM's drawer that started it stays open with its answer
    player.locator("#cmd-gf-shoot").wait_for(timeout=LIVE_MS)
    assert player.locator("#cmd-gf-battle_start").count() == 0 and player.locator("#commands-stale").is_hidden()
    gm.locator("#cmd-gf-round").wait_for(timeout=LIVE_MS)
    assert gm.locator("#cmd-gf-battle_start .command-result .ok").is_visible()
    box = open_command(player, "gf.shoot")
    box.locator("select[name=unit_name]").select_option("Robot Squad")
    box.get_by_label("wounds", exact=True).fill("6")
    box.get_by_role("button", name="Which dice to roll?").click()
    box = player.locator("#cmd-gf-shoot")
    box.locator(".dice").wait_for()
    assert comes_into_view(player, "#cmd-gf-shoot .dice"), "the dice asked for are drawn out of sight"
    assert box.locator("input[name=_die]").count() == 1  # one d6 for the morale test (§4.1 A)
    assert "morale test" in box.locator(".dice").inner_text().lower()
    assert small_targets(player) == []
    player.screenshot(path=str(screenshots / "dice-asked-player-390.png"), full_page=True)
    box.screenshot(path=str(screenshots / "dice-asked-form-390.png"))
    box.locator("input[name=_die]").fill("2")
    box.get_by_role("button", name="Record these dice").click()
    player.locator("#cmd-gf-shoot .command-result", has_text=SHAKEN).wait_for()
    assert comes_into_view(player, "#cmd-gf-shoot .command-result"), "the command's answer is drawn out of sight"
    gm.locator("#log", has_text=SHAKEN).wait_for(timeout=LIVE_MS)  # the GM's page, live
    # the live log came as its new rows, placed among those the page had: newest first, each once, and the
    # row that was newest before lost its "undo" (only the newest row offers it)
    keys = [int(k) for k in gm.locator("#log tbody tr").evaluate_all("rows => rows.map((r) => r.dataset.key)")]
    assert keys == sorted(set(keys), reverse=True) and keys[-1] == 1, keys
    assert gm.locator("#log a.undo-link").count() == 1
    assert gm.locator("#log tbody tr").first.locator("a.undo-link").count() == 1
    # the battle sheet, live on the GM's page: ten models less six wounds (Tough 1) is four, and Shaken (§4.1 A)
    card = gm.locator("#battle .unit-card", has_text="Robot Squad")
    card.filter(has_text="Shaken").wait_for(timeout=LIVE_MS)
    assert card.inner_text().split()[:4] == ["Robot", "Squad", "Robots", "models"]
    assert "4/10" in card.inner_text()
    saurians = gm.locator("#battle .unit-card", has_text="Saurian Warriors").inner_text()
    assert "not activated yet" in saurians and "may activate this round: Hold, Advance, Rush or Charge" in saurians
    assert "must spend its activation this round idle" in card.inner_text()  # Shaken before activating (R3-26)
    no_sideways_scroll(player)
    player.locator("#battle .sheet").screenshot(path=str(screenshots / "battle-sheet-player-390.png"))
    assert player.locator("#log a.amend-link, #log a.rewind-link, #log a.undo-link").count() == 0

    # what happens to the Saurians' unit is the GM's to enter (README's role table): the player's melee offers
    # only its own units, and a melee sent by hand naming theirs is refused before any die (tests/server/)
    box = open_command(player, "gf.melee")
    for picker in ("a", "b"):
        offered = box.locator(f"select[name={picker}] option").all_inner_texts()
        assert any("Robot Squad" in o for o in offered) and not any("Saurian" in o for o in offered), offered
    no_sideways_scroll(player)
    player.locator("#cmd-gf-melee").screenshot(path=str(screenshots / "melee-player-form-390.png"))
    # the GM enters it: the Saurians caused fewer wounds, so theirs is the morale test's die (§4.1 B)
    box = open_command(gm, "gf.melee")
    box.locator("select[name=a]").select_option("Robot Squad")
    box.locator("select[name=b]").select_option("Saurian Warriors")
    box.locator("input[name=wounds_by_a]").fill("3")
    box.locator("input[name=wounds_by_b]").fill("0")
    box.get_by_role("button", name="Which dice to roll?").click()
    box = gm.locator("#cmd-gf-melee")
    box.locator(".dice").wait_for()
    assert box.locator("input[name=_die]").count() == 1 and "for Saurians" in box.locator(".dice").inner_text()
    box.locator("input[name=_die]").fill("5")  # 5 on Quality 4+: passed, seven models left, not Shaken
    box.get_by_role("button", name="Record these dice").click()
    gm.locator("#cmd-gf-melee .command-result .ok").wait_for()
    player.locator("#log", has_text="command melee").wait_for(timeout=LIVE_MS)  # the player's page, live
    saurians = player.locator("#battle .unit-card", has_text="Saurian Warriors")
    saurians.filter(has_text="7/10").wait_for(timeout=LIVE_MS)
    assert "Shaken" not in saurians.inner_text()

    scan: list[str] | None = [] if axe_ready() else None
    for page, who in ((player, "player"), (gm, "gm")):
        page.goto(campaign_url)
        open_command(page, "gf.muster")  # a generated form open: its controls scanned too
        shoot_both_widths(page, screenshots, f"campaign-{who}", scan)
        page.locator("#log a.audit-link").first.click()
        page.wait_for_url("**/audit/*")
        shoot_both_widths(page, screenshots, f"audit-{who}", scan)
        page.goto(campaign_url + "/report")
        shoot_both_widths(page, screenshots, f"report-{who}", scan)
        page.goto(base_url + "/")
        if who == "player":  # on the phone: the campaign's link is a thumb's target too
            assert small_targets(page) == []
        shoot_both_widths(page, screenshots, f"campaigns-{who}", scan)

    # the account page: its sessions' table stacked at 390 px, not cut; a password change says it took effect
    player.goto(base_url + "/account")
    shoot_both_widths(player, screenshots, "account-player", scan)
    player.fill("#current", PASSWORD)
    player.fill("#new", "a fresh passphrase for the table")
    player.locator("#password button[type=submit]").click()
    player.locator("#password-result", has_text="Your password is changed").wait_for()

    # the GM amends the shot from its log row: the row's link fills the form, which previews before it amends
    player.goto(campaign_url)
    gm.goto(campaign_url)
    row = gm.locator("#log tr", has_text="command shoot Robot Squad")
    seq = row.get_attribute("data-seq")
    row.locator("a.amend-link").click()
    gm.wait_for_url(f"**?amend={seq}#amend")
    assert gm.locator("#amend-f-in-wounds").input_value() == "6"  # the shot's own form, as recorded
    gm.fill("#amend-f-in-wounds", "1")  # nine models left of ten: above half, no morale test (§4.1 A)
    # on a phone, the preview is drawn where the GM is looking: the Preview button's own tool, in view
    gm.set_viewport_size(PHONE)
    gm.click("#amend-preview")
    preview = gm.locator("#amend-result", has_text="Preview of amending")
    preview.wait_for()
    assert in_view(gm, "#amend-result"), "the amend's preview is drawn out of sight"
    shoot_both_widths(gm, screenshots, "amend-preview-gm")
    gm.locator("#battle .unit-card", has_text="Robot Squad").filter(has_text="Shaken").wait_for()  # not yet
    gm.click("#amend-apply")
    gm.locator("#amend-result", has_text="Amended").wait_for()
    assert in_view(gm, "#amend-result"), "the amend's answer is drawn out of sight"
    gm.set_viewport_size(DESK)
    card = gm.locator("#battle .unit-card", has_text="Robot Squad")
    card.filter(has_text="9/10").wait_for(timeout=LIVE_MS)
    assert "Shaken" not in card.inner_text()
    player.locator("#battle .unit-card", has_text="Robot Squad").filter(has_text="9/10").wait_for(timeout=LIVE_MS)

    # the GM ends the battle: the charts have a battle to name; their view and the printed pages, both widths
    box = open_command(gm, "gf.battle_end")
    box.locator("select[name=winner]").select_option("Saurians")
    box.get_by_role("button", name="Roll the campaign's dice").click()
    gm.locator("#cmd-gf-battle_end .command-result .ok").wait_for()
    player.locator("#table-strength", has_text="end of Ruins").wait_for(state="attached", timeout=LIVE_MS)
    player.locator("#cmd-gf-shoot").wait_for(state="detached", timeout=LIVE_MS)  # the battle's commands go, live
    gm.locator("#cmd-gf-battle_start").wait_for(timeout=LIVE_MS)
    assert player.locator("#figure-glory").count() == 0  # Grimdark keeps no Glory: no chart for it
    for page, who in ((player, "player"), (gm, "gm")):
        page.goto(campaign_url)
        shoot_charts(page, screenshots, f"charts-{who}", scan)
    shoot_printed(gm, screenshots, "print-campaign-gm", scan)
    gm.goto(campaign_url + "/report")
    shoot_printed(gm, screenshots, "print-report-gm", scan)
    page = gm.context.new_page()
    page.context.clear_cookies()
    page.goto(base_url + "/signin")
    shoot_both_widths(page, screenshots, "signin", scan)
    assert not scan, "\n".join(scan)


def test_without_javascript_a_command_posts_asks_its_dice_and_redirects(
    browser: Any, base_url: str, contexts: list[Any], screenshots: Path
) -> None:
    gm = person(contexts, browser, base_url, "gina", PHONE, js=False)
    gm.fill("#new-campaign input[name=name]", "Kessel")
    gm.check("#ruleset-grimdark")
    gm.click("#new-campaign button")
    gm.wait_for_url(f"{base_url}/c/*")
    assert "reload" in gm.locator("#live-state").inner_text()  # no live updates without JavaScript: it says so

    box = open_command(gm, "gf.muster")
    box.get_by_label("name", exact=True).fill("Robot Squad")
    box.locator("input[name=side]").fill("Robots")
    box.get_by_label("models").fill("10")
    box.get_by_label("quality").fill("9")  # out of Quality 2–6: said beside the field
    box.get_by_label("points").fill("150")
    box.get_by_role("button", name="muster", exact=True).click()
    gm.wait_for_load_state()
    box = gm.locator("#cmd-gf-muster")
    assert box.get_attribute("open") is not None
    assert box.locator(".has-error .field-error").count() == 1
    assert box.get_by_label("name", exact=True).input_value() == "Robot Squad"  # what was typed is kept
    gm.screenshot(path=str(screenshots / "nojs-refused-390.png"), full_page=True)
    box.get_by_label("quality").fill("4")
    box.get_by_role("button", name="muster", exact=True).click()
    gm.wait_for_load_state()
    gm.locator("#cmd-gf-muster .command-result .ok").wait_for()
    assert "Robot Squad" in gm.locator("#roster").inner_text()
    box = open_command(gm, "gf.muster")
    box.get_by_label("name", exact=True).fill("Saurian Warriors")
    box.locator("input[name=side]").fill("Saurians")
    box.get_by_label("models").fill("10")
    box.get_by_label("quality").fill("4")
    box.get_by_label("points").fill("150")
    box.get_by_role("button", name="muster", exact=True).click()
    gm.wait_for_load_state()

    box = open_command(gm, "gf.battle_start")
    box.locator("input[name=battle_name], input[name=name]").first.fill("Ruins")
    box.get_by_label("Robot Squad (Robots)").check()
    box.get_by_label("Saurian Warriors (Saurians)").check()
    # no special objectives: it rolls nothing, so its form offers no dice (RULES.md §4.2)
    assert box.get_by_role("button", name="Which dice to roll?").count() == 0
    box.get_by_role("button", name="battle-start", exact=True).click()
    gm.wait_for_load_state()
    gm.locator("#cmd-gf-battle_start .command-result .ok").wait_for()

    box = open_command(gm, "gf.shoot")
    box.locator("select[name=unit_name]").select_option("Robot Squad")
    box.get_by_label("wounds", exact=True).fill("6")
    box.get_by_role("button", name="Which dice to roll?").click()
    gm.wait_for_load_state()
    box = gm.locator("#cmd-gf-shoot")
    box.locator("input[name=_die]").fill("2")
    box.get_by_role("button", name="Record these dice").click()
    gm.wait_for_load_state()
    gm.locator("#cmd-gf-shoot .command-result", has_text=SHAKEN).wait_for()
    assert SHAKEN in gm.locator("#log").inner_text()
    no_sideways_scroll(gm)
    gm.screenshot(path=str(screenshots / "nojs-campaign-390.png"), full_page=True)
    # without a script the charts are their tables: no empty canvas takes room, each table opens by itself
    assert gm.locator("#chart-strength").is_hidden()
    gm.locator("#table-strength > summary").click()
    assert gm.locator("#table-strength tbody th").all_inner_texts() == ["now"]
    assert gm.locator("#table-strength tbody td").all_inner_texts() == ["10", "10"]  # the roster's, as its table
