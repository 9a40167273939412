"""What a player reads most, in Russian and Polish: refusals of bad input, the log's sentences, `status`, with
each language's plural forms; the log and its head hash the same whatever language it is read in."""

from __future__ import annotations

import re

import orjson
import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from campaign.i18n import reading_in
from campaign.read.describe import count
from events.errors import InvalidInputError, Term


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def run(db: str, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(app, ["--db", db, *args])
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.output}"
    return result.output


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Seed 000's walkthrough, short: two units, one battle fought, a test on the table's d8 (a 6)."""
    path = str(tmp_path_factory.mktemp("lang") / "c.db")
    run(path, "new", "Otlok Front", "--ruleset", "fighting-spirit")
    run(path, "fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    run(path, "fs", "muster", "Keno 4th Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    run(path, "fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    run(path, "fs", "battle-start", "Hill 203", "--side", "Keno=low", "--side", "Steel=medium",
        "--unit", "Keno 3rd Squad=fresh", "--unit", "Company HQ=tired,cover")  # fmt: skip
    run(path, "fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "6")
    run(path, "fs", "battle-end", "--result", "the patrol withdrew", "--winner", "Steel")
    return path


def head(db: str) -> str:
    return str(orjson.loads(run(db, "list", "--json"))[0]["head_hash"])


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: unknown unit 'Keno 5th Squad'; did you mean 'Keno 4th Squad' or 'Keno 3rd Squad'?"),
        (
            "ru",
            "ошибка: неизвестное подразделение 'Keno 5th Squad'; может быть, 'Keno 4th Squad' или 'Keno 3rd Squad'?",
        ),
        ("pl", "błąd: nieznany oddział 'Keno 5th Squad'; czy chodziło o 'Keno 4th Squad' lub 'Keno 3rd Squad'?"),
    ],
)
def test_an_unknown_unit_is_refused_in_the_readers_words_and_nothing_is_appended(db: str, lang: str, said: str) -> None:
    before = head(db)
    out = run(db, "--lang", lang, "fs", "recruit", "Keno 5th Squad", "--men", "3", code=2)
    assert said in flat(out)
    assert head(db) == before


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "9 is not a face of a d8 (faces 1–8)"),
        ("ru", "9 — не грань к8 (грани 1–8)"),
        ("pl", "9 to nie ścianka k8 (ścianki 1–8)"),
    ],
)
def test_a_9_on_a_d8_is_refused_in_the_readers_words(db: str, lang: str, said: str) -> None:
    run(db, "fs", "battle-start", "Hill 204", "--side", "Keno=low", "--side", "Steel=medium",
        "--unit", "Keno 3rd Squad=fresh", "--unit", "Company HQ=fresh")  # fmt: skip
    try:
        before = head(db)
        out = run(db, "--lang", lang, "fs", "attack", "Keno 3rd Squad", "--killed", "1", "--dice", "9", code=2)
        assert said in flat(out)
        assert head(db) == before
    finally:
        run(db, "undo")


def test_json_refusals_stay_english(db: str) -> None:
    out = run(db, "--lang", "ru", "fs", "attack", "Keno 3rd Squad", "--killed", "1", "--json", code=2)
    assert orjson.loads(out.splitlines()[0])["error"].startswith("no battle is being fought")


def test_status_in_russian_and_polish_with_their_plural_forms(db: str) -> None:
    ru = flat(run(db, "--lang", "ru", "status"))
    assert "3 подразделения, 1 бой" in ru  # 3: the few form; 1: the one form
    assert "Подразделения" in ru and "качество" in ru and "Регулярные" in ru and "Ветераны" in ru
    pl = flat(run(db, "--lang", "pl", "status"))
    assert "3 oddziały, 1 bitwa" in pl
    assert "Oddziały" in pl and "jakość" in pl
    en = flat(run(db, "status"))
    assert "3 units, 1 battles" not in en and "3 units, 1 battle" in en


@pytest.mark.parametrize(
    ("n", "ru", "pl"),
    [
        (1, "1 подразделение", "1 oddział"),
        (2, "2 подразделения", "2 oddziały"),
        (4, "4 подразделения", "4 oddziały"),
        (5, "5 подразделений", "5 oddziałów"),
        (11, "11 подразделений", "11 oddziałów"),
        (12, "12 подразделений", "12 oddziałów"),
        (21, "21 подразделение", "21 oddziałów"),
        (22, "22 подразделения", "22 oddziały"),
        (25, "25 подразделений", "25 oddziałów"),
    ],
)
def test_plural_forms_of_each_language(n: int, ru: str, pl: str) -> None:
    """Russian: one for 1, 21, 31 … (not 11); few for 2–4, 22–24 … (not 12–14); many for the rest. Polish:
    one for 1 alone; few for 2–4, 22–24 … (not 12–14); many for the rest (21 oddziałów)."""
    with reading_in("ru"):
        assert count(n, "units") == ru
    with reading_in("pl"):
        assert count(n, "units") == pl
    assert count(n, "units") == (f"{n} unit" if n == 1 else f"{n} units")


def test_a_log_reads_in_each_language_with_the_same_head_hash(db: str) -> None:
    hashes = {}
    for lang, said in (
        ("en", "battle “Hill 203” ends: the patrol withdrew (winner Steel)"),
        ("ru", "бой «Hill 203» окончен: the patrol withdrew (победитель — Steel)"),
        ("pl", "bitwa „Hill 203” zakończona: the patrol withdrew (zwycięzca: Steel)"),
    ):
        out = run(db, "--lang", lang, "log")
        assert said in flat(out)
        hashes[lang] = re.findall(r"(?:head|вершина|wierzchołek) #\d+ ([0-9a-f]{64})", out)[-1]
    assert hashes["en"] == hashes["ru"] == hashes["pl"] == head(db)
    ru = flat(run(db, "--lang", "ru", "log"))
    # the rule's explanation, rendered from its record in Russian, and the seed's grade names
    assert "Keno 3rd Squad, тест на боевой дух: лидерство 2 + угроза" in ru and "Уверенный → Стойкий" in ru
    assert "бросок №0 к8" in ru and "кубики со стола ввёл" in ru


def test_a_refusal_keeps_its_english_text_for_the_log_and_scripts() -> None:
    error = InvalidInputError.saying("unknown unit {name!r}{known}", name="X", known="")
    assert str(error) == "unknown unit 'X'"
    from campaign.i18n import refusal

    with reading_in("ru"):
        assert refusal(error) == "неизвестное подразделение 'X'"
    assert refusal(error) == "unknown unit 'X'"


def test_a_refusal_says_a_recorded_value_in_the_seeds_words() -> None:
    """A grade or quality inside a refusal is the recorded value in English (the log's words) and the seed's
    term for it where the refusal is read in Russian or Polish (§0.2: Ветераны, Weterani)."""
    from campaign.i18n import refusal

    error = InvalidInputError.saying(
        "{unit} is {quality}: Veterans and Elite never panic",
        unit="Keno",
        quality=Term("fighting-spirit", "quality", "veteran"),
    )
    assert str(error) == "Keno is veteran: Veterans and Elite never panic"
    with reading_in("ru"):
        assert refusal(error) == "Keno — Ветераны: ветераны и элита никогда не паникуют"
    with reading_in("pl"):
        assert refusal(error) == "Keno — Weterani: weterani i elita nigdy nie panikują"


def test_a_units_record_says_its_grades_in_the_seeds_words(db: str) -> None:
    """The unit view reads every event about the unit, a grade change too (§0.3's names; Ув → Ст: E3's −1)."""
    english = flat(run(db, "unit", "Keno 3rd Squad"))
    assert "confident → steady" in english
    ru = flat(run(db, "--lang", "ru", "unit", "Keno 3rd Squad"))
    assert "тест на боевой дух" in ru and "Уверенный → Стойкий" in ru
    assert "Pewny → Niezachwiany" in flat(run(db, "--lang", "pl", "unit", "Keno 3rd Squad"))
