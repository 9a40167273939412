"""Refusals of GURPS Mass Combat and of what every ruleset shares (a transfer, an edit, a house rule, a battle on
the table) in the reader's language: exit 2, nothing appended, the English unchanged for the log and scripts.

The expected words are the catalog's translations as a player reads them (a quality in the seed's words: §2.3
«Средние», «Ветераны»; Polish: Przeciętni, Weterani), names as they were typed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli

SIEGE = """
name = "Walls"
siege = true
[[sides]]
name = "Crimson"
[sides.commander]
strategy = 12
[[sides.units]]
unit = "Red foot"
[[sides]]
name = "Azure"
[sides.commander]
strategy = 12
[[sides.units]]
unit = "Blue foot"
"""


def flat(text: str) -> str:
    """Output as one line of words: a terminal's wrapping aside."""
    return " ".join(text.split())


def refused(cli: Cli, *args: str) -> dict[str, str]:
    """What ``args`` are refused with in each language; each time exit 2 and the log as it was."""
    said = {}
    for lang in ("en", "ru", "pl"):
        before = cli.events()
        result = cli("--lang", lang, *args, code=2)
        assert cli.events() == before, f"{args} in {lang} appended to the log"
        assert "Traceback" not in result.output
        said[lang] = flat(result.output)
    return said


@pytest.fixture
def mc(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "mc.db"))
    c("new", "Border War", "--ruleset", "mass-combat")
    c("mc", "muster", "Blue foot", "--side", "Azure", "--men", "50", "--quality", "average", "--troop-type", "HI")
    c("mc", "muster", "Red foot", "--side", "Crimson", "--men", "40", "--quality", "green", "--troop-type", "HI")
    c("mc", "muster", "Red horse", "--side", "Crimson", "--men", "40", "--quality", "green", "--troop-type", "LC")
    return c


def test_training_an_average_unit_names_its_quality_in_the_seeds_words(mc: Cli) -> None:
    said = refused(mc, "mc", "train", "Blue foot", "3")
    assert said["en"] == (
        "error: Blue foot is average: training makes troops no better than Green (untrained men need 6 months to "
        "be Inexperienced troops, 12 to be Green); only battle makes them better"
    )
    assert said["ru"] == (
        "ошибка: Blue foot — Средние: обучение не делает войска лучше Зеленых (необученным людям нужно месяцев: 6, "
        "чтобы стать Неопытными, и 12, чтобы стать Зелеными); лучше их делает только бой"
    )
    assert said["pl"] == (
        "błąd: Blue foot — Przeciętni: szkolenie nie czyni wojsk lepszymi niż Zieloni (nieprzeszkoleni ludzie "
        "potrzebują miesięcy: 6, by zostać Niedoświadczonymi, i 12, by zostać Zielonymi); lepszymi czyni je tylko "
        "bitwa"
    )


def test_a_muster_whose_experience_is_another_quality_says_both_qualities(mc: Cli) -> None:
    said = refused(
        mc, "mc", "muster", "Grey", "--side", "Azure", "--men", "5", "--quality", "veteran", "--experience", "0"
    )
    assert "experience 0 is inexperienced, not veteran: veteran troops have from 10 battles" in said["en"]
    assert "опыт 0 — это Неопытные, а не Ветераны: у войск «Ветераны» боёв от 10" in said["ru"]
    assert "doświadczenie 0 to Niedoświadczeni, a nie Weterani: wojska „Weterani” mają bitew od 10" in said["pl"]


