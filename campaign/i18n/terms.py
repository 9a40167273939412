"""The seeds' own words: each ruleset's terms shown in the reader's language, and read from any of the three.

Each ruleset declares its vocabulary once, as data beside its tables: ``campaign/rulesets/<name>/terms.toml``
(grade names and letters, troop qualities, disorder markers, results and the other terms of its seed). A term is
a closed set's canonical value, the one the log records (``quality`` ``green``), with its words in English,
Russian and Polish; where the seed is written in one of them, that language's word is the seed's own, spelt as
the seed spells it (seed 000's grades: Уверенный (Ув), Стойкий (Ст), Потрясенный (По), Разбитый (Ра), Бегущий
(Бе); seed 004, in Polish, keeps OPR's English "Shaken" and "Rout").

Showing: ``shown("fighting-spirit", "grade", "shaken")`` → "Shaken", "Потрясенный" or "Wstrząśnięty" by the
reader's language; ``short=True`` gives the letters (SH, По, Ws). A value with no term is shown as recorded.

Reading: ``read("fighting-spirit", "quality", "Новобранцы")`` → ``"green"``; a word is matched case-, accent- and
Ё/Е-insensitively (``новобранцы``, ``ZIELONI``, ``wstrzasniety``, ``потрясённый``), with ``_``, ``-`` and spaces
alike, against the term's names, short forms and ``also`` words in all three languages, and the value itself.
:func:`reread` puts this in the one place closed-set inputs are validated: a command's (or a profile's) pydantic
validation. When a value is refused as not one of a closed set (a ``Literal`` or an enum), the word typed is
looked up among the set's own values and, if it names exactly one, replaced by it; the command (and the log)
then holds the canonical value. Every interface that builds commands — the command line, the HTTP API, CSV
import, a battle file — so accepts the seed's words, and nothing language-dependent is ever recorded.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

from campaign.i18n import DEFAULT, LANGUAGES, language

_CHOICE_ERRORS = ("literal_error", "enum")


def fold(word: str) -> str:
    """A word as it is compared: case folded, accents and Ё/Е aside (ł as l), quotes dropped, ``_``/``-`` as
    spaces, spaces collapsed: ``«Ни шагу назад!»`` → ``ни шагу назад!``, ``Light_Horse`` → ``light horse``."""
    decomposed = unicodedata.normalize("NFKD", word.casefold().replace("ё", "е").replace("ł", "l"))
    kept: list[str] = []
    for c in decomposed:
        # a Latin letter's accent goes (ą → a); a Cyrillic letter's mark stays (й is not и)
        if unicodedata.combining(c) and kept and kept[-1] < "\u0250":
            continue
        kept.append(c)
    text = unicodedata.normalize("NFC", "".join(kept))
    for quote in "«»\"“”„'’":
        text = text.replace(quote, "")
    return " ".join(text.replace("_", " ").replace("-", " ").split())


@dataclass(frozen=True)
class Term:
    """One value of a closed set, with its words: ``names``/``shorts`` by language, ``also`` read, never shown."""

    set: str
    value: str
    names: Mapping[str, str]
    shorts: Mapping[str, str] = field(default_factory=dict)
    also: tuple[str, ...] = ()
    alone: bool = False
    """Its words name its field too ("без брони", "no armour"): a line of fields shows them without the field's
    name, which would say it twice ("броня без брони")."""

    def shown(self, lang: str | None = None, *, short: bool = False) -> str:
        chosen = lang or language()
        if short and chosen in self.shorts:
            return self.shorts[chosen]
        return self.names.get(chosen) or self.names.get(DEFAULT) or self.value

    def words(self) -> frozenset[str]:
        """Every word read as this term, folded."""
        return frozenset(fold(w) for w in (self.value, *self.names.values(), *self.shorts.values(), *self.also))


@dataclass(frozen=True)
class Vocabulary:
    """A ruleset's terms (its ``terms.toml``), by closed set and value."""

    ruleset: str
    seed: str
    seed_language: str
    terms: Mapping[tuple[str, str], Term]

    def term(self, set_name: str, value: str) -> Term | None:
        return self.terms.get((set_name, value))

    def sets(self) -> list[str]:
        return sorted({s for s, _v in self.terms})

    def values(self, set_name: str) -> list[str]:
        return [v for s, v in self.terms if s == set_name]

    def shown(self, set_name: str, value: str, *, short: bool = False, lang: str | None = None) -> str:
        found = self.terms.get((set_name, value))
        return found.shown(lang, short=short) if found is not None else value

    def read(self, set_name: str, word: str) -> str | None:
        """The value of ``set_name`` that ``word`` (in any language) names, or None."""
        return self.read_among(word, self.values(set_name), (set_name,))

    def read_among(self, word: str, choices: Iterable[object], sets: Sequence[str] | None = None) -> str | None:
        """The one value among ``choices`` that ``word`` names, by the terms of any set (or of ``sets``); None
        when it names none, or two different ones (then it is no reading at all)."""
        wanted = fold(word)
        allowed = frozenset(c for c in choices if isinstance(c, str))
        found = {
            t.value
            for t in self.terms.values()
            if t.value in allowed and (sets is None or t.set in sets) and wanted in t.words()
        }
        found |= {c for c in allowed if fold(c) == wanted}
        return found.pop() if len(found) == 1 else None


