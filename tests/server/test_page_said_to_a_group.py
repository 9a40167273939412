"""What the campaign page says to a group at the table, as a new game master and a new player read it (in-process,
TestClient): a die as the reader writes it (``к6`` on a Russian page, as the rules' explanations say it), the log's
entries by their number as its column calls them, the rulesets' descriptions in the reader's language, a command
called as the page's own list calls it, who entered an entry in words the group knows, and a player's form without
the inputs that are never the player's to give.

Grimdark (RULES.md §4): a unit at half strength or less after shooting tests Quality on one d6 (§4.1 A).
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import SQUAD, World, post

HTMX = {"HX-Request": "true"}


def muster(world: World, name: str, side: str) -> None:
    body = {"command": "gf.muster", "args": {"name": name, "side": side, "profile": SQUAD}}
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", body)


def battle(world: World) -> None:
    muster(world, "Robot Squad", "Robots")
    muster(world, "Saurian Warriors", "Saurians")
    body = {"command": "gf.battle_start", "args": {"name": "Ruins", "units": ["Robot Squad", "Saurian Warriors"]}}
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", body)


def send(client: TestClient, world: World, fields: dict[str, Any], lang: str = "en") -> Any:
    headers = HTMX | {"Accept-Language": lang}
    return client.post(f"/c/{world.campaign_id}/command", data=fields, headers=headers, follow_redirects=False)


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_dice_asked_for_are_written_as_the_reader_writes_a_die(world: World) -> None:
    battle(world)
    fields = {"_command": "gf.shoot", "unit_name": "Robot Squad", "wounds": "6", "_step": "count"}
    # 4 models of 10 left: under half, it tests Quality on one d6 (§4.1 A)
    ru = send(world.client("pat"), world, fields, "ru")
    assert ru.status_code == 200, ru.text
    label = re.search(r'<label for="die-gf-shoot-1-1">([^<]*)</label>', ru.text)
    assert label is not None and label.group(1) == "к6"  # seed 000's Russian, as its explanations write it
    assert "d6" not in text_of(ru.text)
    pl = send(world.client("pat"), world, fields, "pl")
    label = re.search(r'<label for="die-gf-shoot-1-1">([^<]*)</label>', pl.text)
    assert label is not None and label.group(1) == "k6"
    en = send(world.client("pat"), world, fields, "en")
    label = re.search(r'<label for="die-gf-shoot-1-1">([^<]*)</label>', en.text)
    assert label is not None and label.group(1) == "d6"


def test_the_logs_rolls_say_their_dice_as_the_reader_writes_them(world: World) -> None:
    battle(world)
    gina = world.client("gina")
    shot = {"command": "gf.shoot", "args": {"unit_name": "Robot Squad", "wounds": 6}, "dice": "3"}
    post(gina, f"/api/campaigns/{world.campaign_id}/commands", shot)
    log = gina.get(f"/c/{world.campaign_id}", headers={"Accept-Language": "ru"}).text
    rolls = [text_of(r) for r in re.findall(r'<td class="what">(.*?)</td>', log, re.S) if "№" in r and "«" in r]
    assert rolls and all("к6" in r and "d6" not in r for r in rolls), rolls


def test_a_players_page_numbers_the_logs_entries_as_its_column_does(world: World) -> None:
    battle(world)
    shot = {"command": "gf.shoot", "args": {"unit_name": "Robot Squad", "wounds": 6}, "dice": "3"}
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", shot)
    for lang, column, roster, entry in (
        ("en", "entry", "after entry", "entry"),
        ("ru", "№", "после записи №", "№"),
        ("pl", "nr", "po wpisie nr", "nr"),
    ):
        page = world.client("pat").get(f"/c/{world.campaign_id}", headers={"Accept-Language": lang}).text
        head = re.search(r'data-after="(\d+)"', page)
        assert head is not None
        log = page[page.index('id="log"') :]
        assert f"<thead><tr><th>{column}</th>" in log
        heading = re.search(r"<h2>[^<]*<span class=\"help\">([^<]*)</span></h2>", page[page.index('id="roster"') :])
        assert heading is not None and heading.group(1) == f"{roster} {head.group(1)}"
        lines = re.findall(r"<li>(.*?)</li>", page[page.index('class="battle-log"') :].split("</ul>")[0], re.S)
        assert lines and all(re.match(rf"{entry} \d+: ", line) for line in lines), lines


def test_the_rulesets_are_described_in_the_readers_language(world: World) -> None:
    english = world.client("sam").get("/", headers={"Accept-Language": "en"}).text
    described = dict(
        re.findall(r'<label for="ruleset-([\w-]+)"><span><b>[^<]*</b> <span class="help">([^<]*)</span>', english)
    )
    assert described["mass-combat"] == "troop strength, quality, pay, glory"  # after the game's name
    assert described["fighting-spirit"] == "Five-grade morale (Stargrunt II-like)"
    for lang in ("ru", "pl"):
        page = world.client("sam").get("/", headers={"Accept-Language": lang}).text
        said = dict(
            re.findall(r'<label for="ruleset-([\w-]+)"><span><b>[^<]*</b> <span class="help">([^<]*)</span>', page)
        )
        assert said.keys() == described.keys()
        left = [
            name
            for name, words in said.items()
            if words == described[name] or re.search(r"\b(and|of|careers|strength)\b", words)
        ]
        assert left == [], (lang, said)
