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

FRAME = re.compile(r"[╭╮╰╯│─]+")


def said(lang: str, *args: str, db: str | None = None) -> tuple[int, list[str]]:
    """Exit status and the lines printed, each without a panel's frame and with its spaces squeezed."""
    argv = ["--lang", lang, *(["--db", db, "--actor", "tester"] if db else []), *args]
    result = CliRunner().invoke(app, argv, env={"COLUMNS": "200"})
    lines = [" ".join(FRAME.sub(" ", line).split()) for line in result.output.splitlines()]
    return result.exit_code, [line for line in lines if line]


@pytest.mark.parametrize(
    ("lang", "usage", "missing"),
    [
        ("ru", "Использование: campaign gf shoot [ПАРАМЕТРЫ] {подразделение}", "Не указан аргумент 'подразделение'."),
        ("pl", "Użycie: campaign gf shoot [OPCJE] {oddział}", "Brak argumentu 'oddział'."),
        ("en", "Usage: campaign gf shoot [OPTIONS] {unit}", "Missing argument 'unit'."),
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
        "ошибка: fs muster: не профиль отряда (five-grade): качество: допустимые значения: «Необученные», "
        "«Новобранцы», «Регулярные», «Ветераны» или «Элита»",
        "ошибка: fs muster: не профиль отряда (five-grade): лидерство: значение должно быть не больше 6",
        "ошибка: нет правил 'nope': выберите одни из: fighting-spirit, disorder, mass-combat, grimdark",
    ],
    "pl": [
        "błąd: fs react: akcja: dozwolone wartości: „padnij na otwartym terenie”, „padnij w innym terenie”, „ruch "
        "bez zdjęcia znacznika leżenia”, „Wstrząśnięty oddział opuszcza osłonę” lub „wejście do walki wręcz”",
        "błąd: fs muster: to nie profil oddziału (five-grade): jakość: dozwolone wartości: „Niewyszkoleni”, "
        "„Rekruci”, „Regularni”, „Weterani” lub „Elita”",
        "błąd: fs muster: to nie profil oddziału (five-grade): przywództwo: wartość może wynosić najwyżej 6",
        "błąd: nieznane zasady 'nope': wybierz jedne z: fighting-spirit, disorder, mass-combat, grimdark",
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
