"""The ledger's own refusals (dice, the input rules, the timeline, import, accounts and memberships) in the
reader's language: the words written here by hand from the Russian and Polish catalogs, the English as the
tests elsewhere pin it; each refused with a non-zero exit and nothing appended."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from tests.e2e.test_cli import Cli


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    """A fresh campaign with one roll on it (#1 created, #2–#3 the roll), and an account ``pat``."""
    folder = tmp_path_factory.mktemp("refusals")
    made = Cli(str(folder / "c.db"))
    made("new", "Otlok Front", "--ruleset", "fighting-spirit")
    made("roll", "d6", "--purpose", "warm-up")
    added = CliRunner().invoke(app, ["--db", made.db, "user", "add", "pat", "--password-stdin"], input="a long pass\n")
    assert added.exit_code == 0, added.output
    (folder / "not-an-export.jsonl").write_text('{"a": 1}\n')
    return made


REFUSED = {
    "notation": (
        ("roll", "xyz", "--purpose", "test"),
        {
            "en": "malformed dice notation 'xyz': use dN, kdN, 3d (GURPS d6s), a +/- modifier, or a die-step shift "
            "such as d10-1step",
            "ru": "неверная запись кубиков 'xyz': используйте dN, kdN, 3d (d6 для GURPS), модификатор +/- или сдвиг "
            "ступени кубика, например d10-1step",
            "pl": "błędny zapis kości 'xyz': użyj dN, kdN, 3d (d6 dla GURPS), modyfikatora +/- albo przesunięcia "
            "stopnia kości, np. d10-1step",
        },
    ),
    "too many dice": (
        ("roll", "101d6", "--purpose", "test"),
        {
            "en": "between 1 and 100 dice may be rolled at once, not 101",
            "ru": "за раз можно бросить от 1 до 100 кубиков, а не 101",
            "pl": "naraz można rzucić od 1 do 100 kości, nie 101",
        },
    ),
    "a die left over": (
        ("roll", "d6", "--purpose", "test", "--dice", "4,2"),
        {
            "en": "the rules called for 1 of the 2 table dice entered; 1 was not used (2): check what was entered",
            # one die left over: the Russian participle agrees with it (не использован 1, as a кубик)
            "ru": "правила потребовали кубиков со стола: 1 из введённых 2; не использован 1 (2) — проверьте, что "
            "было введено",
            "pl": "zasady wymagały kości ze stołu: 1 z wprowadzonych 2; nie użyto 1 kości (2) — sprawdź, co "
            "wprowadzono",
        },
    ),
    "no seq to rewind to": (
        ("rewind", "--to", "99"),
        {
            "en": "rewind to a seq between 1 and 2",
            "ru": "откатывайте к seq от 1 до 2",
            "pl": "przewiń do seq od 1 do 2",
        },
    ),
    "no event to amend": (
        ("amend", "99", "--set", "purpose=x"),
        {
            "en": "no event at seq 99: the log runs from #1 to #3",
            "ru": "на seq 99 нет события: журнал идёт от #1 до #3",
            "pl": "pod seq 99 nie ma zdarzenia: dziennik biegnie od #1 do #3",
        },
    ),
    "an input the command lacks": (
        ("amend", "2", "--set", "bananas=3"),
        {
            "en": "roll has no input bananas (its inputs: notation, purpose)",
            "ru": "у roll нет входа bananas (её входы: notation, purpose)",
            "pl": "roll nie ma wejścia bananas (jego wejścia: notation, purpose)",
        },
    ),
    "a reason too long": (
        ("rewind", "--to", "2", "--reason", "x" * 1001),
        {
            "en": "is 1001 characters long: at most 1000",
            "ru": "длина в символах: 1001, а допустимо не больше 1000",
            "pl": "długość w znakach: 1001, a dozwolone najwyżej 1000",
        },
    ),
    "not an export": (
        ("import", "{folder}/not-an-export.jsonl"),
        {
            "en": "line 1 is not a Campaign Ledger export (format campaign-ledger/export, version 1)",
            "ru": "строка 1 — не выгрузка Campaign Ledger (формат campaign-ledger/export, версия 1)",
            "pl": "wiersz 1 to nie eksport Campaign Ledger (format campaign-ledger/export, wersja 1)",
        },
    ),
    "no such account": (
        ("invite", "ghost", "--role", "gm"),
        {
            "en": "no account named 'ghost': it signs up first (or `campaign user add`)",
            "ru": "нет учётной записи 'ghost': сначала нужно зарегистрироваться (или `campaign user add`)",
            "pl": "nie ma konta 'ghost': najpierw trzeba się zarejestrować (albo `campaign user add`)",
        },
    ),
    "an observer bound to a side": (
        ("invite", "pat", "--role", "observer", "--side", "Keno"),
        {
            "en": "only a player is bound to sides, not the observer",
            "ru": "к сторонам привязан только игрок, а не наблюдатель",
            "pl": "do stron przypisany jest tylko gracz, nie obserwator",
        },
    ),
    "no role of that name": (
        ("invite", "pat", "--role", "king"),
        {
            "en": "role must be one of gm, player, observer, not 'king'",
            "ru": "роль должна быть одной из gm, player, observer, а не 'king'",
            "pl": "rola musi być jedną z gm, player, observer, nie 'king'",
        },
    ),
}


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
@pytest.mark.parametrize("case", list(REFUSED))
def test_a_refusal_is_said_in_the_readers_language_and_appends_nothing(cli: Cli, case: str, lang: str) -> None:
    args, said = REFUSED[case]
    folder = str(Path(cli.db).parent)
    before = cli.events()
    out = cli("--lang", lang, *(a.replace("{folder}", folder) for a in args), code=2).output
    assert said[lang] in flat(out)
    assert cli.events() == before


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: there is nothing to undo: the campaign has only just been created"),
        ("ru", "ошибка: отменять нечего: кампания только что создана"),
        ("pl", "błąd: nie ma czego cofać: kampania dopiero co powstała"),
    ],
)
def test_an_undo_of_a_campaign_just_made_is_refused_in_the_readers_words(tmp_path: Path, lang: str, said: str) -> None:
    fresh = Cli(str(tmp_path / "fresh.db"))
    fresh("new", "Hill 203", "--ruleset", "grimdark")
    assert said in flat(fresh("--lang", lang, "undo", code=2).output)
    assert fresh.events() == 1


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "a password needs at least 10 characters"),
        ("ru", "пароль слишком короткий: символов нужно не меньше 10"),
        ("pl", "hasło jest za krótkie: minimalna liczba znaków to 10"),
    ],
)
def test_a_short_password_is_refused_in_the_readers_words(cli: Cli, lang: str, said: str) -> None:
    out = CliRunner().invoke(
        app, ["--db", cli.db, "--lang", lang, "user", "add", "sam", "--password-stdin"], input="short\n"
    )
    assert out.exit_code == 2 and said in flat(out.output)