def test_a_unit_of_no_men_is_refused_mustered_or_raised_and_one_of_crewed_objects_is_not(mc: Cli) -> None:
    """A unit is its men (§2.2: TS = per-man TS × men): none, and no crewed object, is no unit, refused in words as
    a five-grade muster of size 0 is; R3-24's chariots (0 men, their crews in the objects) are a unit."""
    muster = ("--side", "Azure", "--men", "0", "--armour", "light", "--troop-type", "LI", "--quality", "green")
    for command in ("muster", "raise"):
        said = refused(mc, "mc", command, "Nobody", *muster)
        assert said["en"] == (
            "error: not a Mass Combat unit profile: men must be at least 1 (0 only for a unit of crewed objects, "
            "given as special)"
        )
        assert said["ru"] == (
            "ошибка: это не профиль отряда Mass Combat: бойцов должно быть не меньше 1 (0 — только у подразделения "
            "из объектов с расчётом, заданных в special)"
        )
        assert said["pl"] == (
            "błąd: to nie jest profil oddziału Mass Combat: ludzi musi być co najmniej 1 (0 tylko w oddziale z "
            "obiektów z obsługą, podanych w special)"
        )
    mc("mc", "muster", "Chariots", "--side", "Azure", "--men", "0", "--quality", "average",
       "--set", 'special={"light_chariot": 3}')  # fmt: skip
    assert mc.json("mc", "ts", "Chariots")["ts"] == 60  # R3-24: 3 × (15 + 3 + 2)
    edited = refused(mc, "mc", "edit", "Chariots", "--set", "special={}")  # its objects taken away: nobody left
    assert edited["en"].endswith("men must be at least 1 (0 only for a unit of crewed objects, given as special)")


@pytest.mark.parametrize(
    ("ruleset", "muster"),
    [
        ("fighting-spirit", ["fs", "muster", "Nobody", "--side", "Keno", "--quality", "regular", "--lv", "2",
                             "--size", "0"]),
        ("grimdark", ["gf", "muster", "Nobody", "--side", "Robots", "--models", "0", "--quality", "4", "--points",
                      "100"]),
        ("disorder", ["dis", "muster", "Nobody", "--side", "British", "--size", "0", "--troops", "line", "--points",
                      "10"]),
    ],
)  # fmt: skip
def test_every_rulesets_muster_refuses_a_unit_of_no_men(tmp_path: Path, ruleset: str, muster: list[str]) -> None:
    cli = Cli(str(tmp_path / "zero.db"))
    cli("new", "Zero", "--ruleset", ruleset)
    said = refused(cli, *muster)
    assert said["en"].startswith("error: ") and "must be at least 1" in said["en"], said["en"]
    assert "не меньше 1" in said["ru"] and "co najmniej 1" in said["pl"], said


def test_an_empty_treasury_is_said_with_what_it_cannot_pay_for(mc: Cli) -> None:
    said = refused(mc, "mc", "recruit", "Blue foot", "--men", "10")
    assert said["en"] == "error: the treasury of Azure holds $0; it cannot cover 10 recruits for Blue foot ($90,000)"
    # ten recruits, counted in the words of the Mass Combat seed (рекруты): the accusative of "не хватит на",
    # "nie wystarczy na"
    assert said["ru"] == "ошибка: в казне стороны Azure $0; этого не хватит на 10 рекрутов для Blue foot ($90 000)"
    assert said["pl"] == "błąd: w skarbcu strony Azure jest $0; nie wystarczy na 10 rekrutów dla Blue foot ($90 000)"
    month = refused(mc, "mc", "month-end", "--pay", "Azure=100")
    assert "it cannot cover month 1's upkeep and pay ($55,000)" in month["en"]
    assert "этого не хватит на содержание и жалованье за месяц 1 ($55 000)" in month["ru"]
    assert "nie wystarczy na utrzymanie i żołd za miesiąc 1 ($55 000)" in month["pl"]


def test_men_move_only_between_units_of_one_troop_type_and_one_side(mc: Cli) -> None:
    types = refused(mc, "mc", "transfer", "Red foot", "Red horse", "--men", "5")
    assert types["en"] == "error: Red foot are HI and Red horse LC: men move only between units of one troop type"
    assert (
        types["ru"] == "ошибка: Red foot — HI, а Red horse — LC: люди переходят только между отрядами одного типа войск"
    )
    assert types["pl"] == (
        "błąd: Red foot to HI, a Red horse to LC: ludzie przechodzą tylko między oddziałami jednego typu wojsk"
    )
    too_many = refused(mc, "mc", "transfer", "Red foot", "Blue foot", "--men", "5")
    assert too_many["en"] == "error: Red foot fights for Crimson and Blue foot for Azure"