def _words(entry: object) -> tuple[str | None, str | None]:
    if isinstance(entry, str):
        return entry, None
    if isinstance(entry, Mapping):
        return entry.get("name"), entry.get("short")
    return None, None


def parse(ruleset: str, text: str) -> Vocabulary:
    """A ``terms.toml``'s text as a :class:`Vocabulary` (a term without words in all three languages is refused)."""
    data = tomllib.loads(text)
    terms: dict[tuple[str, str], Term] = {}
    for set_name, values in data.items():
        if not isinstance(values, dict):
            continue
        for value, entry in values.items():
            names: dict[str, str] = {}
            shorts: dict[str, str] = {}
            for lang in LANGUAGES:
                name, short = _words(entry.get(lang))
                if not name:
                    raise ValueError(f"{ruleset} terms: {set_name}.{value} has no {lang} word")
                names[lang] = name
                if short:
                    shorts[lang] = short
            also = tuple(str(w) for w in entry.get("also", ()))
            terms[(set_name, value)] = Term(set_name, value, names, shorts, also, bool(entry.get("alone", False)))
    return Vocabulary(ruleset, str(data.get("seed", "")), str(data.get("seed_language", "")), terms)


def package_of(ruleset: str) -> str:
    """A ruleset's package (its plug-in's), by the ruleset's name or its package's, whole or its last part:
    ``fighting-spirit``, ``fighting_spirit`` → ``campaign.rulesets.fighting_spirit``."""
    from campaign.plugins import RULESETS

    for info in RULESETS.values():
        if ruleset in (info.name, info.package, info.package.rpartition(".")[2]):
            return info.package
    raise KeyError(f"no ruleset {ruleset!r}")


@cache
def vocabulary(ruleset: str) -> Vocabulary:
    """The terms of ``ruleset`` (by its name or its package's), read once per process: its package's
    ``terms.toml`` (a ruleset without one has no terms of its own)."""
    from importlib import resources

    package = package_of(ruleset)
    file = resources.files(package).joinpath("terms.toml")
    return parse(package.rpartition(".")[2], file.read_text(encoding="utf-8") if file.is_file() else "")


def shown(ruleset: str, set_name: str, value: str, *, short: bool = False, lang: str | None = None) -> str:
    """A recorded value in the reader's language (``short``: its letters); as recorded if it has no term."""
    return vocabulary(ruleset).shown(set_name, value, short=short, lang=lang)


def read(ruleset: str, set_name: str, word: str) -> str | None:
    """The canonical value of ``set_name`` a word in any of the three languages names, or None."""
    return vocabulary(ruleset).read(set_name, word)


def ruleset_of(model: type) -> str | None:
    """The ruleset whose package defines ``model`` (a command or a profile), or None for the core's."""
    from campaign.plugins import RULESETS

    module = model.__module__
    return next((r.name for r in RULESETS.values() if module.startswith(f"{r.package}.")), None)


_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")


def _expected(ctx: Mapping[str, object]) -> list[str]:
    """The values a closed set's refusal lists (pydantic's ``'a', 'b' or 'c'``)."""
    return _QUOTED.findall(str(ctx.get("expected", "")))


def _copied(value: object) -> object:
    if isinstance(value, Mapping):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copied(v) for v in value]
    return value


def _replace(data: Any, loc: Sequence[int | str], word: str, value: str) -> bool:
    """Put ``value`` where ``word`` is at ``loc`` in ``data`` (skipping the parts of a location pydantic adds for
    a union's member); True if it was there."""
    here = data
    for i, part in enumerate(loc):
        last = i == len(loc) - 1
        held = (isinstance(here, dict) and part in here) or (
            isinstance(here, list) and isinstance(part, int) and 0 <= part < len(here)
        )
        if held:
            if last:
                if here[part] == word:
                    here[part] = value
                    return True
                return False
            here = here[part]
        elif isinstance(here, dict | list) and not last:
            continue  # a union member's tag, not a key of the data
        else:
            return False
    return False


def reread(model: type, data: Mapping[str, object], errors: Iterable[ErrorDetails]) -> dict[str, object] | None:
    """``data`` with every word a closed set refused (pydantic ``errors`` from validating ``model``) replaced by
    the set's value it names in the seed's vocabulary; None if none could be read (the refusal stands)."""
    ruleset = ruleset_of(model)
    if ruleset is None:
        return None
    words = vocabulary(ruleset)
    copy: dict[str, object] | None = None
    for error in errors:
        typed = error.get("input")
        if error.get("type") not in _CHOICE_ERRORS or not isinstance(typed, str):
            continue
        value = words.read_among(typed, _expected(error.get("ctx") or {}))
        if value is None:
            continue
        copy = copy if copy is not None else {k: _copied(v) for k, v in data.items()}
        if not _replace(copy, tuple(error.get("loc", ())), typed, value):
            return None
    return copy


def sets_of(model: type) -> Callable[[list[str]], str | None]:
    """For a refusal of ``model``'s inputs: the closed set that holds every one of a list of values, as
    ``"ruleset:set"`` (their terms say them in the seed's words), or None where no one set of its ruleset's
    vocabulary holds them all (they are listed as the rules name them)."""
    ruleset = ruleset_of(model)

    def holding(values: list[str]) -> str | None:
        if ruleset is None:
            return None
        words = vocabulary(ruleset)
        found = [s for s in words.sets() if all(words.term(s, v) is not None for v in values)]
        return f"{ruleset}:{found[0]}" if len(found) == 1 else None

    return holding
