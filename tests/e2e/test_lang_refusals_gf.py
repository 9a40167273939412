"""Grimdark Future's refusals and those of the files a campaign reads (an Army Forge list, a CSV roster, a GURPS
sheet) in the reader's language: `--lang ru` and `--lang pl` say the whole sentence in Russian and Polish, a
refusal wrapped around another (a row of a file, an entry of a list) included; the exit status is non-zero and
nothing is appended; English (the log's words, `--json`) is as it was.

The expected texts are the translations as written in the catalogs (campaign/locale/{ru,pl}), by hand: the seed's
terms (seed 004 keeps OPR's "Shaken"; Russian says "Shaken (потрясён)"), names and typed values as typed.
"""

from __future__ import annotations

import copy
from pathlib import Path

import orjson
import pytest

from tests.e2e.test_cli import Cli

ROOT = Path(__file__).resolve().parents[2]
ARMY_FORGE = ROOT / "tests" / "fixtures" / "army_forge"
EXAMPLES = ROOT / "examples"


def flat(text: str) -> str:
    return " ".join(text.split())


def refused(cli: Cli, *args: str) -> str:
    """The refusal's words, after checking that the command failed and appended nothing."""
    before = cli.events()
    out = cli(*args, code=2).output
    assert cli.events() == before
    return flat(out)


@pytest.fixture
def gf(tmp_path: Path) -> Cli:
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Ninth Sun", "--ruleset", "grimdark")
    cli("gf", "muster", "Alpha", "--side", "Saurians", "--size", "5", "--quality", "4", "--points", "100")
    cli("gf", "muster", "Robot Squad", "--side", "Robots", "--size", "10", "--quality", "4", "--points", "150")
    return cli


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: Alpha: not profile fields: xp; give its XP as --xp N and a trait as --trait NAME"),
        ("ru", "ошибка: Alpha: это не поля профиля: xp; XP указывается как --xp N, а черта — как --trait NAME"),
        ("pl", "błąd: Alpha: to nie pola profilu: xp; XP podaj jako --xp N, a cechę jako --trait NAME"),
    ],
)
def test_an_edit_of_what_is_no_profile_field_is_refused_in_the_readers_words(gf: Cli, lang: str, said: str) -> None:
    assert refused(gf, "--lang", lang, "gf", "edit", "Alpha", "--set", "xp=5") == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: Grimdark Future units do not trade models: buy, sell or disband units instead"),
        (
            "ru",
            "ошибка: отряды Grimdark Future не обмениваются моделями: покупайте, продавайте или распускайте отряды",
        ),
        (
            "pl",
            "błąd: jednostki Grimdark Future nie wymieniają się modelami: zamiast tego kupuj, sprzedawaj lub "
            "rozwiązuj jednostki",
        ),
    ],
)
def test_a_transfer_of_models_is_refused_in_the_readers_words(gf: Cli, lang: str, said: str) -> None:
    assert refused(gf, "--lang", lang, "gf", "transfer", "Alpha", "Robot Squad", "--men", "1") == said


