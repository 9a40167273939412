"""What the imports say when they succeed, in the reader's language: `gf import-list` (what it musters and
changes, the notes of reading the list), `muster --from FILE.csv` (the rows it leaves out) and a battle file's
GURPS sheet (what was read from it). `--lang ru` and `--lang pl` say every line in Russian and Polish: names as
the list and the roster have them, Quality, Tough and Fearless as the seed's terms (seed 004 keeps OPR's English
words; Russian adds its own in brackets: campaign/rulesets/grimdark/terms.toml), a count of models in the plural
form its number takes. English, and `--json` whoever reads, are as they were.

The expected texts are the translations as written in the catalogs (campaign/locale/{ru,pl}), by hand.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson
import pytest

from campaign.i18n import reading_in, refusal
from campaign.interchange.gurps_sheet import read_battle_file
from campaign.rulesets.grimdark.army_forge import ARMY_FORGE
from events.errors import InvalidInputError
from tests.e2e.test_cli import Cli
from tests.e2e.walkthroughs import EXAMPLES

ARMY_FORGE_FILES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "army_forge"
CAMPAIGN_LIST = EXAMPLES / "starhost.json"
LATER_LIST = EXAMPLES / "starhost-later.json"


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def gf(tmp_path: Path) -> Cli:
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Ninth Sun", "--ruleset", "grimdark")
    return cli


MUSTERED = {
    "en": [
        "Ninth Sun: the Army Forge list “Starhost of the Ninth Sun” for Saurians:",
        "mustered Saurian Warriors 1: 10 models, Quality 4+, Defense 5+, 140 pts, 3 XP",
        "mustered Saurian Warriors 2: 10 models, Quality 4+, Defense 5+, 140 pts, 3 XP, joins Saurian Warriors 1 at "
        "each battle's start",
        "mustered Saurian Captain: 1 model, Quality 3+, Defense 4+, Tough(3), hero, 95 pts, 7 XP, traits Toughened, "
        "Leader, joins Saurian Warriors 3 at each battle's start",
        "mustered Old Kha'ress: 1 model, Quality 4+, Defense 4+, Tough(3), Fearless, hero, 55 pts, 2 XP, traits "
        "Traumatized",
        "mustered Raptor Riders: 3 models, Quality 4+, Defense 4+, Tough(3), 135 pts, 5 XP, traits Agile",
        "note: Saurian Warriors (entry w1Ab3) is mustered as Saurian Warriors 1: several units of the list share "
        "its name",
        "note: the trait Traumatised is recorded as the tables name it: Traumatized",
        "note: rules the morale rules do not read are not kept: Fast",
    ],
    "ru": [
        "Ninth Sun: ростер Army Forge «Starhost of the Ninth Sun» для стороны Saurians:",
        "внесён отряд Saurian Warriors 1: 10 моделей, Quality (качество) 4+, Defense (защита) 5+, 140 очк., 3 XP",
        "внесён отряд Saurian Warriors 2: 10 моделей, Quality (качество) 4+, Defense (защита) 5+, 140 очк., 3 XP, "
        "присоединяется к Saurian Warriors 1 в начале каждого боя",
        "внесён отряд Saurian Captain: 1 модель, Quality (качество) 3+, Defense (защита) 4+, Tough (стойкость) 3, "
        "Hero (герой), 95 очк., 7 XP, черты: Toughened, Leader, присоединяется к Saurian Warriors 3 в начале "
        "каждого боя",
        "внесён отряд Old Kha'ress: 1 модель, Quality (качество) 4+, Defense (защита) 4+, Tough (стойкость) 3, "
        "Fearless (бесстрашие), Hero (герой), 55 очк., 2 XP, черты: Traumatized",
        "внесён отряд Raptor Riders: 3 модели, Quality (качество) 4+, Defense (защита) 4+, Tough (стойкость) 3, "
        "135 очк., 5 XP, черты: Agile",
        "примечание: Saurian Warriors (запись w1Ab3) вносится как Saurian Warriors 1: это имя носят несколько "
        "отрядов ростера",
        "примечание: черта Traumatised записывается так, как её называют таблицы: Traumatized",
        "примечание: спецправила, которые не читают правила морали, не сохраняются: Fast",
    ],
    "pl": [
        "Ninth Sun: rozpiska Army Forge „Starhost of the Ninth Sun” dla strony Saurians:",
        "dodana jednostka Saurian Warriors 1: 10 modeli, Quality 4+, Defense 5+, 140 pkt, 3 XP",
        "dodana jednostka Saurian Warriors 2: 10 modeli, Quality 4+, Defense 5+, 140 pkt, 3 XP, dołącza do Saurian "
        "Warriors 1 na początku każdej bitwy",
        "dodana jednostka Saurian Captain: 1 model, Quality 3+, Defense 4+, Tough(3), Hero (bohater), 95 pkt, 7 XP, "
        "cechy: Toughened, Leader, dołącza do Saurian Warriors 3 na początku każdej bitwy",
        "dodana jednostka Old Kha'ress: 1 model, Quality 4+, Defense 4+, Tough(3), Fearless, Hero (bohater), 55 pkt, "
        "2 XP, cechy: Traumatized",
        "dodana jednostka Raptor Riders: 3 modele, Quality 4+, Defense 4+, Tough(3), 135 pkt, 5 XP, cechy: Agile",
        "uwaga: Saurian Warriors (wpis w1Ab3) zostaje dodana jako Saurian Warriors 1: tę nazwę nosi kilka jednostek "
        "rozpiski",
        "uwaga: cecha Traumatised zostaje zapisana tak, jak nazywają ją tabele: Traumatized",
        "uwaga: zasady specjalne, których nie czytają zasady morale, nie są zachowywane: Fast",
    ],
}
ENGLISH_LEFT = ("mustered", "note:", " models", " pts", "traits ", "joins ")


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_an_imported_list_says_what_it_mustered_in_the_readers_words(gf: Cli, lang: str) -> None:
    """One model, three, ten: the plural forms Russian and Polish have (модель, модели, моделей)."""
    said = flat(gf("--lang", lang, "gf", "import-list", str(CAMPAIGN_LIST), "--side", "Saurians").stdout)
    for line in MUSTERED[lang]:
        assert line in said
    if lang != "en":
        assert not [w for w in ENGLISH_LEFT if w in said], said
    assert len(gf.json("gf", "roster")["units"]) == 6


LATER = {
    "en": [
        "the Army Forge list “Starhost of the Ninth Sun” for Saurians:",
        "mustered Saurian Warriors 4: 10 models, Quality 4+, Defense 5+, 140 pts",
        "updated Saurian Warriors 3: XP 6 → 9",
        "updated Saurian Captain: points 95 → 120, XP 7 → 10, trait Instigator added",
        "as the list has them already: Saurian Warriors 1, Saurian Warriors 2, Raptor Riders",
        "no longer in the list, left on the roster: Old Kha'ress (`gf disband` takes a unit off)",
    ],
    "ru": [
        "ростер Army Forge «Starhost of the Ninth Sun» для стороны Saurians:",
        "внесён отряд Saurian Warriors 4: 10 моделей, Quality (качество) 4+, Defense (защита) 5+, 140 очк.",
        "изменён отряд Saurian Warriors 3: XP 6 → 9",
        "изменён отряд Saurian Captain: очки 95 → 120, XP 7 → 10, добавлена черта Instigator",
        "уже такие, как в ростере: Saurian Warriors 1, Saurian Warriors 2, Raptor Riders",
        "больше нет в ростере, остаются в составе: Old Kha'ress (`gf disband` снимает отряд из состава)",
    ],
    "pl": [
        "rozpiska Army Forge „Starhost of the Ninth Sun” dla strony Saurians:",
        "dodana jednostka Saurian Warriors 4: 10 modeli, Quality 4+, Defense 5+, 140 pkt",
        "zmieniona jednostka Saurian Warriors 3: XP 6 → 9",
        "zmieniona jednostka Saurian Captain: punkty 95 → 120, XP 7 → 10, dodana cecha Instigator",
        "już takie jak w rozpisce: Saurian Warriors 1, Saurian Warriors 2, Raptor Riders",
        "nie ma ich już w rozpisce, zostają w składzie: Old Kha'ress (`gf disband` usuwa jednostkę ze składu)",
    ],
}


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_a_later_version_previewed_says_what_it_would_change_in_the_readers_words(gf: Cli, lang: str) -> None:
    gf("gf", "import-list", str(CAMPAIGN_LIST), "--side", "Saurians")
    before = gf.events()
    said = flat(gf("--lang", lang, "gf", "import-list", str(LATER_LIST), "--side", "Saurians", "--dry-run").stdout)
    for line in LATER[lang]:
        assert line in said
    assert gf.events() == before, "a dry run appends nothing"


def test_the_plan_as_json_is_english_whoever_reads(gf: Cli) -> None:
    gf("gf", "import-list", str(CAMPAIGN_LIST), "--side", "Saurians")
    args = ("gf", "import-list", str(LATER_LIST), "--side", "Saurians", "--dry-run", "--json")
    plans = [orjson.loads(gf("--lang", lang, *args).stdout) for lang in ("en", "ru", "pl")]
    assert plans[0] == plans[1] == plans[2]
    captain = next(c for c in plans[1]["updated"] if c["unit"] == "Saurian Captain")
    assert captain["said"] == ["points 95 → 120", "XP 7 → 10", "trait Instigator added"]
    assert plans[1]["added"][0]["said"] == ["10 models, Quality 4+", "Defense 5+", "140 pts"]
    assert "rules the morale rules do not read are not kept: Fast" in plans[2]["notes"]


def _later_with_profile_changes(tmp_path: Path) -> Path:
    """The later list, and more: Raptor Riders Fearless and Quality 3+, the captain joining no unit, Saurian
    Warriors 3 no longer showing its trait."""
    data: dict[str, Any] = orjson.loads(LATER_LIST.read_bytes())
    changed = copy.deepcopy(data)
    units = {u["selectionId"]: u for u in changed["units"]}
    units["r1Kl8"]["quality"] = 3
    units["r1Kl8"]["specialRules"].append({"key": "fearless", "name": "Fearless", "rating": ""})
    units["h1Gh6"]["joinToUnit"] = None
    units["w3Ef5"]["traits"] = []
    path = tmp_path / "starhost-changed.json"
    path.write_bytes(orjson.dumps(changed))
    return path


CHANGED = {
    "en": [
        "updated Saurian Captain: points 95 → 120, XP 7 → 10, trait Instigator added, no longer joins another unit",
        "updated Raptor Riders: fearless no → yes, quality 4 → 3",
        "note: Saurian Warriors 3 keeps the trait Specialist the list no longer shows",
    ],
    "ru": [
        "изменён отряд Saurian Captain: очки 95 → 120, XP 7 → 10, добавлена черта Instigator, больше ни к кому не "
        "присоединяется",
        "изменён отряд Raptor Riders: Fearless (бесстрашие) нет → да, Quality (качество) 4 → 3",
        "примечание: у Saurian Warriors 3 остаётся черта Specialist, которой больше нет в ростере",
    ],
    "pl": [
        "zmieniona jednostka Saurian Captain: punkty 95 → 120, XP 7 → 10, dodana cecha Instigator, nie dołącza już "
        "do innej jednostki",
        "zmieniona jednostka Raptor Riders: Fearless nie → tak, Quality 4 → 3",
        "uwaga: Saurian Warriors 3 zachowuje cechę Specialist, której rozpiska już nie pokazuje",
    ],
}


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_a_changed_profile_is_said_field_by_field_in_the_seeds_terms(gf: Cli, tmp_path: Path, lang: str) -> None:
    gf("gf", "import-list", str(CAMPAIGN_LIST), "--side", "Saurians")
    path = _later_with_profile_changes(tmp_path)
    said = flat(gf("--lang", lang, "gf", "import-list", str(path), "--side", "Saurians", "--yes").stdout)
    for line in CHANGED[lang]:
        assert line in said
    riders = next(u for u in gf.json("gf", "roster")["units"] if u["unit"] == "Raptor Riders")
    assert riders["quality"] == 3


ROSTER_HAS_IT = {
    "en": "note: Raptor Riders (entry dR8sN) is mustered as Raptor Riders 2: the roster has a unit of its name",
    "ru": "примечание: Raptor Riders (запись dR8sN) вносится как Raptor Riders 2: в составе уже есть отряд с таким "
    "именем",
    "pl": "uwaga: Raptor Riders (wpis dR8sN) zostaje dodana jako Raptor Riders 2: w składzie jest już jednostka o tej "
    "nazwie",
}
TANK = {
    "en": "mustered Carnivo Tank: 1 model, Quality 4+, Defense 2+, Tough(9), Fearless, 215 pts",
    "ru": "внесён отряд Carnivo Tank: 1 модель, Quality (качество) 4+, Defense (защита) 2+, Tough (стойкость) 9, "
    "Fearless (бесстрашие), 215 очк.",
    "pl": "dodana jednostka Carnivo Tank: 1 model, Quality 4+, Defense 2+, Tough(9), Fearless, 215 pkt",
}


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_a_name_the_roster_holds_is_numbered_and_said_so(gf: Cli, lang: str) -> None:
    gf("gf", "muster", "Raptor Riders", "--side", "Saurians", "--size", "3", "--quality", "4", "--points", "100")
    plain = ARMY_FORGE_FILES / "plain-list.json"
    said = flat(gf("--lang", lang, "gf", "import-list", str(plain), "--side", "Saurians").stdout)
    assert ROSTER_HAS_IT[lang] in said and TANK[lang] in said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "the file is not an Army Forge list: it holds no units"),
        ("ru", "файл — не ростер Army Forge: в нём нет отрядов"),
        ("pl", "plik nie jest rozpiską z Army Forge: nie ma w niej jednostek"),
    ],
)
def test_a_list_read_with_no_file_name_calls_it_the_file_in_the_readers_words(lang: str, said: str) -> None:
    """As the page's upload reads a file that came with no name of its own (``what`` None)."""
    with reading_in(lang), pytest.raises(InvalidInputError) as refused:
        ARMY_FORGE.read(orjson.dumps({"gameSystem": "gf", "units": []}), "Saurians", what=None)
    with reading_in(lang):
        assert refusal(refused.value) == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "row 3 left out: the unit is no longer serving (sold)"),
        ("ru", "строка 3 пропущена: отряд больше не в строю (sold)"),
        ("pl", "wiersz 3 pominięty: jednostka nie jest już w służbie (sold)"),
    ],
)
def test_a_muster_from_csv_says_the_rows_it_left_out_in_the_readers_words(tmp_path: Path, lang: str, said: str) -> None:
    """The roster written as CSV lists 95th Rifles (row 2), then Voltigeurs (row 3), disbanded as sold."""
    first = Cli(str(tmp_path / "first.db"))
    first("new", "Roster", "--ruleset", "disorder")
    first("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles",
          "--points", "100")  # fmt: skip
    first("dis", "muster", "Voltigeurs", "--side", "French", "--models", "12", "--troops", "light", "--points", "90")
    first("dis", "disband", "Voltigeurs", "--reason", "sold")
    path = tmp_path / "roster.csv"
    path.write_text(first("dis", "roster", "--format", "csv").stdout, encoding="utf-8")
    second = Cli(str(tmp_path / "second.db"))
    second("new", "Roster", "--ruleset", "disorder")
    assert said in flat(second("--lang", lang, "dis", "muster", "--from", str(path)).stdout)
    assert [u["name"] for u in second.json("status")["units"]] == ["95th Rifles"]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Caliburn from caliburn.gcs: IQ 12, weapon skill 15, Tactics 11, 150 points"),
        ("ru", "Caliburn из caliburn.gcs: IQ 12, навык основного оружия 15, Тактика 11, 150 очков"),
        ("pl", "Caliburn z caliburn.gcs: IQ 12, umiejętność głównej broni 15, Taktyka 11, 150 punktów"),
    ],
)
def test_what_a_battle_file_read_from_a_sheet_is_said_in_the_readers_words(
    tmp_path: Path, lang: str, said: str
) -> None:
    """`mc battle` reads the file so (and does not print these lines today): 150 points take the form of 5, 11,
    100 (очков, punktów)."""
    day1 = (EXAMPLES / "bannok-day1.toml").read_text(encoding="utf-8")
    sheeted = day1.replace('name = "Caliburn"\n', 'gcs = "caliburn.gcs"\nweapon_skill = "Broadsword"\n')
    (tmp_path / "day1.toml").write_text(sheeted.replace("iq = 12\nweapon = 15\n", ""), encoding="utf-8")
    sheet: dict[str, Any] = orjson.loads((EXAMPLES / "caliburn.gcs").read_bytes())
    (tmp_path / "caliburn.gcs").write_bytes(orjson.dumps(sheet))
    with reading_in(lang):
        _data, lines = read_battle_file(tmp_path / "day1.toml")
    assert lines == [said]


