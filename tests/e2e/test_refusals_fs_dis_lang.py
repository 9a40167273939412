"""Five-grade morale's and disorder markers' refusals as a player reads them with ``--lang ru`` and ``--lang pl``:
the whole sentence in the reader's language, with the names as typed, the rule references as they are, a grade or
a cause in the seed's own words (RULES.md §0.3 Бегущий, §1.3 «офицер выбыл из игры»); the English as before, exit
status 2, and nothing appended to the log in any language.

The expected sentences are written by hand from the catalogs' translations (not taken from the program's output)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli

ERROR = {"en": "error", "ru": "ошибка", "pl": "błąd"}


@pytest.fixture(scope="module")
def fs(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    """Hill 203, turn 1: Keno 3rd Squad has had its activation; Steel Veterans, hit twice on the table's 1s, went
    Steady → Broken → Routed (§0.4: half or less, −2 grades each); Keno's treasury holds 10."""
    c = Cli(str(tmp_path_factory.mktemp("fs") / "fs.db"))
    c("new", "Otlok Front", "--ruleset", "fighting-spirit")
    c("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    c("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    c("fs", "muster", "Steel Veterans", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "10")
    c("fs", "funds", "Keno", "10", "--reason", "tribute")
    units = ("--unit", "Keno 3rd Squad=fresh", "--unit", "Company HQ=tired", "--unit", "Steel Veterans=tired,cover")
    c("fs", "battle-start", "Hill 203", "--side", "Keno=low", "--side", "Steel=medium", *units)
    c("fs", "activate", "Keno 3rd Squad")
    c("fs", "attack", "Steel Veterans", "--killed", "1", "--dice", "1")
    c("fs", "attack", "Steel Veterans", "--killed", "1", "--dice", "1")
    return c


@pytest.fixture(scope="module")
def dis(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    """Sabugal: the British under Sharpe against the French under Dubreton, whose officer is down and whose
    Fusiliers have checked for it once (R2-7: once a game); the Spanish have no officer."""
    c = Cli(str(tmp_path_factory.mktemp("dis") / "dis.db"))
    c("new", "Peninsula", "--ruleset", "disorder")
    c("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    c("dis", "muster", "Fusiliers", "--side", "French", "--models", "12", "--troops", "line", "--points", "80")
    c("dis", "muster", "Guerrillas", "--side", "Spanish", "--models", "6", "--troops", "militia", "--points", "30")
    c("dis", "officer", "British", "Sharpe")
    c("dis", "officer", "French", "Dubreton")
    return c


@pytest.fixture(scope="module")
def sabugal(dis: Cli) -> Cli:
    dis("dis", "battle-start", "Sabugal", "--unit", "95th Rifles", "--unit", "Fusiliers")
    dis("dis", "officer-down", "French")
    dis("dis", "check", "Fusiliers", "--cause", "officer_removed", "--dice", "6,5")
    return dis


def said_in_each_language(cli: Cli, args: tuple[str, ...], said: dict[str, str]) -> None:
    for lang, sentence in said.items():
        before = cli.events()
        result = cli("--lang", lang, *args, code=2)
        assert result.stderr.strip() == f"{ERROR[lang]}: {sentence}", lang
        assert cli.events() == before, f"{lang}: a refusal appended"


FIVE_GRADES = {
    "activated-twice": (
        ("fs", "activate", "Keno 3rd Squad"),
        {
            "en": "Keno 3rd Squad has had its activation in turn 1: one a turn (R3-1); the next is in turn 2",
            "ru": "Keno 3rd Squad: активация в ходу 1 уже была: одна за ход (R3-1); следующая — в ходу 2",
            "pl": "Keno 3rd Squad: aktywacja w turze 1 już była: jedna na turę (R3-1); następna w turze 2",
        },
    ),
    "routed-close-combat": (
        ("fs", "react", "Steel Veterans", "close_combat"),
        {
            "en": "Steel Veterans is routed: it may not enter close combat",
            "ru": "Steel Veterans — Бегущий: вступать в ближний бой нельзя",
            "pl": "Steel Veterans — Uciekający: nie może wejść do walki wręcz",
        },
    ),
    "routed-may-only": (
        ("fs", "position", "Steel Veterans", "--prone"),
        {
            "en": "Steel Veterans is routed: it may move toward its own edge or take the move-while-prone test, "
            "not go prone (§0.3, R3-3)",
            "ru": "Steel Veterans — Бегущий: можно двигаться к своему краю стола или пройти тест на движение лёжа, "
            "но не залечь (§0.3, R3-3)",
            "pl": "Steel Veterans — Uciekający: może ruszyć w stronę własnej krawędzi lub przystąpić do testu ruchu "
            "w zaleganiu, ale nie zalec (§0.3, R3-3)",
        },
    ),
    "routed-fires": (
        ("fs", "attack", "Keno 3rd Squad", "--killed", "1", "--by", "Steel Veterans"),
        {
            "en": "Steel Veterans is routed: it may move toward its own edge or take the move-while-prone test, "
            "not fire at Keno 3rd Squad (§0.3, R3-3)",
            "ru": "Steel Veterans — Бегущий: можно двигаться к своему краю стола или пройти тест на движение лёжа, "
            "но не стрелять по Keno 3rd Squad (§0.3, R3-3)",
            "pl": "Steel Veterans — Uciekający: może ruszyć w stronę własnej krawędzi lub przystąpić do testu ruchu "
            "w zaleganiu, ale nie strzelać do Keno 3rd Squad (§0.3, R3-3)",
        },
    ),
    "not-in-the-chain": (
        ("fs", "rally", "Keno 3rd Squad", "--officer", "Company HQ", "--distance", "2"),
        {
            "en": "Company HQ is not on the direct chain of command of Keno 3rd Squad: only its superiors may rally it",
            "ru": "Company HQ не в прямой цепочке командования Keno 3rd Squad: собирать его могут только его командиры",
            "pl": "Company HQ nie jest w bezpośrednim łańcuchu dowodzenia Keno 3rd Squad: zbierać go mogą tylko "
            "jego przełożeni",
        },
    ),
    "no-last-stand": (
        ("fs", "last-stand", "Keno 3rd Squad", "--friends-within-12", "1", "--enemy-squads", "1"),
        {
            # one friendly unit, one enemy squad: each said in its singular (no "unit(s)", no "1 squads")
            "en": "Keno 3rd Squad cannot make a last stand: it is neither in cover nor prone; 1 friendly unit is "
            'within 12"; only 1 enemy squad (not retreating) is in sight, it needs 3',
            "ru": 'Keno 3rd Squad: «Ни шагу назад!» невозможно: оно не в укрытии и не залегло; в пределах 12" '
            "находится 1 союзное подразделение; в поле зрения только 1 вражеское отделение (не отступающее), а "
            "нужно 3",
            "pl": 'Keno 3rd Squad: „Ani kroku wstecz” niemożliwe: nie jest w osłonie i nie zalega; w zasięgu 12" '
            "jest 1 sojuszniczy oddział; w polu widzenia jest tylko 1 wroga drużyna (nie wycofująca się), a "
            "potrzeba 3",
        },
    ),
    "not-fired-on": (
        ("fs", "panic", "Company HQ", "--trigger", "fired_on"),
        {
            "en": "Company HQ has not been fired on: record the fire with `fs attack Company HQ`, which takes the "
            "panic test of the first fire",
            "ru": "по Company HQ ещё не стреляли: запишите обстрел командой `fs attack Company HQ`, она проведёт "
            "тест на панику от первого обстрела",
            "pl": "do Company HQ jeszcze nie strzelano: zapisz ostrzał poleceniem `fs attack Company HQ`, które "
            "przeprowadzi test paniki pierwszego ostrzału",
        },
    ),
    "treasury": (
        ("fs", "funds", "--reason", "bribes", "Keno", "--", "-30"),
        {
            "en": "the treasury of Keno holds 10; it cannot pay 30",
            "ru": "в казне стороны Keno — 10; заплатить 30 нельзя",
            "pl": "w skarbcu strony Keno jest 10; nie można zapłacić 30",
        },
    ),
    "misspelt-side": (
        ("fs", "funds", "--reason", "tribute", "Kenno", "5"),
        {
            "en": "'Kenno' is not a side of this campaign (Keno, Steel); did you mean 'Keno'?",
            "ru": "'Kenno' — не сторона этой кампании (Keno, Steel); может быть, 'Keno'?",
            "pl": "'Kenno' nie jest stroną tej kampanii (Keno, Steel); czy chodziło o 'Keno'?",
        },
    ),
}


@pytest.mark.parametrize("case", FIVE_GRADES)
def test_a_five_grade_refusal_reads_in_the_readers_language_and_appends_nothing(fs: Cli, case: str) -> None:
    said_in_each_language(fs, *FIVE_GRADES[case])


def test_why_a_unit_left_the_battle_is_said_in_the_seeds_words(tmp_path: Path) -> None:
    """§0.3: a Routed unit with an enemy within 12" surrenders ("сдались", the seed's word); it takes no more
    tests, and the refusal says why in the reader's words while the English keeps the recorded reason."""
    c = Cli(str(tmp_path / "fs.db"))
    c("new", "Otlok Front", "--ruleset", "fighting-spirit")
    c("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    c("fs", "muster", "Steel Veterans", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "10")
    units = ("--unit", "Keno 3rd Squad=fresh", "--unit", "Steel Veterans=tired")
    c("fs", "battle-start", "Hill 203", "--side", "Keno=low", "--side", "Steel=medium", *units)
    c("fs", "attack", "Steel Veterans", "--killed", "1", "--dice", "1")  # Steady → Broken
    c("fs", "attack", "Steel Veterans", "--killed", "1", "--dice", "1")  # Broken → Routed
    c("fs", "surrender", "Steel Veterans", "--enemy-within", "3")
    said_in_each_language(
        c,
        ("fs", "attack", "Steel Veterans", "--killed", "1"),
        {
            "en": "Steel Veterans was removed from the battle (surrendered) and takes no more tests",
            "ru": "Steel Veterans: выбыло из боя (сдались) и больше тестов не проходит",
            "pl": "Steel Veterans: usunięty z bitwy (poddali się), nie zdaje już testów",
        },
    )


DISORDER = {
    "loss-cause": (
        ("dis", "hit", "Fusiliers", "--lost", "1", "--cause", "artillery"),
        {
            "en": "models are lost to shooting or melee here, not 'artillery'",
            "ru": "причина потери моделей здесь — стрельба или рукопашная, а не 'artillery'",
            "pl": "przyczyną utraty modeli jest tu ostrzał lub walka wręcz, nie 'artillery'",
        },
    ),
    "too-many-lost": (
        ("dis", "hit", "Fusiliers", "--lost", "13"),
        {
            "en": "Fusiliers has 12 models left; it cannot lose 13",
            "ru": "Fusiliers: моделей осталось: 12; потерять 13 нельзя",
            "pl": "Fusiliers: pozostało modeli: 12; nie może stracić 13",
        },
    ),
    "officer-in-battle": (
        ("dis", "officer", "French", "Massena"),
        {
            "en": "officers take command between battles: end the battle first",
            "ru": "офицеры принимают командование между боями: сначала завершите бой",
            "pl": "oficerowie obejmują dowództwo między bitwami: najpierw zakończ bitwę",
        },
    ),
    "no-marker-to-rally": (
        ("dis", "rally", "Fusiliers"),
        {
            "en": "Fusiliers has no marker a rally can remove",
            "ru": "Fusiliers: нет маркера, который мог бы снять сбор",
            "pl": "Fusiliers: brak znacznika, który mogłaby zdjąć zbiórka",
        },
    ),
    "once-a-game": (
        ("dis", "check", "Fusiliers", "--cause", "officer_removed", "--dice", "6,5"),
        {
            "en": "Fusiliers has already checked for officer_removed: once per game",
            "ru": "Fusiliers: проверка по причине «офицер выбыл из игры» уже была: одна за игру",
            "pl": "Fusiliers: sprawdzian z przyczyny „oficer wyeliminowany” już był: jeden na grę",
        },
    ),
    "officer-down-twice": (
        ("dis", "officer-down", "French"),
        {
            "en": "the officer of French was already removed in this battle",
            "ru": "офицер стороны French уже выбыл в этом бою",
            "pl": "oficer strony French został już wyeliminowany w tej bitwie",
        },
    ),
}


def test_a_battle_with_a_side_no_officer_commands_is_refused_in_the_readers_language(dis: Cli) -> None:
    said_in_each_language(
        dis,
        ("dis", "battle-start", "Ciudad Rodrigo", "--unit", "Fusiliers", "--unit", "Guerrillas"),
        {
            "en": "no officer commands Spanish: appoint one with `campaign dis officer SIDE NAME`",
            "ru": "без офицера: Spanish; назначьте офицера командой `campaign dis officer SIDE NAME`",
            "pl": "bez oficera: Spanish; wyznacz go poleceniem `campaign dis officer SIDE NAME`",
        },
    )


@pytest.mark.parametrize("case", DISORDER)
def test_a_disorder_refusal_reads_in_the_readers_language_and_appends_nothing(sabugal: Cli, case: str) -> None:
    said_in_each_language(sabugal, *DISORDER[case])


def test_the_forces_that_fled_are_joined_in_the_readers_words(tmp_path: Path) -> None:
    """R3-10: the turn in which a force fled is the battle's last; the next turn is refused, naming the forces
    that fled, joined with the reader's "and" (и, i)."""
    c = Cli(str(tmp_path / "fled.db"))
    c("new", "Peninsula", "--ruleset", "disorder")
    c("dis", "muster", "Fusiliers", "--side", "French", "--models", "2", "--troops", "line", "--points", "80")
    c("dis", "muster", "Rifles", "--side", "British", "--models", "2", "--troops", "rifles", "--points", "80")
    c("dis", "officer", "French", "Dubreton")
    c("dis", "officer", "British", "Sharpe")
    c("dis", "battle-start", "Sabugal", "--unit", "Fusiliers", "--unit", "Rifles")
    c("dis", "hit", "Fusiliers", "--lost", "2")
    c("dis", "hit", "Rifles", "--lost", "2")
    said_in_each_language(
        c,
        ("dis", "turn"),
        {
            "en": "the battle ended with turn 1 (British and French fled): record battle-end",
            "ru": "бой окончился ходом 1 (бежали: British и French): запишите battle-end",
            "pl": "bitwa skończyła się w turze 1 (uciekli: British i French): zapisz battle-end",
        },
    )
