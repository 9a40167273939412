"""The campaign page during a battle: the battle sheet (a card per unit with its state in the battle), and the
game master's corrections on each log row, which a player or an observer is never sent."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from campaign.server.fragments import GM, OTHERS, Fragments
from tests.server.conftest import SQUAD, World, post

GM_TOOLS = ("amend-link", "rewind-link", "undo-link")


def _card(page: str, name: str) -> str:
    """The text of the battle sheet's card whose name is ``name``, its tags dropped."""
    sheet = page.split('<ul class="sheet">', 1)[1].split("</ul>", 1)[0]
    for card in sheet.split('<li class="unit-card')[1:]:
        text = " ".join(re.sub(r"<[^>]+>", " ", card.split(">", 1)[1]).split())
        if text.startswith(name + " "):
            return text
    raise AssertionError(f"no card for {name} in {sheet}")


def test_the_sheet_shows_a_five_grade_unit_that_lost_men_and_a_grade(world: World) -> None:
    """Seed example E3 (RULES.md §0.5): Regular (d8), 7 men, LV 2, Low motivation, fire kills 2 and wounds 2:
    4 lost > 3 left gives threat 4, +1 for each of the 2 unverified: target 2 + 4 + 2 = 8; a roll of 6 is not
    above it and more than half of it: one grade down, Confident (a fresh unit's start, §0.3) to Steady."""
    gina, pat = world.client("gina"), world.client("pat")
    cid = post(gina, "/api/campaigns", {"name": "Hill", "ruleset": "fighting-spirit"}, 201)["campaign_id"]
    post(gina, f"/api/campaigns/{cid}/members", {"account": "pat", "role": "player", "sides": ["Keno"]})

    def run(command: str, dice: str | None = None, **args: Any) -> None:
        post(gina, f"/api/campaigns/{cid}/commands", {"command": command, "args": args, "dice": dice})

    run("fs.muster", name="Keno Guard", side="Keno", profile={"quality": "regular", "leadership": 2, "size": 7})
    run("fs.muster", name="Steel Squad", side="Steel", profile={"quality": "regular", "leadership": 2, "size": 6})
    deployed = [{"unit": "Keno Guard"}, {"unit": "Steel Squad"}]
    run("fs.battle_start", name="Patrol", motivation={"Keno": "low", "Steel": "low"}, deployments=deployed)
    before = pat.get(f"/c/{cid}").text
    assert _card(before, "Keno Guard").startswith("Keno Guard Keno men 7/7 grade Confident")
    assert "not activated yet" in _card(before, "Keno Guard")

    run("fs.attack", dice="6", unit_name="Keno Guard", killed=2, wounded=2)
    page = pat.get(f"/c/{cid}").text
    card = _card(page, "Keno Guard")
    assert card.startswith("Keno Guard Keno men 3/7 grade Steady"), card
    assert _card(page, "Steel Squad").startswith("Steel Squad Steel men 6/6 grade Confident")
    live = pat.get(f"/c/{cid}/live", params={"part": "top"}).text  # what the stream replaces: the same sheet
    assert _card(live, "Keno Guard") == card


def _rows(log: str) -> dict[int, str]:
    """The log's rows by seq."""
    return {int(m[1]): m[2] for m in re.finditer(r'<tr class="[^"]*" data-seq="(\d+)"[^>]*>(.*?)</tr>', log, re.S)}


def _log_of(client: TestClient, cid: str) -> str:
    return client.get(f"/c/{cid}/live", params={"part": "log"}).text.split('id="log"', 1)[1]


def test_only_the_game_master_is_offered_amend_rewind_and_undo_on_the_log(world: World) -> None:
    gina, pat, olive = world.client("gina"), world.client("pat"), world.client("olive")
    cid = world.campaign_id

    def muster(name: str) -> int:
        body = {"command": "gf.muster", "args": {"name": name, "side": "Robots", "profile": SQUAD}}
        seq: int = post(gina, f"/api/campaigns/{cid}/commands", body)["events"][0]["seq"]
        return seq

    muster("Robot Squad")
    seq = muster("Second Squad")
    for who in (pat, olive):
        for page in (who.get(f"/c/{cid}").text, _log_of(who, cid)):
            assert "audit-link" in page
            assert not any(tool in page for tool in GM_TOOLS)
            assert f"?amend={seq}" not in page and f"?rewind={seq}" not in page
    rows = _rows(gina.get(f"/c/{cid}").text.split('id="log"', 1)[1])
    newest = seq + 1  # the squad's mustering, after its command's row
    assert max(rows) == newest
    assert f'href="/c/{cid}?amend={seq}#amend"' in rows[seq], "a command's own row: amend it"
    assert "amend-link" not in rows[newest], "what a command did is amended on its command's row"
    assert f'href="/c/{cid}?rewind={seq}#rewind"' in rows[seq]
    assert "rewind-link" not in rows[newest], "nothing after the newest row to rewind"
    assert [n for n, row in rows.items() if "undo-link" in row] == [newest]

    filled = gina.get(f"/c/{cid}", params={"amend": seq}).text
    assert f'name="seq" value="{seq}"' in filled and 'name="in.name" value="Second Squad"' in filled  # its own form
    rewinding = gina.get(f"/c/{cid}", params={"rewind": seq - 1}).text
    assert re.search(rf'id="rewind-to" name="to"[^>]* value="{seq - 1}"', rewinding)
    # the link's form previews first: nothing is appended until its confirmation
    head = gina.get(f"/api/campaigns/{cid}").json()["seq"]
    preview = gina.post(f"/c/{cid}/amend", data={"seq": seq, "set": "name=Third Squad", "preview": "1"})
    assert preview.status_code == 200 and "Preview of amending" in preview.text
    assert gina.get(f"/api/campaigns/{cid}").json()["seq"] == head

    fragments: Fragments = world.app.state.server.fragments
    info = world.app.state.server.campaign(cid)
    assert fragments.at(info, "en", GM).members == {"gina"}, "a GM's rendering is streamed to the GMs only"
    assert fragments.at(info, "en", OTHERS).members == {"gina", "pat", "olive"}
    shared = fragments.at(info, "en", OTHERS).parts
    # the GM's own: the log (its rows' tools) and the invitations' sides, which the others' rendering leaves empty
    gms_own = {"log", "link-for", "invite-side-list"}
    assert {n for n, html in fragments.at(info, "en", GM).parts.items() if html is not shared[n]} == gms_own
    assert shared["link-for"] == shared["invite-side-list"] == ""