def said_in(lang: str, error: BaseException) -> str:
    from campaign.i18n import reading_in, refusal

    with reading_in(lang):
        return refusal(error)


def test_an_input_rule_names_the_input_in_the_readers_words() -> None:
    """The input rules (events/limits.py) say what the input is, and what is wrong with it, in one language."""
    from events.errors import InvalidInputError, Words
    from events.limits import check_name

    with pytest.raises(InvalidInputError) as empty:
        check_name("  ", Words("a side"))
    assert str(empty.value) == "a side must not be empty"
    assert said_in("ru", empty.value) == "сторона: пустое значение недопустимо"
    assert said_in("pl", empty.value) == "strona: pusta wartość jest niedozwolona"


def test_a_damaged_export_line_is_refused_in_the_readers_words() -> None:
    from campaign.exchange import Reader
    from events.errors import InvalidInputError

    header = b'{"format": "campaign-ledger/export", "version": 1, "events": 0, "campaign_id": "c"}\n'
    with pytest.raises(InvalidInputError) as refused:
        Reader([header])
    assert str(refused.value) == "line 1: the header's event count must be a whole number 1–100,000,000"
    assert said_in("ru", refused.value) == (
        "строка 1: число событий в заголовке должно быть целым числом от 1 до 100,000,000"
    )
    with pytest.raises(InvalidInputError) as not_json:
        Reader([b"{not json\n"])
    assert said_in("pl", not_json.value).startswith("wiersz 1 to nie JSON: ")


def test_a_refusal_inside_an_amendment_is_said_whole_in_one_language() -> None:
    """An amendment's refusal wraps the refusal of the command it re-ran: both in the reader's language."""
    from campaign.timeline import _does_not_apply
    from events.errors import InvalidInputError

    inner = InvalidInputError.saying("there is nothing to undo: the campaign has only just been created")
    outer = _does_not_apply(inner)
    assert str(outer) == (
        "the amended command does not apply: there is nothing to undo: the campaign has only just been created: "
        "nothing was amended"
    )
    assert said_in("ru", outer) == (
        "исправленная команда неприменима: отменять нечего: кампания только что создана: ничего не исправлено"
    )
    assert said_in("pl", outer) == (
        "poprawione polecenie nie ma zastosowania: nie ma czego cofać: kampania dopiero co powstała: nic nie poprawiono"
    )


