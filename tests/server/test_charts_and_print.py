"""The page's charts, its print layout and the form defects a new user met, in-process (TestClient).

Charts (RULES.md §5's calendar: time passes only by events, days of rest and battles): a point is named by the
battle it ends, the month it ends or now, with the campaign's day where the ruleset keeps one (five grades and
Mass Combat do; Grimdark does not, and is told by its battles); `campaign chart` names its steps alike. Each
page chart is a named figure with its series as a table, which needs no script.

The five-grade campaign played here, worked by hand: Steel's treasury 100 (pay chest) on day 0; three days of
rest (day 3); Hill 203 fought and ended on day 3; four days of rest (day 7); the first month ends (recorded as
month 0: "end of month 1"); 30 spent (bribes): 70 now, on day 7.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import orjson
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from campaign.cli.main import app as cli
from tests.server.conftest import SQUAD, World, post

PROFILE = {"quality": "green", "leadership": 2, "size": 5}


def run(client: TestClient, cid: str, command: str, **args: Any) -> None:
    post(client, f"/api/campaigns/{cid}/commands", {"command": command, "args": args, "dice": None})


def five_grades(world: World) -> str:
    gina = world.client("gina")
    cid = str(post(gina, "/api/campaigns", {"name": "Otlok", "ruleset": "fighting-spirit"}, 201)["campaign_id"])
    run(gina, cid, "fs.muster", name="Company HQ", side="Steel", profile=PROFILE)
    run(gina, cid, "fs.muster", name="Keno 3rd Squad", side="Keno", profile=PROFILE | {"size": 7})
    run(gina, cid, "fs.funds", side="Steel", amount=100, reason="pay chest")
    run(gina, cid, "fs.days", days=3, activity="rest")
    deployed = [{"unit": "Company HQ"}, {"unit": "Keno 3rd Squad"}]
    run(gina, cid, "fs.battle_start", name="Hill 203", motivation={"Keno": "low", "Steel": "low"}, deployments=deployed)
    run(gina, cid, "fs.battle_end", result="Steel held the hill", winner="Steel")
    run(gina, cid, "fs.days", days=4, activity="rest")
    run(gina, cid, "fs.month_end")
    run(gina, cid, "fs.funds", side="Steel", amount=-30, reason="bribes")
    return cid


def chart_table(page: str, key: str) -> list[list[str]]:
    """The rows of a page chart's table (its header row first), as text."""
    found = re.search(rf'<details class="chart-table" id="table-{key}">(.*?)</details>', page, re.S)
    assert found, f"no table under the {key} chart"
    return [
        [unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", found.group(1), re.S)
    ]


def grimdark_played(world: World) -> None:
    """Kessel (Grimdark, RULES.md §4): two units mustered, Ruins fought (six wounds on the ten Robots: four
    left, §4.1 A), Ruins ended (units back at their roster strength, +1 XP each, §4.2), a third unit mustered."""
    gina, cid = world.client("gina"), world.campaign_id
    run(gina, cid, "gf.muster", name="Robot Squad", side="Robots", profile=SQUAD)
    run(gina, cid, "gf.muster", name="Saurian Warriors", side="Saurians", profile=SQUAD)
    run(gina, cid, "gf.battle_start", name="Ruins", units=["Robot Squad", "Saurian Warriors"])
    run(gina, cid, "gf.shoot", unit_name="Robot Squad", wounds=6)
    run(gina, cid, "gf.battle_end", winner="Saurians")
    run(gina, cid, "gf.muster", name="Robot Scouts", side="Robots", profile=SQUAD)


def chart_cli(world: World, campaign: str, *args: str) -> Any:
    db = str(world.opened.engine.url.database)
    result = CliRunner().invoke(cli, ["--db", db, "chart", *args, "-c", campaign], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    return orjson.loads(result.output) if "--json" in args else result.output


def test_the_page_charts_are_named_in_the_calendar_each_with_its_table(world: World) -> None:
    cid = five_grades(world)
    page = world.client("gina").get(f"/c/{cid}").text
    assert chart_table(page, "treasury") == [
        ["", "in the treasury"],
        ["when", "Steel"],
        ["end of Hill 203, day 3", "100"],
        ["end of month 1, day 7", "100"],
        ["now, day 7", "70"],
    ]
    assert chart_table(page, "strength") == [
        ["", "men on the roster"],
        ["when", "Company HQ", "Keno 3rd Squad"],
        ["end of Hill 203, day 3", "5", "7"],
        ["end of month 1, day 7", "5", "7"],
        ["now, day 7", "5", "7"],
    ]
    # each chart named: its figure by its caption, its canvas by its label; the axis is the calendar, not seqs
    for key, name in (("strength", "Units&#39; strength on the roster"), ("treasury", "Treasury")):
        assert f'<figcaption class="chart-name" id="chart-{key}-name">{name}</figcaption>' in page
        assert f'<figure class="chart-figure" id="figure-{key}" aria-labelledby="chart-{key}-name">' in page
        assert f'<canvas id="chart-{key}" role="img" aria-label="{name}">' in page
    data = orjson.loads(unescape(re.search(r'id="chart-data">(.*?)</script>', page, re.S).group(1)))  # type: ignore[union-attr]
    assert data["treasury"]["labels"] == ["end of Hill 203, day 3", "end of month 1, day 7", "now, day 7"]
    assert not any(label.startswith("#") for label in data["strength"]["labels"])
    # five-grade units have no officers with Glory (`campaign chart glory` says so): no chart for it, ever
    assert 'id="figure-glory"' not in page and "glory" not in data


def test_a_ruleset_without_days_is_told_by_its_battles(world: World) -> None:
    grimdark_played(world)
    page = world.client("gina").get(f"/c/{world.campaign_id}").text
    assert chart_table(page, "strength") == [
        ["", "models on the roster"],
        ["when", "Robot Scouts", "Robot Squad", "Saurian Warriors"],
        ["end of Ruins", "", "10", "10"],
        ["now", "10", "10", "10"],
    ]
    strength = chart_cli(world, "Kessel", "strength", "--json")
    assert [(s["when"], s["label"]) for s in strength["steps"]] == [
        ("before the first battle", "muster"),
        ("before the first battle", "muster"),
        ("Ruins", "shoot"),
        ("end of Ruins", "Ruins ends"),
        ("after Ruins", "muster"),
    ]
    assert {s["name"]: s["values"] for s in strength["series"]}["Robot Squad"] == [10, 10, 4, 10, 10]


def test_campaign_chart_names_its_steps_in_the_calendar(world: World, tmp_path: Any) -> None:
    five_grades(world)
    treasury = chart_cli(world, "Otlok", "treasury", "--json")
    assert [(s["when"], s["label"]) for s in treasury["steps"]] == [
        ("day 0", "funds"),
        ("end of Hill 203, day 3", "Hill 203 ends"),
        ("day 7", "funds"),
    ]
    assert treasury["series"] == [{"name": "Steel", "side": "Steel", "values": [100, 100, 70]}]
    view = chart_cli(world, "Otlok", "treasury")
    assert "from day 0 (funds) to day 7 (funds)" in view and "#" not in view
    from campaign.cli.chart import axis_labels
    from campaign.read.charts import chart

    info = world.opened.ledger.resolve("Otlok")
    strength = chart(info.name, info.ruleset, world.opened.ledger.store.read(info.campaign_id), "strength")
    # two musters on day 0 under one label, then the battle's end
    assert axis_labels(strength) == ["day 0", "", "end of Hill 203, day 3"]
    drawn = tmp_path / "treasury.svg"
    chart_cli(world, "Otlok", "treasury", "-o", str(drawn))
    svg = drawn.read_text()
    assert ">end of Hill 203, day 3</text>" in svg and ">in the campaign's calendar</text>" in svg
    assert not re.search(r">#\d+", svg)  # no tick is a seq


def test_the_report_tables_its_charts_in_the_same_calendar(world: World) -> None:
    cid = five_grades(world)
    report = world.client("gina").get(f"/c/{cid}/report").text
    found = re.search(r"<details><summary>Treasury: the table</summary>(.*?)</details>", report, re.S)
    assert found, "no table under the report's treasury chart"
    rows = re.findall(r"<tr>(.*?)</tr>", found.group(1))
    assert [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r) for r in rows] == [
        ["when", "Steel"],
        ["day 0", "100"],
        ["end of Hill 203, day 3", "100"],
        ["day 7", "70"],
    ]
    md = world.client("gina").get(f"/c/{cid}/report", params={"format": "md"}).text
    assert "| end of Hill 203, day 3 | 100 |" in md  # the Markdown's charts have their tables too


def print_block(css: str) -> str:
    """The rules of a style sheet's ``@media print`` block (its braces balanced)."""
    start = css.index("@media print")
    depth, i = 0, css.index("{", start)
    for j in range(i, len(css)):
        depth += {"{": 1, "}": -1}.get(css[j], 0)
        if depth == 0:
            return css[i + 1 : j]
    raise AssertionError("an unclosed @media print")


def test_the_page_and_the_report_print_black_on_white_without_navigation_or_forms(world: World) -> None:
    page_css = print_block(world.client("gina").get("/static/ledger.css").text)
    hidden = page_css.split("{ display: none", 1)[0].rsplit("}", 1)[-1]  # the selectors of what is not printed
    for part in ("header", "nav", "form", "#commands", "#gm", "#log", "#charts", ".no-print", ".row-tools"):
        assert re.search(rf"(^|[\s,]){re.escape(part)}([\s,]|$)", hidden), f"{part} is printed"
    assert re.search(r"html, body \{[^}]*background: #fff; color: #000", page_css)
    assert re.search(r"\.scroll \{ overflow: visible", page_css)  # a table is printed whole, not cut at a scroll
    assert re.search(r"tr, li\.unit-card, figure \{ break-inside: avoid", page_css)
    assert "white-space: normal" in page_css  # the cells wrap on paper instead of running off it
    report_css = print_block(world.client("gina").get("/report.css").text)
    assert re.search(r"[\s,]\.no-print,[^{]*\{ display: none", report_css)  # the report's own links, not in .report
    assert "color: #000" in report_css and ".report .scroll { overflow: visible" in report_css
    page = world.client("gina").get(f"/c/{world.campaign_id}/report").text
    assert '<nav class="report-tools no-print">' in page


def test_melee_is_labelled_from_its_model_on_the_page_and_the_command_line(world: World) -> None:
    gina = world.client("gina")
    run(gina, world.campaign_id, "gf.muster", name="Robot Squad", side="Robots", profile=SQUAD)
    run(gina, world.campaign_id, "gf.muster", name="Saurian Warriors", side="Saurians", profile=SQUAD)
    units = ["Robot Squad", "Saurian Warriors"]
    run(gina, world.campaign_id, "gf.battle_start", name="Ruins", units=units)  # melee is offered in a battle
    page = gina.get(f"/c/{world.campaign_id}").text
    melee = re.search(r'<details class="command" id="cmd-gf-melee".*?</details>', page, re.S)
    assert melee
    labels = [
        unescape(re.sub(r"<[^>]+>|\(optional\)", "", label)).strip()
        for label in re.findall(r"<label[^>]*>(.*?)</label>", melee.group(0), re.S)
    ]
    assert labels == [
        "unit A",
        "unit B",
        "wounds caused by unit A",
        "wounds caused by unit B",
        "models unit A lost",
        "models unit B lost",
        "the unit that charged",
    ]
    assert "One of the two units in the melee (A)." in melee.group(0)  # its help, from its description
    shown = CliRunner().invoke(cli, ["gf", "melee", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0
    assert (
        "One of the two units in the melee (A)." in shown.output and "Unblocked wounds unit A caused." in shown.output
    )


def test_a_command_whose_inputs_roll_no_dice_does_not_ask_for_dice(world: World) -> None:
    gina, cid = world.client("gina"), world.campaign_id
    run(gina, cid, "gf.muster", name="Robot Squad", side="Robots", profile=SQUAD)
    run(gina, cid, "gf.muster", name="Saurian Warriors", side="Saurians", profile=SQUAD)
    fields = {"_command": "gf.battle_start", "name": "Ruins", "units": ["Robot Squad", "Saurian Warriors"]}
    before = world.opened.ledger.resolve("Kessel").last_seq
    counted = gina.post(f"/c/{cid}/command", data={**fields, "_step": "count"}, headers={"HX-Request": "true"})
    assert counted.status_code == 200 and "These inputs roll no dice." in counted.text
    for asked in ("Which dice to roll?", "Ask again which dice", "Roll the campaign&#39;s dice", "Dice to roll"):
        assert asked not in counted.text
    assert '<button type="submit" name="_step" value="nodice" class="primary">battle-start</button>' in counted.text
    # the special objectives roll (RULES.md §4.2): ticked after counting, they are asked for, not rolled unasked
    special = gina.post(
        f"/c/{cid}/command", data={**fields, "special": "true", "_step": "nodice"}, headers={"HX-Request": "true"}
    )
    assert "Dice to roll" in special.text and 'name="_die"' in special.text
    assert world.opened.ledger.resolve("Kessel").last_seq == before
    started = gina.post(f"/c/{cid}/command", data={**fields, "_step": "nodice"}, headers={"HX-Request": "true"})
    assert "battle-start: battle" in started.text and world.opened.ledger.resolve("Kessel").last_seq > before


def test_the_battles_lines_are_numbered_once_and_the_report_link_is_a_thumbs_target(world: World) -> None:
    grimdark = world.client("gina")
    run(grimdark, world.campaign_id, "gf.muster", name="Robot Squad", side="Robots", profile=SQUAD)
    run(grimdark, world.campaign_id, "gf.muster", name="Saurian Warriors", side="Saurians", profile=SQUAD)
    run(grimdark, world.campaign_id, "gf.battle_start", name="Ruins", units=["Robot Squad", "Saurian Warriors"])
    page = grimdark.get(f"/c/{world.campaign_id}").text
    battle = page.split('id="battle"')[1].split("</section>")[0]
    assert "<ol" not in battle  # a numbered list would number the lines a second time, beside their seqs
    lines = re.findall(r'<ul class="battle-log">(.*?)</ul>', battle, re.S)[0]
    assert (
        re.findall(r"<li>(entry \d+): ", lines)
        and "battle-log { list-style: none" in grimdark.get("/static/ledger.css").text
    )
    assert re.search(r'<a id="report-tab" class="tab-link" href="[^"]+/report">', page)
    css = grimdark.get("/static/ledger.css").text
    assert re.search(r"a\.tab-link \{[^}]*min-height: 44px; min-width: 44px", css)


def test_every_wide_table_scrolls_in_a_named_region_of_its_own(world: World) -> None:
    five = five_grades(world)
    gina = world.client("gina")
    audit_seq = world.opened.ledger.resolve("Otlok").last_seq
    pages = {
        "campaign": gina.get(f"/c/{five}").text,
        "campaigns": gina.get("/").text,
        "audit": gina.get(f"/c/{five}/audit/{audit_seq}").text,
        "report": gina.get(f"/c/{five}/report").text,
    }
    for name, page in pages.items():
        regions = re.findall(r'<div class="scroll"[^>]*>', page)
        assert regions, f"no table on the {name} page"
        for region in regions:
            assert 'tabindex="0"' in region and 'role="region"' in region, f"{name}: {region}"
            assert re.search(r'aria-label="[^"]+"', region), f"{name}: {region}"
        tables = len(re.findall(r"<table", page))
        assert tables == len(regions), f"{name}: a table outside a scroll region"


def test_the_calendar_words_are_said_in_the_readers_language_and_the_json_stays_english(world: World) -> None:
    cid = five_grades(world)
    gina = world.client("gina")
    gina.get("/lang/ru", params={"next": "/"})
    ru = gina.get(f"/c/{cid}").text
    assert chart_table(ru, "treasury") == [
        ["", "в казне"],
        ["когда", "Steel"],
        ["конец боя «Hill 203», день 3", "100"],
        ["конец месяца 1, день 7", "100"],
        ["сейчас, день 7", "70"],
    ]
    gina.get("/lang/pl", params={"next": "/"})
    assert chart_table(gina.get(f"/c/{cid}").text, "treasury")[2:] == [
        ["koniec bitwy „Hill 203”, dzień 3", "100"],
        ["koniec miesiąca 1, dzień 7", "100"],
        ["teraz, dzień 7", "70"],
    ]
    grimdark_played(world)
    said = chart_cli(world, "Kessel", "--lang", "pl", "strength", "--json")  # --json: language-neutral
    assert [s["when"] for s in said["steps"]][-2:] == ["end of Ruins", "after Ruins"]
    assert "przed pierwszą bitwą" in chart_cli(world, "Kessel", "--lang", "pl", "strength")  # and without, Polish
    from campaign.i18n import reading_in
    from campaign.read.charts import when_words

    with reading_in("ru"):
        assert [when_words(None), when_words(None, after="Ruins"), when_words(16)] == [
            "до первого боя",
            "после боя «Ruins»",
            "день 16",
        ]


def test_strength_is_named_the_rosters_and_each_ruleset_shows_only_the_charts_it_keeps(world: World) -> None:
    """Ruins (§4.1): six wounds on the ten Robots leave four fighting; the roster still counts ten (units come back
    at their roster strength after a battle, §4.2), and the chart says it is the roster's, pointing at the sheet.
    Grimdark heroes earn XP, not Glory (`campaign chart glory` refuses it): no Glory chart on its page. The
    disorder rules keep officers' Glory but no treasury: its Glory chart is there before any officer has any."""
    gina, cid = world.client("gina"), world.campaign_id
    run(gina, cid, "gf.muster", name="Robot Squad", side="Robots", profile=SQUAD)
    run(gina, cid, "gf.muster", name="Saurian Warriors", side="Saurians", profile=SQUAD)
    run(gina, cid, "gf.battle_start", name="Ruins", units=["Robot Squad", "Saurian Warriors"])
    run(gina, cid, "gf.shoot", unit_name="Robot Squad", wounds=6)
    page = gina.get(f"/c/{cid}").text
    assert '<li class="unit-card" data-unit=' in page and "<dd>4/10</dd>" in page  # the sheet: four fight
    assert chart_table(page, "strength")[:3] == [
        ["", "models on the roster"],
        ["when", "Robot Squad", "Saurian Warriors"],
        ["now", "10", "10"],
    ]
    figure = page.split('id="figure-strength"', 1)[1].split("</figure>", 1)[0]
    assert "Units&#39; strength on the roster</figcaption>" in figure
    assert "not its losses in a battle being fought: the battle sheet shows those" in figure
    assert 'id="figure-glory"' not in page and "Officers&#39; Glory" not in page
    assert 'id="figure-treasury"' in page
    dis = str(post(gina, "/api/campaigns", {"name": "Quatre Bras", "ruleset": "disorder"}, 201)["campaign_id"])
    page = gina.get(f"/c/{dis}").text
    assert 'id="figure-glory"' in page and 'id="figure-treasury"' not in page
    assert "nothing to draw yet" in page.split('id="table-glory"')[1].split("</details>")[0]
