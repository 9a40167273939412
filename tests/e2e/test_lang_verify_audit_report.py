"""`verify`, `audit`, Grimdark's roster and tables, `undo` and the campaign report in the reader's language (ru,
pl), with the three plural forms of Russian and Polish; `--json` neutral. And the audit of an amended command says
what is in force in its place (it said "in force: nothing" beside "same outcome").

The patrol is RULES.md §0.5's E3: a Regular (d8) squad of 7 at LV 2, Low motivation; 2 killed and 2 wounded call
for a morale test, the d8 shows 6. Amended to no loss at all, nothing calls for a test (§0.5: no threat row
applies), so the amendment's only ruling is the attack itself."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from campaign.cli.main import app


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").replace("┃", " ").split())


def run(db: str, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(app, ["--db", db, *args], env={"CAMPAIGN_LANG": "", "COLUMNS": "200"})
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.output}"
    return flat(result.output)


def plural(lang: str, n: int, one: str, few: str, many: str) -> str:
    """The form of a count, by CLDR's rules for Russian and Polish (worked by hand, not by the program's catalogs):
    Russian: 1, 21, 31… one; 2–4, 22–24… few; else many. Polish: 1 alone one; 2–4, 22–24… (not 12–14) few."""
    if lang == "ru" and n % 10 == 1 and n % 100 != 11:
        return one
    if lang == "pl" and n == 1:
        return one
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return few
    return many


@pytest.fixture(scope="module")
def patrol(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int, int]:
    """The patrol, its attack amended: (database, the attack's seq, the amendment's seq)."""
    db = str(tmp_path_factory.mktemp("patrol") / "p.db")
    run(db, "new", "Patrol", "--ruleset", "fighting-spirit")
    run(db, "fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    run(db, "fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    run(db, "fs", "battle-start", "Hill 203", "--side", "Keno=low", "--side", "Steel=medium",
        "--unit", "Keno 3rd Squad=fresh", "--unit", "Company HQ=fresh")  # fmt: skip
    attack_args = ["fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "6", "--json"]
    attack = orjson.loads(CliRunner().invoke(app, ["--db", db, *attack_args]).output)["events"][0]["seq"]
    run(db, "amend", str(attack), "--set", "killed=0", "--set", "wounded=0", "--yes")
    events = orjson.loads(CliRunner().invoke(app, ["--db", db, "log", "--all", "--json"]).output)["events"]
    [amendment] = [e["seq"] for e in events if e["payload"].get("amends") == attack]
    return db, attack, amendment


def test_the_audit_of_an_amended_command_names_what_is_in_force_in_its_place(patrol: tuple[str, int, int]) -> None:
    db, attack, amendment = patrol
    said = run(db, "audit", str(attack))
    assert "in force: nothing" not in said
    assert f"in force in its place (the amendment at #{amendment}): #{amendment + 1}: Keno 3rd Squad attacked: " in said
    assert "0 killed, 0 wounded; 7 men left" in said
    assert f"amended at #{amendment}: " in said and "morale test" in said  # the first rulings, marked so
    assert (
        "rule check: re-evaluated on its recorded inputs and dice: the outcome it recorded "
        f"(not in force: amended at #{amendment}, `campaign audit {amendment}`)"
    ) in said
    # the amendment itself is in force, and re-deciding it gives its outcome
    own = run(db, "audit", str(amendment))
    assert f"in force: #{amendment + 1}: " in own
    assert "rule check: re-evaluated on its recorded inputs and dice: same outcome" in own
    found = orjson.loads(CliRunner().invoke(app, ["--db", db, "audit", str(attack), "--json"]).output)
    assert found["amended_by"]["seq"] == amendment and found["in_force"] == [] and "said" not in found


def test_a_command_taken_back_is_said_so_and_nothing_in_force(patrol: tuple[str, int, int]) -> None:
    db, _attack, _amendment = patrol
    before = orjson.loads(CliRunner().invoke(app, ["--db", db, "log", "--all", "--json"]).output)["events"][-1]["seq"]
    run(db, "fs", "attack", "Company HQ", "--killed", "1", "--dice", "9")
    run(db, "undo")
    try:
        said = run(db, "audit", str(before + 1))
        assert "in force: nothing (every ruling on it was taken back)" in said
        assert "the outcome it recorded (not in force: taken back)" in said
        assert "same outcome" not in said
        ru = run(db, "--lang", "ru", "audit", str(before + 1))
        assert "действует: ничего (каждое решение по ней отменено)" in ru
        assert "записанный исход (не действует: отменено)" in ru
    finally:
        run(db, "undo")  # the undo taken back: the module's patrol as it was for the others
        run(db, "undo")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ru", ("действует вместо неё (исправление #{a})", "исправлено записью #{a}", "внёс root, ",
                "цепочка: цела до этого места", "бросок №0: кубики со стола ввёл root",
                "проверка правила: применено заново на записанных данных и кубиках: записанный исход "
                "(не действует: исправлено записью #{a}, `campaign audit {a}`)",
                "Keno 3rd Squad: атака — убито 0, ранено 0; осталось 7 человек")),
        ("pl", ("obowiązuje zamiast niego (poprawka #{a})", "poprawione przez #{a}", "wpisał(a) root, ",
                "łańcuch: nienaruszony do tego miejsca", "rzut #0: kości ze stołu wprowadził root",
                "sprawdzenie zasady: zastosowane ponownie na zapisanych danych i kościach: zapisany wynik "
                "(nie obowiązuje: poprawione przez #{a}, `campaign audit {a}`)",)),
    ],
)  # fmt: skip
def test_the_audit_in_the_readers_language(patrol: tuple[str, int, int], lang: str, words: tuple[str, ...]) -> None:
    db, attack, amendment = patrol
    said = run(db, "--lang", lang, "audit", str(attack))
    for expected in words:
        assert expected.format(a=amendment) in said, expected
    assert "entered by" not in said and "rule check" not in said
    english = CliRunner().invoke(app, ["--db", db, "audit", str(attack), "--json"]).output
    assert CliRunner().invoke(app, ["--db", db, "--lang", lang, "audit", str(attack), "--json"]).output == english


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_verify_in_the_readers_language_with_its_plurals(patrol: tuple[str, int, int], lang: str) -> None:
    db, _attack, _amendment = patrol
    report = orjson.loads(CliRunner().invoke(app, ["--db", db, "verify", "--json"]).output)[0]
    n, table = report["events"], report["table_rolls"]
    said = run(db, "--lang", lang, "verify")
    if lang == "ru":
        events = plural("ru", n, "событие", "события", "событий")
        rolls = plural("ru", table, "бросок", "броска", "бросков")
        assert f"ок Patrol: {n} {events}, цепочка цела до {report['head_hash']}" in said
        assert f"{table} {rolls} со стола в допустимых пределах" in said
        assert "каждое правило применено заново на своих кубиках, исходы те же" in said
        assert "примечание: в этой базе хранится тайное зерно эпохи 0" in said
    else:
        events = plural("pl", n, "zdarzenie", "zdarzenia", "zdarzeń")
        rolls = plural("pl", table, "rzut", "rzuty", "rzutów")
        assert f"ok Patrol: {n} {events}, łańcuch nienaruszony do {report['head_hash']}" in said
        assert f"{table} {rolls} ze stołu w zakresie" in said
        assert "każdą zasadę zastosowano ponownie na jej kościach, te same wyniki" in said
        assert "uwaga: ta baza przechowuje tajne ziarno epoki 0" in said
    assert "chain intact" not in said and "every rule" not in said


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> str:
    """README's Grimdark match: Saurians 140 + 60 = 200 pts against Robots 150 (RULES.md §4.2: 1 underdog point
    per 50 pts of difference to the highest army: the Robots 1, the Saurians 0)."""
    db = str(tmp_path_factory.mktemp("match") / "m.db")
    run(db, "new", "Sector 7", "--ruleset", "grimdark")
    run(db, "gf", "muster", "Saurian Warriors", "--side", "Saurians", "--models", "10", "--quality", "4",
        "--points", "140")  # fmt: skip
    run(db, "gf", "muster", "Saurian Hero", "--side", "Saurians", "--models", "1", "--quality", "3", "--tough", "3",
        "--hero", "--points", "60")  # fmt: skip
    run(db, "gf", "muster", "Robot Squad", "--side", "Robots", "--models", "5", "--quality", "4", "--points", "150")
    run(db, "gf", "battle-start", "Ruins", "--unit", "Saurian Warriors", "--unit", "Robot Squad")
    run(db, "gf", "shoot", "Saurian Warriors", "--wounds", "6", "--by", "Robot Squad", "--dice", "2")
    return db


def test_grimdark_roster_and_tables_in_russian_and_polish(match: str) -> None:
    ru = run(match, "--lang", "ru", "gf", "roster")
    assert "Sector 7 — Ruins, ход 1" in ru
    assert "отряд сторона моделей Кач. очки XP черты на столе" in ru
    assert "4 модели, Shaken (потрясён)" in ru  # 10 models, 6 wounds at Tough 1: 4 left (§4.1), Shaken
    assert "Robots: армия 150 очков, 1 очко аутсайдера, 0 ПО, 0 очков кампании" in ru
    assert "Saurians: армия 200 очков, 0 очков аутсайдера, 0 ПО, 0 очков кампании" in ru
    pl = run(match, "--lang", "pl", "gf", "roster")
    assert "Sector 7 — Ruins, tura 1" in pl and "jednostka strona" in pl and "4 modele, Shaken" in pl
    assert "Robots: armia 150 pkt, 1 punkt słabszego, 0 VP, 0 punktów kampanii" in pl
    assert "army" not in ru + pl and "underdog" not in ru + pl
    tables = run(match, "--lang", "ru", "gf", "tables", "traits.morale")
    assert "Sector 7: действующие таблицы Grimdark Future" in tables and "путь значение метка" in tables
    assert "ścieżka wartość znacznik erratum pochodzenie" in run(match, "--lang", "pl", "gf", "tables", "traits.")
    assert run(match, "--lang", "ru", "gf", "roster", "--json") == run(match, "gf", "roster", "--json")
    mustered = run(match, "--lang", "ru", "log", "--type", "roster.unit_mustered")
    assert "Robot Squad — в строю стороны Robots (" in mustered
    assert "модели 5" in mustered and "Tough (стойкость) 1" in mustered and "models" not in mustered
    assert "modele 5" in run(match, "--lang", "pl", "log", "--type", "roster.unit_mustered")


def test_undo_and_the_report_in_the_readers_language(match: str) -> None:
    run(match, "gf", "battle-end", "--winner", "Robots")
    ru = run(match, "--lang", "ru", "report")
    for words in (
        "До первого боя",
        "приняты в строй стороны Saurians: Saurian Warriors, Saurian Hero",
        "Бой 1: Ruins",
        "Стороны: Saurians против Robots.",
        "Потери",
        "Мораль",
        "Список подразделений в конце",
        "Жалованье и казна (очки кампании)",
        "Споры, исправления и поправки",
        "Вершина журнала: `",
    ):
        assert words in ru, words  # fmt: skip
    pl = run(match, "--lang", "pl", "report")
    for words in (
        "Przed pierwszą bitwą",
        "Bitwa 1: Ruins",
        "Strony: Saurians przeciw Robots.",
        "Straty",
        "Lista oddziałów na koniec",
        "Żołd i skarbiec (punkty kampanii)",
        "Wierzchołek dziennika: `",
    ):
        assert words in pl, words  # fmt: skip
    assert "Before the first battle" not in ru + pl and "Sides:" not in ru + pl and "The log's head" not in ru + pl
    undone = run(match, "--lang", "ru", "undo")
    assert (
        undone.startswith("отменено: gf battle-end (с #") and "повторный `campaign undo` отменит эту отмену" in undone
    )
    again = run(match, "--lang", "pl", "undo")
    assert again.startswith("cofnięto cofnięcie #") and "ponowne `campaign undo` cofa to cofnięcie" in again


def test_dice_help_says_faces_not_a_count() -> None:
    """`--dice 6` on a d8 roll is one die showing 6, not six dice nor a d6 (README's five-grade walkthrough)."""
    english = flat(CliRunner().invoke(app, ["fs", "attack", "--help"], env={"COLUMNS": "200"}).output)
    assert "6 is one die showing 6 (whatever its kind: a d8 too)" in english
    ru = flat(CliRunner().invoke(app, ["--lang", "ru", "fs", "attack", "--help"], env={"COLUMNS": "200"}).output)
    assert "6 — один кубик, на котором выпало 6 (любой: и к8)" in ru


def test_readme_says_what_dice_6_is() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "`--dice 6` is one die showing 6" in readme and "It is\n  never a count of dice" in readme
    assert "--killed 2 --wounded 2 --dice 6   # its morale test: the d8 showed 6" in readme
