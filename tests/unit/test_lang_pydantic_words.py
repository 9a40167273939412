"""The kinds of pydantic error a person can reach from a command model, each said in the program's words and in the
reader's language, never pydantic's English ("Input should be a valid tuple", "Value error, …"): the name rule's
(a custom kind, its words kept in the error), a model's own check (a value error), a list input given as one value
through the API (a tuple type). The Russian and Polish are the catalogs' words for those sentences."""

from __future__ import annotations

import pytest

from campaign.commands import entered_command_type
from campaign.i18n import reading_in, refusal
from campaign.server.forms import field_errors
from campaign.server.runner import build
from events.errors import InvalidInputError


def refused(command: str, inputs: dict[str, object]) -> dict[str, str]:
    """What the API's build (``campaign.server.runner.build``) refuses ``inputs`` with, in each language (in a
    five-grade campaign: every command here is one of its)."""
    with pytest.raises(InvalidInputError) as caught:
        build(command, inputs, "fighting-spirit")
    said = {"en": str(caught.value)}
    for lang in ("ru", "pl"):
        with reading_in(lang):
            said[lang] = refusal(caught.value)
    return said


def test_a_list_input_given_one_value_is_refused_as_not_a_list() -> None:
    said = refused("fs.battle_start", {"battle_name": "Hill 203", "motivation": {}, "deployments": "Alpha"})
    assert "valid tuple" not in said["en"]
    assert said["en"].endswith("deployments must be a list")
    assert said["ru"].endswith("расстановка: нужен список")
    assert said["pl"].endswith("rozstawienie: potrzebna lista")


def test_a_name_the_name_rule_refuses_is_said_in_the_readers_language() -> None:
    said = refused("fs.attack", {"unit_name": "   "})
    assert said["en"] == "fs attack: unit name must not be empty"
    # the argument named as the page's form labels it, the rule's words in the reader's language
    assert said["ru"] == "fs attack: имя подразделения: пустое значение недопустимо"
    assert said["pl"] == "fs attack: nazwa oddziału: pusta wartość jest niedozwolona"


@pytest.mark.parametrize(
    ("lang", "unit", "friend_at"),
    [
        ("en", "must not be empty", "must be inches as measured (e.g. 6 or 6.5)"),
        ("ru", "пустое значение недопустимо", "должно быть в дюймах, как измерено (например, 6 или 6.5)"),
        ("pl", "pusta wartość jest niedozwolona", "musi być w calach, jak zmierzono (np. 6 lub 6.5)"),
    ],
)
def test_a_forms_field_errors_are_the_programs_words_in_the_readers_language(
    lang: str, unit: str, friend_at: str
) -> None:
    """The page's form beside each field: the name rule's and the model's own check's words, no "Value error, "."""
    with reading_in(lang):
        found = field_errors(entered_command_type("dis.check"), {"unit_name": "", "friend_at": "abc"})
    assert found["unit_name"] == unit
    assert found["friend_at"] == friend_at


def test_a_number_out_of_range_names_its_input_and_the_bound_as_the_reader_does() -> None:
    """The input rules (events/limits.py), before the model: the input by the words its option is labelled with
    (its Russian and Polish), the bound grouped by the reader's locale (1 000 000 000, a no-break space)."""
    said = refused("fs.attack", {"unit_name": "Keno 3rd Squad", "killed": 10**12})
    assert said["en"] == "fs attack: killed 1000000000000 is out of range: numbers are within ±1,000,000,000"
    nbsp = "\xa0"
    assert said["ru"] == (
        "fs attack: убито 1000000000000 вне допустимого диапазона: числа должны быть в пределах "
        f"±1{nbsp}000{nbsp}000{nbsp}000"
    )
    assert said["pl"] == (
        "fs attack: zabici 1000000000000 jest poza zakresem: liczby mieszczą się w granicach "
        f"±1{nbsp}000{nbsp}000{nbsp}000"
    )
