"""What the command line itself says to a Russian or Polish reader, met playing README's walkthroughs with
``--lang ru`` and ``--lang pl``: the names of a command's arguments and values, its own refusals, verify's
findings, the amend preview, the tables' notes, the views' words. Each expected line is written from the
catalogs' translations and the seeds' words; English is held where it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from tests.e2e import walkthroughs
from tests.e2e.test_cli import Cli

FRAME = re.compile(r"[╭╮╰╯│─┃━┏┓┗┛┳┻╇┡┩╈┼┠┨┯┷]+")


def said(lang: str, *args: str, db: str | None = None) -> tuple[int, list[str]]:
    """Exit status and the lines printed, each without a panel's frame and with its spaces squeezed."""
    argv = ["--lang", lang, *(["--db", db, "--actor", "tester"] if db else []), *args]
    result = CliRunner().invoke(app, argv, env={"COLUMNS": "200"})
    lines = [" ".join(FRAME.sub(" ", line).split()) for line in result.output.splitlines()]
    return result.exit_code, [line for line in lines if line]


@pytest.mark.parametrize(
    ("lang", "usage", "missing"),
    [
        ("ru", "Использование: campaign gf shoot [ПАРАМЕТРЫ] ПОДРАЗДЕЛЕНИЕ", "Не указан аргумент 'подразделение'."),
        ("pl", "Użycie: campaign gf shoot [OPCJE] ODDZIAŁ", "Brak argumentu 'oddział'."),
        ("en", "Usage: campaign gf shoot [OPTIONS] UNIT", "Missing argument 'unit'."),
    ],
)
def test_an_arguments_name_is_said_in_the_readers_words(lang: str, usage: str, missing: str) -> None:
    code, lines = said(lang, "gf", "shoot")
    assert code == 2
    assert lines[0] == usage and missing in lines


@pytest.mark.parametrize(
    ("lang", "options"),
    [
        ("ru", ["--wounds РАНЫ", "--by КЕМ", "--campaign -c КАМПАНИЯ"]),
        ("pl", ["--wounds RANY", "--by PRZEZ", "--campaign -c KAMPANIA"]),
        ("en", ["--wounds WOUNDS", "--by BY", "--campaign -c CAMPAIGN"]),
    ],
)
def test_an_options_value_is_named_in_the_readers_words(lang: str, options: list[str]) -> None:
    code, lines = said(lang, "gf", "shoot", "--help")
    assert code == 0
    for option in options:
        assert any(line.lstrip("* ").startswith(option + " ") for line in lines), (option, lines)


@pytest.mark.parametrize(
    ("lang", "usage", "options"),
    [
        ("ru", "Использование: campaign chart [ПАРАМЕТРЫ] ПОКАЗАТЕЛЬ [ОТРЯД|СТОРОНА]", ["--output -o ФАЙЛ"]),
        ("pl", "Użycie: campaign chart [OPCJE] MIARA [JEDNOSTKA|STRONA]", ["--output -o PLIK"]),
        ("en", "Usage: campaign chart [OPTIONS] MEASURE [UNIT|SIDE]", ["--output -o FILE"]),
    ],
)
def test_a_name_a_declaration_chose_is_said_in_the_readers_words(lang: str, usage: str, options: list[str]) -> None:
    """``MEASURE``, ``[UNIT|SIDE]``, ``FILE``: names the command's declaration chose, not its fields', were left in
    English in a Russian usage line."""
    code, lines = said(lang, "chart", "--help")
    assert code == 0 and lines[0] == usage
    for option in options:
        assert any(line.lstrip("* ").startswith(option + " ") for line in lines), (option, lines)
    code, lines = said(lang, "--help")
    shown = {"ru": ["--db ФАЙЛ|URL", "--actor КТО"], "pl": ["--db PLIK|URL", "--actor KTO"]}
    for option in [*shown.get(lang, ["--db FILE|URL", "--actor ACTOR"]), "--lang en|ru|pl"]:
        assert any(line.lstrip("* ").startswith(option + " ") for line in lines), (option, lines)


