"""The reader's language (campaign.i18n): how it is chosen, plural forms, lazy strings, Accept-Language."""

from __future__ import annotations

import threading

import pytest

from campaign.i18n import DEFAULT, _, language, lazy, negotiate, ngettext, reading_in, use
from campaign.i18n.choice import chosen, in_arguments, named
from events.errors import InvalidInputError


@pytest.mark.parametrize(
    ("option", "environ", "expected"),
    [
        ("ru", {"CAMPAIGN_LANG": "pl", "LC_ALL": "en_US.UTF-8"}, "ru"),  # --lang first
        (None, {"CAMPAIGN_LANG": "pl", "LC_ALL": "ru_RU.UTF-8"}, "pl"),  # then CAMPAIGN_LANG
        (None, {"LC_ALL": "ru_RU.UTF-8", "LC_MESSAGES": "pl_PL.UTF-8", "LANG": "en_GB.UTF-8"}, "ru"),  # LC_ALL
        (None, {"LC_MESSAGES": "pl_PL.UTF-8", "LANG": "ru_RU.UTF-8"}, "pl"),  # then LC_MESSAGES
        (None, {"LANG": "ru_RU.UTF-8"}, "ru"),  # then LANG
        (None, {"LANG": "pl"}, "pl"),
        (None, {"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, "en"),  # C is English, and it decides
        (None, {"LANG": "de_DE.UTF-8"}, "en"),  # a locale the program does not speak: English
        (None, {"LANG": "sr_RS@latin"}, "en"),
        (None, {}, "en"),
        (None, {"CAMPAIGN_LANG": " ", "LANG": "pl_PL"}, "pl"),  # an empty variable is not set
    ],
)
def test_the_language_is_chosen_by_option_then_environment_then_locale(
    option: str | None, environ: dict[str, str], expected: str
) -> None:
    assert chosen(option, environ) == expected


@pytest.mark.parametrize("typed", ["RU", "ru_RU.UTF-8", "ru-RU", " pl ", "pl_PL@euro", "EN"])
def test_a_language_named_is_read_however_it_is_spelt(typed: str) -> None:
    assert named(typed) in ("ru", "pl", "en")


@pytest.mark.parametrize("typed", ["de", "russian", "", "r"])
def test_a_language_the_program_does_not_speak_is_refused_by_name(typed: str) -> None:
    with pytest.raises(InvalidInputError, match="one of en, ru, pl"):
        named(typed)
    with pytest.raises(InvalidInputError, match="CAMPAIGN_LANG is one of"):
        chosen(None, {"CAMPAIGN_LANG": typed or "xx"})


def test_the_option_is_found_anywhere_before_a_double_dash() -> None:
    assert in_arguments(["status", "--lang", "ru"]) == ("ru", False)
    assert in_arguments(["--lang=pl", "log", "--json"]) == ("pl", True)
    assert in_arguments(["fs", "funds", "Keno", "--", "--lang", "ru"]) == (None, False)


@pytest.mark.parametrize(
    ("n", "ru", "pl"),
    # CLDR's forms, worked by hand: Russian one (1, 21, 101), few (2–4, 22–24), many (0, 5–20, 11–14, 25…);
    # Polish one (1 only), few (2–4, 22–24 but not 12–14), many (0, 5–21, 25…).
    [
        (1, "−1 градация", "−1 stopień"),
        (2, "−2 градации", "−2 stopnie"),
        (4, "−4 градации", "−4 stopnie"),
        (5, "−5 градаций", "−5 stopni"),
        (11, "−11 градаций", "−11 stopni"),
        (12, "−12 градаций", "−12 stopni"),
        (21, "−21 градация", "−21 stopni"),
        (22, "−22 градации", "−22 stopnie"),
        (25, "−25 градаций", "−25 stopni"),
        (0, "−0 градаций", "−0 stopni"),
    ],
)
def test_russian_and_polish_have_three_plural_forms(n: int, ru: str, pl: str) -> None:
    for lang, expected in (("ru", ru), ("pl", pl)):
        with reading_in(lang):
            assert ngettext("−{n} grade", "−{n} grades", n).format(n=n) == expected
    assert ngettext("−{n} grade", "−{n} grades", n).format(n=n) == f"−{n} grade{'' if n == 1 else 's'}"


def test_a_message_reads_in_the_language_of_the_moment_and_lazily() -> None:
    text = "Print the version and exit."
    later = lazy(text)
    assert _(text) == str(later) == text
    with reading_in("ru"):
        assert _(text) == str(later) == "Показать версию и выйти."
        with reading_in("pl"):
            assert f"{later}" == "Pokaż wersję i zakończ."
        assert language() == "ru"
    assert language() == DEFAULT
    assert _("a message no catalog has") == "a message no catalog has"
    with reading_in("pl"):
        assert _("a message no catalog has") == "a message no catalog has"  # English, never empty


def test_each_thread_reads_its_own_language() -> None:
    """A server sets the reader's language per request: one request's language never leaks into another's."""
    seen: dict[str, str] = {}
    start = threading.Barrier(2)

    def request(lang: str) -> None:
        with reading_in(lang):
            start.wait(timeout=5)
            seen[lang] = _("Print the version and exit.")

    threads = [threading.Thread(target=request, args=(lang,)) for lang in ("ru", "pl")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"ru": "Показать версию и выйти.", "pl": "Pokaż wersję i zakończ."}
    assert language() == DEFAULT


def test_use_refuses_a_language_it_does_not_speak() -> None:
    with pytest.raises(ValueError, match="not a language"):
        use("de")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
        ("de-DE,de;q=0.9,pl;q=0.5,en;q=0.3", "pl"),
        ("en-GB,en;q=0.9,ru;q=0.8", "en"),
        ("pl;q=0.2, ru;q=0.8", "ru"),
        ("ru;q=0, pl", "pl"),  # q=0 means "not this one"
        ("fr, de", "en"),
        ("", "en"),
        (None, "en"),
        ("ru;q=abc, pl;q=0.1", "pl"),  # an unreadable q counts as 0
        ("*", "en"),
    ],
)
def test_accept_language_is_negotiated_by_quality(header: str | None, expected: str) -> None:
    assert negotiate(header) == expected


def test_a_hostile_accept_language_is_cut_not_parsed_whole() -> None:
    assert negotiate(",".join(["xx"] * 100_000) + ",ru") == "en"
