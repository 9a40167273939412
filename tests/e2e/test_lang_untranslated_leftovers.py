"""Lines a Russian or Polish reader still met in English: Mass Combat's Extraordinary Force (§2.13), said from the
spells its record now holds. README's walkthrough plays the first day at Bannok, where Megalos lowers the LC
archers' Morale with 1 point and strikes them with 3: on TS 300, 1 × 100 ÷ 300 = 0.33 rounds to 0 (no effect),
3 × 100 ÷ 300 = 1.00 to 1 row up the Casualty Table (R2-23). The words are the Russian seed's (002: "Экстраординарная
Сила", "Влияние на Мораль", "Удар по врагу", "Таблица Потерь")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from tests.e2e import walkthroughs
from tests.e2e.test_cli import Cli

WORD = re.compile(r"[^\W\d_]{2,}")
KEPT = {"TS", "ES", "LC", "Megalos", "archers", "Al", "Wazif"}
"""The rules' abbreviations and the names the players gave, the same in every language."""
SAME_WORD = {"pl": {"Morale"}}
"""Words Polish shares with English, as its Mass Combat terms say them ("Morale")."""


def english_left(line: str, english: str, lang: str) -> set[str]:
    """The words of the English sentence ``english`` still in ``line`` (for Russian: every Latin word)."""
    words = set(WORD.findall(line)) - KEPT - SAME_WORD.get(lang, set())
    if lang == "ru":
        return {w for w in words if re.fullmatch(r"[A-Za-z]+", w)}
    return words & set(WORD.findall(english))


FORCE_RU = (
    "Megalos тратит Экстраординарную Силу: Мораль +0 отряду LC archers (TS 300): понижение Морали, 1 очко × 100 ÷ "
    "TS 300 = 0,33, с округлением до ближайшего: 0, слишком мало очков для отряда такой силы: без эффекта; Удар по "
    "врагу по отряду LC archers: на 1 строку вверх в Таблице Потерь (3 очка × 100 ÷ TS 300 = 1,00, с округлением "
    "до ближайшего: 1)"
)
FORCE_EN = (
    "Megalos spends Extraordinary Force: Morale +0 on LC archers (TS 300): a spell to lower it, 1 point × 100 ÷ "
    "TS 300 = 0.33, to the nearest: 0, too few points for a unit of that strength: no effect; Strike on LC "
    "archers: 1 row up (3 points × 100 ÷ TS 300 = 1.00, to the nearest: 1)"
)
FORCE_PL = (
    "Megalos wydaje Siłę Nadzwyczajną: Morale +0 dla oddziału LC archers (TS 300): czar, który ją obniża, 1 punkt "
    "× 100 ÷ TS 300 = 0,33, zaokrąglone do najbliższej: 0, za mało punktów na oddział tej siły: bez efektu; "
    "Uderzenie w oddział LC archers: 1 wiersz w górę w Tabeli Strat (3 punkty × 100 ÷ TS 300 = 1,00, zaokrąglone "
    "do najbliższej: 1)"
)


def said(cli: Cli, lang: str, *args: str) -> str:
    result = cli.runner.invoke(
        app, ["--db", cli.db, "--actor", "tester", "--lang", lang, *args], env={"COLUMNS": "1000"}
    )
    assert result.exit_code == 0, result.output
    return str(result.output)


def first_day(tmp_path: Path, lang: str) -> str:
    """What README's first battle at Bannok says as it is entered, in ``lang``."""
    cli = walkthroughs.mass_combat(Cli(str(tmp_path / "bannok.db")))
    day1 = walkthroughs.EXAMPLES / "bannok-day1.toml"
    return said(cli, lang, "mc", "battle", str(day1), "--dice", walkthroughs.DAY1_DICE, "-c", "Border War")


