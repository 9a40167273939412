"""``campaign chart``: the series folded from a played campaign (checked value by value, worked from the commands
played), the files drawn (real PNG and SVG), the terminal view, and the refusals."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.e2e.test_cli import Cli

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def seq(cli: Cli, *args: str) -> int:
    """Run a command; the seq its last event got (where a chart step after it sits)."""
    return int(cli.json(*args)["head"]["seq"])


def series(chart: dict[str, Any]) -> dict[str, list[int | None]]:
    return {s["name"]: s["values"] for s in chart["series"]}


@pytest.fixture
def five_grades(tmp_path: Path) -> tuple[Cli, dict[str, int]]:
    """Two sides mustered, money in and out, a battle with two attacks on the Keno squad, and a third attack
    taken back by `undo` (a chart must not show it)."""
    cli = Cli(str(tmp_path / "fs.db"))
    at: dict[str, int] = {}
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    common = ("--quality", "veteran", "--lv", "2", "--radio")
    at["hq"] = seq(cli, "fs", "muster", "Company HQ", "--side", "Steel", "--size", "5", *common)
    at["vets"] = seq(cli, "fs", "muster", "Steel Veterans", "--side", "Steel", "--size", "10", *common)
    at["keno"] = seq(
        cli, "fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7"
    )
    at["pay1"] = seq(cli, "fs", "funds", "Steel", "100", "--reason", "pay chest")
    at["pay2"] = seq(cli, "fs", "funds", "Keno", "50", "--reason", "tribute")
    spent = cli("fs", "funds", "--json", "--reason", "bribes", "Steel", "--", "-30").stdout  # a negative amount
    at["pay3"] = int(orjson.loads(spent)["head"]["seq"])
    at["start"] = seq(
        cli,
        "fs",
        "battle-start",
        "Hill 203",
        "--side",
        "Keno=low",
        "--side",
        "Steel=medium",
        "--unit",
        "Keno 3rd Squad=fresh",
        "--unit",
        "Company HQ=tired",
        "--unit",
        "Steel Veterans=tired,cover",
    )
    # LV 2 + threat 6 = 8, d8 rolled 6: confident → steady; 2 killed and 2 wounded leave 3 men standing.
    at["attack1"] = seq(cli, "fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "6")
    # The leader hit: two grades down, steady → broken.
    at["attack2"] = seq(cli, "fs", "attack", "Keno 3rd Squad", "--leader-hit", "--dice", "3")
    cli("fs", "attack", "Steel Veterans", "--wounded", "2", "--dice", "1")
    cli("undo")
    return cli, at


def test_five_grade_morale_strength_and_treasury_series(five_grades: tuple[Cli, dict[str, int]]) -> None:
    cli, at = five_grades
    morale = cli.json("chart", "morale")
    assert morale["levels"] == ["routed", "broken", "shaken", "steady", "confident"]
    assert [s["seq"] for s in morale["steps"]] == [at["start"], at["attack1"], at["attack2"]]
    # Fresh → confident (5), tired → steady (4); the squad loses one grade, then two.
    assert series(morale) == {"Keno 3rd Squad": [5, 4, 2], "Company HQ": [4, 4, 4], "Steel Veterans": [4, 4, 4]}
    strength = cli.json("chart", "strength")
    assert [s["seq"] for s in strength["steps"]] == [at["hq"], at["vets"], at["keno"], at["attack1"]]
    assert series(strength) == {
        "Keno 3rd Squad": [None, None, 7, 3],
        "Company HQ": [5, 5, 5, 5],
        "Steel Veterans": [None, 10, 10, 10],  # the undone attack's 2 wounded are not shown
    }
    treasury = cli.json("chart", "treasury")
    assert [(s["seq"], s["label"]) for s in treasury["steps"]] == [
        (at["pay1"], "funds"),
        (at["pay2"], "funds"),
        (at["pay3"], "funds"),
    ]
    assert series(treasury) == {"Keno": [None, 50, 50], "Steel": [100, 100, 70]}
    only = cli.json("chart", "morale", "keno 3rd squad")  # one unit, by name in any case
    assert series(only) == {"Keno 3rd Squad": [5, 4, 2]}
    steel = cli.json("chart", "strength", "Steel")  # one side
    assert set(series(steel)) == {"Company HQ", "Steel Veterans"}


def test_the_drawn_files_are_real_images(five_grades: tuple[Cli, dict[str, int]], tmp_path: Path) -> None:
    cli, _ = five_grades
    png, svg = tmp_path / "morale.png", tmp_path / "treasury.svg"
    shown = cli("chart", "morale", "-o", str(png)).stdout
    assert "3 steps drawn to" in shown and png.name in shown
    assert png.read_bytes()[:8] == PNG_MAGIC and png.stat().st_size > 2000
    from PIL import Image  # matplotlib's own dependency: a full decode of the file, not just its first bytes

    with Image.open(png) as image:
        image.load()
        assert image.format == "PNG" and image.width > 400 and image.height > 300
    drawn = cli.json("chart", "treasury", "--output", str(svg))
    assert drawn["file"] == str(svg)
    root = ET.fromstring(svg.read_bytes())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    text = svg.read_text()
    # The title, both sides in the legend, and each step's label on the x axis (matplotlib writes text as text).
    assert "Otlok Front: Treasury" in text and "Steel" in text and "Keno" in text
    assert "recorded_at" not in text and "Date" not in text  # no wall clock in the file: same campaign, same bytes
    again = tmp_path / "again.svg"
    cli("chart", "treasury", "-o", str(again))
    assert again.read_bytes() == svg.read_bytes()


def test_the_terminal_view_and_the_refusals(five_grades: tuple[Cli, dict[str, int]], tmp_path: Path) -> None:
    cli, _ = five_grades
    view = cli("chart", "morale").stdout
    squad = next(line for line in view.splitlines() if "Keno 3rd Squad" in line)
    # Bars on the scale of the five grades: confident (full), steady, broken; values in the grades' names.
    assert "█▆▂" in squad and "confident" in squad and "broken" in squad
    assert "over 3 steps" in view
    before = cli.events()
    refused = cli("chart", "glory", code=2)
    assert "no glory chart for a fighting-spirit campaign" in refused.stderr
    assert "morale, strength, treasury" in refused.stderr
    assert "no chart called 'luck'" in cli("chart", "luck", code=2).stderr
    assert "Otto" in cli("chart", "morale", "Otto", code=2).stderr
    assert ".pdf" in cli("chart", "morale", "-o", str(tmp_path / "m.pdf"), code=2).stderr
    assert "no folder" in cli("chart", "morale", "-o", str(tmp_path / "nowhere" / "m.png"), code=2).stderr
    assert cli.events() == before  # a chart appends nothing
    assert not (tmp_path / "m.pdf").exists()


def test_disorder_markers_strength_and_glory(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "dis.db"))
    cli("new", "Peninsula", "--ruleset", "disorder")
    at = {
        "rifles": seq(
            cli,
            "dis",
            "muster",
            "95th Rifles",
            "--side",
            "British",
            "--models",
            "10",
            "--troops",
            "rifles",
            "--points",
            "100",
        ),
        "fus": seq(
            cli,
            "dis",
            "muster",
            "Fusiliers",
            "--side",
            "French",
            "--models",
            "12",
            "--troops",
            "line",
            "--points",
            "80",
        ),
        "volt": seq(
            cli,
            "dis",
            "muster",
            "Voltigeurs",
            "--side",
            "French",
            "--models",
            "8",
            "--troops",
            "light",
            "--points",
            "70",
        ),
        "sharpe": seq(cli, "dis", "officer", "British", "Sharpe"),
        "dubreton": seq(cli, "dis", "officer", "French", "Dubreton"),
    }
    at["start1"] = seq(
        cli, "dis", "battle-start", "Sabugal", "--unit", "95th Rifles", "--unit", "Fusiliers", "--unit", "Voltigeurs"
    )
    at["hit"] = seq(cli, "dis", "hit", "Fusiliers", "--lost", "3", "--dice", "2,1")  # 3 lost; check 0: disordered
    at["marker"] = seq(cli, "dis", "marker", "Voltigeurs", "--reason", "lost a melee")
    at["end1"] = seq(cli, "dis", "battle-end", "--winner", "British", "--objectives", "British=2")
    at["start2"] = seq(cli, "dis", "battle-start", "Fuentes", "--unit", "95th Rifles", "--unit", "Fusiliers")
    cli("dis", "hit", "95th Rifles", "--lost", "4", "--dice", "6,6")
    cli("undo")  # taken back: neither its losses nor its markers are charted
    at["remove"] = seq(cli, "dis", "remove", "Fusiliers", "--reason", "destroyed in melee")
    at["end2"] = seq(cli, "dis", "battle-end", "--winner", "British")

    markers = cli.json("chart", "morale")
    assert [s["seq"] for s in markers["steps"]] == [at["start1"], at["hit"], at["marker"], at["start2"], at["remove"]]
    assert series(markers) == {
        "95th Rifles": [0, 0, 0, 0, 0],
        "Fusiliers": [0, 1, 1, 0, None],  # markers end with the battle; removed in the second
        "Voltigeurs": [0, 0, 1, None, None],  # not in the second battle
    }
    strength = cli.json("chart", "strength")
    steps = [(s["seq"], s["label"]) for s in strength["steps"]]
    assert steps == [
        (at["rifles"], "muster"),
        (at["fus"], "muster"),
        (at["volt"], "muster"),
        (at["hit"], "hit"),
        (at["end1"], "Sabugal ends"),
        (at["end2"], "Fuentes ends"),
    ]
    # Models lost in a battle are back in the roster after it (RULES.md §5, disorder markers).
    assert series(strength) == {
        "95th Rifles": [10, 10, 10, 10, 10, 10],
        "Fusiliers": [None, 12, 12, 9, 12, 12],
        "Voltigeurs": [None, None, 8, 8, 8, 8],
    }
    glory = cli.json("chart", "glory")
    assert [s["seq"] for s in glory["steps"]] == [at["sharpe"], at["dubreton"], at["end1"], at["end2"]]
    # Won 3 + 2 objectives = 5; then won 3 + 1 enemy unit removed = 4, so 9. The French lost both: 0.
    assert series(glory) == {"Sharpe": [0, 0, 5, 9], "Dubreton": [None, 0, 0, 0]}
    refused = cli("chart", "treasury", code=2)
    assert "keep no treasury" in refused.stderr and "morale, strength, glory" in refused.stderr


def test_the_demo_draws_charts_beside_its_database_and_says_where(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "d.db"))
    mine = tmp_path / "d-disorder-glory.svg"
    mine.write_text("my own drawing")  # a file of the same name is someone's: the demo leaves it
    shown = cli("demo").stdout
    assert "Charts drawn from the demo's logs:" in shown and " chart strength -c " in shown
    for name in ("fighting-spirit-morale", "fighting-spirit-strength", "mass-combat-treasury"):
        path = tmp_path / f"d-{name}.svg"
        assert str(path) in shown.replace("\n", "")
        assert ET.fromstring(path.read_bytes()).tag == "{http://www.w3.org/2000/svg}svg"
    assert "Demo mass-combat: Treasury" in (tmp_path / "d-mass-combat-treasury.svg").read_text()
    assert mine.read_text() == "my own drawing" and "left" in shown and "--replace" in shown


def test_grimdark_experience_and_treasury(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Sector 7", "--ruleset", "grimdark")
    warriors = seq(cli, "gf", "muster", "Saurian Warriors", "--side", "Saurians", "--models", "10", "--quality", "4",
                   "--points", "140")  # fmt: skip
    hero = seq(cli, "gf", "muster", "Saurian Hero", "--side", "Saurians", "--models", "1", "--quality", "3",
               "--tough", "3", "--hero", "--points", "60")  # fmt: skip
    robots = seq(cli, "gf", "muster", "Robot Squad", "--side", "Robots", "--models", "10", "--quality", "4",
                 "--points", "150")  # fmt: skip
    cli("gf", "battle-start", "Ruins", "--unit", "Saurian Warriors", "--unit", "Saurian Hero", "--unit", "Robot Squad",
        "--join", "Saurian Hero=Saurian Warriors")  # fmt: skip
    cli("gf", "shoot", "Saurian Warriors", "--wounds", "6", "--by", "Robot Squad", "--dice", "2")  # Shaken
    cli("gf", "melee", "Saurian Warriors", "Robot Squad", "--a-wounds", "1", "--b-wounds", "2")  # Shaken: routs
    cli("gf", "round")
    end = seq(cli, "gf", "battle-end", "--winner", "Robots", "--dice", "6,3")
    xp = cli.json("chart", "morale")
    assert xp["axis"] == "XP"
    assert [(s["seq"], s["label"]) for s in xp["steps"]] == [
        (warriors, "muster"),
        (hero, "muster"),
        (robots, "muster"),
        (end, "Ruins ends"),
    ]
    # As test_grimdark_cli works it out: the Robot Squad 1 + 3 for routing a hero and its unit, the warriors 1,
    # the hero 0; nothing changes before the battle's end.
    assert series(xp) == {
        "Robot Squad": [None, None, 0, 4],
        "Saurian Hero": [None, 0, 0, 0],
        "Saurian Warriors": [0, 0, 0, 1],
    }
    treasury = cli.json("chart", "treasury")
    # §4.2 mission rewards: the winner 150 pts, the loser 300.
    assert [s["seq"] for s in treasury["steps"]] == [end]
    assert series(treasury) == {"Robots": [150], "Saurians": [300]}
    assert "Grimdark heroes earn XP, not Glory" in cli("chart", "glory", code=2).stderr


def test_mass_combat_troop_strength_treasury_and_reputation(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "mc.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    profile = ("--armour", "light", "--ranged", "crossbow", "--irregular", "--set", "fine_weapons=true", "--quality",
               "average")  # fmt: skip
    archers = seq(
        cli, "mc", "muster", "Militia archers", "--side", "Megalos", "--men", "120", *profile, "--troop-type", "LI"
    )
    purse = seq(cli, "mc", "funds", "Megalos", "10000", "--reason", "the town's purse")
    patron = seq(cli, "mc", "funds", "Megalos", "200000", "--reason", "a patron")
    strength = cli.json("chart", "strength")
    assert strength["axis"] == "TS"
    assert [s["seq"] for s in strength["steps"]] == [archers]  # money changes no troop strength
    assert series(strength) == {"Militia archers": [600]}  # as `mc ts` works it out (test_mass_combat_cli)
    treasury = cli.json("chart", "treasury")
    assert [s["seq"] for s in treasury["steps"]] == [purse, patron]
    assert series(treasury) == {"Megalos": [10000, 210000]}
    assert "nothing to chart yet" in cli("chart", "glory", code=2).stderr  # no player character yet


def test_no_other_command_loads_the_plotting_library() -> None:
    """Matplotlib (and numpy under it) cost a second at start-up: only drawing a chart may import them."""
    probe = "import sys, campaign.cli.main; print(sorted(m for m in ('matplotlib', 'numpy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
