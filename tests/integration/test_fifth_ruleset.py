"""A ruleset is one folder: ``tests/fixtures/fifth_ruleset`` (duels at dawn, seed 090), installed as a distribution
of its own, is played, audited, amended and verified through the command line and the server with no line of the
program changed. All the program learns of it is its entry point.

"Installed" as pip installs a pure-Python wheel, without building one (that costs seconds): its package copied
into a folder on ``sys.path`` beside a ``.dist-info`` whose metadata and ``entry_points.txt`` are its
``pyproject.toml``'s. Expected values are worked from its rules (its RULES.md §90.1: one d6, at or above the
target of 4 the champion wins) on the table's dice.
"""

from __future__ import annotations

import ast
import importlib
import shutil
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import campaign.commands
import campaign.rules_text
from campaign.bootstrap import bootstrap
from campaign.cli.main import app
from campaign.plugins import GROUP, RULESETS, installed
from campaign.server.app import create_app
from events.registry import registry
from projections.fold import Summary
from tests.server.conftest import FAST_HASHER, post, sign_in

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "fifth_ruleset"


def _caches_cleared() -> None:
    """What the program read once per process about the installed rulesets, read again."""
    installed.cache_clear()
    for cached in (campaign.commands.plugin, campaign.commands.fold_for, campaign.commands._by_name):
        cached.cache_clear()
    campaign.rules_text.clauses.cache_clear()


@pytest.fixture(scope="module")
def fifth(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The fifth ruleset installed into a site folder of its own, on ``sys.path`` for this module's tests."""
    site = tmp_path_factory.mktemp("site")
    project = tomllib.loads((FOLDER / "pyproject.toml").read_text("utf-8"))["project"]
    shutil.copytree(FOLDER / "fifth", site / "fifth")
    info = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n", "utf-8"
    )
    points = project["entry-points"][GROUP]
    (info / "entry_points.txt").write_text(
        f"[{GROUP}]\n" + "".join(f"{name} = {value}\n" for name, value in points.items()), "utf-8"
    )
    broken = site / "campaign_ledger_broken-0.1.dist-info"  # a plug-in whose package is missing: said, not fatal
    broken.mkdir()
    (broken / "METADATA").write_text("Metadata-Version: 2.1\nName: campaign-ledger-broken\nVersion: 0.1\n", "utf-8")
    (broken / "entry_points.txt").write_text(f"[{GROUP}]\nbroken = no_such_package:RULESET\n", "utf-8")
    sys.path.insert(0, str(site))
    _caches_cleared()
    try:
        yield str(site)
    finally:
        # uninstalled: the event registry as it was (its own event type and family gone), for the other tests
        registry._families.pop("dl", None)
        for name in [n for n in registry._types if n.startswith("dl.")]:
            del registry._types[name]
        sys.path.remove(str(site))
        for name in [m for m in sys.modules if m == "fifth" or m.startswith("fifth.")]:
            del sys.modules[name]
        _caches_cleared()


def test_the_installed_rulesets_are_the_four_and_the_fifth_in_their_seeds_order(fifth: str, tmp_path: Path) -> None:
    assert list(RULESETS) == ["fighting-spirit", "disorder", "mass-combat", "grimdark", "duel"]
    assert RULESETS["duel"].package == "fifth" and list(installed().problems) == ["broken"]
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "b.db"), "new", "B", "--ruleset", "broken"])
    assert result.exit_code == 2 and "the ruleset 'broken' is installed but cannot be used" in result.output
    assert "no_such_package" in result.output and not (tmp_path / "b.db").exists()


