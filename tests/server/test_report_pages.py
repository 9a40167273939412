"""The page's report tab and its Army Forge upload: read by every member, printable and downloadable; a list
uploaded by the GM for any side, by a player for its own sides only, shown first when it updates units."""

from __future__ import annotations

from pathlib import Path

from tests.server.conftest import SQUAD, World, post

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _upload(world: World, who: str, side: str, path: Path, *, update: bool = False) -> tuple[int, str]:
    data = {"side": side} | ({"update": "true"} if update else {})
    answer = world.client(who).post(
        f"/c/{world.campaign_id}/army-list", data=data, files={"army_list": (path.name, path.read_bytes())}
    )
    return answer.status_code, answer.text


def _units(world: World) -> list[str]:
    status = world.client("gina").get(f"/api/campaigns/{world.campaign_id}").json()
    return sorted(u["name"] for u in status["units"])


def test_every_member_reads_the_report_printable_and_downloadable(world: World) -> None:
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands",
         {"command": "gf.muster", "args": {"name": "Robot Squad", "side": "Robots", "profile": SQUAD}})  # fmt: skip
    page = world.client("olive").get(f"/c/{world.campaign_id}/report")
    assert page.status_code == 200
    assert "<h1>Kessel</h1>" in page.text and '<link rel="stylesheet" href="/report.css">' in page.text
    assert "@media print" in world.client("olive").get("/report.css").text  # its print layout, not inline (CSP)
    assert "mustered for Robots: Robot Squad" in page.text
    md = world.client("pat").get(f"/c/{world.campaign_id}/report", params={"format": "md"})
    assert md.headers["content-type"].startswith("text/markdown")
    assert "attachment" in md.headers["content-disposition"] and md.text.startswith("# Kessel\n")
    assert world.client("sam").get(f"/c/{world.campaign_id}/report").status_code == 404, "not a member"
    campaign = world.client("pat").get(f"/c/{world.campaign_id}").text
    assert f'href="/c/{world.campaign_id}/report"' in campaign and 'enctype="multipart/form-data"' in campaign


def test_a_campaign_of_any_name_is_downloaded(world: World) -> None:
    """A report's file is named after its campaign in any alphabet: a Polish or Cyrillic name made the download a
    500 (a header is Latin-1); now an ASCII fallback and the name itself in UTF-8 (RFC 6266, RFC 8187)."""
    client = world.client("gina")
    made = client.post("/api/campaigns", json={"name": "Front Otłoku Сталь", "ruleset": "grimdark"})
    assert made.status_code in (200, 201), made.text
    campaign_id = made.json()["campaign_id"]
    for fmt, ending in (("md", ".md"), ("html", ".html")):
        answer = client.get(f"/c/{campaign_id}/report", params={"format": fmt})
        assert answer.status_code == 200, answer.text
        disposition = answer.headers["content-disposition"]
        assert disposition.startswith('attachment; filename="front-ot-oku-') and disposition.endswith(ending)
        assert f"filename*=UTF-8''front-ot%C5%82oku-%D1%81%D1%82%D0%B0%D0%BB%D1%8C-report{ending}" in disposition


def test_the_report_page_speaks_the_readers_language_and_its_links_take_a_thumb(world: World) -> None:
    """The report's tools said "HTML file" and "print it with your browser's Print" on a Russian page, and its
    links were 19 px tall: said in the reader's words now, each link a 44 px target (``nav-link``)."""
    page = world.client("olive").get(f"/c/{world.campaign_id}/report", headers={"Accept-Language": "ru"}).text
    assert "файл HTML" in page and "распечатайте её командой «Печать» браузера" in page
    assert "HTML file" not in page and "print it with" not in page
    tools = page.split('<nav class="report-tools no-print">')[1].split("</nav>")[0]
    assert tools.count('<a class="nav-link"') == 3


def test_a_player_imports_a_list_for_its_own_side_only_and_an_update_is_shown_first(world: World) -> None:
    code, said = _upload(world, "pat", "Saurians", EXAMPLES / "starhost.json")
    assert code == 403 and "you play Robots, not Saurians" in said
    assert _units(world) == []
    code, said = _upload(world, "pat", "Robots", EXAMPLES / "starhost.json")
    assert code == 200 and "mustered Saurian Warriors 1" in said
    assert len(_units(world)) == 6
    code, said = _upload(world, "pat", "Robots", EXAMPLES / "starhost-later.json")
    assert code == 409 and "updated Saurian Captain: points 95 → 120" in said and len(_units(world)) == 6
    code, said = _upload(world, "pat", "Robots", EXAMPLES / "starhost-later.json", update=True)
    assert code == 200 and len(_units(world)) == 7
    code, said = _upload(world, "olive", "Robots", EXAMPLES / "starhost.json")
    assert code == 403, "an observer enters nothing"


def test_the_report_tab_says_who_won_a_match_in_the_readers_words(world: World) -> None:
    """The report tab's result line read "Итог: won by Robots." on a Russian page: the words of ``campaign
    report --lang``, as the log says the match's end."""
    gina, url = world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands"
    for name, side in (("Robot Squad", "Robots"), ("Saurian Warriors", "Saurians")):
        post(gina, url, {"command": "gf.muster", "args": {"name": name, "side": side, "profile": SQUAD}})
    post(
        gina,
        url,
        {"command": "gf.battle_start", "args": {"name": "Ruins", "units": ["Robot Squad", "Saurian Warriors"]}},
    )
    post(gina, url, {"command": "gf.battle_end", "args": {"winner": "Robots"}})
    for lang, said in (("ru", "Итог: победа: Robots."), ("pl", "Wynik: wygrywa Robots.")):
        page = world.client("olive").get(f"/c/{world.campaign_id}/report", headers={"Accept-Language": lang}).text
        assert f'<p class="result">{said}</p>' in page and "won by" not in page
