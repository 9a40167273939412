"""The charts named in the reader's language: the page's chart data (what the script draws from), `campaign
chart` and the report; ``--json`` keeps the English. Names from the catalogs, as the page's headings say them."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import orjson
from typer.testing import CliRunner

from campaign.cli.main import app
from tests.server.conftest import World
from tests.server.test_charts_and_print import five_grades, grimdark_played


def run(db: str, *args: str) -> str:
    result = CliRunner().invoke(app, ["--db", db, *args], env={"CAMPAIGN_LANG": "", "COLUMNS": "200"})
    assert result.exit_code == 0, f"{args}: exit {result.exit_code}\n{result.output}"
    return " ".join(result.output.replace("│", " ").split())


def chart_data(page: str) -> dict[str, dict[str, object]]:
    found = re.search(r'<script type="application/json" id="chart-data">(.*?)</script>', page, re.S)
    assert found
    data: dict[str, dict[str, object]] = orjson.loads(unescape(found.group(1)))
    return data


def test_the_pages_chart_data_and_campaign_chart_name_the_charts_in_the_readers_language(
    world: World, tmp_path: Path
) -> None:
    cid = five_grades(world)
    gina = world.client("gina")
    gina.get("/lang/ru", params={"next": "/"})
    ru = gina.get(f"/c/{cid}").text
    assert {k: v["title"] for k, v in chart_data(ru).items()} == {
        "strength": "Численность отрядов по списку",
        "treasury": "Казна",
    }
    assert 'data-empty-said="пока нечего рисовать"' in ru  # what the script says of a chart without a point
    gina.get("/lang/pl", params={"next": "/"})
    assert chart_data(gina.get(f"/c/{cid}").text)["treasury"]["title"] == "Skarbiec"
    gina.get("/lang/en", params={"next": "/"})
    assert chart_data(gina.get(f"/c/{cid}").text)["treasury"]["title"] == "Treasury"
    grimdark_played(world)
    db = str(world.opened.engine.url.database)
    shown = run(db, "chart", "treasury", "-c", "Kessel", "--lang", "ru")
    assert "Kessel: Казна" in shown and "мин." in shown and "макс." in shown
    assert "Kessel: Численность" in run(db, "chart", "strength", "-c", "Kessel", "--lang", "ru")
    said = orjson.loads(run(db, "chart", "strength", "-c", "Kessel", "--lang", "ru", "--json"))
    assert (said["title"], said["axis"]) == ("Kessel: Strength", "models")  # --json: language-neutral
    run(db, "report", "-c", "Kessel", "--lang", "pl", "-o", str(tmp_path / "r.md"))
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "Skarbiec" in text and "Liczebność" in text and "Treasury" not in text and "Strength" not in text


def test_the_reports_careers_name_the_rank_as_the_seeds_translations_do(tmp_path: Path) -> None:
    """RULES.md §1.8: an officer starts a Lieutenant (RULES.ru.md "Лейтенант", terms.toml "Porucznik")."""
    db = str(tmp_path / "dis.db")
    run(db, "new", "Peninsula", "--ruleset", "disorder")
    run(db, "dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles",
        "--points", "100")  # fmt: skip
    run(db, "dis", "muster", "Voltigeurs", "--side", "French", "--models", "12", "--troops", "light", "--points", "90")
    run(db, "dis", "officer", "British", "Lt Sharpe")
    run(db, "dis", "officer", "French", "Capitaine Dubois")
    run(db, "dis", "battle-start", "Sabugal", "--unit", "95th Rifles", "--unit", "Voltigeurs")
    run(db, "dis", "battle-end", "--winner", "British")
    for lang, rank in (("en", "Lieutenant"), ("ru", "Лейтенант"), ("pl", "Porucznik")):
        out = tmp_path / f"{lang}.md"
        run(db, "report", "--lang", lang, "-o", str(out))
        said = out.read_text(encoding="utf-8")
        [career] = [line for line in said.splitlines() if line.startswith("- Lt Sharpe (British): ")]
        assert career.endswith(f" {rank}"), career
        assert f"- Lt Sharpe ({rank}) " in said  # taking command, as the log's event says it
