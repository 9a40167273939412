"""One vocabulary and one set of views across the four rulesets (the old names kept, unlisted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli

DEMOS = ("Demo fighting-spirit", "Demo mass-combat", "Demo disorder", "Demo grimdark")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    c = Cli(str(Path(tmp_path_factory.mktemp("vocabulary")) / "demo.db"))
    c("demo")
    return c


def test_size_is_one_option_in_every_ruleset_and_the_old_names_still_work(tmp_path: Path) -> None:
    """--size in every ruleset's muster but Mass Combat's, which lists --men: a GURPS Mass Combat player counts men
    (seed 002's troops), as README and every other mc command (recruit, transfer) say; each reads the other name."""
    listed = {"fs": "--size", "mc": "--men", "dis": "--size", "gf": "--size"}
    musters = {
        "fighting-spirit": ("fs", "--quality", "regular", "--lv", "2"),
        "mass-combat": ("mc", "--quality", "average"),
        "disorder": ("dis", "--troops", "line", "--points", "80"),
        "grimdark": ("gf", "--quality", "4", "--points", "100"),
    }
    old: dict[str, str | None] = {"fs": None, "mc": "--size", "dis": "--models", "gf": "--models"}
    for ruleset, (prefix, *rest) in musters.items():
        cli = Cli(str(tmp_path / f"{prefix}.db"))
        cli("new", ruleset.title(), "--ruleset", ruleset)
        name = listed[prefix]
        cli(prefix, "muster", "First", "--side", "A", name, "10", *rest)
        helped = cli(prefix, "muster", "--help").stdout
        unlisted = {"--size ", "--models ", "--men "} - {name + " "}
        assert f"{name} " in helped and not any(other in helped for other in unlisted), helped
        old_name = old[prefix]
        if old_name:
            cli(prefix, "muster", "Second", "--side", "A", old_name, "6", *rest)
            twice = cli(prefix, "muster", "Third", "--side", "A", name, "5", old_name, "6", *rest, code=2)
            assert "given twice" in twice.output
        sizes = {u["name"]: u.get("men", u.get("models")) for u in cli.json("status")["units"]}
        assert sizes == ({"First": 10, "Second": 6} if old[prefix] else {"First": 10})
        assert name in cli(prefix, "muster", "Fourth", "--side", "A", *rest, code=2).output  # it is needed


def test_one_view_name_per_idea_with_the_old_ones_unlisted(demo: Cli) -> None:
    for prefix, demo_name, old in (("fs", DEMOS[0], "battle-status"), ("gf", DEMOS[3], "army")):
        assert demo(prefix, "roster", "-c", demo_name).stdout == demo(prefix, old, "-c", demo_name).stdout
        helped = demo(prefix, "--help").stdout
        assert "│ roster " in helped and f"│ {old} " not in helped  # the command list of --help
    helped = demo("gf", "--help").stdout
    assert "│ turn " in helped and "│ round " not in helped
    for prefix in ("mc", "dis"):
        assert "│ roster " in demo(prefix, "--help").stdout


def test_views_say_plainly_when_a_ruleset_does_not_use_them(demo: Cli) -> None:
    assert "disorder keeps no treasury" in demo("treasury", "-c", DEMOS[2]).stdout
    assert "grimdark has no pay" in demo("treasury", "-c", DEMOS[3]).stdout
    assert "Owed pay" not in demo("treasury", "-c", DEMOS[3]).stdout
    assert "Owed pay" in demo("treasury", "-c", DEMOS[1]).stdout  # Al-Wazif missed a payday
    assert "fighting-spirit keeps no careers" in demo("career", "Anyone", "-c", DEMOS[0], code=2).output


def test_career_follows_a_grimdark_hero(demo: Cli) -> None:
    hero = demo.json("career", "Saurian Hero", "-c", DEMOS[3])
    assert hero["hero"] and hero["battles"] == 2 and hero["xp"] == 2 and hero["injuries"] == []
    shown = demo("career", "saurian hero", "-c", DEMOS[3]).stdout
    assert "Saurian Hero (Saurians), a hero: 2 battles, 2 XP, injuries: none" in shown
    assert "no career for 'Robot Squad'" in demo("career", "Robot Squad", "-c", DEMOS[3], code=2).output


def test_every_ruleset_shows_battles_with_the_same_columns(demo: Cli) -> None:
    heads = set()
    for name in DEMOS:
        table = demo("battles", "-c", name).stdout
        head = next(line for line in table.splitlines() if "battle" in line and "result" in line)
        heads.add(tuple(cell.strip() for cell in head.strip("┃ ").split("┃")))
    assert heads == {("#", "battle", "day", "turns", "result", "winner")}
