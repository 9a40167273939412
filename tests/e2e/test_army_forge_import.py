"""Army Forge lists imported (``gf import-list``), in Army Forge's own format: its list as exported for TTS and
served by ``/api/tts`` (``gameSystem``, ``units[]`` with ``selectionId``, ``joinToUnit``, ``combined``,
``specialRules``, ``selectedUpgrades``, and in campaign mode ``xp`` and ``traits``; see
``campaign/rulesets/grimdark/army_forge.py`` for where the format is defined).

Files: ``tests/fixtures/army_forge/plain-list.json`` (a plain list: two units of one name, a hero joined to one
of them, an upgrade adding a model, an upgrade adding Tough), ``firefight-list.json`` (the same list for another
game system), ``army-forge-save.json`` (Army Forge's save file, which names units by id only), and README's
``examples/starhost.json`` (a campaign list: three units of one name, two of them combined, a hero joined to the
third, XP and traits) and ``examples/starhost-later.json`` (its later version: more XP, a new trait, a unit
gone, a unit added).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.e2e.test_cli import Cli

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "army_forge"
CAMPAIGN_LIST = ROOT / "examples" / "starhost.json"
LATER_LIST = ROOT / "examples" / "starhost-later.json"


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    made = Cli(str(tmp_path / "gf.db"))
    made("new", "Ninth Sun", "--ruleset", "grimdark")
    return made


def roster(cli: Cli) -> dict[str, dict[str, Any]]:
    return {u["unit"]: u for u in cli.json("gf", "roster")["units"]}


def test_a_plain_list_musters_every_unit_numbering_shared_names_and_joining_its_hero(cli: Cli) -> None:
    out = cli("gf", "import-list", str(FIXTURES / "plain-list.json"), "--side", "Saurians").stdout
    units = roster(cli)
    assert sorted(units) == [
        "Carnivo Tank", "Raptor Riders", "Saurian Captain", "Saurian Warriors 1", "Saurian Warriors 2",
    ]  # fmt: skip
    warriors = units["Saurian Warriors 1"]
    assert (warriors["models"], warriors["quality"], warriors["points"], warriors["tough"]) == (10, 4, 140, 1)
    # an upgrade that adds a model (isModel) makes 3 + 1; its cost is added: 110 + 35
    riders = units["Raptor Riders"]
    assert (riders["models"], riders["points"], riders["tough"]) == (4, 145, 3)
    # Tough(6) and an upgrade's Tough(+3) add up, as Army Forge adds them; Fearless is read
    tank = units["Carnivo Tank"]
    assert (tank["tough"], tank["points"]) == (9, 215)
    assert cli.json("gf", "roster")["armies"]["Saurians"]["value"] == 720  # the list's own points
    said = " ".join(out.split())
    assert "Saurian Warriors (entry aK2pQ) is mustered as Saurian Warriors 1: several units" in said
    assert "not kept: Fast, Impact" in said
    assert "joins Saurian Warriors 1 at each battle's start" in said
    # The hero joins its unit at the battle's start, as the list has it: the unit starts at 10 + 1 (§4.1).
    cli("gf", "muster", "Robot Squad", "--side", "Robots", "--size", "5", "--quality", "4", "--points", "150")
    started = cli.json(
        "gf", "battle-start", "Dunes", "--unit", "Saurian Warriors 1", "--unit", "Saurian Captain",
        "--unit", "Robot Squad",
    )  # fmt: skip
    deployed = {
        e["payload"]["unit_id"]: e["payload"]["state"] for e in started["events"] if e["type"] == "battle.unit_deployed"
    }
    ids = {u["name"]: u["unit_id"] for u in cli.json("status")["units"]}
    assert deployed[ids["Saurian Warriors 1"]]["start_size"] == 11
    assert deployed[ids["Saurian Captain"]]["joined_to"] == ids["Saurian Warriors 1"]


def test_a_campaign_list_carries_xp_and_traits_combines_twins_and_joins_its_hero(cli: Cli) -> None:
    out = cli("gf", "import-list", str(CAMPAIGN_LIST), "--side", "Saurians").stdout
    units = roster(cli)
    # XP as the list has it; the points as Army Forge counts them, 25 per 5 XP in Grimdark Future
    assert {n: (u["xp"], u["points"]) for n, u in units.items()} == {
        "Saurian Warriors 1": (3, 140),
        "Saurian Warriors 2": (3, 140),
        "Saurian Warriors 3": (6, 165),
        "Saurian Captain": (7, 95),
        "Old Kha'ress": (2, 55),  # its custom name
        "Raptor Riders": (5, 135),
    }
    # traits under the tables' names (RULES.md §4.2): Specialist, Traumatized; Toughened gives Tough(+1)
    assert units["Saurian Warriors 3"]["traits"] == ["Specialist"]
    assert units["Old Kha'ress"]["traits"] == ["Traumatized"]
    assert units["Saurian Captain"]["traits"] == ["Toughened", "Leader"] and units["Saurian Captain"]["tough"] == 4
    assert "the trait Traumatised is recorded as the tables name it: Traumatized" in " ".join(out.split())
    career = cli.json("career", "Saurian Captain")
    assert career["xp"] == 7 and career["traits"] == ["Toughened", "Leader"]
    # its skill set is the one its skills come from: its next level rolls on Captain's
    events = cli.json("log", "--type", "roster.unit_mustered")["events"]
    captain = next(e for e in events if e["payload"]["name"] == "Saurian Captain")
    assert captain["payload"]["profile"]["skill_set"] == "Captain"
    cli("gf", "muster", "Robot Squad", "--side", "Robots", "--size", "5", "--quality", "4", "--points", "150")
    started = cli.json(
        "gf", "battle-start", "Dunes", "--unit", "Saurian Warriors 1", "--unit", "Saurian Warriors 2",
        "--unit", "Saurian Warriors 3", "--unit", "Saurian Captain", "--unit", "Robot Squad",
    )  # fmt: skip
    ids = {u["name"]: u["unit_id"] for u in cli.json("status")["units"]}
    deployed = {e["payload"]["unit_id"]: e["payload"] for e in started["events"] if e["type"] == "battle.unit_deployed"}
    # combined twins: 10 + 10 models in one unit (§4.1 O11); the captain with the third: 10 + 1
    assert deployed[ids["Saurian Warriors 1"]]["state"]["start_size"] == 20
    assert deployed[ids["Saurian Warriors 2"]]["state"]["joined_to"] == ids["Saurian Warriors 1"]
    assert deployed[ids["Saurian Warriors 3"]]["state"]["start_size"] == 11
    assert deployed[ids["Saurian Captain"]]["state"]["joined_to"] == ids["Saurian Warriors 3"]


def test_a_later_version_of_the_list_updates_its_units_after_a_preview_instead_of_adding_them(cli: Cli) -> None:
    cli("gf", "import-list", str(CAMPAIGN_LIST), "--side", "Saurians")
    before = cli.events()
    preview = cli.json("gf", "import-list", str(LATER_LIST), "--side", "Saurians", "--dry-run")
    assert cli.events() == before, "a dry run appends nothing"
    assert {c["unit"]: c["said"] for c in preview["updated"]} == {
        "Saurian Warriors 3": ["XP 6 → 9"],
        "Saurian Captain": ["points 95 → 120", "XP 7 → 10", "trait Instigator added"],
    }
    assert [c["unit"] for c in preview["added"]] == ["Saurian Warriors 4"]
    assert preview["missing"] == ["Old Kha'ress"]
    refused = cli("gf", "import-list", str(LATER_LIST), "--side", "Saurians", code=2)
    assert "run it with --yes" in " ".join(refused.output.split()) and cli.events() == before
    cli("gf", "import-list", str(LATER_LIST), "--side", "Saurians", "--yes")
    units = roster(cli)
    assert len(units) == 7, "updated, not duplicated: six units, one more, the one gone kept"
    assert units["Saurian Captain"]["xp"] == 10 and units["Saurian Captain"]["points"] == 120
    assert units["Saurian Captain"]["traits"] == ["Toughened", "Leader", "Instigator"]
    assert units["Saurian Warriors 3"]["xp"] == 9 and units["Saurian Warriors 3"]["points"] == 165
    again = cli("gf", "import-list", str(LATER_LIST), "--side", "Saurians", "--yes", code=2)
    assert "nothing to change" in again.output
    assert cli.json("verify")[0]["ok"] is True
    # the import is one command: one undo takes it all back
    cli("undo")
    assert len(roster(cli)) == 6


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d.update(gameSystem="gff"), "for Grimdark Future: Firefight (gff): this campaign plays"),
        (lambda d: d.update(gameSystem="aof"), "for Age of Fantasy (aof)"),
        (lambda d: d.pop("gameSystem"), "no game system (gameSystem)"),
        (lambda d: d["units"][2].update(size=3), "Saurian Captain (entry cH4rM): a hero is a single model"),
        (lambda d: d["units"][0].update(size=150), "Saurian Warriors (unit 1 of the list) cannot be"),
        (lambda d: d["units"][3].update(quality="7"), "Raptor Riders (unit 4 of the list) cannot be"),
        (lambda d: d["units"][2].update(joinToUnit="zzzzz"), "Saurian Captain joins an entry (zzzzz) that is not"),
        (lambda d: d["units"][1].update(selectionId="aK2pQ"), "the list holds the entry aK2pQ twice"),
        (lambda d: d["units"][0].pop("selectionId"), "Saurian Warriors (unit 1 of the list) has no selectionId"),
        (lambda d: d.update(units=[]), "it holds no units"),
    ],
)
def test_a_list_the_rules_cannot_take_is_refused_in_words_naming_the_unit_and_nothing_is_appended(
    cli: Cli, tmp_path: Path, change: Any, said: str
) -> None:
    data = orjson.loads((FIXTURES / "plain-list.json").read_bytes())
    broken = copy.deepcopy(data)
    change(broken)
    path = tmp_path / "list.json"
    path.write_bytes(orjson.dumps(broken))
    before = cli.events()
    refused = cli("gf", "import-list", str(path), "--side", "Saurians", code=2)
    assert said in " ".join(refused.output.split())
    assert cli.events() == before


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("army-forge-save.json", "is an Army Forge save file: it names its units by their army book ids only"),
        ("firefight-list.json", "Grimdark Future: Firefight (gff)"),
    ],
)
def test_a_save_file_or_a_list_of_another_game_is_refused(cli: Cli, name: str, said: str) -> None:
    refused = cli("gf", "import-list", str(FIXTURES / name), "--side", "Saurians", code=2)
    assert said in " ".join(refused.output.split()) and cli.events() == 1


def test_a_file_that_is_not_json_is_refused(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text('{"gameSystem": "gf", "units": [', encoding="utf-8")
    refused = cli("gf", "import-list", str(path), "--side", "Saurians", code=2)
    assert "is not an Army Forge list: it is not JSON" in " ".join(refused.output.split())


def test_a_list_imported_for_one_side_cannot_become_another_sides(cli: Cli) -> None:
    cli("gf", "import-list", str(CAMPAIGN_LIST), "--side", "Saurians")
    refused = cli("gf", "import-list", str(LATER_LIST), "--side", "Robots", "--yes", code=2)
    assert "belongs to Saurians" in refused.output and "imported for Robots" in refused.output


def test_muster_and_edit_take_xp_and_traits_and_carried_xp_counts_towards_the_next_level(cli: Cli) -> None:
    """RULES.md §4.2: at every 5 XP a unit costs +25 pts and rolls a trait. A unit brought with 4 XP that gains
    1 (not a casualty) reaches 5: a level; one brought with 3 reaches 4: none."""
    cli("gf", "muster", "Veterans", "--side", "Saurians", "--size", "5", "--quality", "4", "--points", "100",
        "--xp", "4", "--trait", "Agile")  # fmt: skip
    cli("gf", "muster", "Recruits", "--side", "Robots", "--size", "5", "--quality", "4", "--points", "100",
        "--xp", "3")  # fmt: skip
    refused = cli("gf", "edit", "Recruits", "--set", "xp=5", code=2)
    assert "give its XP as --xp N" in refused.output
    cli("gf", "edit", "Recruits", "--xp", "3", "--trait", "headstrong")  # XP as it is; a trait, the tables' spelling
    assert roster(cli)["Recruits"]["traits"] == ["Headstrong"]
    cli("gf", "battle-start", "Dunes", "--unit", "Veterans", "--unit", "Recruits")
    # the level-up's trait roll: a d6 on the unit table, face 2 Headstrong (Agile, face 1, it has already)
    cli("gf", "battle-end", "--winner", "Saurians", "--dice", "2")
    units = roster(cli)
    assert (units["Veterans"]["xp"], units["Veterans"]["traits"], units["Veterans"]["points"]) == (
        5, ["Agile", "Headstrong"], 125,
    )  # fmt: skip
    assert (units["Recruits"]["xp"], units["Recruits"]["points"]) == (4, 100)
