"""The disorder ruleset's Russian says a unit as its seed does, «подразделение» (the seed's word for it, page after
page; its «отряд» is the force a side fields), never the loanword «юнит»: in the roster, the tables' notes and
every message of the ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.i18n import catalogs
from tests.e2e import walkthroughs
from tests.e2e.test_cli import Cli


@pytest.mark.parametrize(("lang", "heading"), [("en", "unit"), ("ru", "подразделение"), ("pl", "jednostka")])
def test_the_disorder_roster_heads_its_units_with_the_seeds_word(tmp_path: Path, lang: str, heading: str) -> None:
    cli = Cli(str(tmp_path / "dis.db"))
    cli("new", "Peninsula", "--ruleset", "disorder")
    cli("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    lines = cli("--lang", lang, "dis", "roster").output.splitlines()
    header = next(line for line in lines if line.startswith("┃"))  # the table's heading row
    assert header.strip("┃ ").split("┃")[0].strip() == heading


def _disorders(location: str) -> bool:
    return "disorder" in location or location == "dis" or location.startswith("dis ")


def test_no_russian_message_of_the_disorder_ruleset_says_the_loanword() -> None:
    russian = catalogs.read("ru")
    said = [(m.id, m.string) for m in russian if m.id and any(_disorders(where) for where, _line in m.locations)]
    assert said, "the disorder ruleset has messages"
    loanwords = [text for text, string in said if "юнит" in str(string).lower()]
    assert loanwords == []
    # its rally, flight and casualty notes name the unit in the seed's word
    for note in (
        "SEED (a 3rd marker from any source: the unit flees, removed at once)",
        "SEED (total ≤ 2: a marked unit flees; an unmarked one takes a marker)",
    ):
        found = russian.get(note, catalogs.NOTE_CONTEXT)
        assert found is not None and "подразделение" in str(found.string)


@pytest.mark.parametrize(
    ("lang", "troops"),
    [("en", ["light", "rifles"]), ("ru", ["легкая пехота", "стрелки"]), ("pl", ["lekka piechota", "strzelcy"])],
)
def test_the_campaigns_status_says_troops_as_the_roster_does(tmp_path: Path, lang: str, troops: list[str]) -> None:
    """`status` listed the troops as recorded ("rifles") where `dis roster` said the seed's word (стрелки)."""
    cli = Cli(str(tmp_path / "dis.db"))
    cli("new", "Peninsula", "--ruleset", "disorder")
    cli("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    cli("dis", "muster", "Voltigeurs", "--side", "French", "--models", "12", "--troops", "light", "--points", "90")
    rows = [
        line.strip("│ ").split("│")
        for line in cli("--lang", lang, "status").output.splitlines()
        if line.startswith("│")
    ]
    assert sorted(row[2].strip() for row in rows if len(row) > 3) == troops


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", 'Voltigeurs retreats 1.5" of 3", 1 full inch short: 1 captured'),
        ("ru", 'Voltigeurs отступает на 1,5" из 3", не хватило 1 полного дюйма: взято в плен 1'),
        ("pl", 'Voltigeurs cofa się o 1,5" z 3", zabrakło 1 pełnego cala: do niewoli 1'),
    ],
)
def test_a_retreats_inches_are_written_as_the_readers_locale_writes_them(tmp_path: Path, lang: str, said: str) -> None:
    """§1.5: 1.5" moved of 3" needed is one full inch short, one model captured; Russian and Polish write the
    inch and a half with a decimal comma."""
    cli = walkthroughs.disorder(Cli(str(tmp_path / "dis.db")))
    cli("dis", "retreat", "Voltigeurs", "--needed", "3", "--moved", "1.5")
    log = " ".join(cli("--lang", lang, "log").output.replace("│", " ").split())
    assert said in log


def test_mass_combats_russian_says_recruits_as_its_seed_does() -> None:
    """Seed 002 calls the men a side raises «рекруты» (its «рекрутские наборы», «необстрелянные рекруты»), never
    «новобранцы» — that is seed 000's word, the five-grade rules' Green quality."""
    russian = catalogs.read("ru")
    mass_combat = [
        str(m.string)
        for m in russian
        if m.id
        and (
            any("mass_combat" in where or where.startswith("mc") for where, _line in m.locations)
            or m.id in ("quality of {n} recruits for {who}", "{n} recruits for {who}")
        )
    ]
    assert len(mass_combat) > 100
    assert [s for s in mass_combat if "новобран" in s.lower()] == []


@pytest.mark.parametrize(
    ("lang", "word", "refused"),
    [
        ("ru", "стрелки", "ошибка: неизвестный тип войск 'foo': выберите один из: гвардия; легкая пехота; линейные; "
         "ополчение; стрелки"),
        ("pl", "strzelcy", "strzelcy"),
    ],
)  # fmt: skip
def test_troops_are_typed_in_the_seeds_words(tmp_path: Path, lang: str, word: str, refused: str) -> None:
    """`--troops стрелки` was refused ("choose one of: guard, light, …") while the roster said стрелки: the
    troop type is read in any language, recorded as its value, and a refusal lists the seed's words."""
    cli = Cli(str(tmp_path / "dis.db"))
    cli("new", "Peninsula", "--ruleset", "disorder")
    cli("--lang", lang, "dis", "muster", "95th Rifles", "--side", "British", "--size", "10", "--troops", word,
        "--points", "100")  # fmt: skip
    assert [u["troops"] for u in cli.json("status")["units"]] == ["rifles"]
    before = cli.events()
    said = cli("--lang", lang, "dis", "muster", "X", "--side", "British", "--size", "10", "--troops", "foo",
               "--points", "100", code=2).output  # fmt: skip
    assert refused in " ".join(said.split()) and cli.events() == before
