"""A Mass Combat PC read from a GURPS Character Sheet (GCS's JSON, data version 5: ``examples/caliburn.gcs``,
written as GCS writes a sheet: ``profile``, ``total_points``, ``attributes`` with their ``calc.value``, skills in
a container with their ``calc.level``, a trait container holding a disabled one; see
``campaign/interchange/gurps_sheet.py`` for where GCS defines the format)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from campaign.interchange.gurps_sheet import pc_from_sheet, read_character
from events.errors import InvalidInputError
from tests.e2e.test_cli import Cli
from tests.e2e.walkthroughs import EXAMPLES

SHEET = EXAMPLES / "caliburn.gcs"


def test_the_sheet_gives_name_iq_points_skills_in_containers_and_the_advantages_it_has() -> None:
    caliburn = read_character(SHEET.read_bytes(), "caliburn.gcs")
    assert (caliburn.name, caliburn.iq, caliburn.points) == ("Caliburn", 12, 150)
    assert caliburn.skills == {
        "Broadsword": 15, "Shield": 13, "Crossbow": 12, "Tactics": 11, "Riding (Horse)": 12, "Leadership": 12,
    }  # fmt: skip
    assert caliburn.skill("riding", "caliburn.gcs") == 12, "a specialised skill by its name alone"
    entry = {"gcs": "caliburn.gcs", "weapon_skill": "Broadsword", "side": "Megalos", "risk": -2}
    pc = pc_from_sheet(entry, caliburn, "caliburn.gcs")
    # Bad Luck is disabled on the sheet, and is no Luck
    assert pc == {
        "name": "Caliburn", "side": "Megalos", "risk": -2, "iq": 12, "weapon": 15, "tactics": 11,
        "combat_reflexes": True, "danger_sense": False, "luck": False, "points": 150,
    }  # fmt: skip
    assert pc_from_sheet({**entry, "iq": 13}, caliburn, "caliburn.gcs")["iq"] == 13, "the entry's own value stands"


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ({"weapon_skill": "Axe/Mace"}, "caliburn.gcs (Caliburn) has no skill 'Axe/Mace': its skills are Broadsword"),
        ({}, "say which skill is the main weapon"),
        ({"weapon_skill": "Broadsword", "name": "Arthur"}, "is the sheet of Caliburn, not of Arthur"),
    ],
)
def test_a_missing_skill_or_another_characters_name_is_refused_in_words(entry: dict[str, str], said: str) -> None:
    caliburn = read_character(SHEET.read_bytes(), "caliburn.gcs")
    with pytest.raises(InvalidInputError) as refused:
        pc_from_sheet({"gcs": "caliburn.gcs", "side": "Megalos", "risk": 0, **entry}, caliburn, "caliburn.gcs")
    assert said in str(refused.value)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"not json", "is not a GURPS Character Sheet file: it is not JSON"),
        (orjson.dumps({"version": 1, "profile": {"name": "X"}}), "is GCS data version 1"),
        (orjson.dumps({"version": 5}), "it has no character profile"),
    ],
)
def test_a_file_that_is_no_current_gcs_sheet_is_refused(data: bytes, said: str) -> None:
    with pytest.raises(InvalidInputError) as refused:
        read_character(data, "x.gcs")
    assert said in str(refused.value)


def test_a_battle_files_pc_named_by_a_sheet_fights_with_the_sheets_values(tmp_path: Path) -> None:
    """§2.9: Battle = floor((Tactics + weapon skill) / 2) + 2 with Combat Reflexes: (11 + 15) // 2 + 2 = 15."""
    day1 = (EXAMPLES / "bannok-day1.toml").read_text(encoding="utf-8")
    sheeted = day1.replace('name = "Caliburn"\n', 'gcs = "caliburn.gcs"\nweapon_skill = "Broadsword"\n')
    sheeted = sheeted.replace("iq = 12\nweapon = 15\n", "")
    assert sheeted != day1
    (tmp_path / "day1.toml").write_text(sheeted, encoding="utf-8")
    (tmp_path / "caliburn.gcs").write_bytes(SHEET.read_bytes())
    cli = Cli(str(tmp_path / "mc.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    cli("mc", "muster", "Caliburn's gang", "--side", "Megalos", "--men", "15", "--armour", "light", "--irregular",
        "--troop-type", "LI", "--quality", "inexperienced", "--experience", "0")  # fmt: skip
    cli("mc", "muster", "Militia archers", "--side", "Megalos", "--men", "120", "--armour", "light", "--ranged",
        "crossbow", "--irregular", "--troop-type", "LI", "--quality", "green")  # fmt: skip
    cli("mc", "muster", "LC archers", "--side", "Al-Wazif", "--men", "100", "--mount", "light_horse", "--ranged",
        "bow", "--troop-type", "LC")  # fmt: skip
    fought = cli.json("mc", "battle", str(tmp_path / "day1.toml"))
    issued = fought["events"][0]["payload"]["args"]["setup"]["pcs"][0]
    assert (issued["name"], issued["iq"], issued["weapon"], issued["tactics"], issued["points"]) == (
        "Caliburn", 12, 15, 11, 150,
    )  # fmt: skip
    said = [e["payload"]["explanation"] for e in fought["events"] if e["type"] == "rules.applied"]
    assert any(s.startswith("Caliburn: Battle 15;") for s in said), said
    before = cli.events()
    (tmp_path / "day2.toml").write_text(sheeted.replace('"Broadsword"', '"Axe/Mace"').replace(
        "Battle for Bannok", "Battle for Bannok 2"), encoding="utf-8")  # fmt: skip
    refused = cli("mc", "battle", str(tmp_path / "day2.toml"), code=2)
    assert "has no skill 'Axe/Mace'" in refused.output and cli.events() == before
