"""Numbers, money and dates in the reader's locale: Babel's CLDR data, and English by Python's own format
specification, held equal to Babel's ``en`` here."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from babel.numbers import format_decimal
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.i18n import formats, reading_in
from tests.conftest import examples

NBSP = "\N{NO-BREAK SPACE}"


@settings(max_examples=examples(60))
@given(st.integers(min_value=-(10**12), max_value=10**12))
def test_english_numbers_are_babels_without_loading_it(n: int) -> None:
    shown = formats.number(n, lang="en")
    assert shown.replace("−", "-") == format_decimal(n, locale="en_US")


@settings(max_examples=examples(60))
@given(st.decimals(min_value=-(10**9), max_value=10**9, places=2, allow_nan=False, allow_infinity=False))
def test_english_decimals_are_babels(value: Decimal) -> None:
    assert formats.decimal(value, places=2, lang="en").replace("−", "-") == format_decimal(
        value, format="#,##0.00", locale="en_US"
    )


@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("en", 12500, "12,500"),
        ("ru", 12500, f"12{NBSP}500"),
        ("pl", 12500, f"12{NBSP}500"),
        ("ru", -1234567, f"−1{NBSP}234{NBSP}567"),
        ("en", 999, "999"),
    ],
)
def test_thousands_are_grouped_as_the_locale_groups_them(lang: str, n: int, expected: str) -> None:
    assert formats.number(n, lang=lang) == expected


def test_the_decimal_mark_and_the_reader_of_the_moment() -> None:
    assert formats.decimal("86.4") == "86.4"
    with reading_in("ru"):
        assert formats.decimal("86.4") == "86,4"
        assert formats.decimal("1234.5") == f"1{NBSP}234,5"
    with reading_in("pl"):
        assert formats.decimal(Decimal("1.125"), places=2) == "1,12"  # half to even, as Babel rounds
    assert formats.number(5, signed=True) == "+5"


def test_money_without_cents_in_the_locales_currency_format() -> None:
    assert formats.money(12500, "USD", lang="en") == "$12,500"
    assert formats.money(-12500, "USD", lang="en") == "−$12,500"
    assert formats.money(12500, "USD", lang="ru") == f"12{NBSP}500{NBSP}$"
    assert formats.money(12500, "USD", lang="pl") == f"12{NBSP}500{NBSP}USD"
    assert formats.money(500, lang="ru") == "500"  # a treasury in no currency: a number


def test_dates_in_the_locales_long_form() -> None:
    day = dt.date(2027, 1, 2)
    assert formats.date(day, lang="en") == "January 2, 2027"
    assert formats.date(day, lang="ru").startswith("2 января 2027")
    assert formats.date(day, lang="pl") == "2 stycznia 2027"


def test_percent() -> None:
    assert formats.percent(75, lang="en") == "75%"
    assert formats.percent(75, lang="ru") == f"75{NBSP}%"
