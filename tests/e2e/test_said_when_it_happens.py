"""The campaign's day is the campaign's day, a unit's standing is said when it changes, and help gives the bounds
the model holds (RULES.md §5; the fighting-spirit tables' [INF] campaign values)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from campaign.executor import Ledger
from campaign.rulesets.fighting_spirit.profile import UnitProfile
from campaign.rulesets.mass_combat.calendar_commands import Days
from campaign.rulesets.mass_combat.commands import Muster as McMuster
from tests.conftest import Backend, make_ledger
from tests.e2e.test_cli import Cli


def test_a_side_resting_while_the_other_fights_is_the_same_days(tmp_path: Path) -> None:
    """`fs front 15 --side Keno`, then `fs rest 15 --side Steel`: day 15 (it said 30). Then 7 days for everyone:
    day 22; Keno is tired (14+ days at the front), Steel fresh (7+ days of rest)."""
    cli = Cli(str(tmp_path / "days.db"))
    cli("new", "Days", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Alpha", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    cli("fs", "muster", "Bravo", "--side", "Steel", "--quality", "regular", "--lv", "2", "--size", "7")
    cli("fs", "front", "15", "--side", "Keno")
    cli("fs", "rest", "15", "--side", "Steel")
    assert cli.json("status")["day"] == 15
    cli("fs", "front", "5", "--side", "Steel")
    assert cli.json("status")["day"] == 20, "Steel's 15 + 5: later than Keno's 15"
    cli("fs", "rest", "2")
    status = cli.json("status")
    assert status["day"] == 22
    assert {u["name"]: u["fatigue"] for u in status["units"]} == {"Alpha": "tired", "Bravo": "fresh"}


def _mc(ledger: Ledger, command: Any) -> None:
    ledger.execute(ledger.resolve(None), command)


def test_mass_combat_keeps_one_day_for_sides_that_pass_days_apart() -> None:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("War", "mass-combat")
    for side in ("North", "South"):
        _mc(ledger, McMuster.build(name=f"{side} foot", side=side, profile={"men": 100, "troop_type": "MI"}))
    _mc(ledger, Days.build(days=10, activity="march", side="North"))
    _mc(ledger, Days.build(days=10, activity="rest", side="South"))
    assert ledger.states.get(ledger.resolve(None)).day == 10


def test_a_promotion_and_exhaustion_are_said_when_they_happen(tmp_path: Path) -> None:
    """§5 [INF]: Regular from 3 battles a man; EXHAUSTED after 3 battles within 7 days. The third battle's end
    says both for each unit (they were only visible in `status`)."""
    cli = Cli(str(tmp_path / "promo.db"))
    cli("new", "Promo", "--ruleset", "fighting-spirit")
    for name, side in (("A", "Keno"), ("B", "Steel")):
        cli("fs", "muster", name, "--side", side, "--quality", "green", "--lv", "2", "--size", "5")
    ends = []
    for i in range(3):
        sides = ("--side", "Keno=low", "--side", "Steel=low")
        cli("fs", "battle-start", f"Hill {i}", *sides, "--unit", "A", "--unit", "B")
        ends.append(cli("fs", "battle-end", "--result", "a draw").stdout)
    assert "standing" not in ends[0] + ends[1]
    said = " ".join(ends[2].split())
    assert "standing A: quality green → regular; fatigue fresh → exhausted" in said
    assert "standing B: quality green → regular; fatigue fresh → exhausted" in said


def test_muster_help_gives_the_bounds_of_lv_the_model_holds(tmp_path: Path) -> None:
    """`fs muster --help` said LV "1 best … 3 worst" while 5 was accepted and 7 refused "at most 6"."""
    meta = {type(m).__name__: m for m in UnitProfile.model_fields["leadership"].metadata}
    low, high = meta["Ge"].ge, meta["Le"].le
    shown = " ".join(Cli(str(tmp_path / "h.db"))("fs", "muster", "--help").stdout.split())
    found = re.search(r"LV: (\d+) best … (\d+) worst", shown)
    assert found is not None and (int(found[1]), int(found[2])) == (low, high), shown