def test_a_model_check_is_said_in_its_own_words_without_pydantics(mc: Cli, tmp_path: Path) -> None:
    """A set-up's own check (R2-16) and a profile's (§2.3, C-6): no "Value error, " in any language."""
    setup = tmp_path / "siege.toml"
    setup.write_text(SIEGE, encoding="utf-8")
    siege = refused(mc, "mc", "battle", str(setup))
    assert siege["en"] == (
        "error: not a valid battle set-up: a siege battle is a storm: one side attacks, the besieged side defends"
    )
    assert siege["ru"] == (
        "ошибка: неверная расстановка битвы: битва при осаде — это штурм: одна сторона атакует, осаждённая обороняется"
    )
    assert siege["pl"] == (
        "błąd: błędne ustawienie bitwy: bitwa w oblężeniu to szturm: jedna strona atakuje, oblężona się broni"
    )
    raw = refused(
        mc, "mc", "muster", "Levy", "--side", "Azure", "--men", "5", "--quality", "green", "--set", "untrained=true"
    )
    assert "not a Mass Combat unit profile: untrained men are Inexperienced: training, then battle" in raw["en"]
    assert "Value error" not in raw["en"]
    assert "это не профиль отряда Mass Combat: необученные люди — Неопытные" in raw["ru"]
    assert "to nie jest profil oddziału Mass Combat: nieprzeszkoleni ludzie to Niedoświadczeni" in raw["pl"]


def test_a_house_rule_on_no_table_value_or_out_of_its_bounds(mc: Cli) -> None:
    typo = refused(mc, "mc", "house-rule", "pc.risk_mx", "7")
    assert typo["en"] == "error: no table value at 'pc.risk_mx'; did you mean 'pc.risk_max'?"
    assert typo["ru"] == "ошибка: нет значения таблиц по пути 'pc.risk_mx'; может быть, 'pc.risk_max'?"
    assert typo["pl"] == "błąd: brak wartości tabel pod ścieżką 'pc.risk_mx'; czy chodziło o 'pc.risk_max'?"
    bound = refused(mc, "mc", "house-rule", "economy.yrth.HI", "-5")
    assert bound["en"] == "error: economy.yrth.HI is an amount of $0 to $10,000,000, not -5"
    assert bound["ru"] == "ошибка: economy.yrth.HI — сумма от $0 до $10 000 000, а не -5"
    assert bound["pl"] == "błąd: economy.yrth.HI jest kwotą od $0 do $10 000 000, a nie -5"
    kept = refused(mc, "mc", "house-rule", "alternatives.c2_catastrophe_17_table.paths", "x")
    assert "примените его командой `house-rule catastrophe.effects.17.strategy 0` и `house-rule" in kept["ru"]
    assert "zastosuj je poleceniem `house-rule catastrophe.effects.17.strategy 0` i `house-rule" in kept["pl"]


def test_an_edit_of_a_units_size_and_a_commanders_leadership(mc: Cli) -> None:
    size = refused(mc, "mc", "edit", "Red foot", "--set", "men=3")
    assert size["en"] == "error: the men of Red foot change by recruits, transfers and losses, not by an edit"
    assert size["ru"] == "ошибка: Red foot: поле men меняется пополнением, переводами и потерями, а не правкой"
    assert (
        size["pl"] == "błąd: Red foot: pole men zmienia się przez rekrutów, przeniesienia i straty, a nie przez edycję"
    )
    skill = refused(mc, "mc", "commander", "Blue foot", "--leadership", "40")
    assert skill["ru"] == "ошибка: Лидерство — уровень навыка от 1 до 30"
    assert skill["pl"] == "błąd: Przywództwo to poziom umiejętności od 1 do 30"


