"""Counts for people: thousands separated ("10,001 events"), one in the singular; `rebuild` says it rebuilt every
campaign of the file (a new user read "from 304 events" as one campaign's)."""

from __future__ import annotations

from pathlib import Path

from campaign.read.describe import count
from events.recorded import JsonObject, JsonValue
from tests.e2e.test_cli import Cli


def test_a_count_has_its_thousands_separated_and_one_is_singular() -> None:
    assert count(10_001, "events") == "10,001 events"
    assert count(999, "events") == "999 events"
    assert count(1_000, "men") == "1,000 men"
    assert count(1, "men") == "1 man"


def test_rebuild_says_whose_events_it_refolded(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "c.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    assert "rebuilt every projection from the 1 event of its one campaign" in cli("rebuild").stdout
    cli("new", "Sector 7", "--ruleset", "grimdark")
    assert "rebuilt every projection from the 2 events of all 2 campaigns in the file" in cli("rebuild").stdout


def test_status_gives_the_day_only_where_days_pass(tmp_path: Path) -> None:
    """Disorder and Grimdark campaigns count no days (no `rest` or `march`): their status said "day 0" for ever."""
    for ruleset, head in (("grimdark", "Sector 7 (grimdark): 0 units, 0 battles"), ("disorder", "P (disorder): 0")):
        cli = Cli(str(tmp_path / f"{ruleset}.db"))
        cli("new", head.split(" (")[0], "--ruleset", ruleset)
        assert cli("status").stdout.splitlines()[0].startswith(head)
    fs = Cli(str(tmp_path / "fs.db"))
    fs("new", "Otlok Front", "--ruleset", "fighting-spirit")
    fs("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    fs("fs", "rest", "3")
    assert fs("status").stdout.splitlines()[0] == "Otlok Front (fighting-spirit): day 3, 1 unit, 0 battles"


def test_a_payment_with_nothing_owed_reads_as_bonus_pay() -> None:
    """`mc pay` with nothing owed is bonus pay (0.2.1): its settlement read "paid 260 of 0"."""
    from campaign.read.describe import describe
    from events.envelope import RecordedEvent

    def said(paid: int, due: int, penalty: int) -> str:
        payload: JsonObject = {"unit_id": "u1", "paid": paid, "due": due, "penalty": penalty}
        return describe(RecordedEvent(0, "c", 5, "economy.pay_settled", 1, payload, {}, "", ""), {"u1": "Gang"})

    assert said(260, 0, 0) == "Gang: bonus pay 260, nothing owed"
    assert said(52_800, 52_800, 0) == "Gang: paid 52,800 of 52,800"
    assert said(0, 120_000, 1) == "Gang: paid 0 of 120,000, arrears Morale −1"


def test_mc_roster_and_the_treasury_chart_separate_thousands(tmp_path: Path) -> None:
    """A new user read `treasury of Megalos: $1524880` in `mc roster` and `2000000 | 1467960` in the chart's view,
    where `treasury` said 1,524,880."""
    cli = Cli(str(tmp_path / "mc.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    cli("mc", "funds", "Megalos", "2000000", "--reason", "the city's war chest")
    cli("mc", "funds", "Megalos", "-475120", "--reason", "mercenaries")
    assert "treasury of Megalos: $1,524,880" in cli("mc", "roster").stdout
    row = next(line for line in cli("chart", "treasury").stdout.splitlines() if line.startswith("│ Megalos"))
    assert [c.strip() for c in row.split("│")[1:-1]][2:] == ["2,000,000", "1,524,880", "1,524,880", "2,000,000"]


def test_a_roll_with_a_modifier_shows_it_before_the_total() -> None:
    """A new user read "d6+2 for “damage”: 4 = 6": the +2 is now shown ("4+2 = 6")."""
    from campaign.read.describe import describe
    from events.envelope import RecordedEvent

    def said(faces: list[int], modifier: int, total: int) -> str:
        payload: JsonObject = {"faces": list[JsonValue](faces), "modifier": modifier, "total": total,
                               "roll_index": 3, "notation": "d6+2", "purpose": "damage", "source": "seeded",
                               "seed_epoch": 0}  # fmt: skip
        return describe(RecordedEvent(0, "c", 5, "dice.rolled", 1, payload, {}, "", ""), {})

    assert said([4], 2, 6) == "roll #3 d6+2 for “damage”: 4+2 = 6 (seed epoch 0)"
    assert said([3], -1, 2) == "roll #3 d6+2 for “damage”: 3−1 = 2 (seed epoch 0)"
    assert said([5], 0, 5) == "roll #3 d6+2 for “damage”: 5 (seed epoch 0)"
    assert said([3, 4], 0, 7) == "roll #3 d6+2 for “damage”: 3+4 = 7 (seed epoch 0)"
