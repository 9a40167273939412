"""A battle's result in the campaign report (``campaign report``, the page's report tab) and in ``campaign
battles``, in the reader's words: who won or that it was a draw, and a Mass Combat result of the §2.11 tables in
the seed's words. They read "Итог: won by Saurians." and "Wynik: zwycięstwo: Al-Wazif (victory morale 4)."; a
result the game master typed (a five-grade battle's) stays as typed, its winner said in the reader's words.

The sample campaigns (tests/fixtures, as ``campaign demo`` plays them): Grimdark's two matches won by the Saurians,
then the Robots; Mass Combat's two days at Bannok both won by Al-Wazif, W 13–16 of Table A ("victory, the losers'
Morale −4") and W 4–7 ("minor victory"); the disorder battles won by the British, then the French. A Grimdark
match ended with no winner is a draw (RULES.md §4.2)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs_2026_12_01"

RESULTS = {
    "ru": {
        "grimdark": ["победа: Saurians", "победа: Robots"],
        "mass-combat": ["победа: Al-Wazif (победа, Мораль проигравших −4)", "победа: Al-Wazif (малая победа)"],
        "disorder": ["победа: British", "победа: French"],
    },
    "pl": {
        "grimdark": ["wygrywa Saurians", "wygrywa Robots"],
        "mass-combat": [
            "zwycięstwo: Al-Wazif (zwycięstwo, Morale przegranych −4)",
            "zwycięstwo: Al-Wazif (drobne zwycięstwo)",
        ],
        "disorder": ["wygrywa British", "wygrywa French"],
    },
}
RESULT_LINE = {"ru": r"^\*\*Итог: (.+)\.\*\*$", "pl": r"^\*\*Wynik: (.+)\.\*\*$"}


@pytest.mark.parametrize("ruleset", ["grimdark", "mass-combat", "disorder"])
@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_the_reports_battle_results_say_who_won_in_the_readers_words(tmp_path: Path, lang: str, ruleset: str) -> None:
    cli = Cli(str(tmp_path / "sample.db"))
    cli("import", str(FIXTURES / f"{ruleset}.jsonl"))
    md = cli("--lang", lang, "report").stdout
    assert re.findall(RESULT_LINE[lang], md, re.MULTILINE) == RESULTS[lang][ruleset]
    assert "**Result:" not in md


@pytest.mark.parametrize(
    ("lang", "winner", "draw", "battles"),
    [
        ("ru", "**Итог: победа: Robots.**", "**Итог: ничья.**", ["победа: Robots", "ничья"]),
        ("pl", "**Wynik: wygrywa Robots.**", "**Wynik: remis.**", ["wygrywa Robots", "remis"]),
    ],
)
def test_a_match_won_and_a_match_drawn_in_the_report_and_the_battle_history(
    tmp_path: Path, lang: str, winner: str, draw: str, battles: list[str]
) -> None:
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Sector 7", "--ruleset", "grimdark")
    cli("gf", "muster", "Saurian Warriors", "--side", "Saurians", "--models", "10", "--quality", "4", "--points", "140")
    cli("gf", "muster", "Robot Squad", "--side", "Robots", "--models", "5", "--quality", "4", "--points", "150")
    for name, ended in (("Ruins", ["--winner", "Robots"]), ("The spire", [])):
        cli("gf", "battle-start", name, "--unit", "Saurian Warriors", "--unit", "Robot Squad")
        cli("gf", "battle-end", *ended)
    md = cli("--lang", lang, "report").stdout
    assert winner in md and draw in md
    assert "won by" not in md and "draw" not in md and "**Result:" not in md
    shown = cli("--lang", lang, "battles").stdout
    rows = [[c.strip() for c in re.split(r"[┃│]", line) if c.strip()] for line in shown.splitlines()]
    assert [row[-2:] if row[-1] == "Robots" else row[-1:] for row in rows if row[:1] in (["1"], ["2"])] == [
        [battles[0], "Robots"],
        [battles[1]],
    ]


@pytest.mark.parametrize(
    ("lang", "ruleset", "subtitle"),
    [
        ("ru", "fighting-spirit", "*Боевой дух в пять градаций (как в Stargrunt II) · 3 боя · день 0, месяц 1 — "
                                  "день 16, месяц 2*"),
        ("pl", "fighting-spirit", "*Morale w pięciu stopniach (jak w Stargrunt II) · 3 bitwy · dzień 0, miesiąc 1 — "
                                  "dzień 16, miesiąc 2*"),
        ("ru", "disorder", "*Маркеры расстройства и карьеры офицеров (наполеоновские стычки) · 2 боя*"),
        ("pl", "disorder", "*Znaczniki dezorganizacji i kariery oficerów (potyczki napoleońskie) · 2 bitwy*"),
    ],
)  # fmt: skip
def test_the_reports_subtitle_names_its_game_and_its_days_in_the_readers_words(
    tmp_path: Path, lang: str, ruleset: str, subtitle: str
) -> None:
    """It named the game in English ("Five-grade morale (Stargrunt II-like)") and its days ungrammatically
    ("с день 0, месяц 1 по день 16, месяц 2", "od dzień 0 … do dzień 16")."""
    cli = Cli(str(tmp_path / "sample.db"))
    cli("import", str(FIXTURES / f"{ruleset}.jsonl"))
    assert cli("--lang", lang, "report").stdout.splitlines()[2] == subtitle
