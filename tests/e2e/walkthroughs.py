"""README's walkthroughs up to their first battle, for tests that play on from there (each a campaign of its own
in the ``Cli``'s database)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_cli import Cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DAY1_DICE = ",".join(["3,4"] * 18)  # README's 36 table dice for the first day at Bannok


def five_grade(cli: Cli) -> Cli:
    """Otlok Front, at the start of the battle for Hill 203."""
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7",
        "--keno-guard")  # fmt: skip
    cli("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5", "--radio")
    cli("fs", "battle-start", "Hill 203", "--side", "Keno=low", "--side", "Steel=medium",
        "--unit", "Keno 3rd Squad=fresh", "--unit", "Company HQ=tired,cover")  # fmt: skip
    return cli


def grimdark(cli: Cli) -> Cli:
    """Sector 7, its three units mustered (a hero among them)."""
    cli("new", "Sector 7", "--ruleset", "grimdark")
    cli("gf", "muster", "Saurian Warriors", "--side", "Saurians", "--models", "10", "--quality", "4", "--points", "140")
    cli("gf", "muster", "Saurian Hero", "--side", "Saurians", "--models", "1", "--quality", "3", "--tough", "3",
        "--hero", "--points", "60")  # fmt: skip
    cli("gf", "muster", "Robot Squad", "--side", "Robots", "--models", "5", "--quality", "4", "--points", "150")
    return cli


def disorder(cli: Cli) -> Cli:
    """Peninsula, at the start of the battle of Sabugal."""
    cli("new", "Peninsula", "--ruleset", "disorder")
    cli("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    cli("dis", "muster", "Voltigeurs", "--side", "French", "--models", "12", "--troops", "light", "--points", "90")
    cli("dis", "officer", "British", "Lt Sharpe")
    cli("dis", "officer", "French", "Capitaine Dubois")
    cli("dis", "battle-start", "Sabugal", "--unit", "95th Rifles", "--unit", "Voltigeurs")
    return cli


def mass_combat(cli: Cli) -> Cli:
    """Border War, up to the first day at Bannok."""
    cli("new", "Border War", "--ruleset", "mass-combat")
    cli("mc", "funds", "Megalos", "2000000", "--reason", "the city's war chest")
    cli("mc", "funds", "Al-Wazif", "500000", "--reason", "the emir's purse")
    cli("mc", "raise", "Militia archers", "--side", "Megalos", "--men", "120", "--armour", "light", "--ranged",
        "crossbow", "--irregular", "--troop-type", "LI", "--quality", "green")  # fmt: skip
    cli("mc", "muster", "Caliburn's gang", "--side", "Megalos", "--men", "15", "--armour", "light", "--irregular",
        "--troop-type", "LI", "--quality", "inexperienced", "--experience", "0")  # fmt: skip
    cli("mc", "muster", "LC archers", "--side", "Al-Wazif", "--men", "100", "--mount", "light_horse", "--ranged",
        "bow", "--troop-type", "LC", "--quality", "average")  # fmt: skip
    return cli
