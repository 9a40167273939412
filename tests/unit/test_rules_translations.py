"""The rules in Russian and Polish hold to the English reference, clause by clause: the same clause numbers in
the same order, under each the same numbers, dice, provenance tags, citations and test-case ids, and every table
row. What they say is the translator's (the games' usage, the seeds' own terms); what they state is RULES.md's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign.rules_text import TRANSLATED, Clause, clauses

ROOT = Path(__file__).resolve().parents[2]
# The seeds live beside the checkout (shared/), not in it: in a clone, or a worktree one folder further down.
SEEDS = next(
    (p / "shared" / "seeds" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared" / "seeds").is_dir()), None
)
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


@pytest.mark.parametrize("lang", sorted(TRANSLATED))
def test_the_translations_are_whole(lang: str) -> None:
    assert [n for n, c in clauses(lang).items() if c.lang != lang] == []


def test_the_polish_clauses_are_the_polish_text() -> None:
    polish = clauses("pl")
    assert polish["0.4"].title.startswith("0.4 Test ducha bojowego")
    assert polish["4.1"].title.startswith("4.1 Obowiązujące zasady morale")
    assert polish["R3-25"].title.startswith("R3-25 — §4.1 Jednostka Shaken nie strzela")
    assert polish["5"].title.startswith("5. Warstwa kampanii")


@pytest.fixture
def partial_polish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A Polish text cut short inside §0, as a translation under way is: the clauses read anew from it."""
    whole = TRANSLATED["pl"].read_text(encoding="utf-8")
    cut = tmp_path / "RULES.pl.md"
    cut.write_text(whole[: whole.index("\n## 0.5 ")], encoding="utf-8")
    monkeypatch.setitem(TRANSLATED, "pl", cut)
    clauses.cache_clear()
    yield cut
    clauses.cache_clear()


@pytest.mark.usefixtures("partial_polish")
def test_a_clause_a_translation_has_not_reached_is_read_in_english_whole() -> None:
    polish, english = clauses("pl"), clauses()
    assert list(polish) == list(english)
    assert polish["0.4"].lang == "pl" and polish["0.4"].title.startswith("0.4 Test ducha bojowego")
    assert polish["0.5"].lang == "en" and polish["4.1"].lang == "en" and polish["R3-25"].lang == "en"
    # §0 is the whole of seed 000: the cut text has its first clauses only, so the section is read in English.
    assert polish["0"].lang == "en" and polish["0"].text == english["0"].text
    assert all(c.text == english[n].text for n, c in polish.items() if c.lang == "en")


def _spaced(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.skipif(SEEDS is None, reason="the seeds are not beside this checkout")
def test_the_polish_seed_004_quotes_the_polish_seed_word_for_word() -> None:
    """Seed 004 is Polish: where the rules quote it, the quotation is the seed's own sentence, not a translation
    back from the English (the code block's quotations are of army data, not of the seed)."""
    assert SEEDS is not None
    seed = _spaced((SEEDS / "004_4c8566711314fded.txt").read_text(encoding="utf-8"))
    polish = clauses("pl")
    prose = re.sub(r"```.*?```", "", polish["4.1"].text, flags=re.S)
    quoted = re.findall(r"„([^”]+)”", prose)
    quoted += [q for n in ("R3-25", "R3-26", "R3-27") for q in re.findall(r"«([^»]+)»", polish[n].text)]
    assert len(quoted) >= 10
    assert [q for q in quoted if _spaced(q) not in seed] == []
