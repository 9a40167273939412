"""The page's roster says a closed set's value (a quality, a fatigue) in the seed's words, in the reader's language,
as the log beside it and the CLI's `status` do: a Russian reader met "regular", "veteran" and "fresh" in the
roster where the log said "Ветераны" and "свежие". The words are the five-grade seed's (its `terms.toml`); a
unit's fatigue is fresh until days of march tire it."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.server.conftest import World, post
from tests.server.test_charts_and_print import run


def roster_rows(page: str) -> list[list[str]]:
    """The roster's rows as text (its header row first)."""
    found = re.search(r'<section class="card" id="roster"[^>]*>(.*?)</section>', page, re.S)
    assert found, "no roster on the page"
    table = found.group(1).split("</table>")[0]
    return [
        [unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
    ]


@pytest.mark.parametrize(
    ("lang", "keno", "steel"),
    [
        ("en", ("regular", "fresh"), ("veteran", "fresh")),
        ("ru", ("Регулярные", "свежие"), ("Ветераны", "свежие")),
        ("pl", ("Regularni", "wypoczęci"), ("Weterani", "wypoczęci")),
    ],
)
def test_the_roster_says_qualities_and_fatigue_in_the_seeds_words(
    world: World, lang: str, keno: tuple[str, str], steel: tuple[str, str]
) -> None:
    gina = world.client("gina")
    cid = str(post(gina, "/api/campaigns", {"name": "Otlok", "ruleset": "fighting-spirit"}, 201)["campaign_id"])
    run(gina, cid, "fs.muster", name="Keno 3rd Squad", side="Keno", profile={"quality": "regular", "leadership": 2,
        "size": 7})  # fmt: skip
    run(gina, cid, "fs.muster", name="Company HQ", side="Steel", profile={"quality": "veteran", "leadership": 2,
        "size": 5})  # fmt: skip
    page = gina.get(f"/c/{cid}", headers={"Accept-Language": lang}).text
    head, *rows = roster_rows(page)
    by_name = {row[0]: dict(zip(head, row, strict=True)) for row in rows}
    quality = next(h for h in head if h in ("quality", "качество", "jakość"))
    fatigue = next(h for h in head if h in ("fatigue", "усталость", "zmęczenie"))
    assert (by_name["Keno 3rd Squad"][quality], by_name["Keno 3rd Squad"][fatigue]) == keno
    assert (by_name["Company HQ"][quality], by_name["Company HQ"][fatigue]) == steel


def test_a_battle_card_says_the_fatigue_the_battle_started_with(world: World) -> None:
    """R2-3: a side fights with the one fatigue the GM states for it at the battle's start. A unit whose record is
    fresh, deployed tired, is tired on its card (it said the record's "fresh"); one deployed as its record gives
    says that."""
    gina = world.client("gina")
    cid = str(post(gina, "/api/campaigns", {"name": "Otlok", "ruleset": "fighting-spirit"}, 201)["campaign_id"])
    for name, side in (("Keno 3rd Squad", "Keno"), ("Company HQ", "Steel")):
        run(gina, cid, "fs.muster", name=name, side=side, profile={"quality": "regular", "leadership": 2, "size": 7})
    deployed = [{"unit": "Keno 3rd Squad", "fatigue": "tired"}, {"unit": "Company HQ"}]
    run(gina, cid, "fs.battle_start", name="Hill 203", motivation={"Keno": "low", "Steel": "low"}, deployments=deployed)
    page = unescape(re.sub(r"\s+", " ", gina.get(f"/c/{cid}").text))
    cards = re.findall(r'<li class="unit-card[^"]*" data-unit="[^"]*">(.*?)</li>', page)
    said = {c: " ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in cards}
    keno = next(text for text in said.values() if "Keno 3rd Squad" in text)
    hq = next(text for text in said.values() if "Company HQ" in text)
    assert "fatigue tired" in keno, keno
    assert "fatigue fresh" in hq, hq
