"""The rules as the program ships them (``campaign/RULES.md``, the third edition): a clause by its number.

Clause numbers are those the code cites: ``§0`` (a seed's whole section), ``§0.4`` (one clause), ``§5`` (the
campaign layer) and the errata of the second and third editions, ``R2-5`` and ``R3-5``. A clause is its heading
and everything under it down to the next heading of the same or a higher level; the errata that name a clause
are listed with it, since they override the body.

The reader's language: ``RULES.ru.md`` and ``RULES.pl.md`` beside it are the program's own translations, clause
by clause, with the same headings, numbers, tables, values and provenance tags (``tests/unit/test_rules_
translations.py`` holds each to the English structure), the games' usage and the seeds' own terms; where
RULES.md translated a seed's words, the seed's original wording is quoted beside them. English is the reference:
``clauses("ru")`` reads the Russian text, ``clauses()`` the English one. Both translations are whole; when a new
clause lands in English first, a translation that has not reached it yet reads it in English (``Clause.lang``),
and ``campaign rules`` says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib.resources.abc import Traversable
from pathlib import Path

from events.errors import NotFoundError

RULES = Path(__file__).resolve().parent / "RULES.md"
TRANSLATED = {"ru": RULES.with_name("RULES.ru.md"), "pl": RULES.with_name("RULES.pl.md")}
_HEADING = re.compile(r"^(#{1,3}) (.*)$")
_NUMBER = (
    re.compile(r"^(?:Seed|Источник|Źródło) (\d{3}) — "),  # "# Seed 000 — …": §0 ("# Источник 000 — …")
    re.compile(r"^(\d+(?:\.\d+)*)\.? "),  # "## 0.4 Confidence …", "# 5. The campaign layer"
    re.compile(r"^(R[23]-\d+) — "),  # "### R2-5 — §0.3, §0.4 …", "### R3-1 — §0.6, …"
)
CITATION = re.compile(r"§ ?(\d+(?:\.\d+)*)|\b(R[23]-\d+)\b")


@dataclass
class Clause:
    number: str
    title: str
    text: str
    errata: list[str] = field(default_factory=list)
    lang: str = "en"
    """The language the text is in: the reader's, or English where a translation has not reached the clause."""


def _number(title: str) -> str | None:
    for pattern in _NUMBER:
        match = pattern.match(title)
        if match:
            number = match.group(1)
            return str(int(number)) if pattern is _NUMBER[0] else number
    return None


def path(lang: str = "en") -> Path:
    """The rules' file in ``lang`` (English, the reference, for any language without a translation)."""
    return TRANSLATED.get(lang, RULES)


def _read(file: Path | Traversable, lang: str) -> dict[str, tuple[Clause, tuple[str, ...]]]:
    """Each numbered clause of one file, with the numbers of the clauses under it (itself first)."""
    lines = file.read_text(encoding="utf-8").splitlines()
    headings = [(i, len(m.group(1)), m.group(2)) for i, line in enumerate(lines) if (m := _HEADING.match(line))]
    found: dict[str, tuple[Clause, tuple[str, ...]]] = {}
    for k, (start, level, title) in enumerate(headings):
        number = _number(title)
        if number is None or number in found:
            continue
        end = next((i for i, lv, _ in headings[k + 1 :] if lv <= level), len(lines))
        within = tuple(n for i, _lv, t in headings[k:] if i < end and (n := _number(t)) is not None)
        found[number] = (Clause(number, title, "\n".join(lines[start:end]).rstrip(), lang=lang), within)
    return found


def _plugins_rules() -> dict[str, tuple[Clause, tuple[str, ...]]]:
    """The sections of the rules each installed ruleset's plug-in ships (``rules_md``, in its package)."""
    from importlib import resources

    from campaign.plugins import RULESETS

    found: dict[str, tuple[Clause, tuple[str, ...]]] = {}
    for info in RULESETS.values():
        if info.rules_md is not None:
            found |= _read(resources.files(info.package).joinpath(info.rules_md), "en")
    return found


@cache
def clauses(lang: str = "en") -> dict[str, Clause]:
    """Every numbered clause of RULES.md by its number (``0.4``, ``5``, ``R2-5``, ``R3-5``), in ``lang``.

    A translation is read clause by clause: a clause is in ``lang`` where the translation has it whole (itself
    and every clause under it, as in the English), and in English otherwise (``Clause.lang`` says which), so a
    translation still under way shows what it has and never a section with half its clauses missing."""
    english = _read(RULES, "en")
    for number, found_in_plugin in _plugins_rules().items():
        english.setdefault(number, found_in_plugin)  # a ruleset installed beside the four: its own sections
    own = _read(TRANSLATED[lang], lang) if lang in TRANSLATED and TRANSLATED[lang].is_file() else {}
    found: dict[str, Clause] = {}
    for number, (clause, within) in english.items():
        mine = own.get(number)
        found[number] = mine[0] if mine is not None and mine[1] == within else clause
    for number, clause in found.items():
        if number.startswith(("R2-", "R3-")):
            cited = {m.group(1) for m in CITATION.finditer(clause.title) if m.group(1)}
            for target in cited:
                if target in found:
                    found[target].errata.append(f"{number}: {clause.title.split(' — ', 1)[-1]}")
    return found


def clause(reference: str, lang: str = "en") -> Clause:
    """The clause ``reference`` names: ``§0.4``, ``0.4``, ``R2-5``, ``R3-5`` (case and spaces aside), in ``lang``."""
    from campaign.i18n import _

    key = reference.strip().removeprefix("§").strip().upper().replace("Р", "R").removesuffix(".")
    found = clauses(lang).get(key)
    if found is None:
        raise NotFoundError(
            _(
                "RULES.md has no clause {reference!r}: try a number such as §0.4, §2.11 or R2-5 "
                "(`campaign rules` lists them all)"
            ).format(reference=reference)
        )
    return found


_FENCE = re.compile(r"^\s*```")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_INLINE_CODE = re.compile(r"`([^`]+)`")


def as_text(clause: Clause) -> str:
    """The clause as a person reads it in a terminal: headings as ``§0.4 …`` (as ``campaign rules`` lists them,
    without Markdown's ``#``), code blocks indented by four spaces without their fences, and no ``**`` or
    backticks around words. The words themselves are RULES.md's, unchanged (the seed's Cyrillic grade letters
    too: Бе is the seed's Routed, §0.3)."""
    out: list[str] = []
    in_code = False
    for raw in clause.text.splitlines():
        line = raw
        if _FENCE.match(line):
            in_code = not in_code
            continue
        if in_code:
            out.append(f"    {line}" if line else "")
            continue
        heading = _HEADING.match(line)
        if heading:
            title = heading.group(2)
            number = _number(title)
            if number is None or number.startswith(("R2-", "R3-")):
                line = title
            else:
                line = f"§{title}" if title.startswith(number) else f"§{number} {title}"
        out.append(_INLINE_CODE.sub(r"\1", _BOLD.sub(r"\1", line)).replace("\\*", "*"))
    return "\n".join(out)


def cited(text: str) -> list[str]:
    """The clause numbers a text cites (``§0.4–0.5`` cites 0.4; ``R2-5`` and ``R3-5`` cite the erratum)."""
    return [m.group(1) or m.group(2) for m in CITATION.finditer(text)]