def test_a_campaign_of_it_is_played_audited_amended_and_verified_on_the_command_line(
    fifth: str, tmp_path: Path
) -> None:
    db = str(tmp_path / "duel.db")

    def cli(*args: str, code: int = 0) -> str:
        result = CliRunner().invoke(app, ["--db", db, *args], catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.output

    assert "Duels at dawn (duel, §90)" in cli("--help")
    listed = cli("dl", "--help")
    assert "muster" in listed and "duel" in listed and "house-rule" in listed
    cli("new", "Dawn", "--ruleset", "duel")
    cli("-c", "Dawn", "dl", "muster", "Blue Guard", "--side", "Blue", "--size", "5")
    cli("-c", "Dawn", "dl", "muster", "Red Guard", "--side", "Red", "--size", "5")
    # 4 against the target of 4 wins (at or above it), 3 loses
    assert "rolls 4 against 4: wins" in cli("-c", "Dawn", "dl", "duel", "Blue Guard", "--dice", "4")
    assert "rolls 3 against 4: loses" in cli("-c", "Dawn", "dl", "duel", "Red Guard", "--dice", "3")
    cli("-c", "Dawn", "dl", "duel", "Red Guard", "--dice", "7", code=2)  # no 7 on a d6: refused, nothing appended
    log = cli("-c", "Dawn", "log")
    assert "Blue Guard's champion wins the duel on a 4" in log  # its own event type, in its own sentence
    assert "Red Guard's champion loses the duel on a 3" in log
    units = {u["name"]: u for u in _json(cli("-c", "Dawn", "status", "--json"))["units"]}
    assert (units["Blue Guard"]["wins"], units["Red Guard"]["wins"]) == (1, 0)

    audit = cli("-c", "Dawn", "audit", "--roll", "1")
    assert "§90.1" in audit and "Red Guard" in audit
    assert "The duel" in cli("rules", "§90.1")  # its sections of the rules, shipped in its folder
    cli("-c", "Dawn", "verify", "--all")

    # the house rule raises the target to 5: its rule reads duel.target, so it is taken
    cli("-c", "Dawn", "dl", "house-rule", "duel.target", "5", "--note", "a harder dawn")
    assert "rolls 4 against 5: loses" in cli("-c", "Dawn", "dl", "duel", "Blue Guard", "--dice", "4")
    refused = cli("-c", "Dawn", "dl", "house-rule", "duel.nothing", "1", code=2)
    assert "duel.nothing" in refused

    # Red's duel was misread: the table's die was a 5. Amended, it and every later command are run again.
    red = next(e for e in _json(cli("-c", "Dawn", "log", "--json"))["events"] if _is_duel(e, "Red Guard"))
    cli("-c", "Dawn", "amend", str(red["seq"]), "--dice", "5", "--reason", "misread die", "--yes")
    units = {u["name"]: u for u in _json(cli("-c", "Dawn", "status", "--json"))["units"]}
    assert (units["Blue Guard"]["wins"], units["Red Guard"]["wins"]) == (1, 1)
    [verified] = _json(cli("-c", "Dawn", "verify", "--all", "--json"))
    assert verified["ok"] is True and verified["failures"] == []
    assert [f["check"] for f in verified["flags"]] == ["table dice corrected"]  # the amendment, on the record
    cli("-c", "Dawn", "undo")
    units = {u["name"]: u for u in _json(cli("-c", "Dawn", "status", "--json"))["units"]}
    assert units["Red Guard"]["wins"] == 0  # the amendment taken back: the die read as recorded first


def test_it_speaks_russian_from_its_own_catalogs(fifth: str, tmp_path: Path) -> None:
    """Its commands' help, its sentences and its tables' notes, in its own catalogs (its folder's locale/), are
    said in the reader's language; what it did not translate stays as it wrote it."""
    db = str(tmp_path / "duel.db")

    def cli(*args: str) -> str:
        result = CliRunner().invoke(app, ["--db", db, "--lang", "ru", *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return " ".join(result.output.split())

    assert "Поединки на рассвете (duel, §90): бойцы выходят вперёд" in cli("--help")
    assert "Боец подразделения выходит на поединок: один кубик против цели (§90.1)." in cli("dl", "duel", "--help")
    cli("new", "Dawn", "--ruleset", "duel")
    cli("-c", "Dawn", "dl", "muster", "Blue Guard", "--side", "Blue", "--size", "5")
    cli("-c", "Dawn", "dl", "muster", "Red Guard", "--side", "Red", "--size", "5")
    cli("-c", "Dawn", "dl", "duel", "Blue Guard", "--dice", "4")  # at the target of 4: a win (§90.1)
    cli("-c", "Dawn", "dl", "duel", "Red Guard", "--dice", "3")
    log = cli("-c", "Dawn", "log")
    assert "боец подразделения Blue Guard побеждает в поединке, выбросив 4" in log
    assert "боец подразделения Red Guard проигрывает в поединке, выбросив 3" in log
    tables = cli("-c", "Dawn", "dl", "tables")
    assert "SEED (§90.1: при 4 и выше боец побеждает)" in tables
    assert "SEED (§90.1: one d6)" in tables  # a note it left untranslated: as written
    english = CliRunner().invoke(app, ["--db", db, "-c", "Dawn", "log"], catch_exceptions=False).output
    assert "Blue Guard's champion wins the duel on a 4" in " ".join(english.split())


def test_a_campaign_of_it_is_played_audited_amended_and_verified_through_the_server(fifth: str, tmp_path: Path) -> None:
    opened = bootstrap(str(tmp_path / "server.db"), actor="test")
    server = create_app(opened, hasher=FAST_HASHER)
    try:
        with TestClient(server):
            gina, pat = sign_in(server, "gina"), sign_in(server, "pat")
            cid = post(gina, "/api/campaigns", {"name": "Dawn", "ruleset": "duel"}, 201)["campaign_id"]
            base = f"/api/campaigns/{cid}"
            post(gina, f"{base}/members", {"account": "pat", "role": "player", "sides": ["Blue"]})

            def command(
                client: TestClient, command_: str, code: int = 200, dice: str | None = None, **args: Any
            ) -> Any:
                return post(client, f"{base}/commands", {"command": command_, "args": args, "dice": dice}, code)

            command(pat, "dl.muster", name="Blue Guard", side="Blue", profile={"size": 5})
            command(gina, "dl.muster", name="Red Guard", side="Red", profile={"size": 5})
            command(pat, "dl.duel", 403, dice="6", unit="Red Guard")  # Red is not pat's side
            fought = command(pat, "dl.duel", dice="2", unit="Blue Guard")
            said = [e["what"] for e in fought["events"] if e["what"]]
            assert "Blue Guard's champion rolls 2 against 4: loses" in said
            told = {e["type"]: e["what"] for e in _events(gina, base)}
            assert told["dl.duel_fought"] == "Blue Guard's champion loses the duel on a 2"

            duel = max(e["seq"] for e in _events(gina, base) if e["type"] == "timeline.command_issued")
            roll = next(e for e in _events(gina, base) if e["type"] == "dice.rolled")
            audit = pat.get(f"{base}/audit", params={"seq": roll["seq"]}).json()
            assert audit["command"] == "dl.duel" and audit["actor"] == "pat"

            # the table's die was a 4, not a 2: previewed (nothing appended), then amended, the duel won
            fix = {"seq": duel, "dice": "4", "reason": "misread die"}
            head = len(_events(gina, base))
            assert post(gina, f"{base}/amend", {**fix, "preview": True})["appended"] == []
            assert len(_events(gina, base)) == head
            assert post(gina, f"{base}/amend", fix)["appended"]
            blue = pat.get(f"{base}/units/Blue Guard").json()
            assert "Blue Guard's champion rolls 4 against 4: wins" in " ".join(h["what"] for h in blue["history"])
            assert gina.get(f"{base}/verify").json()["ok"] is True
            page = gina.get(f"/c/{cid}")
            assert page.status_code == 200 and "Blue Guard" in page.text
    finally:
        opened.close()


CENTRAL = (
    "campaign.read.describe",
    "campaign.read.charts",
    "campaign.interchange.rosters",
    "campaign.interchange.csv_roster",
    "campaign.interchange.army_lists",
    "campaign.rulesets.sheets",
    "campaign.report.story",
    "campaign.read.views",
    "campaign.read.log",
    "campaign.report.render",
    "campaign.server.charts",
    "campaign.server.live_parts",
    "campaign.server.pages",
    "campaign.server.report_pages",
    "campaign.cli.chart",
    "campaign.cli.interchange_cli",
)
"""The modules that show every ruleset's campaigns (their log in words, charts, rosters as CSV, battle sheets, the
report, the page's army-list upload): each asks the campaign's ruleset's plug-in."""


def test_its_chart_roster_and_sheet_come_from_its_own_folder(fifth: str, tmp_path: Path) -> None:
    from campaign.interchange.rosters import roster_columns
    from campaign.read.charts import measures_of
    from campaign.rulesets.sheets import battle_sheet

    db = str(tmp_path / "duel.db")

    def cli(*args: str, code: int = 0) -> str:
        result = CliRunner().invoke(app, ["--db", db, "-c", "Dawn", *args], catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.output

    CliRunner().invoke(app, ["--db", db, "new", "Dawn", "--ruleset", "duel"], catch_exceptions=False)
    cli("dl", "muster", "Blue Guard", "--side", "Blue", "--size", "5")
    cli("dl", "muster", "Red Guard", "--side", "Red", "--size", "5")
    cli("dl", "duel", "Blue Guard", "--dice", "4")  # at the target of 4: a win (§90.1)
    cli("dl", "duel", "Red Guard", "--dice", "3")  # under it: no win, so no new point on the chart
    drawn = _json(cli("chart", "glory", "--json"))
    assert drawn["title"] == "Dawn: Duels won" and drawn["axis"] == "wins"
    series = {s["name"]: s["values"] for s in drawn["series"]}
    assert series == {"Blue Guard": [0, 0, 1], "Red Guard": [None, 0, 0]}
    refused = cli("chart", "treasury", code=2)
    assert "duellists keep no treasury" in refused and "Charts it has: glory" in refused

    shown = sys.modules["fifth.shown"]  # its own module, named by its plug-in alone
    assert measures_of("duel") == {"glory": shown.CHARTS["glory"]}
    assert roster_columns("duel") is shown.ROSTER
    assert [c.header for c in roster_columns("duel")] == ["name", "side", "wins"]
    own: Any = importlib.import_module("fifth.state")
    blue = own.Unit("u1", "Blue Guard", "Blue", own.Profile(size=5), wins=2)
    state = own.CampaignState(roster={"u1": blue})
    [card] = battle_sheet("duel", state, Summary(units=[], battles=[], treasury={}, careers=[], day=0))
    assert (card.name, card.side, [(i.label, i.value) for i in card.items]) == ("Blue Guard", "Blue", [("wins", "2")])


def test_the_modules_that_show_every_ruleset_name_none(fifth: str) -> None:
    """What differs by ruleset is asked of its plug-in: no code of these modules names a ruleset (by its name or
    its command prefix, outside their docstrings) or imports from a ruleset's folder."""
    names = {r.name for r in RULESETS.values()} | {r.prefix for r in RULESETS.values()}
    packages = {r.package for r in RULESETS.values()}
    assert {"duel", "grimdark", "fighting-spirit", "mass-combat", "disorder"} <= names
    for module in CENTRAL:
        tree = ast.parse(Path(importlib.import_module(module).__file__ or "").read_text("utf-8"))
        docstrings = {
            id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
        }
        said = {
            n.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
        }
        assert not said & names, f"{module} names {sorted(said & names)}"
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module} | {
            a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
        }
        assert not {m for m in imported if any(m == p or m.startswith(f"{p}.") for p in packages)}, module


def _json(text: str) -> Any:
    import json

    return json.loads(text)


def _is_duel(event: dict[str, Any], unit: str) -> bool:
    return bool(event["type"] == "timeline.command_issued" and event["payload"]["args"].get("unit") == unit)


def _events(client: TestClient, base: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = client.get(f"{base}/log").json()["events"]
    return events
