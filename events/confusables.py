"""Names that look alike: the skeleton of Unicode Technical Standard #39 (§4), over a small table.

Two names whose skeletons are equal read as one name to a person ("Kеno" with a Cyrillic е and "Keno"), so a
new unit, side, officer or account is refused when its skeleton is that of a name already there. The skeleton is
UTS #39's: the name NFD-decomposed, each character replaced by the prototype it is confusable with, decomposed
again; letter case is then folded, as the program matches names whatever their case.

The table holds the confusables that matter for the scripts a group plays in: Cyrillic and Greek letters that
look like Latin ones, and the Latin look-alikes among ASCII itself (0 and O, 1, I and l, rn and m), after
UTS #39's ``confusables.txt`` (Unicode 15.1). Its full 6,000-line table would cost start-up time on every
command for scripts no name here is typed in; NFKC (applied to every name first) already folds the
compatibility forms (fullwidth letters, mathematical alphanumerics, ligatures) that make up much of it.

A word (a run of letters and marks) that mixes Latin, Cyrillic, Greek or Armenian letters is refused
outright (UTS #39's mixed-script detection, per word): no language writes one word in two of them, and it is how
a look-alike is typed. A name may still hold words of different scripts ("Сталь Guard").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

# Prototype of each confusable character (UTS #39 confusables.txt, the mappings to Latin or ASCII).
_PROTOTYPES: dict[str, str] = {
    # Cyrillic capitals
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "У": "Y", "Х": "X", "Ѕ": "S", "І": "l", "Ј": "J", "Ԛ": "Q", "Ԝ": "W", "Ү": "Y", "Ӏ": "l", "Ԍ": "G",
    "Ь": "b", "З": "3", "Ʒ": "3",
    # Cyrillic small letters
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ү": "y", "ь": "b", "ɡ": "g", "ԍ": "g", "к": "k",
    # Greek capitals
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϳ": "J",
    # Greek small letters
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "υ": "u", "γ": "y", "η": "n", "τ": "t",
    "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
    # Armenian
    "Օ": "O", "օ": "o", "ս": "u", "ց": "g", "հ": "h", "ո": "n", "զ": "q",
    # Latin and ASCII look-alikes
    "0": "O", "1": "l", "I": "l", "|": "l", "ı": "i", "ɑ": "a", "ʏ": "y",
}  # fmt: skip
_PAIRS = (("rn", "m"),)
"""Two characters that read as one (UTS #39 maps m to rn; here the pair becomes the letter, after folding)."""
_SCRIPTS = frozenset(("LATIN", "CYRILLIC", "GREEK", "ARMENIAN"))
"""The scripts with letters that look like each other's: one word mixing two of them is refused."""


def skeleton(name: str) -> str:
    """What ``name`` looks like: equal skeletons are names a reader cannot tell apart, or a group types as one.

    Beyond UTS #39, a Latin letter's accents and the diaeresis of Cyrillic ё do not count: players type "Zolw"
    for "Żółw" and "Ежики" for "Ёжики" on a keyboard without them, and two units named so would be two units
    where the group meant one (a new user mustered both). Other Cyrillic marks are letters of their own (й). What
    shows as nothing (``events.limits.blank``: a joiner, a variation selector) is left out, and each run of
    spaces inside the name is one space."""
    from events.limits import blank  # loaded with the name rule already

    # what shows as nothing does not count (a joiner, a variation selector), and a run of spaces reads as one:
    # "Company  HQ" and "Company HQ" are one name to a reader
    shown = "".join(c for c in unicodedata.normalize("NFKC", name) if not blank(c)).split()
    decomposed = unicodedata.normalize("NFD", " ".join(shown))
    mapped = unicodedata.normalize("NFD", "".join(_PROTOTYPES.get(c, c) for c in decomposed)).casefold()
    kept: list[str] = []
    for c in mapped.replace("ł", "l"):
        if unicodedata.combining(c) and kept and (kept[-1] < "\u0250" or (c == "\u0308" and kept[-1] == "e")):
            continue  # an accent on a Latin letter, or the ё (е + diaeresis; е is e by its prototype)
        kept.append(c)
    mapped = "".join(kept)
    for pair, letter in _PAIRS:
        mapped = mapped.replace(pair, letter)
    return mapped


def _script(char: str) -> str | None:
    if not unicodedata.category(char).startswith("L"):
        return None
    script = unicodedata.name(char, "").split(" ", 1)[0]
    return script if script in _SCRIPTS else None


def mixed_script_word(name: str) -> str | None:
    """The first word of ``name`` that mixes Latin, Cyrillic, Greek or Armenian letters, or None."""
    word: list[str] = []
    scripts: set[str] = set()
    for char in [*name, " "]:
        category = unicodedata.category(char)
        if category.startswith(("L", "M")):
            word.append(char)
            found = _script(char)
            if found is not None:
                scripts.add(found)
            continue
        if len(scripts) > 1:
            return "".join(word)
        word, scripts = [], set()
    return None


def confusable_with(name: str, others: Iterable[str]) -> str | None:
    """The one of ``others`` (names) that ``name`` looks like without being it (letter case and spaces around it
    aside), or None."""
    mine = skeleton(name)
    folded = name.strip().casefold()
    for other in others:
        if other.strip().casefold() == folded:
            continue
        if skeleton(other) == mine:
            return other
    return None