def force_line(output: str) -> str:
    """The Extraordinary Force entry (``  #30 …``), its lines as the terminal wrapped them joined again."""
    entries = re.split(r"\n(?=  #|head |вершина |wierzchołek )", output)
    entry = next(e for e in entries if "Megalos" in e and "TS 300" in e)
    return " ".join(part.strip() for part in entry.splitlines()).split(" ", 1)[-1].replace("  ", " ")


@pytest.mark.parametrize(("lang", "expected"), [("ru", FORCE_RU), ("pl", FORCE_PL)])
def test_extraordinary_force_is_said_in_the_readers_words(tmp_path: Path, lang: str, expected: str) -> None:
    line = force_line(first_day(tmp_path, lang))
    assert line == expected
    assert not english_left(line, FORCE_EN, lang)


def test_the_english_reader_reads_the_recorded_sentence(tmp_path: Path) -> None:
    assert force_line(first_day(tmp_path, "en")) == FORCE_EN


def test_every_kind_of_spell_says_in_english_what_it_recorded_and_in_russian_and_polish_its_own_words() -> None:
    """Each kind of spell of §2.13, and a side whose ES is its users' (two 100-point mages and 50 more points at
    normal mana, and 2 more: 3 whole points, R2-23), said by the renderer: in English word for word the recorded
    sentence, in Russian and Polish none of its English words."""
    from campaign.i18n import reading_in
    from campaign.i18n.explain import Beside, render
    from tests.acceptance.mass_combat_table import War, applied, battle, d3, side

    NAMES = {"Red", "foot", "horse", "Blue", "Crimson", "Azure"}  # noqa: N806 (the names the players gave)
    w = War()
    w.muster("Red foot", "Crimson", men=20, ts_per_man=3)
    w.muster("Red horse", "Crimson", men=20, ts_per_man=3, troop_type="zombies")
    w.muster("Blue foot", "Azure", men=20, ts_per_man=3)
    crimson = side(
        "Crimson",
        ["Red foot", "Red horse"],
        es=2,
        users=[{"points": 100}, {"points": 100}, {"points": 80}],
        spells=[
            {"kind": "morale", "points": 1, "target": "Red foot"},
            {"kind": "morale", "points": 1, "target": "Red horse"},
            {"kind": "healing", "points": 1, "target": "Red foot"},
        ],
    )
    azure = side(
        "Azure",
        ["Blue foot"],
        es=8,
        spells=[
            {"kind": "defence", "points": 1, "target": "Blue foot"},
            {"kind": "defence", "points": 1},
            {"kind": "recon", "points": 3},
            {"kind": "catastrophe", "points": 2},
            {"kind": "strike", "points": 1, "target": "Red foot", "direction": -1},
        ],
    )
    result = w.fight(battle("Field", crimson, azure), [*d3(3, 3), *d3(10, 10)])
    spent = applied(result, "extraordinary_force")
    assert len(spent) == 2
    for payload in spent:
        with reading_in("en"):
            assert render(payload, Beside()) == payload["explanation"]
        for lang in ("ru", "pl"):
            with reading_in(lang):
                line = render(payload, Beside())
            assert line is not None
            assert not english_left(line, payload["explanation"], lang) - NAMES, line


FRAME = re.compile(r"[│╭╮╰╯─]+")


def framework_said(lang: str, *args: str) -> tuple[int, list[str]]:
    """What the command line's framework printed, each line without the error panel's frame."""
    result = CliRunner().invoke(app, ["--lang", lang, *args], env={"COLUMNS": "200"})
    lines = [" ".join(FRAME.sub(" ", line).split()) for line in result.output.splitlines()]
    return result.exit_code, [line for line in lines if line]


COMMAND_LINE = {"campaign", "status", "fs", "funds", "rest", "help", "nope", "campaig"}
"""What a reader types, the same in every language: the program, its commands, options and arguments."""


