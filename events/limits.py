"""One set of input rules, the same for every way in (command line, import, and next the HTTP API) and for
every database: what fits the schema's columns on PostgreSQL fits them on SQLite too.

* A **name** (campaign, unit, side, officer, actor): NFKC-normalised and trimmed, 1–100 characters, no control
  or invisible formatting characters nor any that shows as nothing or a blank (the Hangul fillers, U+2800: a name
  always shows), no word that mixes Latin, Cyrillic, Greek or Armenian letters (a
  look-alike: ``events/confusables.py``, which also refuses a new name that looks like one already there).
  Brackets and the like are allowed: output prints names literally. Which inputs of a command are names, and
  so every name inside a list of them (the units a battle starts with, the joins, each deployment's unit), is said
  by their types (``campaign/rulesets/inputs.py``), which hold them to this rule.
* A **text** (a reason, a note, a purpose): at most 1,000 characters, no NUL or control characters except
  tab and newline, and no bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069): they make
  what is shown read otherwise than what was entered.
* A **number** typed by a person: a whole number within ±1,000,000,000 (no count, day, sum of money or seq
  of a campaign comes near; a day counter or a treasury then cannot leave 64 bits in any number of commands
  a person could enter).
* A **command id**: 1–100 characters of text.
* **Structured inputs** (a profile, a table value): JSON nested at most 8 deep, each string a
  text, each key a text of at most 100 characters, each number as above (a fraction must be finite).

Text that is not valid UTF-8 (Python holds it as lone surrogates) is refused everywhere.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Collection

from events.errors import InvalidInputError, Label, Words

MAX_NAME = 100
MAX_TEXT = 1000
MAX_NUMBER = 10**9
MAX_COMMAND_ID = 100
MAX_DEPTH = 8
_JOINERS = frozenset("\u200c\u200d\ufe0e\ufe0f")
"""Zero-width (non-)joiners and the text/emoji variation selectors: part of emoji ("🏳️‍🌈") and of some scripts,
so allowed in a name, but only right after a character that shows (never alone, after a space or leading one)."""
_BAD_CATEGORIES = frozenset(("Cc", "Cs", "Cn", "Co", "Zl", "Zp"))
_BLANK_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800),
    (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
"""Characters that show as nothing or as a blank: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties
15.1: soft hyphen, the Hangul fillers, zero-width spaces, bidi controls, variation selectors, tags…), which
``unicodedata`` does not expose, and the blank Braille pattern U+2800, a letter-like symbol that prints as a
space. A name holding one reads as another name, or as none ("\u3164" alone looks empty)."""
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidirectional embeddings, overrides and isolates: in a text they reorder what follows on the screen
("deserted\u202e )2 dellik( kcatta" shows as another sentence), so no text holds one (names hold none either)."""


def blank(char: str) -> bool:
    """Whether ``char`` shows as nothing or as a blank (see ``_BLANK_RANGES``)."""
    code = ord(char)
    return any(low <= code <= high for low, high in _BLANK_RANGES)


def _code(char: str) -> str:
    """A character's code point as Unicode writes it after "U+" (``0007``)."""
    return format(ord(char), "04X")


def _shown(value: str) -> str:
    text = value if len(value) <= 40 else value[:40] + "…"
    return ascii(text)


Said = str | Words
"""What an input is called in a refusal ("a reroll's reason"): a :class:`Words` is said in the reader's language,
a plain string (a label the command line made of a parameter's name) as it is."""


def check_utf8(value: str, what: Said) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInputError.saying("{what} is not valid UTF-8 text", what=what) from None


