"""GURPS Mass Combat at the table through ``campaign mc``: a battle from a set-up file, money and time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.e2e.test_cli import Cli

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bannok-day1.toml"


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "mc.db"))
    c("new", "Border War", "--ruleset", "mass-combat")
    c(
        "mc",
        "muster",
        "Caliburn's gang",
        "--side",
        "Megalos",
        "--men",
        "15",
        "--armour",
        "light",
        "--irregular",
        "--quality",
        "inexperienced",
        "--experience",
        "0",
        "--troop-type",
        "II",
    )
    c(
        "mc",
        "muster",
        "Militia archers",
        "--side",
        "Megalos",
        "--men",
        "120",
        "--armour",
        "light",
        "--ranged",
        "crossbow",
        "--irregular",
        "--set",
        "fine_weapons=true",
        "--troop-type",
        "LI",
        "--quality",  # without a quality or an experience, a muster rolls it on 3d (R3-23)
        "average",
    )
    c(
        "mc",
        "muster",
        "LC archers",
        "--side",
        "Al-Wazif",
        "--men",
        "40",
        "--armour",
        "light",
        "--mount",
        "light_horse",
        "--ranged",
        "bow",
        "--troop-type",
        "LC",
        "--quality",
        "average",
    )
    return c


def test_troop_strength_roster_and_a_battle_from_the_example_file(cli: Cli) -> None:
    assert cli.json("mc", "ts", "Militia archers")["ts"] == 600
    assert "15" in cli("mc", "ts", "Caliburn's gang").stdout
    result = cli.json("mc", "battle", str(EXAMPLE))
    types = [e["type"] for e in result["events"]]
    assert types[:2] == ["timeline.command_issued", "dice.rolled"] and "battle.started" in types
    rules = [e["payload"]["rule"] for e in result["events"] if e["type"] == "rules.applied"]
    for step in (
        "battle_day",
        "extraordinary_force",
        "catastrophe",
        "strategy_contest",
        "result",
        "casualties",
        "survival",
        "glory",
        "battle_end",
    ):
        assert step in rules, step
    human = cli("mc", "roster").stdout
    assert ("Caliburn's gang" in human and "treasury" not in human.lower()) or "Megalos" in human
    seq = next(
        e["seq"] for e in result["events"] if e["type"] == "rules.applied" and e["payload"]["rule"] == "battle_day"
    )
    replay = cli.json("mc", "replay", str(seq))
    assert replay["same"] is True
    assert orjson.loads(cli("verify", "--json").stdout)[0]["ok"]


def test_money_time_and_refusals(cli: Cli) -> None:
    cli("mc", "funds", "Megalos", "10000", "--reason", "the town's purse")
    before = cli.events()
    out = cli("mc", "month-end", "--pay", "Megalos=100", code=2)
    assert "cannot cover" in out.stderr
    cli("mc", "funds", "Megalos", "-20000", "--reason", "bribes", code=2)
    cli("mc", "battle", "/no/such/file.toml", code=2)
    cli("mc", "rest", "-3", code=2)
    cli("mc", "month-end", "--pay", "Megalos", code=2)
    assert cli.events() == before
    cli("mc", "funds", "Megalos", "200000", "--reason", "a patron")
    paid = cli.json("mc", "month-end", "--pay", "Megalos=0", "--dice", "3,3,3,3,3,3")
    assert any(e["type"] == "calendar.month_ended" for e in paid["events"])
    roster = cli.json("mc", "roster")
    assert {u["unit"]: u["pay_penalty"] for u in roster["units"]}["Militia archers"] == 1
    assert roster["treasury"]["Megalos"] == 210000 - (15 + 120) * 200
    cli("mc", "disband", "Militia archers", "--reason", "harvest time")
    assert "was disbanded" in cli("mc", "pay", "Militia archers", code=2).stderr


def test_transfer_on_the_command_line(cli: Cli) -> None:
    watch = ("--side", "Megalos", "--men", "30", "--armour", "light", "--ranged", "crossbow", "--troop-type", "LI")
    cli("mc", "muster", "Town watch", *watch)
    before = cli.events()
    assert "one troop type" in cli("mc", "transfer", "Caliburn's gang", "Town watch", "--men", "5", code=2).stderr
    assert "fights for Megalos" in cli("mc", "transfer", "Town watch", "LC archers", "--men", "5", code=2).stderr
    assert cli.events() == before
    moved = cli.json("mc", "transfer", "Militia archers", "Town watch", "--men", "20")
    assert moved["events"][-1]["type"] == "roster.men_transferred"
    men = {u["unit"]: u["men"] for u in cli.json("mc", "roster")["units"]}
    assert (men["Militia archers"], men["Town watch"]) == (100, 50)


def _muster_args(name: str, side: str, profile: dict[str, object]) -> list[str]:
    args = ["mc", "muster", name, "--side", side]
    for key, value in profile.items():
        if key == "irregular":
            args.append("--irregular")
        elif key == "fine_weapons":
            args += ["--set", "fine_weapons=true"]
        else:
            args += [f"--{key}", str(value)]
    return args


def test_the_worked_battle_of_2_14_through_the_cli(tmp_path: Path) -> None:
    """RULES.md §2.14 and R2-27, both days, with the seed's dice entered at the table: the values are those worked
    by hand in tests/acceptance/test_mass_combat_worked_battle.py."""
    from tests.acceptance.test_mass_combat_worked_battle import DAY1, DAY2, MEGALOS, WAZIF, setup

    cli = Cli(str(tmp_path / "bannok.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    for army, side in ((MEGALOS, "Megalos"), (WAZIF, "Al-Wazif")):
        for name, profile in army.items():
            cli(*_muster_args(name, side, profile))
    day1, day2 = tmp_path / "day1.json", tmp_path / "day2.json"
    day1.write_bytes(orjson.dumps(setup(1, -2)))
    day2.write_bytes(orjson.dumps(setup(2, -1)))

    def rules(result: Any, rule: str) -> list[dict[str, Any]]:
        return [p["payload"] for p in result["events"] if p["type"] == "rules.applied" and p["payload"]["rule"] == rule]

    first = cli.json("mc", "battle", str(day1), "--more-days", "--dice", ",".join(map(str, DAY1)))
    contest = rules(first, "strategy_contest")[0]
    assert contest["inputs"]["ts"] == {"Megalos": 3500, "Al-Wazif": 3942}
    assert contest["outcome"] == {"margins": {"Megalos": 7, "Al-Wazif": 4}, "difference": 3}
    assert rules(first, "result")[0]["outcome"]["result"] == "no_clear_winner"
    casualties = rules(first, "casualties")
    assert [c["outcome"]["base_percent"] for c in casualties] == [13, 30]
    assert [c["outcome"]["ts_after"] for c in casualties] == [3281, 3363]
    second = cli.json("mc", "battle", str(day2), "--continue", "Battle for Bannok", "--dice", ",".join(map(str, DAY2)))
    verdict = rules(second, "result")[0]
    assert verdict["inputs"].items() >= {"table": "A", "w": 9}.items()
    assert verdict["outcome"] == {"result": "victory_morale_2", "winner": "Megalos", "clear_victory": "yes"}
    archers = next(d for d in rules(second, "unit_morale") if d["explanation"].startswith("LC archers"))
    assert archers["outcome"] == {"margin": -1, "fate": "routs"}  # 13 − 3 + 1 − 2 = 9, rolled 10
    assert len(rules(second, "survival")) == 1  # Caliburn's side won, his unit held: no second Survival roll
    assert orjson.loads(cli("verify", "--json").stdout)[0]["ok"]
