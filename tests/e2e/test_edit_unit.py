"""A unit's profile edited by a recorded command (`<ruleset> edit UNIT --set KEY=VALUE`), checked as a
muster is, and folded by each ruleset's state; the log keeps what it was before."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_cli import Cli


def test_a_mass_combat_unit_without_a_troop_type_is_fixed_by_an_edit(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "mc.db"))
    cli("new", "Bannok", "--ruleset", "mass-combat")
    cli("mc", "muster", "LC archers", "--side", "Megalos", "--size", "50", "--ranged", "bow")
    cli("mc", "funds", "Megalos", "100000", "--reason", "war chest")
    assert "no price for this unit" in cli("mc", "month-end", "--pay", "Megalos=100", code=2).output
    before = cli.events()
    assert "unknown troop type 'ZZ'" in cli("mc", "edit", "LC archers", "--set", "troop_type=ZZ", code=2).output
    assert "has no colour" in cli("mc", "edit", "LC archers", "--set", "colour=red", code=2).output
    assert "not by an edit" in cli("mc", "edit", "LC archers", "--set", "men=500", code=2).output
    assert "KEY=VALUE" in cli("mc", "edit", "LC archers", "--set", "troop_type", code=2).output
    assert cli.events() == before  # every refusal appended nothing
    edited = cli.json("mc", "edit", "lc archers", "--set", "troop-type=LC")
    assert edited["events"][0]["payload"]["command"] == "mc.edit"
    assert edited["events"][-1]["type"] == "roster.unit_profile_changed"
    assert edited["events"][-1]["payload"]["profile"] == {"troop_type": "LC"}
    assert "has those values already" in cli("mc", "edit", "LC archers", "--set", "troop_type=LC", code=2).output
    cli("mc", "month-end", "--pay", "Megalos=100")  # now it has a price
    assert "profile of LC archers changed: troop type LC" in cli("unit", "LC archers").stdout
    cli("verify")  # the edit re-runs on replay as recorded


def test_every_ruleset_edits_and_checks_as_its_muster_does(tmp_path: Path) -> None:
    cases = [
        ("fighting-spirit", ("fs", "--quality", "regular", "--lv", "2"), "quality=veteran", "quality", "veteran"),
        ("disorder", ("dis", "--troops", "line", "--points", "80"), "troops=rifles", "troops", "rifles"),
        ("grimdark", ("gf", "--quality", "4", "--points", "100"), "quality=3", "quality", "3+"),
    ]
    for ruleset, (prefix, *profile), change, column, value in cases:
        cli = Cli(str(tmp_path / f"{prefix}.db"))
        cli("new", ruleset.title(), "--ruleset", ruleset)
        cli(prefix, "muster", "Alpha", "--side", "A", "--size", "10", *profile)
        cli(prefix, "edit", "Alpha", "--set", change)
        assert cli.json("status")["units"][0][column] == value
    dis = Cli(str(tmp_path / "dis.db"))
    assert "unknown troop type 'pirates'" in dis("dis", "edit", "Alpha", "--set", "troops=pirates", code=2).output
    gf = Cli(str(tmp_path / "gf.db"))
    assert "only a hero has a skill set" in gf("gf", "edit", "Alpha", "--set", "skill_set=Captain", code=2).output