def name_refusal(value: str) -> Words | None:
    """What is wrong with ``value`` as a name, in words that follow the name of the input ("must not be empty"),
    or None for a good name (which is :func:`normal_name` of it)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return Words("is not valid UTF-8 text")
    name = normal_name(value)
    if not name:
        return Words("must not be empty")
    if len(name) > MAX_NAME:
        return Words("is {length} characters long: at most {most}", length=len(name), most=MAX_NAME)
    for typed in (value.strip(), name):  # as typed first: its U+3164 is said as U+3164, not as NFKC's U+1160
        unseen = _unseen_in(typed)
        if unseen is not None:
            return Words(
                "{name} holds a control or invisible character (U+{code}): not in a name",
                name=_shown(typed),
                code=_code(unseen),
            )
    if name.isascii():  # one alphabet: most names, which then never load the look-alikes' table
        return None
    from events.confusables import mixed_script_word

    mixed = mixed_script_word(name)
    if mixed is not None:
        return Words(
            "{name!r} mixes alphabets in the word {mixed!r} (Latin with Cyrillic or Greek letters that look alike):"
            " type each word in one alphabet",
            name=name,
            mixed=mixed,
        )
    return None


def _unseen_in(name: str) -> str | None:
    """The first character of ``name`` that is not in a name: a control, an unassigned or private one, a format
    character or a blank (a joiner only where it joins: after a character that shows, or after joiners that
    follow one), or None. So a name always holds a character that shows."""
    joins = False  # whether a joiner here would follow a character that shows
    for char in name:
        category = unicodedata.category(char)
        if char in _JOINERS:
            if not joins:
                return char
            continue
        if category in _BAD_CATEGORIES or category == "Cf" or blank(char):
            return char
        joins = not char.isspace()
    return None


def normal_name(value: str) -> str:
    """A name as it is kept: NFKC-normalised (a fullwidth or mathematical letter is its plain one) and trimmed."""
    return unicodedata.normalize("NFKC", value).strip()


def check_name(value: str, what: Said) -> str:
    """The name, trimmed, or :class:`InvalidInputError` saying which rule it breaks."""
    problem = name_refusal(value)
    if problem is not None:
        raise InvalidInputError.saying("{what} {problem}", what=what, problem=problem)
    return normal_name(value)


def check_text(value: str, what: Said, limit: int = MAX_TEXT) -> str:
    check_utf8(value, what)
    if len(value) > limit:
        raise InvalidInputError.saying(
            "{what} is {length} characters long: at most {most}", what=what, length=len(value), most=limit
        )
    for char in value:  # a bidi control is refused as a control: it reorders what the reader is shown
        if (char not in "\t\n" and unicodedata.category(char) == "Cc") or char in _BIDI_CONTROLS:
            raise InvalidInputError.saying(
                "{what} {value} holds a control character (U+{code})",
                what=what,
                value=_shown(value),
                code=_code(char),
            )
    return value


def _out_of_range(what: Said, value: float) -> InvalidInputError:
    return InvalidInputError.saying(
        "{what} {value} is out of range: numbers are within ±{most:,}", what=what, value=value, most=MAX_NUMBER
    )


def check_number(value: int, what: Said) -> int:
    if not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise _out_of_range(what, value)
    return value


def check_command_id(value: str) -> str:
    check_text(value, Words("a command id"), MAX_COMMAND_ID)
    if not value.strip():
        raise InvalidInputError.saying("a command id must not be empty")
    return value


def check_json(value: object, what: Said, depth: int = 0) -> object:
    """A structured input checked throughout (see the module's rules), or :class:`InvalidInputError` saying
    where it breaks one: the same value, so a caller may check and pass it on."""
    if depth > MAX_DEPTH:
        raise InvalidInputError.saying("{what} nests deeper than {most} levels", what=what, most=MAX_DEPTH)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return check_number(value, what)
    if isinstance(value, float):
        if not math.isfinite(value) or not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise _out_of_range(what, value)
        return value
    if isinstance(value, str):
        return check_text(value, what)
    if isinstance(value, dict):
        for key, item in value.items():
            check_text(str(key), Words("a key of {what}", what=what), MAX_NAME)
            check_json(item, f"{what}.{key}", depth + 1)
        return value
    if isinstance(value, list | tuple):
        for item in value:
            check_json(item, what, depth + 1)
        return value
    return value  # not JSON (a value the command line built): the command's model judges it


def check_inputs(inputs: dict[str, object], typed: Collection[str] = ()) -> dict[str, object]:
    """A command's inputs by name, each checked by :func:`check_json` but those in ``typed`` (inputs whose types
    hold them to their own rules: names and what holds names, see ``campaign/rulesets/inputs.py``). The inputs,
    or :class:`InvalidInputError` naming the first bad one."""
    for key, value in inputs.items():
        what = Label(check_text(str(key), Words("an input's name"), MAX_NAME).replace("_", " "))
        if key not in typed:
            check_json(value, what)
    return dict(inputs)
