"""The rules in Russian and Polish hold to the English reference, clause by clause: the same clause numbers in
the same order, under each the same numbers, dice, provenance tags, citations and test-case ids, and every table
row. What they say is the translator's (the games' usage, the seeds' own terms); what they state is RULES.md's."""

from __future__ import annotations

import re

import pytest

from campaign.rules_text import TRANSLATED, Clause, clauses

NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])|(?<=[dDкk])\d+")
TAG = re.compile(r"\[(SEED-DERIVED|SEED|PUB|INF|PLACEHOLDER)\b")
CITED = re.compile(r"§ ?\d+(?:\.\d+)*|\bR[23]-\d+\b|\b[A-D]-\d+\b|\b(?:E|D|C|O)\d+[ab]?\b|\bT-Titus\b")


def numbers(text: str) -> set[str]:
    """The numbers a text states, the decimal comma read as a point (``1,5`` is ``1.5``)."""
    return {n.replace(",", ".") for n in NUMBER.findall(re.sub(r"(\d),(\d)", r"\1.\2", text))}


def facts(clause: Clause) -> dict[str, object]:
    body = clause.text
    own = body.split("\n", 1)[1] if "\n" in body else ""
    return {
        "numbers": numbers(body),
        "tags": sorted(set(TAG.findall(body))),
        "cited": sorted(set(CITED.findall(body))),
        "table rows": sum(1 for line in own.splitlines() if line.lstrip().startswith("|")),
    }


@pytest.mark.parametrize("lang", sorted(TRANSLATED))
def test_the_same_clauses_in_the_same_order(lang: str) -> None:
    assert list(clauses(lang)) == list(clauses())


@pytest.mark.parametrize("lang", sorted(TRANSLATED))
def test_each_clause_states_what_the_english_states(lang: str) -> None:
    english, translated = clauses(), clauses(lang)
    differ = {}
    for number, clause in english.items():
        if number not in translated:
            continue
        want, got = facts(clause), facts(translated[number])
        for key in want:
            if want[key] != got[key]:
                w, g = want[key], got[key]
                said = (sorted(w - g), sorted(g - w)) if isinstance(w, set) and isinstance(g, set) else (w, g)
                differ[f"{number} {key}"] = said
    assert differ == {}


@pytest.mark.parametrize("lang", sorted(TRANSLATED))
def test_the_errata_amend_the_same_clauses(lang: str) -> None:
    english, translated = clauses(), clauses(lang)
    assert {n: [e.split(":")[0] for e in c.errata] for n, c in translated.items()} == {
        n: [e.split(":")[0] for e in c.errata] for n, c in english.items()
    }


def test_the_russian_rules_are_whole() -> None:
    assert [n for n, c in clauses("ru").items() if c.lang != "ru"] == []


def test_a_clause_the_polish_has_not_reached_is_read_in_english_whole() -> None:
    polish, english = clauses("pl"), clauses()
    assert polish["0.4"].lang == "pl" and polish["0.4"].title.startswith("0.4 Test ducha bojowego")
    # §0 is the whole of seed 000: the Polish has its first clauses only, so the section is read in English.
    if any(polish[n].lang != "pl" for n in english if n.startswith("0.")):
        assert polish["0"].lang == "en" and polish["0"].text == english["0"].text
    assert all(c.text == english[n].text for n, c in polish.items() if c.lang == "en")
