"""A recorded command whose inputs no longer read (a log edited, or written by another version) is refused by the
name the command line gives it ("mc train", not "mc.train") and in the reader's language, the problems too."""

from __future__ import annotations

import pytest

from campaign.commands import recorded_command
from campaign.i18n import reading_in, refusal
from events.errors import InvalidInputError


def test_recorded_inputs_that_no_longer_read_are_said_in_the_readers_words() -> None:
    with pytest.raises(InvalidInputError) as refused:
        recorded_command("mc.train", None, {"unit_name": "Blue foot", "months": "lots"})
    assert str(refused.value) == "the recorded inputs of mc train no longer read: months must be a whole number"
    with reading_in("ru"):
        assert (
            refusal(refused.value)
            == "записанные данные команды mc train больше не читаются: месяцев: нужно целое число"
        )
    with reading_in("pl"):
        assert refusal(refused.value) == (
            "zapisanych danych polecenia mc train nie da się już odczytać: miesięcy: potrzebna liczba całkowita"
        )


def test_a_command_of_a_newer_program_is_named_as_typed() -> None:
    with pytest.raises(InvalidInputError) as refused:
        recorded_command("gf.battle_end", 99, {})
    assert str(refused.value).startswith("gf battle-end was recorded by a newer program (version ")
    with reading_in("ru"):
        assert refusal(refused.value).startswith("gf battle-end записана более новой программой (версия ")
