"""The narrowing reads the folds make of a recorded payload: a value of the shape asked for is handed on, as
Python's own conversion would hand it; one of another shape raises TypeError, as reading it raw would."""

from __future__ import annotations

import pytest

from events.recorded import flag, maybe_text, whole


def test_a_whole_number_is_the_number_and_a_boolean_becomes_one() -> None:
    assert whole(7) == 7
    assert whole("7") == 7
    # int(True) is 1: a boolean read as a number is the int, never the boolean handed on.
    assert type(whole(True)) is int
    assert whole(True) == 1


@pytest.mark.parametrize("value", [None, 1.5, [1], {"n": 1}])
def test_a_whole_number_of_another_shape_is_refused(value: object) -> None:
    with pytest.raises(TypeError):
        whole(value)


def test_a_flag_is_only_a_boolean() -> None:
    assert flag(True) is True
    assert flag(False) is False
    for value in (1, 0, "true", None):
        with pytest.raises(TypeError):
            flag(value)


def test_a_text_or_null() -> None:
    assert maybe_text("Red") == "Red"
    assert maybe_text(None) is None
    for value in (0, False, ["Red"]):
        with pytest.raises(TypeError):
            maybe_text(value)
