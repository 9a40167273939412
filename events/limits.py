"""One set of input rules, the same for every way in (command line, import, and next the HTTP API) and for
every database: what fits the schema's columns on PostgreSQL fits them on SQLite too.

* A **name** (campaign, unit, side, officer, actor): NFKC-normalised and trimmed, 1–100 characters, no control
  or invisible formatting characters, no word that mixes Latin, Cyrillic, Greek or Armenian letters (a
  look-alike: ``events/confusables.py``, which also refuses a new name that looks like one already there).
  Brackets and the like are allowed: output prints names literally. Which inputs of a command are names, and
  so every name inside a list of them (the units a battle starts with, the joins, each deployment's unit), is said
  by their types (``campaign/rulesets/inputs.py``), which hold them to this rule.
* A **text** (a reason, a note, a purpose): at most 1,000 characters, no NUL or control characters except
  tab and newline.
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
_ALLOWED_FORMAT = frozenset("\u200c\u200d")  # zero-width (non-)joiners: part of emoji and some scripts
_BAD_CATEGORIES = frozenset(("Cc", "Cs", "Cn", "Co", "Zl", "Zp"))


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
    for char in name:
        category = unicodedata.category(char)
        if category in _BAD_CATEGORIES or (category == "Cf" and char not in _ALLOWED_FORMAT):
            return Words(
                "{name} holds a control or invisible character (U+{code}): not in a name",
                name=_shown(name),
                code=_code(char),
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
    for char in value:
        if char not in "\t\n" and unicodedata.category(char) == "Cc":
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