@pytest.fixture
def otlok(tmp_path: Path) -> Cli:
    """README's five-grade campaign with its squad mustered."""
    cli = Cli(str(tmp_path / "otlok.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    return cli


REFUSED_INPUTS = {
    "ru": [
        "ошибка: fs react: действие: допустимые значения: «залечь на открытой местности», «залечь на любой другой "
        "местности», «двигаться, не сняв маркер «залегания»», «выйти из укрытия для «По» отделений» или «вступить "
        "в ближний бой»",
        "ошибка: fs muster: это не профиль подразделения с пятью градациями: качество: допустимые значения: "
        "«Необученные», "
        "«Новобранцы», «Регулярные», «Ветераны» или «Элита»",
        "ошибка: fs muster: это не профиль подразделения с пятью градациями: лидерство: значение должно быть "
        "не больше 6",
        "ошибка: неизвестный набор правил 'nope': выберите один из fighting-spirit, disorder, mass-combat, grimdark",
    ],
    "pl": [
        "błąd: fs react: akcja: dozwolone wartości: „padnij na otwartym terenie”, „padnij w innym terenie”, „ruch "
        "bez zdjęcia znacznika leżenia”, „Wstrząśnięty oddział opuszcza osłonę” lub „wejście do walki wręcz”",
        "błąd: fs muster: to nie jest profil oddziału pięciu stopni: jakość: dozwolone wartości: „Niewyszkoleni”, "
        "„Rekruci”, „Regularni”, „Weterani” lub „Elita”",
        "błąd: fs muster: to nie jest profil oddziału pięciu stopni: przywództwo: wartość może wynosić najwyżej 6",
        "błąd: nieznany zestaw zasad 'nope': wybierz jeden z fighting-spirit, disorder, mass-combat, grimdark",
    ],
    "en": [
        "error: fs react: action must be one of 'go_prone_open', 'go_prone_cover', 'move_while_prone', "
        "'leave_cover_shaken' or 'close_combat'",
        "error: fs muster: not a five-grade unit profile: quality must be one of 'untrained', 'green', 'regular', "
        "'veteran' or 'elite'",
        "error: fs muster: not a five-grade unit profile: leadership must be at most 6",
        "error: unknown ruleset 'nope': choose one of fighting-spirit, disorder, mass-combat, grimdark",
    ],
}
"""The rules' own checks of a command's inputs, their closed sets' values in the seed's words (§0.7's reactions,
the qualities); what the reader may type back, since a command reads the seed's words too."""


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_the_rules_input_checks_refuse_in_the_readers_words(otlok: Cli, lang: str) -> None:
    before = otlok.events()
    lines = []
    for args in (
        ["fs", "react", "Keno 3rd Squad", "nope", "--dice", "3"],
        ["fs", "muster", "X", "--side", "Keno", "--quality", "nope", "--lv", "2", "--size", "7"],
        ["fs", "muster", "X", "--side", "Keno", "--quality", "regular", "--lv", "99", "--size", "7"],
        ["new", "Elsewhere", "--ruleset", "nope"],
    ):
        code, said_lines = said(lang, *args, db=otlok.db)
        assert code == 2, said_lines
        lines.append(" ".join(said_lines))
    assert lines == REFUSED_INPUTS[lang]
    assert otlok.events() == before


def test_a_value_the_refusal_offers_is_read_back(otlok: Cli) -> None:
    """A reaction named as the Russian refusal names it is the reaction the rules know."""
    otlok("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    otlok("fs", "battle-start", "Hill 203", "--side", "Keno=low", "--side", "Steel=medium",
          "--unit", "Keno 3rd Squad=fresh", "--unit", "Company HQ=tired")  # fmt: skip
    code, lines = said("ru", "fs", "react", "Keno 3rd Squad", "залечь на открытой местности", "--dice", "3",
                       db=otlok.db)  # fmt: skip
    assert code == 0, lines


AMEND_SAID = {
    "ru": [
        "поправка fs attack в записи #{seq} (ещё не записана); 2 последующие команды пересчитаны на своих костях",
        "  убито: 1 → 2",
        "  #{seq} fs attack:",
        "    было: ",
        "    стало: ",
    ],
    "pl": [
        "poprawka fs attack we wpisie #{seq} (jeszcze niezapisana); 2 późniejsze polecenia przeliczone na ich kościach",
        "  zabici: 1 → 2",
        "  #{seq} fs attack:",
        "    było: ",
        "    jest: ",
    ],
    "en": [
        "would amend fs attack at #{seq}; 2 later commands re-run on their dice",
        "  killed: 1 → 2",
        "  #{seq} fs attack:",
        "    was: ",
        "    now: ",
    ],
}


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_the_amend_preview_says_was_and_now_in_the_readers_words(tmp_path: Path, lang: str) -> None:
    """README's five-grade walkthrough, its HQ's attack amended from one killed to two (two later commands)."""
    cli = walkthroughs.five_grade(Cli(str(tmp_path / "fs.db")))
    attack = cli.json("fs", "attack", "Company HQ", "--killed", "1", "--dice", "2")["events"][0]["seq"]
    cli("fs", "battle-end", "--result", "the patrol withdrew", "--winner", "Keno")
    cli("fs", "rest", "1")
    before = cli.events()
    result = CliRunner().invoke(
        app, ["--lang", lang, "--db", cli.db, "--actor", "tester", "amend", str(attack), "--set", "killed=2",
              "--dry-run"], env={"COLUMNS": "1000"}
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    expected = [line.format(seq=attack) for line in AMEND_SAID[lang]]
    assert lines[:3] == expected[:3]
    assert lines[3].startswith(expected[3]) and lines[4].startswith(expected[4])
    assert cli.events() == before


CLI_REFUSALS = [
    (["log", "--last", "-1"], {
        "ru": "ошибка: --last и --limit принимают число событий: 0 или больше",
        "pl": "błąd: --last i --limit przyjmują liczbę zdarzeń: 0 lub więcej",
        "en": "error: --last and --limit take a number of events: 0 or more",
    }),
    (["log", "--unit", "Keno 3rd Squadd"], {
        "ru": "ошибка: --unit: в кампании Otlok Front нет отряда или боя 'Keno 3rd Squadd'; может быть, 'Keno 3rd "
              "Squad'?",
        "pl": "błąd: --unit: w kampanii Otlok Front nie ma oddziału ani bitwy 'Keno 3rd Squadd'; czy chodziło o "
              "'Keno 3rd Squad'?",
        "en": "error: --unit: no unit or battle named 'Keno 3rd Squadd' in Otlok Front; did you mean 'Keno 3rd "
              "Squad'?",
    }),
    (["career", "Lt Sharpe"], {
        "ru": "ошибка: правила fighting-spirit не ведут карьер (они есть у персонажей Mass Combat, офицеров Disorder "
              "и героев Grimdark)",
        "pl": "błąd: zasady fighting-spirit nie prowadzą karier (mają je postacie Mass Combat, oficerowie Disorder i "
              "bohaterowie Grimdark)",
        "en": "error: fighting-spirit keeps no careers (Mass Combat's characters, Disorder's officers and Grimdark's "
              "heroes have them)",
    }),
    (["verify", "--signer", "nowhere.pub"], {
        "ru": "ошибка: --signer проверяет подписанную контрольную точку: укажите и её, --checkpoint ФАЙЛ",
        "pl": "błąd: --signer sprawdza podpisany punkt kontrolny: podaj także jego, --checkpoint PLIK",
        "en": "error: --signer checks a signed checkpoint: give the checkpoint too, --checkpoint FILE",
    }),
    (["checkpoint", "--sign", "key"], {
        "ru": "ошибка: --sign нужен --output ФАЙЛ: подпись пишется рядом, в ФАЙЛ.sig",
        "pl": "błąd: --sign wymaga --output PLIK: podpis zapisuje się obok, jako PLIK.sig",
        "en": "error: --sign needs --output FILE: the signature is written beside it, as FILE.sig",
    }),
    (["amend", "3", "--set", "men"], {
        "ru": "ошибка: --set принимает ВВОД=ЗНАЧЕНИЕ, например --set men=12, а не 'men'",
        "pl": "błąd: --set przyjmuje WEJŚCIE=WARTOŚĆ, np. --set men=12, a nie 'men'",
        "en": "error: --set takes INPUT=VALUE, e.g. --set men=12, not 'men'",
    }),
    (["audit"], {
        "ru": "ошибка: укажите для audit номер записи или --roll НОМЕР",
        "pl": "błąd: podaj do audit numer wpisu albo --roll NUMER",
        "en": "error: audit a SEQ or a --roll INDEX",
    }),
    (["fs", "muster", "X", "--side", "Keno"], {
        "ru": "ошибка: нужно указать: --quality, --lv и --size (или --from ФАЙЛ.csv, по отряду в строке)",
        "pl": "błąd: trzeba podać: --quality, --lv i --size (albo --from PLIK.csv, oddział w wierszu)",
        "en": "error: --quality, --lv and --size are needed (or --from FILE.csv, a unit a row)",
    }),
    (["fs", "battle-status"], {
        "ru": "ошибка: в этой кампании ещё не было боя",
        "pl": "błąd: w tej kampanii nie stoczono jeszcze żadnej bitwy",
        "en": "error: no battle has been fought in this campaign yet",
    }),
    (["serve", "--port", "0"], {
        "ru": "ошибка: --port должен быть от 1 до 65535",
        "pl": "błąd: --port musi być z zakresu od 1 do 65535",
        "en": "error: --port must be between 1 and 65535",
    }),
]  # fmt: skip
"""Refusals the command line makes itself, each played on README's five-grade campaign."""


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
@pytest.mark.parametrize(("args", "refused"), CLI_REFUSALS, ids=[" ".join(a) for a, _r in CLI_REFUSALS])
def test_the_command_lines_own_refusals_are_in_the_readers_words(
    otlok: Cli, lang: str, args: list[str], refused: dict[str, str]
) -> None:
    before = otlok.events()
    code, lines = said(lang, *args, db=otlok.db)
    assert code != 0
    assert " ".join(lines) == refused[lang]
    assert otlok.events() == before


def lines_of(cli: Cli, lang: str, *args: str) -> list[str]:
    result = CliRunner().invoke(app, ["--lang", lang, "--db", cli.db, "--actor", "tester", *args],
                                env={"COLUMNS": "250"})  # fmt: skip
    assert result.exit_code == 0, result.output
    return [" ".join(FRAME.sub(" ", line).split()) for line in result.output.splitlines()]


DISORDER_ROSTER = {
    "ru": (
        ["Peninsula — Sabugal, ход 1", "подразделение сторона войска моделей очки бои на столе",
         "95th Rifles British стрелки 10 100 0 10 моделей, в порядке"],
        ["Capitaine Dubois (French): слава 0, Лейтенант, 0 боёв", "Lt Sharpe (British): слава 0, Лейтенант, 0 боёв"],
        "Lt Sharpe (British): 1 бой, слава 5 (+5), Лейтенант",
    ),
    "pl": (
        ["Peninsula — Sabugal, tura 1", "jednostka strona wojska modeli punkty bitwy na stole",
         "95th Rifles British strzelcy 10 100 0 10 modeli, w porządku"],
        ["Capitaine Dubois (French): Chwała 0, Porucznik, 0 bitew",
         "Lt Sharpe (British): Chwała 0, Porucznik, 0 bitew"],
        "Lt Sharpe (British): 1 bitwa, Chwała 5 (+5), Porucznik",
    ),
    "en": (
        ["Peninsula — Sabugal, turn 1", "unit side troops models points battles on the table",
         "95th Rifles British rifles 10 100 0 10 models, in order"],
        ["Capitaine Dubois (French): Glory 0, Lieutenant, 0 battles",
         "Lt Sharpe (British): Glory 0, Lieutenant, 0 battles"],
        "Lt Sharpe (British): 1 battle, Glory 5 (+5), Lieutenant",
    ),
}  # fmt: skip
"""README's Peninsula at Sabugal: the troop types, the states and the ranks in the seed's words (terms.toml: стрелки,
в порядке, Лейтенант; strzelcy, w porządku, Porucznik), the Glory of Lt Sharpe after a win with two objectives."""


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_the_disorder_roster_and_career_say_the_seeds_words(tmp_path: Path, lang: str) -> None:
    cli = walkthroughs.disorder(Cli(str(tmp_path / "dis.db")))
    heading, officers, career = DISORDER_ROSTER[lang]
    shown = [line for line in lines_of(cli, lang, "dis", "roster", "-c", "Peninsula") if line]
    assert shown[0] == heading[0]
    assert heading[1] in shown and heading[2] in shown
    assert shown[-2:] == officers
    cli("dis", "battle-end", "--winner", "British", "--objectives", "British=2", "-c", "Peninsula")
    assert lines_of(cli, lang, "career", "Lt Sharpe", "-c", "Peninsula")[0] == career


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ru", "команда dis house-rule (путь в таблицах force.flees_at_exactly, значение да, примечание ch.6 wording)"),
        ("pl", "polecenie dis house-rule (ścieżka w tabelach force.flees_at_exactly, wartość tak, uwaga ch.6 wording)"),
        ("en", "command dis house-rule (path force.flees_at_exactly, value true, note ch.6 wording)"),
    ],
)
def test_a_house_rules_true_is_said_as_yes(tmp_path: Path, lang: str, said: str) -> None:
    cli = walkthroughs.disorder(Cli(str(tmp_path / "dis.db")))
    cli("dis", "battle-end", "--winner", "British", "-c", "Peninsula")
    shown = lines_of(cli, lang, "dis", "house-rule", "force.flees_at_exactly", "true", "--note", "ch.6 wording",
                     "-c", "Peninsula")  # fmt: skip
    assert any(line.endswith(said) for line in shown), shown


@pytest.mark.parametrize(
    ("lang", "echo"),
    [
        ("ru", "команда gf melee Saurian Warriors против Robot Squad (раны от Saurian Warriors 1, раны от Robot "
               "Squad 2)"),
        ("pl", "polecenie gf melee Saurian Warriors przeciw Robot Squad (rany zadane przez Saurian Warriors 1, rany "
               "zadane przez Robot Squad 2)"),
        ("en", "command gf melee Saurian Warriors against Robot Squad (wounds by Saurian Warriors 1, wounds by Robot "
               "Squad 2)"),
    ],
)  # fmt: skip
def test_grimdarks_melee_echo_is_in_the_readers_words(tmp_path: Path, lang: str, echo: str) -> None:
    cli = walkthroughs.grimdark(Cli(str(tmp_path / "gf.db")))
    cli("gf", "battle-start", "Ruins", "--unit", "Saurian Warriors", "--unit", "Robot Squad", "-c", "Sector 7")
    shown = lines_of(cli, lang, "gf", "melee", "Saurian Warriors", "Robot Squad", "--a-wounds", "1", "--b-wounds",
                     "2", "-c", "Sector 7")  # fmt: skip
    assert any(line.endswith(echo) for line in shown), shown


@pytest.mark.parametrize(
    ("lang", "morale"),
    [
        ("ru", "Caliburn's gang: Мораль 6 защита родной земли +2 исконный враг +1 = 9, выпало 10 → провал на 1 → "
               "отступает в порядке"),
        ("pl", "Caliburn's gang: Morale 6 obrona ojczystej ziemi +2 odwieczny wróg +1 = 9"),
    ],
)  # fmt: skip
def test_mass_combats_morale_circumstances_are_named_as_the_rules_name_them(
    tmp_path: Path, lang: str, morale: str
) -> None:
    """README's first day at Bannok: Caliburn's gang, base Morale 6, +2 for defending home soil and +1 against a
    hereditary enemy (the seed: «Защита родной земли дает +2», «На войне с исконным врагом Мораль всегда имеет +1»)."""
    cli = walkthroughs.mass_combat(Cli(str(tmp_path / "mc.db")))
    shown = lines_of(cli, lang, "mc", "battle", str(walkthroughs.EXAMPLES / "bannok-day1.toml"), "--dice",
                     walkthroughs.DAY1_DICE, "-c", "Border War")  # fmt: skip
    assert any(morale in line for line in shown), [line for line in shown if "Caliburn" in line]


def test_a_trait_rolls_purpose_is_said_in_the_seeds_words() -> None:
    from campaign.i18n import reading_in
    from campaign.i18n.purposes import purpose_said

    with reading_in("ru"):
        assert purpose_said("talent trait, Saurian Hero") == "бросок черты (талант), Saurian Hero"
        assert purpose_said("Captain skill, Saurian Hero") == "бросок навыка (Капитан), Saurian Hero"
    with reading_in("pl"):
        assert purpose_said("unit trait, Robot Squad") == "rzut na cechę (cecha oddziału), Robot Squad"
    assert purpose_said("talent trait, Saurian Hero") == "talent trait, Saurian Hero"


@pytest.mark.parametrize(
    ("lang", "title", "heading"),
    [
        ("ru", "Otlok Front: действующие таблицы правил с пятью градациями",
         "§0.4 Тест на боевой дух (мораль) — алгоритм [SEED, как в PUB: SGII p.20]"),
        ("pl", "Otlok Front: obowiązujące tabele zasad pięciu stopni",
         "§0.4 Test ducha bojowego (morale) — algorytm [SEED, jak w PUB: SGII p.20]"),
        ("en", "Otlok Front: five-grade tables in force",
         "§0.4 Confidence (morale) test — algorithm [SEED, same as PUB: SGII p.20]"),
    ],
)  # fmt: skip
def test_the_tables_and_the_rules_name_their_sources_in_the_readers_words(
    otlok: Cli, lang: str, title: str, heading: str
) -> None:
    """`campaign fs tables` titles the five-grade tables in words, and `campaign rules` lists §0.4 with its
    provenance said in the reader's language (the tags and the citation kept as the rules write them)."""
    assert title in [line.strip() for line in lines_of(otlok, lang, "fs", "tables", "threats.", "-c", "Otlok Front")]
    listing = [line.strip() for line in lines_of(otlok, lang, "rules")]
    assert heading in listing


def test_a_help_names_the_inputs_readme_uses_and_says_what_each_is() -> None:
    """README musters Mass Combat units with --men (men are what a GURPS Mass Combat player counts; every other mc
    command says --men too): the help lists it, not --size (still read); --tl, --irregular and fs attack's
    --killed each say what they are; a usage line names an argument in capitals, not Typer's "{notation}",
    which reads as a placeholder left unfilled."""

    def described(lines: list[str], option: str) -> str:
        line = next((line for line in lines if line.lstrip("* ").startswith(option + " ")), "")
        assert line, (option, lines)
        return line.lstrip("* ").removeprefix(option).strip().removeprefix(option.lstrip("-").upper()).strip()

    code, muster = said("en", "mc", "muster", "--help")
    assert code == 0
    assert not any(line.lstrip("* ").startswith("--size ") for line in muster)
    for option in ("--men", "--tl", "--irregular"):
        words = described(muster, option)
        assert words and not words.startswith("[default"), (option, words)
    _code, attack = said("en", "fs", "attack", "--help")
    killed = described(attack, "--killed")
    assert killed and not killed.startswith("[default"), killed
    for lang, usage in (("en", "Usage: campaign roll [OPTIONS] NOTATION"),
                        ("ru", "Использование: campaign roll [ПАРАМЕТРЫ] ЗАПИСЬ_БРОСКА")):  # fmt: skip
        _code, roll = said(lang, "roll", "--help")
        assert roll[0] == usage, roll[:2]
    _code, muster_usage = said("en", "fs", "muster", "--help")
    assert muster_usage[0] == "Usage: campaign fs muster [OPTIONS] [NAME]"  # one it may leave out: in brackets
    _code, chart = said("en", "chart", "--help")
    assert chart[0] == "Usage: campaign chart [OPTIONS] MEASURE [UNIT|SIDE]"  # not "[[UNIT|SIDE]]"