@pytest.mark.parametrize(
    ("lang", "points", "said"),
    [
        ("ru", 1, "1 очко"),
        ("ru", 22, "22 очка"),
        ("ru", 25, "25 очков"),
        ("pl", 1, "1 punkt"),
        ("pl", 22, "22 punkty"),
        ("pl", 25, "25 punktów"),
    ],
)
def test_a_sheets_points_take_the_plural_form_of_their_number(
    tmp_path: Path, lang: str, points: int, said: str
) -> None:
    """A sheet with no Tactics (the rules default it from IQ): the line names none."""
    day1 = (EXAMPLES / "bannok-day1.toml").read_text(encoding="utf-8")
    sheeted = day1.replace('name = "Caliburn"\n', 'gcs = "caliburn.gcs"\nweapon_skill = "Broadsword"\n')
    (tmp_path / "day1.toml").write_text(sheeted.replace("iq = 12\nweapon = 15\n", ""), encoding="utf-8")
    sheet: dict[str, Any] = orjson.loads((EXAMPLES / "caliburn.gcs").read_bytes())
    sheet["total_points"] = points
    sheet["skills"] = _without_tactics(sheet["skills"])
    (tmp_path / "caliburn.gcs").write_bytes(orjson.dumps(sheet))
    with reading_in(lang):
        _data, (line,) = read_battle_file(tmp_path / "day1.toml")
    weapon = {"ru": "навык основного оружия 15", "pl": "umiejętność głównej broni 15"}[lang]
    assert line.endswith(f"{weapon}, {said}")


def _without_tactics(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {**row, "children": _without_tactics(row["children"])} if "children" in row else row
        for row in rows
        if row.get("name") != "Tactics"
    ]
