"""A refusal that says a count says it in the form the reader's language takes for that count: English's two
forms, Russian's and Polish's three (1 / 2–4 / 5 and more; Russian 21 as 1, Polish 12–14 as 5). The words are
written here by hand from the grammar and the seeds' terms; each refusal exits non-zero and appends nothing."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from campaign.i18n import reading_in, refusal
from campaign.i18n.catalogs import extracted
from events.errors import InvalidInputError, Words
from tests.e2e.test_cli import Cli


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


@pytest.fixture(scope="module")
def peninsula(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    """A disorder campaign whose givers have 1, 2, 5 and 21 models to spare (one model always stays)."""
    c = Cli(str(tmp_path_factory.mktemp("plural") / "dis.db"))
    c("new", "Peninsula", "--ruleset", "disorder")
    for name, models in (("Pickets", 2), ("Skirmishers", 3), ("Fusiliers", 6), ("Grenadiers", 22), ("Line", 30)):
        c("dis", "muster", name, "--side", "French", "--models", str(models), "--troops", "line", "--points", "80")
    return c


@pytest.mark.parametrize(
    ("giver", "said"),
    [
        (
            "Pickets",
            {
                "en": "Pickets has 1 model to spare (one stays); it cannot transfer 40",
                "ru": "у Pickets 1 свободная модель (одна остаётся); передать 40 нельзя",
                "pl": "Pickets ma 1 wolny model (jeden zostaje); nie można przenieść 40",
            },
        ),
        (
            "Skirmishers",
            {
                "en": "Skirmishers has 2 models to spare (one stays); it cannot transfer 40",
                "ru": "у Skirmishers 2 свободные модели (одна остаётся); передать 40 нельзя",
                "pl": "Skirmishers ma 2 wolne modele (jeden zostaje); nie można przenieść 40",
            },
        ),
        (
            "Fusiliers",
            {
                "en": "Fusiliers has 5 models to spare (one stays); it cannot transfer 40",
                "ru": "у Fusiliers 5 свободных моделей (одна остаётся); передать 40 нельзя",
                "pl": "Fusiliers ma 5 wolnych modeli (jeden zostaje); nie można przenieść 40",
            },
        ),
        (
            "Grenadiers",  # 21: Russian's "one" form (21 модель), Polish's "many" (21 modeli)
            {
                "en": "Grenadiers has 21 models to spare (one stays); it cannot transfer 40",
                "ru": "у Grenadiers 21 свободная модель (одна остаётся); передать 40 нельзя",
                "pl": "Grenadiers ma 21 wolnych modeli (jeden zostaje); nie można przenieść 40",
            },
        ),
    ],
)
@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_a_transfer_past_what_a_unit_has_counts_its_models_in_the_readers_plural(
    peninsula: Cli, lang: str, giver: str, said: dict[str, str]
) -> None:
    before = peninsula.events()
    out = peninsula("--lang", lang, "dis", "transfer", giver, "Line", "--men", "40", code=2).output
    assert said[lang] in flat(out)
    assert "Traceback" not in out
    assert peninsula.events() == before


@pytest.fixture(scope="module")
def front(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    c = Cli(str(tmp_path_factory.mktemp("plural") / "fs.db"))
    c("new", "Otlok Front", "--ruleset", "fighting-spirit")
    return c


@pytest.mark.parametrize(
    ("notation", "faces", "said"),
    [
        (
            "3d6",
            "4",
            {
                "en": "not enough table dice: test needs 3d6, but 1 die was entered",
                "ru": "не хватает кубиков со стола: для test нужно 3d6, а введён 1 кубик",
                "pl": "za mało kości ze stołu: test wymaga 3d6, a wprowadzono 1 kość",
            },
        ),
        (
            "5d6",
            "4,2",
            {
                "en": "not enough table dice: test needs 5d6, but 2 dice were entered",
                "ru": "не хватает кубиков со стола: для test нужно 5d6, а введено 2 кубика",
                "pl": "za mało kości ze stołu: test wymaga 5d6, a wprowadzono 2 kości",
            },
        ),
        (
            "6d6",
            "1,2,3,4,5",
            {
                "en": "not enough table dice: test needs 6d6, but 5 dice were entered",
                "ru": "не хватает кубиков со стола: для test нужно 6d6, а введено 5 кубиков",
                "pl": "za mało kości ze stołu: test wymaga 6d6, a wprowadzono 5 kości",
            },
        ),
    ],
)
@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_too_few_table_dice_are_counted_in_the_readers_plural(
    front: Cli, lang: str, notation: str, faces: str, said: dict[str, str]
) -> None:
    before = front.events()
    out = front("--lang", lang, "roll", notation, "--purpose", "test", "--dice", faces, code=2).output
    assert said[lang] in flat(out)
    assert front.events() == before


def test_a_counted_refusal_is_one_message_with_plural_forms_in_the_catalogs() -> None:
    """The catalogs hold a counted sentence as msgid and msgid_plural (as ngettext's), not two messages."""
    catalog = extracted({}, [])
    found = catalog.get("{giver} has {n} man; it cannot transfer {men}")
    assert found is not None and found.pluralizable
    assert found.id == (
        "{giver} has {n} man; it cannot transfer {men}",
        "{giver} has {n} men; it cannot transfer {men}",
    )
    assert catalog.get("{giver} has {n} men; it cannot transfer {men}") is None


@dataclass(frozen=True)
class _Unit:
    unit_id: str
    name: str
    side: str
    disbanded: str | None = None


@pytest.mark.parametrize(
    ("n", "en", "ru", "pl"),
    [
        (1, "Alpha has 1 man; it cannot transfer 40", "у Alpha 1 человек; передать 40 нельзя", "Alpha ma 1 człowieka"),
        (2, "Alpha has 2 men; it cannot transfer 40", "у Alpha 2 человека; передать 40 нельзя", "Alpha ma 2 ludzi"),
        (5, "Alpha has 5 men; it cannot transfer 40", "у Alpha 5 человек; передать 40 нельзя", "Alpha ma 5 ludzi"),
        (11, "Alpha has 11 men; it cannot transfer 40", "у Alpha 11 человек; передать 40 нельзя", "Alpha ma 11 ludzi"),
        (22, "Alpha has 22 men; it cannot transfer 40", "у Alpha 22 человека; передать 40 нельзя", "Alpha ma 22 ludzi"),
    ],
)
def test_a_counted_refusal_takes_each_languages_form_for_its_count(n: int, en: str, ru: str, pl: str) -> None:
    from campaign.rulesets.common import check_transfer

    giver, receiver = _Unit("u1", "Alpha", "Steel"), _Unit("u2", "Bravo", "Steel")
    with pytest.raises(InvalidInputError) as refused:
        check_transfer(giver, receiver, 40, n, "men")
    assert str(refused.value) == en
    with reading_in("ru"):
        assert refusal(refused.value) == ru
    with reading_in("pl"):
        assert refusal(refused.value).startswith(pl)


def test_a_count_inside_a_counted_sentence_takes_its_own_form() -> None:
    """Two counts in one sentence, each with its own forms: 2d6 needs two dice, and one was entered."""
    from events.dice import parse

    with pytest.raises(InvalidInputError) as refused:
        parse("2d6").check_faces((4,))
    assert str(refused.value) == "2d6 needs 2 dice, but 1 was entered"
    with reading_in("ru"):
        assert refusal(refused.value) == "для 2d6 нужно 2 кубика, а введён 1"
    with reading_in("pl"):
        assert refusal(refused.value) == "2d6 wymaga 2 kości, a wprowadzono 1"
    one = Words.counted("{n} was entered", "{n} were entered", n=3)
    assert str(one) == "3 were entered"


def test_a_counted_sentence_groups_its_number_as_the_reader_does() -> None:
    """``{n:,}`` in a counted sentence: 1,000 in English, 1 000 in Russian (and the "many" form for 1000)."""
    said = Words.counted("{n:,} new roll", "{n:,} new rolls", n=1000)
    assert str(said) == "1,000 new rolls"
    from campaign.i18n import words_said

    with reading_in("ru"):
        assert words_said(said).replace("\xa0", " ") == "1 000 new rolls"  # not in the catalogs: its English


@pytest.mark.parametrize(
    ("rolls", "left", "en", "ru", "pl"),
    [
        (
            1,
            (4,),
            "the amendment rolls 1 new roll (2 of the faces given); 4 was not used",
            "поправка делает 1 новый бросок (использовано граней из данных: 2); не использована грань 4",
            "poprawka wykonuje 1 nowy rzut (użyto podanych ścianek: 2); nie użyto ścianki 4",
        ),
        (
            3,
            (4, 2),
            "the amendment rolls 3 new rolls (2 of the faces given); 4, 2 were not used",
            "поправка делает 3 новых броска (использовано граней из данных: 2); не использованы грани 4, 2",
            "poprawka wykonuje 3 nowe rzuty (użyto podanych ścianek: 2); nie użyto ścianek 4, 2",
        ),
        (
            5,
            (6,),
            "the amendment rolls 5 new rolls (2 of the faces given); 6 was not used",
            "поправка делает 5 новых бросков (использовано граней из данных: 2); не использована грань 6",
            "poprawka wykonuje 5 nowych rzutów (użyto podanych ścianek: 2); nie użyto ścianki 6",
        ),
    ],
)
def test_an_amendments_faces_left_over_count_its_rolls_and_its_faces_each_in_its_own_form(
    rolls: int, left: tuple[int, ...], en: str, ru: str, pl: str
) -> None:
    from types import SimpleNamespace
    from typing import Any, cast

    from campaign import timeline

    faces = cast(Any, SimpleNamespace(position=2, left=lambda: left))
    report = cast(Any, SimpleNamespace(new_dice=[object()] * rolls))
    with pytest.raises(InvalidInputError) as refused:
        timeline._unused_faces(faces, report)
    assert str(refused.value).startswith(en + ": check what was entered")
    with reading_in("ru"):
        assert refusal(refused.value).startswith(ru + " — проверьте")
    with reading_in("pl"):
        assert refusal(refused.value).startswith(pl + " — sprawdź")


@pytest.mark.parametrize(
    ("shares", "en", "ru", "pl"),
    [
        (1, "commits 1 share of entropy", "журнал вносит 1 долю энтропии в зерно", "zgłasza 1 udział entropii do"),
        (3, "commits 3 shares of entropy", "журнал вносит 3 доли энтропии в зерно", "zgłasza 3 udziały entropii do"),
        (5, "commits 5 shares of entropy", "журнал вносит 5 долей энтропии в зерно", "zgłasza 5 udziałów entropii do"),
    ],
)
def test_shares_of_entropy_missing_here_are_counted_in_the_readers_plural(
    shares: int, en: str, ru: str, pl: str
) -> None:
    """No "share(s)": the log's count of the seed's shares, against the none this database holds."""
    from types import SimpleNamespace
    from typing import Any, cast

    from campaign.executor import Ledger
    from events.errors import NotFoundError

    ledger = cast(Any, SimpleNamespace(vault=SimpleNamespace(shares=lambda _campaign, _epoch: [])))
    info = cast(Any, SimpleNamespace(campaign_id="c1", seed_epoch=1, epoch_shares=shares))
    with pytest.raises(NotFoundError) as refused:
        Ledger._held_shares(ledger, info)
    assert en in str(refused.value) and "holds 0: its dice cannot be derived here" in str(refused.value)
    with reading_in("ru"):
        assert ru in refusal(refused.value)
    with reading_in("pl"):
        assert pl in refusal(refused.value)
