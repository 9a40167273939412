"""Mass Combat's result, battle's end with the units' experience and payday said in Russian and Polish, from what
their records hold: RULES.md §2.14's worked battle (both days, the seed's dice at the table; its values worked by
hand in ``tests/acceptance/test_mass_combat_worked_battle.py``) and a missed payday (§2.11, R2-19), worked below.
A record made before these rules recorded their terms (the committed fixture logs) reads as recorded, and
verifies."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.e2e.test_cli import Cli
from tests.e2e.test_lang_said_fs import said
from tests.e2e.test_mass_combat_cli import _muster_args

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def bannok(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    from tests.acceptance.test_mass_combat_worked_battle import DAY1, DAY2, MEGALOS, WAZIF, setup

    folder = tmp_path_factory.mktemp("said_mc")
    cli = Cli(str(folder / "bannok.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    for army, side in ((MEGALOS, "Megalos"), (WAZIF, "Al-Wazif")):
        for name, profile in army.items():
            cli(*_muster_args(name, side, profile))
    day1, day2 = folder / "day1.json", folder / "day2.json"
    day1.write_bytes(orjson.dumps(setup(1, -2)))
    day2.write_bytes(orjson.dumps(setup(2, -1)))
    cli("mc", "battle", str(day1), "--more-days", "--dice", ",".join(map(str, DAY1)))
    cli("mc", "battle", str(day2), "--continue", "Battle for Bannok", "--dice", ",".join(map(str, DAY2)))
    return cli


@pytest.fixture(scope="module")
def levy(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    cli = Cli(str(tmp_path_factory.mktemp("said_pay") / "pay.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    cli("mc", "muster", "Town levy", "--side", "Megalos", "--men", "30", "--troop-type", "II", "--quality", "average")
    cli("mc", "funds", "Megalos", "10000", "--reason", "a patron")
    cli("mc", "month-end", "--pay", "Megalos=0", "--dice", "6,6,1")
    return cli


def test_the_results_of_both_days_read_in_each_language(bannok: Cli) -> None:
    """Day 1: margins 7 and 4, W = 3: Table A's 0–3 band, no clear winner. Day 2: margins 11 and 2, W = 9: victory
    (Morale 2), and W ≥ 8 is a clear victory (R2-11)."""
    ru, pl = said(bannok, "ru"), said(bannok, "pl")
    assert (
        "Таблица A (открытое поле), W = 3: нет явного победителя (W 0–3 Таблицы A): разность у стороны Megalos больше "
        "на 3 — слишком мало, чтобы считаться; ни одна сторона не одержала верх, и каждый отряд обеих сторон бросает "
        "Мораль"
    ) in ru
    assert "Таблица A (открытое поле), W = 9: победа, Мораль проигравших −2; верх одержала сторона Megalos (явная" in ru
    assert "Tabela A (otwarte pole), W = 3: brak wyraźnego zwycięzcy (W 0–3 Tabeli A): przewaga strony Megalos" in pl
    assert "Tabela A (otwarte pole), W = 9: zwycięstwo, Morale przegranych −2; przewagę uzyskała strona Megalos" in pl


def test_day_ones_catastrophes_read_in_each_language(bannok: Cli) -> None:
    """§2.8 with R2-10: Megalos rolls 2+3+3 = 8, the enemy's surprise: Strategy −1; Al-Wazif 6+6+5 = 17, a unit
    leader killed: Strategy −2 and the LC archers' Morale −3, lasting until a clear victory."""
    ru, pl = said(bannok, "ru"), said(bannok, "pl")
    assert "Megalos, бросок Катастрофы: на 3d выпало 8 → 8: Стратегия −1" in ru
    assert (
        "Al-Wazif, бросок Катастрофы: на 3d выпало 17 → 17: Стратегия −2; LC archers: Мораль −3; потеря Морали "
        "держится до явной победы"
    ) in ru
    assert (
        "Al-Wazif, rzut na Katastrofę: na 3d wyrzucono 17 → 17: Strategia −2; LC archers: Morale −3; utrata Morale "
        "trwa do wyraźnego zwycięstwa"
    ) in pl


