"""``campaign report``: the campaign's story for people, as Markdown or printable HTML, in its calendar.

By hand (RULES.md §4.1): Saurian Warriors, 10 models of Quality 4+, take 6 wounds from the Robots: 4 left, at half
strength, so they test at the end of the activation; the table's 2 would fail (Shaken), the 5 the table agrees
on passes. A volley of 3 wounds on the five Robots is rewound (out of range), its die rerolled; the next volley,
1 wound, leaves 4 of 5 (no test). The Saurians win: every unit not a casualty gains 1 XP (§4.2).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs_2026_12_01"


@pytest.fixture(scope="module")
def disputed(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    cli = Cli(str(tmp_path_factory.mktemp("report") / "gf.db"))
    cli("new", "Kessel", "--ruleset", "grimdark")
    cli("gf", "muster", "Saurian Warriors", "--side", "Saurians", "--size", "10", "--quality", "4", "--points", "140")
    cli("gf", "muster", "Robot Squad", "--side", "Robots", "--size", "5", "--quality", "4", "--points", "150")
    cli("gf", "battle-start", "Ruins", "--unit", "Saurian Warriors", "--unit", "Robot Squad")
    shot = cli.json("gf", "shoot", "Saurian Warriors", "--wounds", "6", "--by", "Robot Squad", "--dice", "2")
    cli(
        "amend", str(shot["events"][0]["seq"]), "--dice", "5", "--reason", "the die showed 5, the table agreed", "--yes"
    )
    before = cli.json("status")["seq"]
    cli("gf", "shoot", "Robot Squad", "--wounds", "3", "--by", "Saurian Warriors")
    cli("rewind", "--to", str(before), "--reason", "that volley was out of range")
    cli("reroll", "--reason", "the die fell off the table")
    cli("gf", "shoot", "Robot Squad", "--wounds", "1", "--by", "Saurian Warriors")
    cli("gf", "battle-end", "--winner", "Saurians")
    return cli


def test_the_story_of_a_battle_told_in_effect_with_its_disputes_and_their_reasons(disputed: Cli) -> None:
    md = disputed("report").stdout
    assert md.startswith("# Kessel\n")
    battle = md[md.index("## Battle 1: Ruins") : md.index("## The roster at the end")]
    assert "Sides: Saurians against Robots." in battle and "**Result: won by Saurians.**" in battle
    assert "- Saurian Warriors: 6 models lost" in battle
    assert "- Robot Squad: 1 model lost" in battle, "the rewound volley's 3 wounds are not in the story"
    assert "### Morale" not in battle, "the 2 the table corrected to 5: the test passed, nobody Shaken"
    assert "XP gained: Saurian Warriors +1, Robot Squad +1" in battle
    disputes = md[md.index("## Disputes") :]
    assert "**table dice corrected** (Battle 1: Ruins): the d6 of gf shoot Saurian Warriors" in disputes
    assert "read 2; tester corrected it to 5: the die showed 5, the table agreed" in disputes
    rewound = "**rewind** (Battle 1: Ruins): rewound: that volley was out of range — taken back: gf shoot Robot Squad"
    assert rewound in disputes
    assert "**reroll** (Battle 1: Ruins): a die left on the table was rerolled: the die fell off the table" in disputes
    # the campaign's calendar, never the log's seqs
    assert not re.search(r"#\d|\bseq\b", md.replace(md[md.index("The log's head") :], ""))


class _Checked(HTMLParser):
    """Every tag closed in order (the void ones aside): the page a browser and a printer read as written."""

    VOID = frozenset({"meta", "br", "img", "input", "link", "rect", "line", "circle", "polyline"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, (tag, self.open[-5:])
        self.open.pop()


def test_the_html_report_is_one_printable_page_with_its_charts_inline(disputed: Cli, tmp_path: Path) -> None:
    said = disputed("report", "-o", str(tmp_path / "kessel.html")).stdout
    assert "the report (HTML, 1 battle) is in" in said
    page = (tmp_path / "kessel.html").read_text(encoding="utf-8")
    checked = _Checked()
    checked.feed(page)
    assert checked.open == []
    assert "@media print" in page and "break-before: page" in page
    assert page.count("<svg") == 3, "experience, strength and campaign points"
    disputed("report", "-o", str(tmp_path / "kessel.md"))
    assert (tmp_path / "kessel.md").read_text(encoding="utf-8").count("data:image/svg+xml;base64,") == 3
    refused = disputed("report", "-o", str(tmp_path / "kessel.pdf"), code=2)
    assert "a report is written as .md (Markdown) or .html" in refused.output


@pytest.mark.parametrize("ruleset", ["fighting-spirit", "mass-combat", "disorder", "grimdark"])
def test_the_demo_campaigns_reports_tell_every_battle_its_result_and_its_losses(tmp_path: Path, ruleset: str) -> None:
    cli = Cli(str(tmp_path / "demo.db"))
    cli("import", str(FIXTURES / f"{ruleset}.jsonl"))
    md = cli("report").stdout
    battles = cli.json("battles")
    titles = re.findall(r"^## Battle (\d+): (.+)$", md, re.MULTILINE)
    assert [name for _, name in titles] == [b["name"] for b in battles]
    results = re.findall(r"^\*\*Result: (.+)\.\*\*$", md, re.MULTILINE)
    assert len(results) == len(battles) and all(r for r in results)
    for b in battles:
        if b.get("winner"):
            assert any(b["winner"] in r for r in results)
    # the losses a battle's log records, summed by unit, are the story's
    log = cli.json("log")["events"]
    names = {e["payload"]["unit_id"]: e["payload"]["name"] for e in log if e["type"] == "roster.unit_mustered"}
    lost: dict[str, int] = {}
    for e in log:
        p = e["payload"]
        if e["type"] == "battle.casualties_taken":
            lost[names[p["unit_id"]]] = lost.get(names[p["unit_id"]], 0) + p["dead"]
        elif e["type"] == "battle.models_lost":
            lost[names[p["unit_id"]]] = lost.get(names[p["unit_id"]], 0) + p["count"]
        elif e["type"] == "battle.attack_resolved":
            lost[names[p["unit_id"]]] = lost.get(names[p["unit_id"]], 0) + p["killed"]
        elif e["type"] == "battle.wounds_taken":
            lost[names[p["unit_id"]]] = lost.get(names[p["unit_id"]], 0) + (p.get("models_lost") or 0)
    told: dict[str, int] = {}
    casualties = "\n".join(re.findall(r"^### Casualties\n\n((?:- .*\n)+)", md, re.MULTILINE))
    for unit, number in re.findall(r"^- (.+?): (\d+) (?:dead|models? lost|m[ae]n killed)", casualties, re.MULTILINE):
        told[unit] = told.get(unit, 0) + int(number)
    assert told == {u: n for u, n in lost.items() if n}
    if ruleset in ("fighting-spirit", "mass-combat"):  # the rulesets that count days
        assert re.search(r"^Day \d+, month \d+\.$", md, re.MULTILINE)
    assert not re.search(r"#\d", md.replace(md[md.index("The log's head") :], ""))


def test_an_amendment_taken_back_by_undo_is_told_as_such(tmp_path: Path) -> None:
    """An undo of an amendment takes back the amendment (its first entry a rewind, not a command): the report
    tells it among the disputes ("the amendment at #N was taken back"), and does not fail on it."""
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Kessel", "--ruleset", "grimdark")
    cli("gf", "muster", "Saurian Warriors", "--side", "Saurians", "--size", "10", "--quality", "4", "--points", "140")
    cli("gf", "muster", "Robot Squad", "--side", "Robots", "--size", "10", "--quality", "4", "--points", "150")
    cli("gf", "battle-start", "Ruins", "--unit", "Saurian Warriors", "--unit", "Robot Squad")
    shot = cli.json("gf", "shoot", "Robot Squad", "--wounds", "6", "--dice", "5")
    seq = shot["events"][0]["seq"]
    cli("amend", str(seq), "--set", "wounds=7", "--yes")
    cli("undo")
    story = " ".join(cli("report").stdout.replace("\\#", "#").split())  # Markdown's escaped #
    every = cli.json("log", "--all")["events"]
    first = next(e["seq"] for e in every if e["payload"].get("reason") == f"amend of seq {seq}")
    assert f"the amendment at #{first} was taken back" in story, story