FILES = {
    "a backup over a file": (
        ("--db", "c.db", "backup", "exists.db"),
        {
            "en": "exists.db already exists: a backup is written to a new file, never over one",
            "ru": "exists.db уже существует: резервная копия пишется в новый файл, никогда поверх существующего",
            "pl": "exists.db już istnieje: kopia zapasowa jest zapisywana do nowego pliku, nigdy na istniejący",
        },
    ),
    "a database that is a folder": (
        ("--db", "folder.db", "list"),
        {
            "en": "folder.db is a folder, not a database file: name a file, e.g. folder.db/campaign.db",
            "ru": "folder.db — папка, а не файл базы данных: укажите файл, например folder.db/campaign.db",
            "pl": "folder.db to folder, nie plik bazy danych: wskaż plik, np. folder.db/campaign.db",
        },
    ),
    "another application's file": (
        ("--db", "other.db", "new", "X", "--ruleset", "grimdark"),
        {
            "en": "other.db is another application's SQLite database (it holds the tables notes, and no Campaign "
            "Ledger schema): nothing was written to it. Name a new file with --db",
            "ru": "other.db — база SQLite другого приложения (в ней таблицы notes и нет схемы Campaign Ledger): в неё "
            "ничего не записано. Укажите новый файл через --db",
            "pl": "other.db to baza SQLite innej aplikacji (zawiera tabele notes i nie ma schematu Campaign Ledger): "
            "nic do niej nie zapisano. Wskaż nowy plik przez --db",
        },
    ),
    "an unknown ruleset": (
        ("--db", "c.db", "new", "Y", "--ruleset", "chess"),
        {
            "en": "unknown ruleset 'chess': choose one of fighting-spirit, disorder, mass-combat, grimdark",
            "ru": "неизвестный набор правил 'chess': выберите один из fighting-spirit, disorder, mass-combat, grimdark",
            "pl": "nieznany zestaw zasad 'chess': wybierz jeden z fighting-spirit, disorder, mass-combat, grimdark",
        },
    ),
    "no such event to audit": (
        ("--db", "c.db", "audit", "99"),
        {
            "en": "no event 99 in this campaign (it has 1)",
            "ru": "в этой кампании нет события 99 (событий в ней: 1)",
            "pl": "w tej kampanii nie ma zdarzenia 99 (zdarzeń w niej: 1)",
        },
    ),
    "a status past the log's end": (
        ("--db", "c.db", "status", "--at", "99"),
        {
            "en": "--at must be between 0 and 1, the campaign's last seq",
            "ru": "--at должен быть от 0 до 1 — последнего seq кампании",
            "pl": "--at musi być od 0 do 1, ostatniego seq kampanii",
        },
    ),
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a campaign (c.db), a file a backup must not overwrite, a folder named like a database and
    another application's SQLite file."""
    import sqlite3
    from contextlib import closing

    folder = tmp_path_factory.mktemp("files")
    Cli(str(folder / "c.db"))("new", "Otlok Front", "--ruleset", "fighting-spirit")
    (folder / "exists.db").write_bytes(b"")
    (folder / "folder.db").mkdir()
    with closing(sqlite3.connect(folder / "other.db")) as other:
        other.execute("CREATE TABLE notes (x)")
    return folder


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
@pytest.mark.parametrize("case", list(FILES))
def test_a_refusal_about_files_and_databases_is_said_in_the_readers_language(
    files: Path, case: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(files)
    args, said = FILES[case]
    before = {p.name: p.stat().st_size for p in files.iterdir() if p.is_file()}
    result = CliRunner().invoke(app, ["--lang", lang, "--actor", "tester", *args])
    assert result.exit_code != 0 and said[lang] in flat(result.output)
    assert {p.name: p.stat().st_size for p in files.iterdir() if p.is_file()} == before


def test_a_damaged_files_account_is_said_in_the_readers_words() -> None:
    from events.backup import damage_words

    damage = damage_words("c.db", ["page 3 is never used", "row 1 missing", "row 2 missing", "x", "y", "z"])
    assert str(damage).startswith(
        "the database file c.db is damaged: SQLite's check of every page found 6 problems (page 3 is never used;"
    )
    ru = said_in("ru", _refused(damage))
    # six problems: the Russian and the Polish genitive plural (проблем, problemów)
    assert ru.startswith("файл базы данных c.db повреждён: проверка SQLite каждой страницы нашла 6 проблем (")
    assert "; и ещё " in ru
    pl = said_in("pl", _refused(damage))
    assert pl.startswith(
        "plik bazy danych c.db jest uszkodzony: sprawdzenie każdej strony przez SQLite znalazło 6 problemów ("
    )


def _refused(words: object) -> Exception:
    from events.errors import ConfigurationError

    return ConfigurationError.saying("{damage}: no backup was written", damage=words)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "this password is too easy to guess (This is a very common password): Add another word or two. "
            "Uncommon words are better.",
        ),
        (
            "ru",
            "этот пароль слишком легко угадать (Это очень частый пароль): Добавьте ещё слово-другое. Редкие слова "
            "лучше.",
        ),
        (
            "pl",
            "to hasło jest zbyt łatwe do odgadnięcia (To bardzo częste hasło): Dodaj jeszcze słowo lub dwa. Rzadkie "
            "słowa są lepsze.",
        ),
    ],
)
def test_a_common_password_is_refused_with_the_checkers_advice_in_the_readers_words(
    cli: Cli, lang: str, said: str
) -> None:
    out = CliRunner().invoke(
        app, ["--db", cli.db, "--lang", lang, "user", "add", "sam", "--password-stdin"], input="password12\n"
    )
    assert out.exit_code == 2 and said in flat(out.output)