@pytest.fixture
def fs(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "fs.db"))
    c("new", "Otlok Front", "--ruleset", "fighting-spirit")
    c("fs", "muster", "Steel Veterans", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "10")
    c("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    return c


def test_what_every_ruleset_shares_is_refused_in_the_readers_words(fs: Cli) -> None:
    """The shared modules' refusals (a transfer, a battle's deployment) through another ruleset's commands."""
    many = refused(fs, "fs", "transfer", "Steel Veterans", "Company HQ", "--men", "50")
    assert many["en"] == "error: Steel Veterans has 10 men; it cannot transfer 50"
    assert many["ru"] == "ошибка: у Steel Veterans 10 человек; передать 50 нельзя"
    assert many["pl"] == "błąd: Steel Veterans ma 10 ludzi; nie można przenieść 50"


@pytest.fixture
def gf(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "gf.db"))
    c("new", "Ruins", "--ruleset", "grimdark")
    c("gf", "muster", "Saurian Warriors", "--side", "Saurians", "--models", "10", "--quality", "4", "--points", "140")
    c("gf", "muster", "Saurian Hero", "--side", "Saurians", "--models", "1", "--quality", "3", "--points", "60")
    c("gf", "muster", "Robot Squad", "--side", "Robots", "--models", "10", "--quality", "4", "--points", "150")
    return c


def test_a_battle_on_the_table_is_refused_in_the_readers_words(gf: Cli) -> None:
    """The shared battle modules through Grimdark Future's commands: a deployment, a unit in the battle."""
    one_side = refused(gf, "gf", "battle-start", "Dawn", "--unit", "Saurian Warriors", "--unit", "Saurian Hero")
    assert one_side["en"] == "error: a battle needs units of two sides at least"
    assert one_side["ru"] == "ошибка: в бою нужны подразделения хотя бы двух сторон"
    assert one_side["pl"] == "błąd: bitwa wymaga oddziałów co najmniej dwóch stron"
    twice = refused(gf, "gf", "battle-start", "Dawn", "--unit", "Robot Squad", "--unit", "Robot Squad")
    assert twice["en"] == "error: Robot Squad is deployed twice"
    assert twice["ru"] == "ошибка: Robot Squad: выставлено дважды"
    assert twice["pl"] == "błąd: Robot Squad: wystawiony dwa razy"
    gf("gf", "battle-start", "Dawn", "--unit", "Saurian Warriors", "--unit", "Robot Squad")
    absent = refused(gf, "gf", "disband", "Saurian Warriors")
    assert absent["en"] == "error: Saurian Warriors is in the battle being fought: end the battle first"
    assert absent["ru"] == "ошибка: Saurian Warriors участвует в идущем бою: сначала завершите бой"
    assert absent["pl"] == "błąd: Saurian Warriors bierze udział w trwającej bitwie: najpierw zakończ bitwę"


def test_a_distance_not_measured_in_inches_is_refused_in_the_readers_words(tmp_path: Path) -> None:
    """The shared distance (R3-8's inches as measured) through the disorder rules' retreat."""
    dis = Cli(str(tmp_path / "dis.db"))
    dis("new", "Peninsula", "--ruleset", "disorder")
    dis("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    dis("dis", "muster", "Fusiliers", "--side", "French", "--models", "12", "--troops", "line", "--points", "80")
    dis("dis", "officer", "British", "Sharpe")
    dis("dis", "officer", "French", "Dubreton")
    dis("dis", "battle-start", "Sabugal", "--unit", "95th Rifles", "--unit", "Fusiliers")
    words = refused(dis, "dis", "retreat", "Fusiliers", "--needed", "three")
    assert "needed must be inches as measured (e.g. 6 or 6.5)" in words["en"]
    assert "Value error" not in words["en"]
    assert "needed должно быть в дюймах, как измерено (например, 6 или 6.5)" in words["ru"]
    assert "needed musi być w calach, jak zmierzono (np. 6 lub 6.5)" in words["pl"]
    negative = refused(dis, "dis", "retreat", "Fusiliers", "--needed", "-2")
    assert "needed cannot be negative" in negative["en"]
    assert "needed не может быть отрицательным" in negative["ru"]
    assert "needed nie może być ujemne" in negative["pl"]