def test_day_ones_strategy_contest_reads_in_each_language(bannok: Cli) -> None:
    """§2.10–2.11 on day 1: Megalos 14 − 1 (catastrophe 8) + 2 (missile 600:168) + 2 (home soil) = 17, rolled 10:
    margin +7; Al-Wazif 16 − 2 (catastrophe 17) + 1 (TS 3942:3500 = 1.13) + 3 (cavalry, none against it) = 18,
    rolled 14: margin +4; difference 3 to Megalos."""
    assert (
        "Быстрое Соревнование в Стратегии — Megalos: Стратегия 14 +3 (катастрофа 8 −1, стрелки 600:168 +2, родная "
        "земля +2) = 17, выпало 10 → запас +7; Al-Wazif: Стратегия 16 +2 (катастрофа 17 −2, TS 3942:3500 = 1,13 +1, "
        "кавалерия: у противника нет +3) = 18, выпало 14 → запас +4; разность 3 в пользу стороны Megalos"
    ) in said(bannok, "ru")
    assert (
        "Szybki Konflikt w Strategii — Megalos: Strategia 14 +3 (katastrofa 8 −1, strzelcy 600:168 +2, własna ziemia "
        "+2) = 17, wyrzucono 10 → przewaga +7"
    ) in said(bannok, "pl")


def test_day_ones_casualties_read_in_each_language(bannok: Cli) -> None:
    """§2.12 on day 1 (the acceptance test's figures: 13 % and 30 % before unit shifts, TS after 3281 and 3363): the
    Mercenary MI platoon's row is Megalos's +3, +2 for medium armour, +1 for the Healing spent on it: +6."""
    ru, pl = said(bannok, "ru"), said(bannok, "pl")
    assert "Megalos, потери по строке +3 Таблицы Потерь: на 4d выпало 13 → 13% до сдвигов отрядов;" in ru
    assert "Mercenary MI platoon: строка +6 (средняя броня +2, удар/лечение +1) → 3%: убито 0, ранено 1" in ru
    assert "Al-Wazif, потери по строке −3 Таблицы Потерь: на 4d выпало 10 → 30% до сдвигов отрядов;" in ru
    assert "TS после битвы 3 281" in ru and "TS после битвы 3 363" in ru
    assert (
        "Mercenary MI platoon: wiersz +6 (średni pancerz +2, uderzenie/leczenie +1) → 3%: zabitych 0, rannych 1" in pl
    )


def test_the_battles_end_says_each_units_experience_in_each_language(bannok: Cli) -> None:
    """§2.3: one battle more for every unit that fought; Caliburn's gang, 0 battles (Inexperienced, and irregular:
    base Morale 9 − 3 = 6), reaches 1: Green, base Morale 11, the −3 gone. TS after the battle grouped by locale."""
    ru, pl = said(bannok, "ru"), said(bannok, "pl")
    assert "Battle for Bannok, день 2: победа, Мораль проигравших −2; Войсковая Сила (TS) после: Megalos 3 058" in ru
    assert (
        "ещё одна битва опыта каждому отряду, который сражался (§2.3): Average MI 3 → 4; Border irregulars 3 → 4; "
        "Caliburn's gang 0 → 1, теперь Зеленые (было Неопытные): базовая Мораль 6 → 11 (−3 для неопытных "
        "нерегулярных войск больше не действует)"
    ) in ru
    assert "Elite HI 16 → 17" in ru
    assert (
        "Caliburn's gang 0 → 1, teraz Zieloni (było Niedoświadczeni): bazowe Morale 6 → 11 (−3 dla niedoświadczonych "
        "nieregularnych już nie obowiązuje)"
    ) in pl


def test_caliburns_survival_and_glory_rolls_read_in_each_language(bannok: Cli) -> None:
    """§2.9: Battle 10, Risk −2 on day 1: Survival 10 − 2 = 8, Glory 10 + 2 = 12. 3d rolled 10 against 8: failed by
    2, column A (failed by 1–2): one wound of d6+2 at TL3, less DR 2: 2+2 = 4. Glory 11 against 12: made by 1
    (made by 0–3): fought competently. Day 2, Risk −1: Survival 9, rolled 13, failed by 4: column B (3–4), two
    wounds, 1+2 and 2+2 less DR 2: 1 + 2 = 3."""
    ru, pl = said(bannok, "ru"), said(bannok, "pl")
    assert (
        "Caliburn, бросок Выживания: 8, выпало 10 → провал на 2: колонка A при TL3: 1 × (d6+2 − DR 2) = 4 = 4 очка "
        "повреждений"
    ) in ru
    assert "Caliburn, бросок Славы: 12, выпало 11 → успех на 1: сражался умело" in ru
    assert (
        "Caliburn, бросок Выживания: 9, выпало 13 → провал на 4: колонка B при TL3: 2 × (d6+2 − DR 2) = 1 + 2 = 3" in ru
    )
    assert (
        "Caliburn, rzut na Przetrwanie: 8, wyrzucono 10 → niezdane o 2: kolumna A przy TL3: 1 × (d6+2 − DR 2) = 4 = 4 "
        "punkty obrażeń"
    ) in pl
    assert "Caliburn, rzut na Chwałę: 12, wyrzucono 11 → zdane o 1: walczył kompetentnie" in pl