@pytest.fixture
def shaken(gf: Cli) -> Cli:
    """Saurian Warriors Shaken in round 1 (6 wounds: 4 of 10 left, at half; the test's d6 a 2 against 4+)."""
    gf("gf", "muster", "Saurian Warriors", "--side", "Saurians", "--size", "10", "--quality", "4", "--points", "100")
    gf("gf", "battle-start", "Ruins", "--unit", "Saurian Warriors", "--unit", "Robot Squad")
    shot = gf.json("gf", "shoot", "Saurian Warriors", "--wounds", "6", "--by", "Robot Squad", "--dice", "2")
    test = next(e for e in shot["events"] if e["type"] == "rules.applied" and e["payload"]["rule"] == "morale_test")
    assert test["payload"]["outcome"] == {"passed": False, "result": "shaken"}
    return gf


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "error: Saurian Warriors is Shaken: it may not be shooting (a Shaken unit only strikes back when "
            "charged); its next activation is spent idle, and it recovers at its end (`gf recover Saurian Warriors`)",
        ),
        (
            "ru",
            "ошибка: Saurian Warriors — Shaken (потрясён): стрельба ему не разрешается (отряд в Shaken только "
            "отвечает ударом, когда его атакуют); следующую активацию отряд проводит в бездействии и в её конце "
            "приходит в себя (`gf recover Saurian Warriors`)",
        ),
        (
            "pl",
            "błąd: Saurian Warriors ma status Shaken: zakazane — strzelanie (jednostka Shaken tylko oddaje cios, gdy "
            "ktoś na nią szarżuje); następną aktywację spędza bezczynnie i na jej końcu dochodzi do siebie "
            "(`gf recover Saurian Warriors`)",
        ),
    ],
)
def test_a_shaken_unit_that_would_shoot_is_refused_in_the_readers_words(shaken: Cli, lang: str, said: str) -> None:
    """§4.1 (R3-25): a Shaken unit only strikes back; what it may not do ("shooting") is said in the same language."""
    assert (
        refused(shaken, "--lang", lang, "gf", "shoot", "Robot Squad", "--wounds", "1", "--by", "Saurian Warriors")
        == said
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: Robot Squad is not Shaken"),
        ("ru", "ошибка: у Robot Squad нет статуса Shaken (потрясён)"),
        ("pl", "błąd: Robot Squad nie ma statusu Shaken"),
    ],
)
def test_recovering_a_unit_that_is_not_shaken_is_refused_in_the_readers_words(
    shaken: Cli, lang: str, said: str
) -> None:
    assert refused(shaken, "--lang", lang, "gf", "recover", "Robot Squad") == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: Saurian Hero has every Captain skill already"),
        ("ru", "ошибка: у Saurian Hero уже есть все умения набора «Капитан»"),
        ("pl", "błąd: Saurian Hero ma już wszystkie umiejętności zestawu „Kapitan”"),
    ],
)
def test_a_skill_set_in_a_refusal_is_said_in_the_seeds_words(gf: Cli, lang: str, said: str) -> None:
    """§4.2: a hero reaching 5 XP rolls a skill of its set, rolled again while it has it; a hero with every
    Captain skill (Leader, Instigator, Tactician) cannot level, and the battle's end is refused naming the set as
    terms.toml words it (Капитан, Kapitan)."""
    gf("gf", "muster", "Saurian Hero", "--side", "Saurians", "--size", "1", "--hero", "--quality", "3",
       "--points", "60", "--skill-set", "Captain", "--xp", "4",
       "--trait", "Leader", "--trait", "Instigator", "--trait", "Tactician")  # fmt: skip
    gf("gf", "battle-start", "Ruins", "--unit", "Saurian Hero", "--unit", "Robot Squad")
    assert refused(gf, "--lang", lang, "gf", "battle-end", "--winner", "Saurians") == said


@pytest.fixture
def army_list(tmp_path: Path) -> dict[str, object]:
    data: dict[str, object] = orjson.loads((ARMY_FORGE / "plain-list.json").read_bytes())
    return copy.deepcopy(data)


