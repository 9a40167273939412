"""Words, not dicts: every view of every ruleset, on the played demo campaigns, reads as words.

No Python dicts or reprs, no ``None``/``True``, no ``key=value`` lists, no ``?:``, no 32-hex ids, no snake_case
words; ``--json`` keeps its keys for scripts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli

CAMPAIGNS = {
    "Demo fighting-spirit": ("fs", [["roster"], ["tables"]]),
    "Demo mass-combat": ("mc", [["roster"], ["tables"]]),
    "Demo disorder": ("dis", [["roster"], ["tables"]]),
    "Demo grimdark": ("gf", [["roster"], ["tables"]]),
}

BAD = [
    (re.compile(r"[{}]"), "a dict"),
    (re.compile(r"\[\]|\['|'\]"), "a list repr"),
    (re.compile(r"\b(None|True|False)\b"), "a Python constant"),
    (re.compile(r"\b[a-z_]+=\S"), "a key=value repr"),
    (re.compile(r"\?:"), "an unknown name"),
    (re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])"), "an id"),
    (re.compile(r"\b[a-z]+_[a-z0-9_]+\b"), "a snake_case word"),
    (
        re.compile(r"\b1 (battles|men|models|wounds|units|days|events|rolls|underdog points|later commands)\b"),
        "a wrong plural",
    ),
]


PATH = re.compile(r"(?<!\S)/\S+")


def offences(text: str, *, paths: bool = False) -> list[str]:
    """Each line of ``text`` that is not written for a person, with what is wrong with it.

    ``paths``: the tables view lists the table paths a house rule names, which are typed as they are."""
    found = []
    for said in text.splitlines():
        line = PATH.sub("", said)  # a file's path is the user's own name for it, shown as typed
        for pattern, what in BAD:
            if paths and what == "a snake_case word":
                continue
            if pattern.search(line):
                found.append(f"{what}: {said.strip()}")
    return found


def test_the_scanner_catches_each_kind_of_offence() -> None:
    assert offences("pay_owed 0 · disbanded None · traits []")
    assert offences("rest (days=7, activity=rest, side=None, note=)")
    assert offences("?: 3 killed") and offences("unit 0123456789abcdef0123456789abcdef")
    assert offences("{'a': 1}") and offences("Keno: 1 battles") and offences("1 men left")
    assert offences("a minor_victory") and not offences("a minor_victory", paths=True)
    assert not offences("Keno 3rd Squad: 2 battles, 1 man, 1 battle; head #3 " + "ab" * 32)
    assert not offences("ok the file /tmp/test_one_0/one.db: every page sound")


def test_one_of_a_kind_is_counted_in_the_singular(tmp_path: Path) -> None:
    """Grammar: "1 units" on a campaign's first evening; one unit and one battle read "1 unit", "1 battle"."""
    one = Cli(str(tmp_path / "one.db"))
    one("new", "One", "--ruleset", "grimdark")
    one("gf", "muster", "A", "--side", "X", "--models", "5", "--quality", "4", "--points", "50")
    first = one("status").stdout
    assert "0 battles" in first and "1 unit," in first and not offences(first)
    one("gf", "muster", "B", "--side", "Y", "--models", "5", "--quality", "4", "--points", "50")
    one("gf", "battle-start", "Field", "--unit", "A", "--unit", "B")
    status = one("status").stdout
    assert "2 units, 1 battle" in status and not offences(status)
    one("roll", "d6", "-p", "a die", "--dice", "3")
    checked = one("verify").stdout
    assert "1 table roll in range" in checked and "every rule re-run" in checked and not offences(checked)
    assert "rules not re-run" in one("verify", "--no-rules").stdout


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    c = Cli(str(Path(tmp_path_factory.mktemp("words")) / "demo.db"))
    c("demo")
    return c


def views(cli: Cli) -> Iterator[tuple[list[str], bool]]:
    yield ["list"], False
    for name, (prefix, own) in CAMPAIGNS.items():
        c = ["-c", name]
        status = cli.json("status", *c)
        for view in (["status"], ["battles"], ["treasury"], ["log"], ["log", "--all"], ["verify"]):
            yield [*view, *c], False
        for unit in status["units"]:
            yield ["unit", unit["name"], *c], False
            if prefix == "mc":
                yield ["mc", "ts", unit["name"], *c], False
        for career in status["careers"]:
            yield ["career", career["pc"], *c], False
        for view in own:
            yield [prefix, *view, *c], view == ["tables"]
        kinds: set[str] = set()  # one audit of each kind of event, and of each command
        for event in cli.json("log", *c)["events"]:
            what = f"{event['type']} {event['payload'].get('command', '')}"
            if what not in kinds:
                kinds.add(what)
                yield ["audit", str(event["seq"]), *c], False


def test_every_view_of_every_ruleset_reads_as_words(cli: Cli) -> None:
    found: list[str] = []
    for args, paths in views(cli):
        output = cli(*args).stdout
        found += [f"{' '.join(args)} → {o}" for o in offences(output, paths=paths)]
    assert not found, "\n".join(found[:80]) + f"\n({len(found)} in all)"


def test_days_say_whose_fatigue_changed_and_count_in_words(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "days.db"))
    cli("new", "Days", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Alpha", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "1")
    cli("fs", "muster", "Bravo", "--side", "Steel", "--quality", "regular", "--lv", "2", "--size", "8")
    marched = " ".join(cli("fs", "march", "6", "--side", "Keno").stdout.split())
    assert "6 days of march for the units of Keno" in marched and "standing" not in marched, "nobody's fatigue changed"
    # §5 (INF): TIRED after 14+ days at the front or on the march since the last rest: Alpha 16, Bravo 10.
    front = " ".join(cli("fs", "front", "10").stdout.split())
    assert "10 days of front for every side" in front and "standing Alpha: fatigue fresh → tired" in front
    assert "Bravo" not in front.split("standing")[1]
    front = " ".join(cli("fs", "front", "4").stdout.split())  # Bravo 14, Alpha already tired
    assert "standing Bravo: fatigue fresh → tired" in front and "Alpha" not in front.split("standing")[1]
    assert "Alpha (Keno): quality regular, 1 man," in cli("unit", "Alpha").stdout
    assert not offences(cli("log").stdout + cli("status").stdout + cli("treasury").stdout)


def test_an_officer_of_one_battle_is_counted_in_the_singular(tmp_path: Path) -> None:
    """`dis roster` said "Lt Sharpe (British): Glory 2, Lieutenant, 1 battles" after his first battle."""
    cli = Cli(str(tmp_path / "dis.db"))
    cli("new", "Peninsula", "--ruleset", "disorder")
    cli("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    cli("dis", "muster", "Voltigeurs", "--side", "French", "--models", "12", "--troops", "light", "--points", "90")
    cli("dis", "officer", "British", "Lt Sharpe")
    cli("dis", "officer", "French", "Capitaine Dubois")
    cli("dis", "battle-start", "Sabugal", "--unit", "95th Rifles", "--unit", "Voltigeurs")
    cli("dis", "battle-end", "--winner", "British")
    roster = cli("dis", "roster").stdout
    assert "1 battle" in roster and not offences(roster), roster