def test_a_missed_payday_reads_in_each_language(levy: Cli) -> None:
    """§2.11, R2-19, R2-20: 30 II at $200 a man: upkeep 30 × $200 = $6,000; pay 10 % of the $6,000 raise cost =
    $600, of which 0 % is paid: the first unpaid day, arrears −1; Average Morale 13 − 1 = 12, 3d rolled 6+6+1 = 13
    > 12: failed."""
    assert (
        "Town levy: upkeep $6,000; paid $0 of $600: an unpaid day (1 in a row), arrears Morale −1; Morale roll 13 vs "
        "12 → failed: trouble of the game master's choosing"
    ) in said(levy, "en")
    assert (
        "Town levy: содержание $6 000; выплачено $0 из $600: неоплаченный день (подряд: 1), долг по жалованью: Мораль "
        "−1; бросок Морали 13 против 12 → провал: неприятности на выбор мастера"
    ) in said(levy, "ru")
    assert (
        "Town levy: utrzymanie $6 000; zapłacono $0 z $600: niezapłacony dzień (z rzędu: 1), zaległy żołd: Morale −1; "
        "rzut na Morale 13 przeciw 12 → nieudany: kłopoty, jakie wybierze mistrz gry"
    ) in said(levy, "pl")


def test_records_made_before_read_as_recorded_and_verify(tmp_path: Path) -> None:
    """The demo log of the third edition's first day: its results, paydays and battle ends recorded their English
    alone (a battle end its units' experience only in words): a Polish log shows them as recorded, and it verifies."""
    cli = Cli(str(tmp_path / "old.db"))
    cli("import", str(FIXTURES / "logs_r3_today" / "mass-combat.jsonl"))
    pl = said(cli, "pl")
    assert "Table A (open field), W = 8: victory morale 2; Al-Wazif has the better of it (a clear victory)" in pl
    assert "Al-Wazif foot: upkeep $80,000; paid $0 of $200,000: an unpaid day (1 in a row)" in pl
    assert "one battle more of experience for every unit that fought (§2.3): 5th Heavy Legion cohort 7 → 8" in pl
    assert "Caliburn Survival roll: 8, rolled 10 → failed by 2: column A at TL3: 1 × (d6+2 − DR 2) = 4 = 4 damage" in pl
    [report] = cli.json("verify")
    assert report["ok"] is True, report


@pytest.mark.parametrize(
    ("lang", "shown", "twice"),
    [
        ("ru", "(бойцов 30, TL 3, без брони,", "броня без брони"),
        ("pl", "(ludzi 30, TL 3, bez pancerza,", "pancerz bez pancerza"),
    ],
)
def test_a_unit_of_no_armour_is_said_so_once(tmp_path: Path, lang: str, shown: str, twice: str) -> None:
    """The seed's "без брони" says the field: a muster's line reads "без брони", not "броня без брони"; a unit in
    armour keeps the field's name ("броня Легкий", "pancerz lekki")."""
    cli = Cli(str(tmp_path / "armour.db"))
    cli("new", "Border War", "--ruleset", "mass-combat")
    cli("mc", "muster", "Slingers", "--side", "Megalos", "--men", "30", "--quality", "green", "--troop-type", "LI")
    cli("mc", "muster", "Archers", "--side", "Megalos", "--men", "30", "--armour", "light", "--quality", "green")
    log = " ".join(cli("--lang", lang, "log").stdout.split())
    mustered = " ".join(cli("--lang", lang, "mc", "muster", "Scouts", "--side", "Megalos", "--men", "30",
                            "--quality", "green").stdout.split())  # fmt: skip
    assert shown in mustered and twice not in mustered and twice not in log, mustered
    assert ("броня Легкий" if lang == "ru" else "pancerz lekki") in log
