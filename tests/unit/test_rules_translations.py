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
