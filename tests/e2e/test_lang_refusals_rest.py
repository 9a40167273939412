"""The words the rules' refusals share, as a player reads them with ``--lang ru`` and ``--lang pl``: what is wrong
with a typed value ("cannot be negative", "must be at most 6"), a table's bounds in a house rule's refusal, the
words a ruleset hands to a shared refusal (why it waits for the battle's end, which distance it is, what money
pays for), and a closed set's values listed as the seed's terms, which are read back when typed.

Each time: exit 2, nothing appended, the English as before. The expected sentences are written by hand from the
catalogs' translations; the terms are the seeds' (terms.toml: «низкая», «стрельба», «офицер выбыл из игры»)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli

ERROR = {"en": "error", "ru": "ошибка", "pl": "błąd"}


def said_in_each_language(cli: Cli, args: tuple[str, ...], said: dict[str, str]) -> None:
    for lang, sentence in said.items():
        before = cli.events()
        result = cli("--lang", lang, *args, code=2)
        assert " ".join(result.stderr.split()) == f"{ERROR[lang]}: {sentence}", lang
        assert "Traceback" not in result.output
        assert cli.events() == before, f"{lang}: a refusal appended"


@pytest.fixture(scope="module")
def fs(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    """Hill 203 being fought: Keno's green Alpha against Otlok's regular Bravo."""
    c = Cli(str(tmp_path_factory.mktemp("fs") / "fs.db"))
    c("new", "Otlok Front", "--ruleset", "fighting-spirit")
    c("fs", "muster", "Alpha", "--side", "Keno", "--quality", "green", "--lv", "2", "--size", "5")
    c("fs", "muster", "Bravo", "--side", "Otlok", "--quality", "regular", "--lv", "2", "--size", "5")
    c("fs", "muster", "Charlie", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "5")
    c(
        "fs",
        "battle-start",
        "Hill 203",
        "--side",
        "Keno=low",
        "--side",
        "Otlok=low",
        "--unit",
        "Alpha",
        "--unit",
        "Bravo",
    )
    return c


FIVE_GRADES = {
    "negative": (
        ("fs", "attack", "Alpha", "--killed", "-1"),
        {
            "en": "fs attack: killed cannot be negative",
            "ru": "fs attack: убито: не может быть отрицательным",
            "pl": "fs attack: zabici: nie może być ujemne",
        },
    ),
    "motivation-listed-as-terms": (
        ("fs", "battle-start", "Ridge", "--side", "Keno=lots", "--side", "Otlok=low", "--unit", "Charlie"),
        {
            "en": "fs battle-start: motivation.Keno must be one of 'low', 'medium' or 'high'",
            "ru": "fs battle-start: motivation.Keno: допустимые значения: «низкая», «средняя» или «высокая»",
            "pl": "fs battle-start: motivation.Keno: dozwolone wartości: „niska”, „średnia” lub „wysoka”",
        },
    ),
    "triggers-listed-as-terms": (
        ("fs", "panic", "Alpha"),
        {
            "en": "Alpha is not panicking: name the trigger (one of armour_in_sight, fired_on)",
            "ru": "Alpha не в панике: назовите повод (один из: впервые увидели бронетехнику или бронескафы "
            "противника; впервые за бой обстреляны)",
            "pl": "Alpha nie panikuje: podaj wyzwalacz (jeden z: pierwszy widok wrogich pojazdów pancernych lub "
            "pancerzy wspomaganych; po raz pierwszy w bitwie pod ostrzałem)",
        },
    ),
    "threat-rows-listed-as-terms": (
        ("fs", "morale", "Alpha", "--threat", "dragons"),
        {
            "en": "unknown threat row 'dragons': one of abandoned_wounded, artillery, casualties, first_suppression, "
            "leader_lost, lost_more_than_left, psi_strike, unverified_casualty",
            "ru": "неизвестная строка угрозы 'dragons': одна из: брошены раненые; артналёт; понесло потери; первый "
            "раз обстреляно и подавлено; потерян командир; потеряно больше, чем осталось; пси-удар; непроверенная "
            "потеря",
            "pl": "nieznany wiersz zagrożenia 'dragons': jeden z: porzuceni ranni; ostrzał artylerii lub lotnictwa; "
            "straty od ognia; pierwsze przygwożdżenie ogniem; utrata dowódcy; stracono więcej ludzi, niż zostało; "
            "uderzenie psi; niesprawdzona strata",
        },
    ),
    "recruits-between-battles": (
        ("fs", "recruit", "Alpha", "--men", "3"),
        {
            "en": "Alpha is in the battle being fought: recruits join between battles",
            "ru": "Alpha участвует в идущем бою: новобранцы присоединяются между боями",
            "pl": "Alpha bierze udział w trwającej bitwie: rekruci dołączają między bitwami",
        },
    ),
    "men-move-between-battles": (
        ("fs", "transfer", "Charlie", "Alpha", "--men", "1"),
        {
            "en": "Alpha is in the battle being fought: men move between battles",
            "ru": "Alpha участвует в идущем бою: люди переходят между боями",
            "pl": "Alpha bierze udział w trwającej bitwie: ludzie przechodzą między bitwami",
        },
    ),
    "the-distance": (
        ("fs", "rally", "Alpha", "--officer", "Alpha", "--distance", "1.55"),
        {
            "en": "the distance '1.55': give inches, to a tenth at most (e.g. 3 or 1.5)",
            "ru": "расстояние '1.55': укажите дюймы, не точнее десятых (например, 3 или 1.5)",
            "pl": "odległość '1.55': podaj cale, najwyżej do dziesiątych (np. 3 lub 1.5)",
        },
    ),
    "house-rule-bounds-and-why": (
        ("fs", "house-rule", "threats.leader_lost.medium", "--", "-2"),
        {
            "en": "threats.leader_lost.medium is a threat level: NTR (no test) or 0 and up, not -2; a threat adds to "
            "the morale test's target (LV + threat, §0.4) and no row of the table lowers it (§0.5)",
            "ru": "threats.leader_lost.medium — уровень угрозы: NTR (без теста) или от 0 и выше, а не -2; угроза "
            "прибавляется к цели теста на боевой дух (LV + угроза, §0.4), и ни одна строка таблицы её не снижает "
            "(§0.5)",
            "pl": "threats.leader_lost.medium jest poziomem zagrożenia: NTR (bez testu) albo od 0 w górę, a nie -2; "
            "zagrożenie dodaje się do celu testu morale (LV + zagrożenie, §0.4) i żaden wiersz tabeli go nie "
            "obniża (§0.5)",
        },
    ),
    "house-rule-one-of": (
        ("fs", "house-rule", "measure.decimals", "3"),
        {
            "en": "measure.decimals is one of 0, 1, not 3",
            "ru": "measure.decimals — одно из: 0, 1, а не 3",
            "pl": "measure.decimals jest jednym z: 0, 1, a nie 3",
        },
    ),
    "house-rule-a-die": (
        ("fs", "house-rule", "psi.rules.android_resist_die", "7"),
        {
            "en": "psi.rules.android_resist_die is a die: one of d4, d6, d8, d10, d12, d20, d100 (give its sides, "
            "e.g. 8), not 7",
            "ru": "psi.rules.android_resist_die — кубик: один из d4, d6, d8, d10, d12, d20, d100 (укажите число "
            "граней, например 8), а не 7",
            "pl": "psi.rules.android_resist_die jest kością: jedną z d4, d6, d8, d10, d12, d20, d100 (podaj liczbę "
            "ścian, np. 8), a nie 7",
        },
    ),
}


@pytest.mark.parametrize("case", FIVE_GRADES)
def test_a_five_grade_refusal_says_its_shared_words_in_the_readers_language(fs: Cli, case: str) -> None:
    said_in_each_language(fs, *FIVE_GRADES[case])


@pytest.mark.parametrize(
    ("lang", "trigger"),
    [("ru", "впервые за бой обстреляны"), ("pl", "po raz pierwszy w bitwie pod ostrzałem"), ("en", "fired_on")],
)
def test_a_trigger_typed_as_the_refusal_names_it_is_read_as_its_value(fs: Cli, lang: str, trigger: str) -> None:
    # the refusal names green troops' triggers in the seed's words: typed so, each is the trigger fired_on, whose
    # first test comes with the fire itself (and not "not a trigger of green troops")
    before = fs.events()
    result = fs("--lang", "en", "fs", "panic", "Alpha", "--trigger", trigger, code=2)
    assert " ".join(result.stderr.split()).startswith("error: Alpha has not been fired on: record the fire"), lang
    assert fs.events() == before


def test_a_threat_row_typed_in_the_seeds_words_is_recorded_as_its_value(tmp_path: Path) -> None:
    fs = Cli(str(tmp_path / "fs.db"))
    fs("new", "Otlok Front", "--ruleset", "fighting-spirit")
    fs("fs", "muster", "Alpha", "--side", "Keno", "--quality", "green", "--lv", "2", "--size", "5")
    fs("fs", "muster", "Bravo", "--side", "Otlok", "--quality", "regular", "--lv", "2", "--size", "5")
    fs("fs", "battle-start", "Hill", "--side", "Keno=low", "--side", "Otlok=low", "--unit", "Alpha", "--unit", "Bravo")
    done = fs.json("--lang", "ru", "fs", "morale", "Alpha", "--threat", "потерян командир", "--dice", "1")
    assert done["events"][0]["payload"]["args"]["rows"] == ["leader_lost"]  # the log records the value


@pytest.fixture(scope="module")
def dis(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    """Sabugal being fought: the 95th Rifles (Sharpe's) against the Fusiliers (Dubreton's)."""
    c = Cli(str(tmp_path_factory.mktemp("dis") / "dis.db"))
    c("new", "Peninsula", "--ruleset", "disorder")
    c("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    c("dis", "muster", "Fusiliers", "--side", "French", "--models", "12", "--troops", "line", "--points", "80")
    c("dis", "officer", "British", "Sharpe")
    c("dis", "officer", "French", "Dubreton")
    c("dis", "battle-start", "Sabugal", "--unit", "95th Rifles", "--unit", "Fusiliers")
    return c


DISORDER = {
    "causes-listed-as-terms": (
        ("dis", "check", "Fusiliers", "--cause", "dragons", "--dice", "6,5"),
        {
            "en": "unknown causes: dragons; choose from casualties, friend_removed, officer_removed, force_half",
            "ru": "неизвестные причины: dragons; выберите из: потери; союзный юнит в 12” удален из игры; офицер "
            "выбыл из игры; отряд потерял половину численности по очкам",
            "pl": "nieznane przyczyny: dragons; wybierz spośród: straty; usunięto sojuszniczą jednostkę w promieniu "
            '12"; oficer wyeliminowany; utrata połowy punktów oddziału',
        },
    ),
    "a-cause-as-a-term": (
        ("dis", "check", "Fusiliers", "--cause", "officer_removed", "--dice", "6,5"),
        {
            "en": "Fusiliers cannot check for officer_removed: its officer is in play",
            "ru": "Fusiliers: проверка за «офицер выбыл из игры» невозможна: офицер отряда ещё в игре",
            "pl": "Fusiliers: sprawdzian za „oficer wyeliminowany” niemożliwy: oficer oddziału jest w grze",
        },
    ),
    "the-retreat": (
        ("dis", "retreat", "Fusiliers", "--needed", "2.555"),
        {
            "en": "the retreat '2.555': give inches, to 2 decimal places at most",
            "ru": "отступление '2.555': укажите дюймы, знаков после точки не больше: 2",
            "pl": "odwrót '2.555': podaj cale, miejsc po przecinku najwyżej: 2",
        },
    ),
    "house-rule-at-least-one": (
        ("dis", "house-rule", "markers.flees_at", "0"),
        {
            "en": "markers.flees_at is at least 1, not 0",
            "ru": "markers.flees_at — не меньше 1, а не 0",
            "pl": "markers.flees_at jest co najmniej 1, a nie 0",
        },
    ),
}


@pytest.mark.parametrize("case", DISORDER)
def test_a_disorder_refusal_says_its_shared_words_in_the_readers_language(dis: Cli, case: str) -> None:
    said_in_each_language(dis, *DISORDER[case])


@pytest.mark.parametrize(("lang", "cause"), [("ru", "офицер выбыл из игры"), ("pl", "oficer wyeliminowany")])
def test_a_cause_typed_in_the_seeds_words_is_read_as_its_value(dis: Cli, lang: str, cause: str) -> None:
    result = dis("--lang", "en", "dis", "check", "Fusiliers", "--cause", cause, "--dice", "6,5", code=2)
    assert result.stderr.strip() == "error: Fusiliers cannot check for officer_removed: its officer is in play", lang


def test_a_grimdark_value_out_of_its_bounds_is_refused_in_the_readers_words(tmp_path: Path) -> None:
    gf = Cli(str(tmp_path / "gf.db"))
    gf("new", "Sector 7", "--ruleset", "grimdark")
    unit = ("gf", "muster", "Wolves", "--side", "Wolves", "--size", "5", "--defense", "3", "--points", "100")
    said_in_each_language(
        gf,
        (*unit, "--quality", "4", "--xp", "-1"),
        {
            "en": "gf muster: xp cannot be negative",
            "ru": "gf muster: опыт: не может быть отрицательным",
            "pl": "gf muster: doświadczenie: nie może być ujemne",
        },
    )
    said_in_each_language(
        gf,
        (*unit, "--quality", "7"),
        {
            "en": "gf muster: not a Grimdark Future unit profile: quality must be at most 6",
            "ru": "gf muster: это не профиль подразделения Grimdark Future: качество: значение должно быть не больше 6",
            "pl": "gf muster: to nie jest profil oddziału Grimdark Future: jakość: wartość może wynosić najwyżej 6",
        },
    )


def test_what_mass_combat_money_pays_for_is_said_in_the_readers_words(tmp_path: Path) -> None:
    mc = Cli(str(tmp_path / "mc.db"))
    mc("new", "Border War", "--ruleset", "mass-combat")
    mc("mc", "funds", "Azure", "50", "--reason", "loot")
    said_in_each_language(
        mc,
        ("mc", "raise", "Grey", "--side", "Azure", "--men", "50", "--quality", "green", "--troop-type", "HI"),
        {
            "en": "the treasury of Azure holds $50; it cannot cover raising Grey ($450,000)",
            "ru": "в казне стороны Azure $50; этого не хватит на набор отряда Grey ($450 000)",
            "pl": "w skarbcu strony Azure jest $50; nie wystarczy na wystawienie oddziału Grey ($450 000)",
        },
    )


def test_fatigues_stated_for_one_side_are_named_in_the_seeds_words(tmp_path: Path) -> None:
    fs = Cli(str(tmp_path / "fs.db"))
    fs("new", "Otlok Front", "--ruleset", "fighting-spirit")
    for name, side in (("A1", "Keno"), ("A2", "Keno"), ("B", "Otlok")):
        fs("fs", "muster", name, "--side", side, "--quality", "green", "--lv", "2", "--size", "5")
    said_in_each_language(
        fs,
        (
            "fs",
            "battle-start",
            "H",
            "--side",
            "Keno=low",
            "--side",
            "Otlok=low",
            "--unit",
            "A1=fresh",
            "--unit",
            "A2=tired",
            "--unit",
            "B",
        ),
        {
            "en": "Keno has one fatigue for all its troops (§0.3), not several for units of one side: fresh, tired",
            "ru": "у стороны Keno одна усталость на все войска (§0.3), а не несколько для подразделений одной "
            "стороны: свежие; уставшие",
            "pl": "strona Keno ma jedno zmęczenie dla wszystkich swoich wojsk (§0.3), a nie kilka dla oddziałów "
            "jednej strony: wypoczęci; zmęczeni",
        },
    )
