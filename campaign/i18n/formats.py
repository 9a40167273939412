"""Numbers, money and dates in the reader's locale, by Babel (CLDR): ``12 500`` in Russian, ``12 500`` in Polish
(with a no-break space), ``12,500`` in English; ``1,5`` and ``1.5``; ``2 января 2027 г.``, ``2 stycznia 2027``.

A real minus sign (−) for a negative number, as the views print it, in every language. ``--json`` keeps numbers.

English is formatted without Babel, by Python's own format specification, which gives exactly what Babel's
``en`` locale gives for these forms (``tests/unit/test_i18n_formats.py`` holds the two equal): importing Babel
and loading a locale's CLDR data costs 47–64 ms of CPU (measured beside the ``.mo`` catalogs, see
:mod:`campaign.i18n`), a sixth of a command's whole start-up, which an English reader need not pay. A Russian or
Polish reader pays it once per process, on the first number formatted.
"""

from __future__ import annotations

import datetime as _dt
from decimal import Decimal

from campaign.i18n import DEFAULT, language

MINUS = "\N{MINUS SIGN}"
_BABEL_LOCALE = {"ru": "ru_RU", "pl": "pl_PL", "en": "en_US"}


def _signed(shown: str, negative: bool, signed: bool) -> str:
    return f"{MINUS}{shown}" if negative else f"+{shown}" if signed else shown


def number(n: int, *, signed: bool = False, lang: str | None = None) -> str:
    """A whole number with its thousands grouped as the reader's locale groups them; ``signed``: ``+`` on a gain."""
    chosen = lang or language()
    if chosen == DEFAULT:
        shown = f"{abs(n):,}"
    elif abs(n) < 1000:  # no locale groups fewer than four digits: a count of units needs no Babel (≈50 ms)
        shown = str(abs(n))
    else:
        from babel.numbers import format_decimal

        shown = format_decimal(abs(n), locale=_BABEL_LOCALE[chosen])
    return _signed(shown, n < 0, signed)


def decimal(value: Decimal | int | str, *, places: int | None = None, lang: str | None = None) -> str:
    """A decimal (``Decimal`` or its string: events hold no floats) in the reader's locale; ``places`` fixes the
    digits after the point (rounded half to even, as Babel rounds)."""
    chosen = lang or language()
    amount = Decimal(str(value))
    if places is not None:
        amount = amount.quantize(Decimal(1).scaleb(-places))
    negative = amount < 0
    amount = abs(amount)
    if chosen == DEFAULT:
        shown = f"{amount:,.{places}f}" if places is not None else f"{amount:,}"
        return _signed(shown, negative, False)
    from babel.numbers import format_decimal

    pattern = None if places is None else "#,##0." + "0" * places if places else "#,##0"
    shown = format_decimal(
        amount, format=pattern, locale=_BABEL_LOCALE[chosen], decimal_quantization=places is not None
    )
    return _signed(shown, negative, False)


def percent(value: Decimal | int | str, *, lang: str | None = None) -> str:
    """A share in per cent (``value`` already in per cent: ``75`` → ``75%``, ``75 %`` in Russian and Polish)."""
    chosen = lang or language()
    amount = Decimal(str(value))
    if chosen == DEFAULT:
        return _signed(f"{abs(amount):,}%", amount < 0, False)
    from babel.numbers import format_percent

    return _signed(format_percent(abs(amount) / 100, locale=_BABEL_LOCALE[chosen]), amount < 0, False)


def money(amount: int, currency: str | None = None, *, signed: bool = False, lang: str | None = None) -> str:
    """A sum in whole units. Without ``currency`` it is a number (five-grade and disorder treasuries count no
    currency); with one (``USD`` for Mass Combat's $), the locale's currency format, without cents: ``$12,500``,
    ``12 500 $``, ``12 500 USD``."""
    chosen = lang or language()
    if currency is None:
        return number(amount, signed=signed, lang=chosen)
    if chosen == DEFAULT and currency == "USD":
        return _signed(f"${abs(amount):,}", amount < 0, signed)
    from babel.core import Locale
    from babel.numbers import parse_pattern

    locale = Locale.parse(_BABEL_LOCALE[chosen])
    pattern = parse_pattern(locale.currency_formats["standard"].pattern)
    pattern.frac_prec = (0, 0)  # whole units: the games count no cents
    shown = pattern.apply(abs(amount), locale, currency=currency, currency_digits=False)
    return _signed(shown, amount < 0, signed)


def date(day: _dt.date, *, lang: str | None = None) -> str:
    """A calendar date in words, in the locale's long form (``January 2, 2027``; ``2 января 2027 г.``)."""
    from babel.dates import format_date

    return format_date(day, format="long", locale=_BABEL_LOCALE[lang or language()])


def moment(seconds: int, *, lang: str | None = None) -> str:
    """A moment (Unix seconds) as a person reads it, in UTC: ``5 Dec 2026, 02:58 UTC``; ``5 дек. 2026 г., 02:58
    UTC``; ``5 gru 2026, 02:58 UTC``."""
    at = _dt.datetime.fromtimestamp(seconds, _dt.UTC)
    lang = lang or language()
    if lang == DEFAULT:
        return f"{at.day} {at.strftime('%b %Y, %H:%M')} UTC"
    from babel.dates import format_datetime

    return format_datetime(at, "d MMM y, HH:mm", tzinfo=_dt.UTC, locale=_BABEL_LOCALE[lang]) + " UTC"