def _now(page: str, name: str) -> str:
    """What the card of ``name`` says the unit may do now."""
    card = _card(page, name)
    assert " Now: " in card, card
    return card.split(" Now: ", 1)[1]


def test_each_grimdark_card_says_what_the_unit_may_do_now(world: World) -> None:
    """RULES.md §4.1, R3-25, R3-26: a unit activates once a round (Hold, Advance, Rush or Charge); Ten activates,
    is then shot and fails (quality 4+, a 2) → Shaken: "it cannot remove it in the same round. It must wait for its
    activation in the next round", which it must spend idle."""
    gina, pat, cid = world.client("gina"), world.client("pat"), world.campaign_id

    def run(command: str, dice: str | None = None, **args: Any) -> None:
        post(gina, f"/api/campaigns/{cid}/commands", {"command": command, "args": args, "dice": dice})

    run("gf.muster", name="Robot Squad", side="Robots", profile=SQUAD)
    run("gf.muster", name="Saurian Warriors", side="Saurians", profile=SQUAD)
    run("gf.battle_start", name="Ruins", units=["Robot Squad", "Saurian Warriors"])
    page = pat.get(f"/c/{cid}").text
    assert _now(page, "Robot Squad") == "may activate this round: Hold, Advance, Rush or Charge."
    assert " not activated yet " in _card(page, "Robot Squad")
    run("gf.activate", unit_name="Robot Squad")
    page = pat.get(f"/c/{cid}").text
    assert _now(page, "Robot Squad") == "activating now: Hold, Advance, Rush or Charge."
    assert " activating " in _card(page, "Robot Squad") and " activated " not in _card(page, "Robot Squad")
    assert _now(page, "Saurian Warriors").startswith("may activate this round")
    run("gf.activate", unit_name="Saurian Warriors")
    assert _now(pat.get(f"/c/{cid}").text, "Robot Squad") == "done this round: it activates again next round."
    run("gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    shaken = _now(pat.get(f"/c/{cid}").text, "Robot Squad")
    assert shaken.startswith("Shaken after its activation: it stays Shaken until its idle activation next round")
    run("gf.round")
    page = pat.get(f"/c/{cid}").text
    assert _now(page, "Robot Squad").startswith("Shaken: it must spend its activation this round idle")
    assert _now(page, "Saurian Warriors").startswith("may activate this round")
    gina.get("/lang/pl", params={"next": "/"})
    assert "Teraz: może się aktywować w tej rundzie" in _card(gina.get(f"/c/{cid}").text, "Saurian Warriors")
    # a unit routed off the table activates no more: its card says why it left, not whether it activated
    run("gf.remove", unit_name="Robot Squad", reason="routed")
    gone = _card(pat.get(f"/c/{cid}").text, "Robot Squad")
    assert "activat" not in gone and " Now: " not in gone, gone


def test_the_game_masters_tools_answer_under_their_own_buttons(world: World) -> None:
    """On a phone the GM's section is screens long: a tool answering in the section's shared region, at its top,
    answers out of sight. Each of these answers in a region right after its own form, scrolled to as it comes."""
    gina = world.client("gina")
    cid = world.campaign_id
    body = {"command": "gf.muster", "args": {"name": "Robot Squad", "side": "Robots", "profile": SQUAD}}
    post(gina, f"/api/campaigns/{cid}/commands", body)
    seq = re.findall(r"\?amend=(\d+)#amend", gina.get(f"/c/{cid}").text)[0]
    page = gina.get(f"/c/{cid}", params={"amend": seq}).text  # the amend form opened from the command's row
    for form in ("invite", "remove-member", "amend", "rewind", "undo-form"):
        found = re.search(
            rf'<form [^>]*id="{form}"[^>]*>.*?</form>\s*(?:\{{#.*?#\}}\s*)?<div id="([\w-]+)"', page, re.S
        )
        tag = re.search(rf'<form [^>]*id="{form}"[^>]*>', page, re.S)
        assert tag and found, f"no answer region after the {form} form"
        target = re.search(r'hx-target="#([\w-]+)"', tag.group(0))
        assert target and target.group(1) == found.group(1) != "gm-result", (form, tag.group(0))
        assert "show:top" in tag.group(0), tag.group(0)


def test_the_battles_own_log_says_each_fact_once(world: World) -> None:
    """A shot of 6 wounds on a 10-model squad (Tough 1) kills 6 and leaves 4, at half strength: the rule's line says
    the losses and the morale test's line says Shaken (§4.1 A); the facts those lines already say (the wounds
    taken, the Shaken marker) are not said again under them, as the CLI's log does not say them twice."""
    gina, cid = world.client("gina"), world.campaign_id

    def run(command: str, dice: str | None = None, **args: Any) -> None:
        post(gina, f"/api/campaigns/{cid}/commands", {"command": command, "args": args, "dice": dice})

    run("gf.muster", name="Robot Squad", side="Robots", profile=SQUAD)
    run("gf.muster", name="Saurian Warriors", side="Saurians", profile=SQUAD)
    run("gf.battle_start", name="Ruins", units=["Robot Squad", "Saurian Warriors"])
    run("gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    battle = gina.get(f"/c/{cid}").text.split('id="battle"', 1)[1].split("</section>", 1)[0]
    lines = [" ".join(re.sub(r"<[^>]+>", " ", li).split()) for li in re.findall(r"<li>(.*?)</li>", battle, re.S)]
    losses = [line for line in lines if "Robot Squad takes 6 wounds" in line]
    assert len(losses) == 1 and "6 models killed, 4 of 10 left" in losses[0], lines
    assert len([line for line in lines if "Shaken" in line]) == 1, lines


def _careers(page: str) -> tuple[str, list[str], list[str]]:
    """The roster's careers table: its title, its headings, and its first row's cells."""
    roster = page.split('id="roster"', 1)[1].split("</section>", 1)[0]
    title = re.search(r"<h3>(.*?)</h3>", roster)
    assert title, roster
    table = roster.split("<h3>", 1)[1]
    heads = [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th>(.*?)</th>", table)]
    first = re.findall(r"<tr><td>(.*?)</tr>", table, re.S)[0]
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.split(r"</td><td[^>]*>", first)]
    return title.group(1), heads, cells


def test_a_grimdark_hero_is_listed_with_what_its_career_holds(world: World) -> None:
    """Grimdark keeps no Glory or rank (§4): a hero's career is its battles, XP and what it carries, and the
    roster lists heroes under those headings, not under an officer's empty Glory and rank."""
    gina, cid = world.client("gina"), world.campaign_id
    hero = {"models": 1, "quality": 3, "points": 60, "tough": 3, "hero": True, "skill_set": "Captain"}
    body = {"command": "gf.muster", "args": {"name": "Saurian Hero", "side": "Saurians", "profile": hero, "xp": 4}}
    post(gina, f"/api/campaigns/{cid}/commands", body)
    title, heads, cells = _careers(gina.get(f"/c/{cid}").text)
    assert title == "Heroes" and heads == ["name", "side", "battles", "XP"]
    assert cells == ["Saurian Hero", "Saurians", "0", "4"]
    assert "glory" not in heads and "rank" not in heads


def test_an_officers_battles_are_counted_not_shown_as_ids(tmp_path: Path) -> None:
    """A disorder or Mass Combat officer's career records the battles it fought as their ids: the roster counts
    them (the demo's officers fought two), never shows an id; their Glory (or reputation) and rank are kept."""
    from campaign.access.memberships import Memberships
    from campaign.bootstrap import bootstrap
    from campaign.server.fragments import Fragments
    from campaign.server.live_parts import PAGE
    from tests.e2e.test_cli import Cli

    db = str(tmp_path / "demo.db")
    Cli(db)("demo")
    opened = bootstrap(db, create=False)
    try:
        fragments = Fragments(opened.ledger, Memberships(opened.engine), PAGE)
        tables = {}
        for info in opened.ledger.directory.all():
            roster = fragments.at(info, "en").parts["roster"]
            if "<h3>" in roster:
                tables[info.ruleset] = _careers(f'<section id="roster">{roster}</section>')
        for ruleset in ("disorder", "mass-combat"):
            title, heads, cells = tables[ruleset]
            assert title == "Officers" and heads[0] == "officer" and "rank" in heads and "battles" in heads
            assert cells[heads.index("battles")] == "2", cells
            assert not any(re.fullmatch(r"[0-9a-f]{32}", c) for cell in cells for c in cell.split(", ")), cells
    finally:
        opened.close()