@pytest.mark.parametrize(
    ("lang", "args", "expected"),
    [
        (
            "ru",
            ["status", "--nope"],
            ["Использование: campaign status [ПАРАМЕТРЫ]", "Справка: 'campaign status --help'.", "Ошибка",
             "Нет параметра --nope"],
        ),
        (
            "ru",
            ["fs", "funds", "Keno"],
            ["Использование: campaign fs funds [ПАРАМЕТРЫ] СТОРОНА СУММА", "Справка: 'campaign fs funds --help'.",
             "Ошибка", "Не указан аргумент 'сумма'."],
        ),
        (
            "ru",
            ["statu"],
            ["Использование: campaign [ПАРАМЕТРЫ] КОМАНДА [АРГУМЕНТЫ]...", "Справка: 'campaign --help'.", "Ошибка",
             "Нет команды 'statu'."],
        ),
        (
            "pl",
            ["fs", "rest", "x"],
            ["Użycie: campaign fs rest [OPCJE] DNI", "Pomoc: 'campaign fs rest --help'.", "Błąd",
             "Niepoprawna wartość 'dni': to nie liczba całkowita"],
        ),
        (
            "pl",
            ["fs", "rest", "1", "--campaig", "X"],
            ["Użycie: campaign fs rest [OPCJE] DNI", "Pomoc: 'campaign fs rest --help'.", "Błąd",
             "Nie ma opcji --campaig (może chodziło o: --campaign)"],
        ),
        (
            "en",
            ["status", "--nope"],
            ["Usage: campaign status [OPTIONS]", "Try 'campaign status --help' for help.", "Error",
             "No such option: --nope"],
        ),
    ],
)  # fmt: skip
def test_a_command_line_the_framework_cannot_read_is_refused_in_the_readers_words(
    lang: str, args: list[str], expected: list[str]
) -> None:
    code, lines = framework_said(lang, *args)
    assert code == 2 and lines == expected
    if lang == "ru":
        assert not {w for line in lines for w in WORD.findall(line) if w.isascii()} - COMMAND_LINE - {"statu"}
    if lang == "pl":
        english = {"Usage", "OPTIONS", "Try", "for", "Error", "Invalid", "value", "not", "whole", "number", "No",
                   "such", "option", "Possible", "options"}  # fmt: skip
        assert not {w for line in lines for w in WORD.findall(line)} & english


@pytest.mark.parametrize(
    ("lang", "usage", "help_line"),
    [
        (
            "ru",
            "Использование: campaign fs funds [ПАРАМЕТРЫ] СТОРОНА СУММА",
            "--help Показать эту справку и выйти.",
        ),
        ("pl", "Użycie: campaign fs funds [OPCJE] STRONA KWOTA", "--help Pokaż tę pomoc i zakończ."),
    ],
)
def test_a_commands_help_names_its_usage_in_the_readers_words(lang: str, usage: str, help_line: str) -> None:
    code, lines = framework_said(lang, "fs", "funds", "--help")
    assert code == 0 and lines[0] == usage and help_line in lines


