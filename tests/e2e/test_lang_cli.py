"""The command line in the reader's language: ``--lang``, ``CAMPAIGN_LANG``, the locale; ``--json`` neutral;
the seeds' words accepted as input; a rule's explanation rendered in Russian and Polish from its record."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from campaign.i18n import reading_in
from campaign.i18n.explain import Beside, render


def flat(text: str) -> str:
    """Output as one line of words: a table's borders and a terminal's wrapping aside."""
    return " ".join(text.replace("│", " ").split())


def run(*args: str, code: int = 0, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(app, list(args), env=env)
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.output}"
    return result.output


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "c.db")
    run("--db", path, "new", "Otlok Front", "--ruleset", "fighting-spirit")
    return path


def test_help_in_the_language_asked_for() -> None:
    assert "Показать версию и выйти." in run("--lang", "ru", "--help")
    assert "Pokaż wersję i zakończ." in run("--help", env={"CAMPAIGN_LANG": "pl"})
    assert "Pokaż wersję i zakończ." in run("--help", env={"CAMPAIGN_LANG": "", "LC_ALL": "pl_PL.UTF-8"})
    assert "Print the version and exit." in run("--help", env={"CAMPAIGN_LANG": "", "LANG": "de_DE.UTF-8"})
    ru = run("rules", "--help", "--lang", "ru")  # a command's help and options, wherever --lang is typed
    assert "Показать пункт правил" in ru and "Выводить JSON для скриптов" in ru
    listing = run("--lang", "pl", "--help")
    assert "Historia bitew." in listing  # the command list too


def test_a_language_the_program_does_not_speak_is_refused_with_exit_2(db: str) -> None:
    result = CliRunner().invoke(app, ["--db", db, "--lang", "de", "status"])
    assert result.exit_code == 2
    assert "--lang is one of en, ru, pl, not 'de'" in result.output


def test_the_seeds_words_are_read_as_the_canonical_value(db: str) -> None:
    """`--quality Новобранцы` is seed 000's Green (RULES.md §0.2): the unit is green, in the log too."""
    run(
        "--db",
        db,
        "fs",
        "muster",
        "Keno 3rd Squad",
        "--side",
        "Keno",
        "--quality",
        "Новобранцы",
        "--lv",
        "2",
        "--size",
        "7",
    )
    run(
        "--db", db, "fs", "muster", "Company HQ", "--side", "Steel", "--quality", "ВЕТЕРАНЫ", "--lv", "2", "--size", "5"
    )
    run(
        "--db",
        db,
        "fs",
        "muster",
        "Polish Squad",
        "--side",
        "Steel",
        "--quality",
        "Weterani",
        "--lv",
        "2",
        "--size",
        "5",
    )
    status = orjson.loads(run("--db", db, "status", "--json"))
    qualities = {u["name"]: u.get("quality") or u["profile"]["quality"] for u in status["units"]}
    assert qualities == {"Keno 3rd Squad": "green", "Company HQ": "veteran", "Polish Squad": "veteran"}
    mustered = [
        e for e in orjson.loads(run("--db", db, "log", "--json"))["events"] if e["type"] == "roster.unit_mustered"
    ]
    assert [e["payload"]["profile"]["quality"] for e in mustered] == ["green", "veteran", "veteran"]


def test_a_word_of_no_term_is_still_refused_and_nothing_appended(db: str) -> None:
    before = run("--db", db, "log", "--json")
    out = run(
        "--db",
        db,
        "fs",
        "muster",
        "X",
        "--side",
        "Keno",
        "--quality",
        "Новобранцыы",
        "--lv",
        "2",
        "--size",
        "7",
        code=2,
    )
    assert "quality must be one of 'untrained', 'green'" in out
    assert run("--db", db, "log", "--json") == before


def test_mass_combat_qualities_in_seed_002s_words(tmp_path: Path) -> None:
    db = str(tmp_path / "mc.db")
    run("--db", db, "new", "Border War", "--ruleset", "mass-combat")
    run(
        "--db",
        db,
        "mc",
        "muster",
        "Titus",
        "--side",
        "Megalos",
        "--men",
        "20",
        "--armour",
        "Средний",
        "--quality",
        "Бывалые",
    )
    units = orjson.loads(run("--db", db, "status", "--json"))["units"]
    assert [(u["name"], u.get("quality") or u["profile"]["quality"]) for u in units] == [("Titus", "seasoned")]


def test_json_is_language_neutral(db: str) -> None:
    english = run("--db", db, "status", "--json")
    assert run("--db", db, "--lang", "ru", "status", "--json") == english
    assert run("--db", db, "status", "--json", env={"CAMPAIGN_LANG": "pl"}) == english