def _written(tmp_path: Path, data: object) -> str:
    path = tmp_path / "list.json"
    path.write_bytes(orjson.dumps(data))
    return str(path)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: Saurian Captain (entry cH4rM): a hero is a single model"),
        ("ru", "ошибка: Saurian Captain (запись cH4rM): герой — это одна модель"),
        ("pl", "błąd: Saurian Captain (wpis cH4rM): bohater to pojedynczy model"),
    ],
)
def test_an_army_forge_entry_the_rules_refuse_is_said_whole_in_the_readers_words(
    gf: Cli, tmp_path: Path, army_list: dict[str, list[dict[str, object]]], lang: str, said: str
) -> None:
    """The rules' refusal of the entry (a hero of 3 models) inside the list's: both in the reader's language."""
    army_list["units"][2]["size"] = 3
    path = _written(tmp_path, army_list)
    assert refused(gf, "--lang", lang, "gf", "import-list", path, "--side", "Saurians") == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: Saurian Captain joins an entry (zzzzz) that is not in the list"),
        ("ru", "ошибка: Saurian Captain присоединяется к записи (zzzzz), которой нет в ростере"),
        ("pl", "błąd: Saurian Captain dołącza do wpisu (zzzzz), którego nie ma w rozpisce"),
    ],
)
def test_an_army_forge_join_to_no_entry_is_refused_in_the_readers_words(
    gf: Cli, tmp_path: Path, army_list: dict[str, list[dict[str, object]]], lang: str, said: str
) -> None:
    army_list["units"][2]["joinToUnit"] = "zzzzz"
    path = _written(tmp_path, army_list)
    assert refused(gf, "--lang", lang, "gf", "import-list", path, "--side", "Saurians") == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "is an Army Forge list for no game system (gameSystem): this campaign plays Grimdark Future (gf)"),
        (
            "ru",
            "— ростер Army Forge для неизвестно какой игры (нет gameSystem), а эта кампания играет в "
            "Grimdark Future (gf)",
        ),
        (
            "pl",
            "to rozpiska z Army Forge dla nieznanego systemu (brak gameSystem), a ta kampania gra w "
            "Grimdark Future (gf)",
        ),
    ],
)
def test_a_list_of_no_game_system_is_refused_in_the_readers_words(
    gf: Cli, tmp_path: Path, army_list: dict[str, object], lang: str, said: str
) -> None:
    """A nested phrase of the refusal ("no game system") is said in the same language; the file is named as given."""
    del army_list["gameSystem"]
    path = _written(tmp_path, army_list)
    assert refused(gf, "--lang", lang, "gf", "import-list", path, "--side", "Saurians").endswith(f"{path} {said}")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "is an Army Forge save file: it names its units by their army book ids only. Export the list"),
        ("ru", "— файл сохранения Army Forge: отряды в нём названы только по id армейской книги. Экспортируйте ростер"),
        (
            "pl",
            "to plik zapisu Army Forge: jednostki są w nim nazwane tylko identyfikatorami z podręcznika armii. "
            "Wyeksportuj rozpiskę",
        ),
    ],
)
def test_an_army_forge_save_file_is_refused_in_the_readers_words(gf: Cli, lang: str, said: str) -> None:
    save = str(ARMY_FORGE / "army-forge-save.json")
    assert f"{save} {said}" in refused(gf, "--lang", lang, "gf", "import-list", save, "--side", "Saurians")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: {file}, row 3, column models: 'four' is not a whole number"),
        ("ru", "ошибка: {file}, строка 3, столбец models: 'four' — не целое число"),
        ("pl", "błąd: {file}, wiersz 3, kolumna models: 'four' nie jest liczbą całkowitą"),
    ],
)
def test_a_csv_cell_its_column_cannot_read_is_refused_in_the_readers_words(
    gf: Cli, tmp_path: Path, lang: str, said: str
) -> None:
    """The row as a spreadsheet numbers it (the header is row 1); nothing is mustered, not even row 2."""
    path = tmp_path / "roster.csv"
    path.write_text("name,side,models,quality,points\nBeta,Saurians,5,4,100\nGamma,Saurians,four,4,100\n")
    assert refused(gf, "--lang", lang, "gf", "muster", "--from", str(path)) == said.format(file=path)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: {file} has no column models: every unit needs it"),
        ("ru", "ошибка: {file}: нет столбца models, а он нужен каждому отряду"),
        ("pl", "błąd: {file}: brak kolumny models, a potrzebuje jej każda jednostka"),
    ],
)
def test_a_csv_roster_without_a_needed_column_is_refused_in_the_readers_words(
    gf: Cli, tmp_path: Path, lang: str, said: str
) -> None:
    path = tmp_path / "roster.csv"
    path.write_text("name,side,quality,points\nBeta,Saurians,4,100\n")
    assert refused(gf, "--lang", lang, "gf", "muster", "--from", str(path)) == said.format(file=path)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: {file}, row 2: gf muster: "),
        ("ru", "ошибка: {file}, строка 2: gf muster: "),
        ("pl", "błąd: {file}, wiersz 2: gf muster: "),
    ],
)
def test_a_csv_row_the_muster_command_refuses_keeps_its_row_in_the_readers_words(
    gf: Cli, tmp_path: Path, lang: str, said: str
) -> None:
    """A row the muster's inputs refuse (a negative XP) is named as the file's row in the reader's language; the
    inputs' own words after it are the command inputs' (campaign/rulesets/inputs.py), not this file's."""
    path = tmp_path / "roster.csv"
    path.write_text("name,side,models,quality,points,xp\nBeta,Saurians,5,4,100,-3\n")
    assert refused(gf, "--lang", lang, "gf", "muster", "--from", str(path)).startswith(said.format(file=path))


@pytest.fixture
def sheeted(tmp_path: Path) -> tuple[Cli, Path]:
    """A Mass Combat campaign and a battle file whose PC is read from a GCS sheet naming a skill it lacks."""
    day1 = (EXAMPLES / "bannok-day1.toml").read_text(encoding="utf-8")
    sheeted = day1.replace('name = "Caliburn"\n', 'gcs = "caliburn.gcs"\nweapon_skill = "Axe/Mace"\n')
    sheeted = sheeted.replace("iq = 12\nweapon = 15\n", "")
    assert sheeted != day1
    (tmp_path / "day1.toml").write_text(sheeted, encoding="utf-8")
    (tmp_path / "caliburn.gcs").write_bytes((EXAMPLES / "caliburn.gcs").read_bytes())
    cli = Cli(str(tmp_path / "mc.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    cli("mc", "muster", "Caliburn's gang", "--side", "Megalos", "--men", "15", "--armour", "light", "--irregular",
        "--troop-type", "LI", "--quality", "inexperienced", "--experience", "0")  # fmt: skip
    return cli, tmp_path / "day1.toml"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: caliburn.gcs (Caliburn) has no skill 'Axe/Mace': its skills are Broadsword"),
        ("ru", "ошибка: caliburn.gcs (Caliburn): нет навыка 'Axe/Mace'; навыки в листе: Broadsword"),
        ("pl", "błąd: caliburn.gcs (Caliburn): brak umiejętności 'Axe/Mace'; umiejętności w karcie: Broadsword"),
    ],
)
def test_a_gurps_sheet_without_the_named_skill_is_refused_in_the_readers_words(
    sheeted: tuple[Cli, Path], lang: str, said: str
) -> None:
    cli, battle = sheeted
    assert refused(cli, "--lang", lang, "mc", "battle", str(battle)).startswith(said)