DRIFT = {
    "ru": (
        "расхождение: применено заново, правила говорят: Keno 3rd Squad: атака — убито 2, ранено 2; осталось 3 "
        "человека; Keno 3rd Squad, тест на боевой дух: лидерство 2 + угроза 6 (потеряно больше, чем осталось 4 + "
        "непроверенная потеря +1×2) = 8; на к8 выпало 5 → тест пройден; в журнале записано: Keno 3rd Squad: атака — "
        "убито 2, ранено 2; осталось 3 человека; Keno 3rd Squad, тест на боевой дух: лидерство 2 + угроза 6 "
        "(потеряно больше, чем осталось 4 + непроверенная потеря +1×2) = 8; на к8 выпало 5 → −1 градация: Уверенный "
        "→ Стойкий"
    ),
    "pl": (
        "rozbieżność: zastosowane ponownie reguły mówią: Keno 3rd Squad: atak — zabitych 2, rannych 2; zostało 3 "
        "ludzi; Keno 3rd Squad, test morale: przywództwo 2 + zagrożenie 6 (stracono więcej ludzi, niż zostało 4 + "
        "niesprawdzona strata +1×2) = 8; na k8 wypadło 5 → test zdany; dziennik zapisuje: Keno 3rd Squad: atak — "
        "zabitych 2, rannych 2; zostało 3 ludzi; Keno 3rd Squad, test morale: przywództwo 2 + zagrożenie 6 (stracono "
        "więcej ludzi, niż zostało 4 + niesprawdzona strata +1×2) = 8; na k8 wypadło 5 → −1 stopień: Pewny → "
        "Niezachwiany"
    ),
}
"""The five-grade morale test README plays (§0.4: LV 2, threat 6, target 8, the d8 showed 5), recorded as one grade
lost; "a new engine" that never fails re-runs it as passed. verify names the drift with both decisions, each said
from its own record in the reader's words (the seed's grades: Уверенный → Стойкий, Pewny → Niezachwiany)."""


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_a_drift_finding_says_both_decisions_in_the_readers_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    import campaign.rulesets.fighting_spirit.rules as rules

    cli = Cli(str(tmp_path / "drift.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    cli("fs", "battle-start", "Hill", "--side", "Keno=low", "--unit", "Keno 3rd Squad=fresh")
    cli("fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "5")
    monkeypatch.setattr(rules, "morale_outcome", lambda roll, target: 0)  # "a new engine" that never fails
    result = CliRunner().invoke(app, ["--db", cli.db, "--lang", lang, "verify"], env={"COLUMNS": "1000"})
    assert result.exit_code == 3
    found = next(line for line in result.output.splitlines() if line.startswith(("ошибка:", "błąd:")))
    assert found.endswith(DRIFT[lang])
    entry = {
        "ru": r"запись #\d+ \(fs attack\): расхождение: ",
        "pl": r"wpis #\d+ \(fs attack\): rozbieżność: ",
    }
    assert re.search(entry[lang], found), found  # the entry by its number, the command as it is typed
    english = {"evaluated", "now", "the", "rules", "say", "log", "records", "threat", "rolled", "passes", "grade"}
    assert not set(WORD.findall(found)) & english


@pytest.fixture(scope="module")
def hill(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    """README's five-grade walkthrough through its first battle: the squad's test fails (one grade lost)."""
    cli = walkthroughs.five_grade(Cli(str(tmp_path_factory.mktemp("chart") / "hill.db")))
    cli("fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "6")
    cli("fs", "battle-end", "--result", "the patrol withdrew", "--winner", "Steel")
    return cli


def charted(cli: Cli, lang: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["--db", cli.db, "--lang", lang, "chart", *args], env={"COLUMNS": "1000"})
    return result.exit_code, str(result.output)


@pytest.mark.parametrize(
    ("lang", "row", "steps"),
    [
        (
            "ru",
            ["Keno 3rd Squad", "█▆▆", "Уверенный", "Стойкий", "Стойкий", "Уверенный"],
            "первый шаг: Hill 203, день 0 (fs battle-start); последний: конец боя «Hill 203», день 0 (конец боя "
            "«Hill 203»)",
        ),
        (
            "pl",
            ["Keno 3rd Squad", "█▆▆", "Pewny", "Niezachwiany", "Niezachwiany", "Pewny"],
            "pierwszy krok: Hill 203, dzień 0 (fs battle-start); ostatni: koniec bitwy „Hill 203”, dzień 0 (koniec "
            "bitwy „Hill 203”)",
        ),
    ],
)
def test_a_chart_says_its_grades_and_steps_in_the_readers_words(
    hill: Cli, lang: str, row: list[str], steps: str
) -> None:
    """The grades are the seed's (Уверенный → Стойкий), a step a command as the reader types it or the battle's end
    in words ("battle start", "Hill 203 ends" in English). The footer names the first and the last step after a
    colon, not governed by a preposition: a step said as "koniec bitwy" would need its genitive after "do"."""
    code, said = charted(hill, lang, "morale")
    assert code == 0
    rows = [[cell.strip() for cell in line.strip("│").split("│")] for line in said.splitlines() if "Keno" in line]
    assert rows == [row]
    assert steps in said
    assert "battle start" not in said and "ends" not in said and "confident" not in said


@pytest.mark.parametrize(
    ("lang", "args", "refused"),
    [
        ("ru", ["nope"], "ошибка: нет графика 'nope': графики — morale, strength, treasury, glory"),
        (
            "ru",
            ["glory"],
            "ошибка: у кампании по правилам fighting-spirit нет графика glory: в правилах боевого духа с пятью "
            "градациями нет офицеров со Славой или Репутацией. Её графики: morale, strength, treasury",
        ),
        ("ru", ["morale", "-o", "x.txt"], "ошибка: график рисуется в .svg или .png, а не '.txt'"),
        ("pl", ["treasury"], "błąd: na razie nie ma czego pokazać: w kampanii Otlok Front nie zapisano jeszcze "
         "żadnej wartości „skarbiec”"),
        ("pl", ["morale", "-o", "/nowhere/x.svg"], "błąd: nie ma folderu '/nowhere', w którym można narysować x.svg"),
    ],
)  # fmt: skip
def test_a_chart_refused_says_why_in_the_readers_words(hill: Cli, lang: str, args: list[str], refused: str) -> None:
    code, said = charted(hill, lang, *args)
    assert code == 2 and said.strip() == refused


def entries(output: str) -> list[str]:
    """What a command printed, one entry a line (``#7 …``, ``перемены: …``), as the terminal wrapped it joined."""
    parts = re.split(r"\n(?=  #|head |вершина |wierzchołek |перемены:|zmiany:|standing )", output)
    return [" ".join(part.strip() for part in entry.splitlines()).replace("  ", " ") for entry in parts]


VALUES = {
    "ru": (
        "#7 Militia archers — в строю стороны Megalos (бойцов 120, TL 3, броня Легкий, мобильность пешком, "
        "дальнобойное оружие арбалет, иррегуляры, качество Зеленые, опыт 1, тип войск LI, заживление обычное)",
        "#50 команда mc rest (дней 5, занятие отдых)",
        "#51 5 дней: отдых для всех сторон",
        "перемены: Caliburn's gang: качество Неопытные → Зеленые",
        (
            "на «бросок Выживания, Caliburn»",
            "на «повреждения, колонка A, рана 1, Caliburn»",
            "на «бросок Стратегии, Megalos»",
            "начинается бой «Battle for Bannok»: Megalos роль открытое поле, Стратегия 14, TL 3; Al-Wazif роль "
            "открытое поле, Стратегия 16, TL 3",
        ),
    ),
    "pl": (
        "#7 Militia archers — w szeregach strony Megalos (ludzi 120, TL 3, pancerz lekki, wierzchowiec pieszo, broń "
        "dystansowa kusza, nieregularni, jakość Zieloni, doświadczenie 1, typ wojsk LI, gojenie normalne)",
        "#50 polecenie mc rest (dni 5, zajęcie odpoczynek)",
        "#51 5 dni: odpoczynek dla wszystkich stron",
        "zmiany: Caliburn's gang: jakość Niedoświadczeni → Zieloni",
        (
            "na „rzut na Przetrwanie, Caliburn”",
            "na „obrażenia, kolumna A, rana 1, Caliburn”",
            "na „rzut na Strategię, Megalos”",
            "zaczyna się bitwa „Battle for Bannok”: Megalos rola otwarte pole, Strategia 14, TL 3; Al-Wazif rola "
            "otwarte pole, Strategia 16, TL 3",
        ),
    ),
}
"""README's Mass Combat walkthrough (seed 002's words): the militia's profile as mustered, a rest's activity,
Caliburn's gang's first battle making it Green (R2-12), what the battle's rolls were for and how it began."""


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_closed_sets_values_are_said_in_the_seeds_words(tmp_path: Path, lang: str) -> None:
    cli = Cli(str(tmp_path / "war.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    cli("mc", "funds", "Megalos", "2000000", "--reason", "the city's war chest")
    cli("mc", "funds", "Al-Wazif", "500000", "--reason", "the emir's purse")

    def run(*args: str) -> list[str]:
        return entries(said(cli, lang, *args, "-c", "Border War"))

    mustered = run("mc", "raise", "Militia archers", "--side", "Megalos", "--men", "120", "--armour", "light",
                   "--ranged", "crossbow", "--irregular", "--troop-type", "LI", "--quality", "green")  # fmt: skip
    cli("mc", "muster", "Caliburn's gang", "--side", "Megalos", "--men", "15", "--armour", "light", "--irregular",
        "--troop-type", "LI", "--quality", "inexperienced", "--experience", "0")  # fmt: skip
    cli("mc", "muster", "LC archers", "--side", "Al-Wazif", "--men", "100", "--mount", "light_horse", "--ranged",
        "bow", "--troop-type", "LC", "--quality", "average")  # fmt: skip
    fought = run("mc", "battle", str(walkthroughs.EXAMPLES / "bannok-day1.toml"), "--dice", walkthroughs.DAY1_DICE)
    rested = run("mc", "rest", "5")
    profile, command, days, standing, battle = VALUES[lang]
    assert profile in mustered
    raised = {"ru": "набор отряда Militia archers: бойцов 120", "pl": "zaciąg oddziału Militia archers: ludzi 120"}
    assert f"#8 Megalos: −360\xa0000 ({raised[lang]})" in mustered
    assert command in rested and days in rested
    assert standing in fought
    for words in battle:
        assert any(words in entry for entry in fought), words


FIVE_GRADE = {
    "ru": (
        "#3 Keno 3rd Squad — в строю стороны Keno (качество Регулярные, лидерство 2, численность 7, вид пехота, "
        "Гвардия Кено)",
        "#8 Keno 3rd Squad развёрнуто за сторону Keno: 7 человек, усталость свежие, начальная градация Уверенный",
        "на «тест реакции Keno 3rd Squad: залечь на открытой местности»",
    ),
    "pl": (
        "#3 Keno 3rd Squad — w szeregach strony Keno (jakość Regularni, przywództwo 2, liczebność 7, rodzaj piechota, "
        "Gwardia Keno)",
        "#8 Keno 3rd Squad rozstawiony po stronie Keno: 7 ludzi, zmęczenie wypoczęci, początkowy stopień ducha Pewny",
        "na „test reakcji Keno 3rd Squad: padnij na otwartym terenie”",
    ),
}
"""README's five-grade walkthrough (seed 000's words: Регулярные, Гвардия Кено, Уверенный; its reactions, §0.7)."""


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_a_five_grade_profile_deployment_and_reaction_are_said_in_the_seeds_words(tmp_path: Path, lang: str) -> None:
    cli = Cli(str(tmp_path / "front.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")

    def run(*args: str) -> list[str]:
        return entries(said(cli, lang, *args, "-c", "Otlok Front"))

    mustered = run("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2",
                   "--size", "7", "--keno-guard")  # fmt: skip
    cli("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    started = run("fs", "battle-start", "Hill 203", "--side", "Keno=low", "--side", "Steel=medium",
                  "--unit", "Keno 3rd Squad=fresh", "--unit", "Company HQ=tired,cover")  # fmt: skip
    cli("fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "6")
    reacted = run("fs", "react", "Keno 3rd Squad", "go_prone_open", "--dice", "3")
    profile, deployed, purpose = FIVE_GRADE[lang]
    assert profile in mustered and deployed in started
    assert any(purpose in entry for entry in reacted)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "ru",
            "очков 320, низкий уровень маны → ES 1 (1,25, из которых армия тратит только целые очки: R2-23). Это "
            "только расчёт: ничего не потрачено; расстановка боя тратит Экстраординарную Силу на перечисленные в ней "
            "эффекты (§2.13), ES её пользователей складывается так же",
        ),
        (
            "pl",
            "punktów 320, niski poziom many → ES 1 (1,25, z czego armia wydaje tylko pełne punkty: R2-23). To tylko "
            "rachunek: nic nie wydano; rozstawienie bitwy wydaje Siłę Nadzwyczajną na wymienione w nim efekty "
            "(§2.13), a ES jego użytkowników sumuje się tak samo",
        ),
    ],
)
def test_the_es_reckoning_is_said_in_the_readers_words(tmp_path: Path, lang: str, expected: str) -> None:
    """README's `mc es 320 --mana low`: 320 points × ¼ at low mana (the seed: «Низкий уровень маны: х 1/4»)
    give ES 1.25, of which an army spends the whole 1 (R2-23)."""
    cli = Cli(str(tmp_path / "es.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    assert " ".join(said(cli, lang, "mc", "es", "320", "--mana", "low").split()) == expected


@pytest.mark.parametrize(
    ("lang", "title", "header", "quality", "treasury"),
    [
        ("ru", "Border War — день 0, месяц 1",
         ["отряд", "сторона", "бойцы", "раненые", "качество", "опыт", "TS", "Мораль ±", "долг", "состояние"],
         "Зеленые", "казна стороны Megalos: 1 640 000 $"),
        ("pl", "Border War — dzień 0, miesiąc 1",
         ["oddział", "strona", "ludzie", "ranni", "jakość", "dośw.", "TS", "Morale ±", "zaległości", "stan"],
         "Zieloni", "skarbiec strony Megalos: 1 640 000 USD"),
    ],
)  # fmt: skip
def test_the_mass_combat_roster_reads_in_the_readers_words(
    tmp_path: Path, lang: str, title: str, header: list[str], quality: str, treasury: str
) -> None:
    """README's militia raised (120 men at $3,000 each: 2,000,000 − 360,000 = 1,640,000 left), Green (seed 002:
    Зеленые)."""
    cli = Cli(str(tmp_path / "war.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    cli("mc", "funds", "Megalos", "2000000", "--reason", "the city's war chest")
    cli("mc", "raise", "Militia archers", "--side", "Megalos", "--men", "120", "--armour", "light", "--ranged",
        "crossbow", "--irregular", "--troop-type", "LI", "--quality", "green")  # fmt: skip
    shown = said(cli, lang, "mc", "roster", "-c", "Border War")
    lines = [line.strip() for line in shown.splitlines()]
    cells = [[c.strip() for c in re.split(r"[┃│]", line) if c.strip()] for line in lines if line[:1] in "┃│"]
    assert title in lines and treasury.replace(" ", "\u00a0") in [line.replace(" ", "\u00a0") for line in lines]
    assert cells[0] == header
    assert cells[1][:5] == ["Militia archers", "Megalos", "120", "0", quality]


@pytest.mark.parametrize(
    ("lang", "title", "header", "result", "unkept"),
    [
        ("ru", "Бои", ["#", "бой", "день", "ходы", "итог", "победитель"], "нет явного победителя",
         "правила mass-combat не ведут счёт ходов: эти ячейки остаются пустыми."),
        ("pl", "Bitwy", ["#", "bitwa", "dzień", "tury", "wynik", "zwycięzca"], "brak wyraźnego zwycięzcy",
         "reguły mass-combat nie prowadzą rachuby tur: te komórki zostają puste."),
    ],
)  # fmt: skip
def test_the_battles_read_in_the_readers_words(
    tmp_path: Path, lang: str, title: str, header: list[str], result: str, unkept: str
) -> None:
    """README's first day at Bannok: W 1, no clear winner (Table A's 0–3 band); Mass Combat keeps days, not turns."""
    first_day(tmp_path, "en")
    cli = Cli(str(tmp_path / "bannok.db"))
    shown = said(cli, lang, "battles", "-c", "Border War")
    lines = [line.strip() for line in shown.splitlines()]
    cells = [[c.strip() for c in re.split(r"[┃│]", line) if c.strip()] for line in lines if line[:1] in "┃│"]
    assert title in lines and unkept in lines
    assert cells[0] == header
    assert cells[1] == ["1", "Battle for Bannok", "0", result]


@pytest.mark.parametrize(
    ("lang", "title", "headings", "grade", "position"),
    [
        ("ru", "Hill 203 — ход 1", ["отряд", "сторона", "градация", "в начале", "бойцы"], "Уверенный",
         "на открытом месте"),
        ("pl", "Hill 203 — tura 1", ["oddział", "strona", "stopień", "na początku", "ludzie"], "Pewny",
         "na otwartym terenie"),
        ("en", "Hill 203 — turn 1", ["unit", "side", "grade", "start", "men"], "Confident", "open"),
    ],
)  # fmt: skip
def test_the_five_grade_battle_table_is_in_the_readers_language_and_grades_in_the_seeds_words(
    tmp_path: Path, lang: str, title: str, headings: list[str], grade: str, position: str
) -> None:
    """`fs roster` (`battle-status`): the battle's title, its headings and positions in the reader's language, and
    each grade as seed 000 names it (Уверенный; Pewny, the project's Polish): starting grade comes from fatigue, and
    a fresh unit starts Ув, Confident (§0.3)."""
    cli = Cli(str(tmp_path / "fs.db"))
    cli("new", "Patrol", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "1st Squad", "--side", "Steel", "--quality", "regular", "--lv", "2", "--size", "8")
    cli("fs", "muster", "Keno", "--side", "Keno", "--quality", "green", "--lv", "2", "--size", "6")
    cli("fs", "battle-start", "Hill 203", "--side", "Steel=high", "--side", "Keno=low", "--unit", "1st Squad",
        "--unit", "Keno")  # fmt: skip
    shown = cli("--lang", lang, "fs", "battle-status").stdout
    lines = [" ".join(line.replace("│", " ").replace("┃", " ").split()) for line in shown.splitlines()]
    assert lines[0] == title
    assert " ".join(headings) in " ".join(lines)
    squad = next(line for line in lines if line.startswith("1st Squad"))
    assert squad.startswith(f"1st Squad Steel {grade} {grade} 8 0 0 0 {position}"), squad


@pytest.mark.parametrize(
    ("lang", "ended"),
    [
        ("ru", "бой «Ruins» окончен: победа: Saurians"),
        ("pl", "wygrywa Saurians"),
        ("en", "“Ruins” ends: won by Saurians"),
    ],
)
def test_a_battles_end_is_said_in_the_readers_language(tmp_path: Path, lang: str, ended: str) -> None:
    """The battle's end, as its fact line says it in the log: "won by Saurians" was the recorded English in every
    language; the result every ruleset records in the same words is said in the reader's."""
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Kessel", "--ruleset", "grimdark")
    cli("gf", "muster", "Robot Squad", "--side", "Robots", "--size", "5", "--quality", "4", "--points", "50")
    cli("gf", "muster", "Saurian Warriors", "--side", "Saurians", "--size", "5", "--quality", "4", "--points", "50")
    cli("gf", "battle-start", "Ruins", "--unit", "Robot Squad", "--unit", "Saurian Warriors")
    cli("gf", "battle-end", "--winner", "Saurians")
    said = " ".join(cli("--lang", lang, "log", "--type", "battle.ended").stdout.replace("│", " ").split())
    assert ended in said, said
    if lang != "en":
        assert "won by" not in said