def _battle(db: str) -> None:
    run(
        "--db",
        db,
        "fs",
        "muster",
        "Keno 3rd Squad",
        "--side",
        "Keno",
        "--quality",
        "regular",
        "--lv",
        "2",
        "--size",
        "7",
        "--keno-guard",
    )
    run("--db", db, "fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    run(
        "--db",
        db,
        "fs",
        "battle-start",
        "Hill 203",
        "--side",
        "Keno=low",
        "--side",
        "Steel=medium",
        "--unit",
        "Keno 3rd Squad=fresh",
        "--unit",
        "Company HQ=fresh",
    )


def test_the_confidence_test_explained_in_the_readers_language(db: str) -> None:
    """RULES.md §0.5 E3: Regular d8, 7 men, LV 2, Low motivation; 2 killed and 2 wounded: 4 lost > 3 left → base 4,
    +1 × 2 unverified = threat 6, target 8; the d8 rolls 6 → −1 grade (Уверенный → Стойкий)."""
    _battle(db)
    english = flat(run("--db", db, "fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "6"))
    assert (
        "Keno 3rd Squad morale test: LV 2 + threat 6 (lost more than left 4 + unverified casualty +1×2) = 8; "
        "d8 rolled 6 → −1 grade: confident → steady"
    ) in english
    ru = run("--db", db, "--lang", "ru", "log")
    assert (
        "Keno 3rd Squad, тест на боевой дух: лидерство 2 + угроза 6 (потеряно больше, чем осталось 4 + "
        "непроверенная потеря +1×2) = 8; на к8 выпало 6 → −1 градация: Уверенный → Стойкий"
    ) in " ".join(ru.replace("│", " ").split())
    pl = flat(run("--db", db, "--lang", "pl", "fs", "attack", "Company HQ", "--killed", "3", "--dice", "1"))
    # Medium motivation, Veteran d10, LV 2: 3 lost > 2 left → base 3 ("more lost than remain", §0.5), target 5;
    # the d10 rolls 1: 2 × 1 ≤ 5 → −2 grades (half or less), Pewny → Wstrząśnięty.
    assert (
        "Company HQ, test morale: przywództwo 2 + zagrożenie 3 (stracono więcej ludzi, niż zostało 3) = 5; "
        "na k10 wypadło 1 → −2 stopnie (połowa wymaganego lub mniej): Pewny → Wstrząśnięty"
    ) in pl
    # the log keeps its English text: the same events and head whatever language the writer read
    logged = [e for e in orjson.loads(run("--db", db, "log", "--json"))["events"] if e["type"] == "rules.applied"]
    assert logged[-1]["payload"]["explanation"].startswith("Company HQ morale test: LV 2 + threat 3")


def test_each_renderer_says_in_english_what_was_recorded(db: str) -> None:
    """The renderer's English is the recorded sentence: the languages never say different things."""
    _battle(db)
    run("--db", db, "fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "2")
    run("--db", db, "fs", "attack", "Company HQ", "--killed", "1", "--dice", "9")
    events = orjson.loads(run("--db", db, "log", "--json"))["events"]
    rolls = {e["payload"]["roll_index"]: e["payload"]["total"] for e in events if e["type"] == "dice.rolled"}
    names = {e["payload"]["unit_id"]: e["payload"]["name"] for e in events if e["type"] == "roster.unit_mustered"}
    tests = [e["payload"] for e in events if e["type"] == "rules.applied" and e["payload"]["rule"] == "morale_test"]
    assert len(tests) == 2
    attacks = [e["payload"] for e in events if e["type"] == "rules.applied" and e["payload"]["rule"] == "attack"]
    assert len(attacks) == 2  # 3 and 4 men left: the plural in English, whatever the count
    for payload in attacks:
        assert render(payload, Beside(names, rolls), "en") == payload["explanation"]
    assert (
        render(attacks[0], Beside(names, rolls), "ru")
        == "Keno 3rd Squad: атака — убито 2, ранено 2; осталось 3 человека"
    )
    assert render(attacks[1], Beside(names, rolls), "pl") == "Company HQ: atak — zabitych 1, rannych 0; zostało 4 ludzi"
    for payload in tests:
        assert render(payload, Beside(names, rolls), "en") == payload["explanation"]
        with reading_in("ru"):
            assert render(payload, Beside(names, rolls)) != payload["explanation"]
        old = {**payload, "inputs": {k: v for k, v in payload["inputs"].items() if k not in ("lv", "threat_parts")}}
        assert render(old, Beside(names, rolls), "ru") is None  # recorded before its terms: shown as recorded
