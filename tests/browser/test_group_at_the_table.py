"""The issue's scenario in a real browser: a GM, a player and an observer at one campaign, each on an open page.

A GM signs up, starts a campaign and invites a player and an observer; the player musters a unit and shoots
with table dice; the GM's open page shows it without a reload; the player audits the roll; the player has no
rewind control and the API refuses it (403); the observer can post nothing; the GM amends the shot after a
preview and every open page updates. Screenshots of the main pages go to test-output/browser/.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.browser.test_page_on_a_phone import open_command, open_tool
from tests.server.conftest import PASSWORD, SQUAD

LIVE_MS = 3000
"""How long an open page may take to show an append here: the stream, a fetch of the page's live part and its
drawing on a shared machine. The issue's "within a second of its append" is asserted where only the stream is
timed (tests/server/test_live.py)."""


REFUSED_BY_CSP: list[str] = []
"""What the browser's Content-Security-Policy blocked on any page (a script or style the page needed)."""


def sign_up(contexts: list[Any], browser: Any, base_url: str, name: str) -> Any:
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
    contexts.append(context)
    page = context.new_page()
    page.on("console", lambda m: REFUSED_BY_CSP.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto("/signup")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("#submit")
    page.wait_for_url(f"{base_url}/")
    assert page.locator("#account").inner_text() == name
    return page


def enter(page: Any, command: str, fields: dict[str, str], dice: str | None = None, ticks: tuple[str, ...] = ()) -> str:
    """Open a command's generated form, fill it in (a picker by its choice, a tick by its label) and send it;
    with ``dice``, ask which dice to roll first and enter them die by die. The answer shown under the form."""
    box = open_command(page, command)
    for name, value in fields.items():
        control = box.locator(f"[name='{name}']")
        if control.evaluate("node => node.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)
    for label in ticks:
        box.get_by_label(label).check()
    if dice is not None:
        box.get_by_role("button", name="Which dice to roll?").click()
        box = page.locator(f"#cmd-{command.replace('.', '-')}")
        box.locator(".dice").wait_for()
        for die, face in zip(box.locator("input[name=_die]").all(), dice.split(","), strict=True):
            die.fill(face)
        box.get_by_role("button", name="Record these dice").click()
    else:
        box.locator("button[value=seeded], button[value=nodice]").first.click()
    box = page.locator(f"#cmd-{command.replace('.', '-')}")
    box.locator(".command-result p").first.wait_for()
    text: str = box.locator(".command-result").inner_text()
    return text


def csrf(page: Any) -> str:
    token: str = json.loads(page.locator("body").get_attribute("hx-headers"))["X-CSRF-Token"]
    return token


def test_a_game_master_a_player_and_an_observer_share_a_campaign_live(
    browser: Any, base_url: str, contexts: list[Any], screenshots: Path
) -> None:
    gm = sign_up(contexts, browser, base_url, "gina")
    player = sign_up(contexts, browser, base_url, "pat")
    observer = sign_up(contexts, browser, base_url, "olive")

    gm.fill("#new-campaign input[name=name]", "Kessel")
    gm.check("#ruleset-grimdark")
    gm.click("#new-campaign button")
    gm.wait_for_url(f"{base_url}/c/*")
    campaign_url = gm.url
    open_tool(gm, "tool-invite")
    for account, role, sides in (("pat", "player", "Robots"), ("olive", "observer", "")):
        gm.fill("#invite input[name=account]", account)
        gm.select_option("#invite select[name=role]", role)
        gm.fill("#invite input[name=sides]", sides)
        gm.click("#invite button")
        gm.locator("#invite-result", has_text=f"{account} joins").wait_for()
    gm.locator("#members", has_text="olive — observer").wait_for(timeout=LIVE_MS)

    player.goto(campaign_url)
    observer.goto(campaign_url)
    assert player.locator("#role").inner_text() == "player"
    profile = {f"profile.{k}": str(v) for k, v in SQUAD.items()}
    said = enter(player, "gf.muster", {"name": "Robot Squad", "side": "Robots", **profile})
    assert "muster: Robot Squad mustered for Robots" in said  # the command as it is typed, and what it did
    gm.locator("#roster", has_text="Robot Squad").wait_for(timeout=LIVE_MS)
    enter(gm, "gf.muster", {"name": "Saurian Warriors", "side": "Saurians", **profile})
    gm.reload()  # the pickers list the units mustered since the page was drawn
    enter(gm, "gf.battle_start", {"name": "Ruins"}, ticks=("Robot Squad (Robots)", "Saurian Warriors (Saurians)"))
    player.locator("#battle", has_text="Ruins").wait_for(timeout=LIVE_MS)

    # 6 wounds on ten models of Quality 4+: four left, at half strength; the table's 2 fails the morale test.
    shaken = "Robot Squad, morale test (wounds at half strength): rolled 2 against Quality 4+: fails → Shaken"
    player.reload()
    said = enter(player, "gf.shoot", {"unit_name": "Robot Squad", "wounds": "6"}, dice="2")
    assert shaken in said
    gm.locator("#log", has_text=shaken).wait_for(timeout=LIVE_MS)
    observer.locator("#log", has_text=shaken).wait_for(timeout=LIVE_MS)
    gm.screenshot(path=str(screenshots / "campaign-gm.png"), full_page=True)
    player.screenshot(path=str(screenshots / "campaign-player.png"), full_page=True)

    roll_row = player.locator("#log tr", has_text="table dice entered by pat")
    shot_seq = int(roll_row.get_attribute("data-seq")) - 1
    roll_row.locator("a.audit-link").click()
    player.wait_for_url("**/audit/*")
    assert player.locator("#audit-actor").inner_text() == "pat"
    assert "table dice entered by pat" in player.locator("#audit-dice").inner_text()
    player.screenshot(path=str(screenshots / "audit-player.png"), full_page=True)
    player.goto(campaign_url)

    assert player.locator("#rewind").count() == 0 and player.locator("#amend").count() == 0
    campaign_id = campaign_url.rsplit("/", 1)[1]
    refused = player.request.post(
        f"/api/campaigns/{campaign_id}/rewind", data={"to": 3}, headers={"X-CSRF-Token": csrf(player)}
    )
    assert refused.status == 403

    assert observer.locator("#commands").count() == 0 and observer.locator("#gm").count() == 0
    for tail, body in (("/commands", {"command": "gf.round", "args": {}}), ("/rewind", {"to": 3}), ("/reveal", {})):
        answer = observer.request.post(
            f"/api/campaigns/{campaign_id}{tail}", data=body, headers={"X-CSRF-Token": csrf(observer)}
        )
        assert answer.status == 403
    observer.screenshot(path=str(screenshots / "campaign-observer.png"), full_page=True)

    open_tool(gm, "tool-amend")
    gm.fill("#amend-seq", str(shot_seq))
    gm.click("#amend-open")  # the command's own form, filled with what it was recorded with
    assert gm.locator("#amend-f-in-wounds").input_value() == "6"
    gm.fill("#amend-f-in-wounds", "5")
    gm.click("#amend-preview")
    gm.locator("#amend-result", has_text="Preview of amending shoot").wait_for()
    previewed = gm.locator("#amend-result").inner_text()
    assert "wounds: 6 → 5" in previewed  # the input corrected, as the CLI's preview says it
    assert "now Robot Squad takes 5 wounds: 5 models killed, 5 of 10 left" in previewed
    gm.screenshot(path=str(screenshots / "amend-preview-gm.png"), full_page=True)
    assert player.locator("#log", has_text="5 of 10 left").count() == 0  # a preview appends nothing
    gm.click("#amend-apply")
    gm.locator("#amend-result", has_text="Amended shoot").wait_for()
    for page in (gm, player, observer):
        page.locator("#log tr:not(.retracted)", has_text="5 models killed, 5 of 10 left").first.wait_for(
            timeout=LIVE_MS
        )
    observer.screenshot(path=str(screenshots / "amended-observer.png"), full_page=True)
    assert REFUSED_BY_CSP == []  # the pages ran under the CSP: live, charts and forms, nothing inline
    gm.goto(base_url + "/")
    gm.screenshot(path=str(screenshots / "campaigns-gm.png"), full_page=True)
