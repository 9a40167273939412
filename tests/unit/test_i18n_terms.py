"""The seeds' own words: each ruleset's terms in three languages, the seed's word as the seed spells it, and a
word typed in any of the three read as the canonical value."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.i18n import reading_in
from campaign.i18n.terms import fold, read, shown, vocabulary
from campaign.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[2]
# The seeds live beside the checkout (shared/), not in it: in a clone, or a worktree one folder further down.
SEEDS = next(
    (p / "shared" / "seeds" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared" / "seeds").is_dir()), None
)
SEED_FILES = {
    "000": "000_9470262b08051880.txt",
    "001": "001_630f69bd394bf007.txt",
    "002": "002_d381bc3b6bfbdc74.txt",
    "004": "004_4c8566711314fded.txt",
}
# The sets whose seed-language words are the seed's own (the others are the project's wording of a seed's
# phrase, or of terms the seed lacks).
SEED_OWN = {
    "fighting-spirit": ("grade", "quality", "fatigue", "psi_rank"),
    "disorder": ("marker",),
    "mass-combat": (),
    "grimdark": ("status",),
}


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_every_term_has_words_in_three_languages_and_no_word_names_two_values(ruleset: str) -> None:
    words = vocabulary(ruleset)
    assert words.seed in SEED_FILES and words.seed_language in ("ru", "pl")
    for set_name in words.sets():
        seen: dict[str, str] = {}
        for value in words.values(set_name):
            for word in words.term(set_name, value).words():  # type: ignore[union-attr]
                assert seen.setdefault(word, value) == value, f"{ruleset} {set_name}: {word!r} names two values"


@pytest.mark.parametrize(("ruleset", "sets"), list(SEED_OWN.items()))
def test_the_seeds_own_words_are_spelt_as_the_seed_spells_them(ruleset: str, sets: tuple[str, ...]) -> None:
    if SEEDS is None:
        pytest.skip("the seeds are not beside this checkout")
    words = vocabulary(ruleset)
    seed = (SEEDS / SEED_FILES[words.seed]).read_text(encoding="utf-8")
    for set_name in sets:
        for value in words.values(set_name):
            term = words.term(set_name, value)
            assert term is not None
            name = term.names[words.seed_language]
            assert name in seed or name.lower() in seed.lower(), (
                f"{ruleset} {set_name}.{value}: {name!r} not in the seed"
            )


def test_seed_000s_grades_and_letters() -> None:
    """RULES.md §0.3 and the seed's list «пять градаций»: Уверенный (Ув) … Бегущий (Бе), Потрясенный with е."""
    with reading_in("ru"):
        assert [
            shown("fighting-spirit", "grade", g) for g in ("confident", "steady", "shaken", "broken", "routed")
        ] == ["Уверенный", "Стойкий", "Потрясенный", "Разбитый", "Бегущий"]
        assert [shown("fighting-spirit", "grade", g, short=True) for g in ("confident", "shaken", "routed")] == [
            "Ув",
            "По",
            "Бе",
        ]
    assert shown("fighting-spirit", "grade", "shaken") == "Shaken"
    assert shown("fighting-spirit", "grade", "shaken", short=True, lang="en") == "SH"
    assert shown("fighting-spirit", "grade", "no such grade") == "no such grade"  # shown as recorded


def test_seed_004_keeps_oprs_english_shaken() -> None:
    """Seed 004 writes «otrzymuje status Shaken» and «wykonuje Rout»: its own words are OPR's English ones."""
    assert shown("grimdark", "status", "shaken", lang="pl") == "Shaken"
    assert read("grimdark", "status", "wstrząśnięte") == "shaken"  # the article's "wstrząśnięte roboty"
    assert read("grimdark", "status", "rozbicie") == "rout"


@pytest.mark.parametrize(
    ("ruleset", "set_name", "typed", "value"),
    [
        ("fighting-spirit", "quality", "Новобранцы", "green"),
        ("fighting-spirit", "quality", "новобранцы", "green"),
        ("fighting-spirit", "quality", "REKRUCI", "green"),
        ("fighting-spirit", "quality", "Green", "green"),
        ("fighting-spirit", "grade", "потрясённый", "shaken"),  # Ё and Е alike
        ("fighting-spirit", "grade", "Потрясенный", "shaken"),
        ("fighting-spirit", "grade", "wstrzasniety", "shaken"),  # accents aside
        ("fighting-spirit", "grade", "ув", "confident"),
        ("fighting-spirit", "fatigue", "истощенные", "exhausted"),
        ("fighting-spirit", "psi_effect", "«Ни шагу назад!»", "no_step_back"),
        ("mass-combat", "quality", "Бывалые", "seasoned"),
        ("mass-combat", "quality", "зелёные", "green"),
        ("mass-combat", "mount", "light horse", "light_horse"),
        ("mass-combat", "mount", "Light-Horse", "light_horse"),
        ("disorder", "state", "дезорганизован", "disordered"),
        ("disorder", "troops", "Lekka piechota", "light"),
    ],
)
def test_a_word_in_any_language_reads_as_the_canonical_value(
    ruleset: str, set_name: str, typed: str, value: str
) -> None:
    assert read(ruleset, set_name, typed) == value


@pytest.mark.parametrize("typed", ["Новобранцыы", "", "green troops of doom", "Ув Ст"])
def test_a_word_of_no_term_reads_as_nothing(typed: str) -> None:
    assert read("fighting-spirit", "quality", typed) is None


def test_fold_keeps_russian_letters_apart_from_latin_accents() -> None:
    assert fold("Потрясённый") == fold("потрясенный")
    assert fold("Wstrząśnięty") == "wstrzasniety"
    assert fold("Złamany") == "zlamany"
    assert fold("Бегущий") == "бегущий"  # й stays й: only Latin marks are dropped
    assert fold(" light_horse ") == "light horse"
