"""Rule tables as data: every value carries its provenance tag, and a campaign may override any of them.

A ruleset's tables are a TOML document in which each leaf is ``{ value = …, source = "…" }`` (and
``erratum = "R2-n"`` where a second-edition erratum decided it). They are
addressed by dotted paths (``threats.leader_lost.medium``). A house rule replaces one value; it is an event
in the log, so the tables in force at any point of a campaign are the base tables plus the overrides
recorded before it. Pure: the file is read by :mod:`campaign.tables`, not here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Self, TypeGuard, TypeVar

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    PrivateAttr,
    Strict,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from campaign.i18n import N_
from events.errors import InvalidInputError, Words
from events.recorded import JsonValue

Value = int | str | bool | list[JsonValue]
"""A table value: a whole number, a word, a flag or a list (a table's rows), as tables.toml and the log hold it."""
GivenValue = int | str | bool | list[Any]
"""A table value as a house rule's command takes it. A list's items are untyped, as pydantic hands them on: they
are the tables' model's to check (:func:`check_override`) and the event's to take as JSON; typed as JSON here, the
command's own validation would refuse, in pydantic's words, a value the tables' model refuses in its own."""
V = TypeVar("V")

TAGS = ("SEED-DERIVED", "SEED", "PUB", "INF", "PLACEHOLDER", "HOUSE RULE")
"""RULES.md's provenance tags (and a house rule's), longest first so that SEED-DERIVED is not read as SEED."""
_TAG = re.compile(r"^(" + "|".join(re.escape(t) for t in TAGS) + r")\b")
_ERRATUM = re.compile(r"\bR[23]-\d+\b")


@dataclass(frozen=True, slots=True)
class Sourced:
    value: Value
    source: str
    erratum: str = ""  # the erratum (R2-n or R3-n) that decided this value, if any

    @property
    def tag(self) -> str:
        """The provenance tag the source begins with (RULES.md's table of tags), or HOUSE RULE."""
        found = _TAG.match(self.source)
        return found.group(1) if found else ""

    @property
    def errata(self) -> str:
        """The errata behind this value (R2-n, R3-n): the one named, and any its source cites."""
        named = [self.erratum] if self.erratum else []
        return ", ".join(dict.fromkeys([*named, *_ERRATUM.findall(self.source)]))


@dataclass(frozen=True, slots=True)
class Override:
    path: str
    value: Value
    source: str


Whole = Annotated[int, Strict()]
"""A whole number (a house rule's "3" is typed as 3 before it gets here; a float or a word is refused)."""
Flag = Annotated[bool, Strict()]
Word = Annotated[str, Strict()]
Ntr = Literal["NTR"]
TABLE_NUMBER = 1000
MONEY = 10_000_000
"""No test required: where a threat row does not apply at a motivation."""

BOUNDS = "table_bounds"
"""The error a table value out of its field's bounds raises: its message is the words that say the bounds."""


def _refused(words: str | Words, why: str | Words = "") -> PydanticCustomError:
    """A value out of its field's bounds: the English as pydantic's message, and the words themselves (a catalog
    template, or :class:`Words` holding values typed as they are) kept in its context, said in the reader's
    language where the refusal is shown."""
    return PydanticCustomError(BOUNDS, str(words), {"said": words, "why": why})


def bounded(words: str | Words, allowed: Callable[[V], bool], why: str = "") -> AfterValidator:
    """A field's bounds, declared on its type (``Annotated[Number, bounded(N_("at least 1"), lambda n: n >= 1)]``),
    and the words a value outside them is refused in: they complete "``path`` is …, not ``value``" (a house rule's
    refusal, and a tables.toml that breaks them), and ``why`` follows. Checked after the field's own kind (a
    number, a word). The words are marked for the catalogs (``N_``) where they are declared, and said in the
    reader's language where shown."""

    def check(value: V) -> V:
        if not allowed(value):
            raise _refused(words, why)
        return value

    return AfterValidator(check)


def one_of(*values: str | int, said: str = "") -> BeforeValidator:
    """A closed set of values (a ``Literal``'s, declared beside it), said as "one of a, b, c" (or as ``said``,
    marked for the catalogs): checked before the ``Literal`` is, whose own words quote its values in pydantic's
    English. A bool is no number of the set. The values are as a house rule types them, in no language."""
    allowed = frozenset((type(v), v) for v in values)
    words = said or Words("one of {values}", values=", ".join(map(str, values)))

    def check(value: object) -> object:
        if not isinstance(value, str | int) or (type(value), value) not in allowed:
            raise _refused(words)
        return value

    return BeforeValidator(check)


def some_of(*names: str) -> AfterValidator:
    """A list of names, each one of ``names`` (a refusal names those that are not)."""
    known = frozenset(names)

    def check(listed: list[str]) -> list[str]:
        unknown = [n for n in listed if n not in known]
        if unknown:
            raise _refused(
                Words(
                    "a list of some of {names} ({unknown}: unknown)", names=", ".join(names), unknown=", ".join(unknown)
                )
            )
        return listed

    return AfterValidator(check)


def _dice(text: str) -> str:
    from events.dice import parse  # the dice package: only when tables holding dice are built

    try:
        parse(text)
    except InvalidInputError as exc:
        raise _refused(Words("dice ({words})", words=exc.words or str(exc))) from None
    return text


Dice = Annotated[Word, AfterValidator(_dice)]
"""Dice notation, as the rules parse it (``2d6``, ``d6``): refused in the parser's words."""
Number = Annotated[
    Whole,
    bounded(N_("a number from −1,000 to 1,000"), lambda n: -TABLE_NUMBER <= n <= TABLE_NUMBER),
]
"""A table's number (a modifier, a target, a percentage, a count): the tables' own all lie within ±1,000 (an
amount of money and a ratio in thousandths have types of their own), so a house rule far past them is a slip of
the keyboard, refused in words, not a rule to play."""
Money = Annotated[Whole, bounded(N_("an amount of $0 to $10,000,000"), lambda n: 0 <= n <= MONEY)]
"""An amount of money in dollars (a price, a month's upkeep)."""
Thousandths = Annotated[
    Whole, bounded(N_("an amount in thousandths (1000 is one) from 0 to 1,000,000"), lambda n: 0 <= n <= 1_000_000)
]
"""A ratio or a fraction in thousandths, as the tables keep them exact (2000 is 2:1, 500 is ½)."""
Count = Annotated[Number, bounded(N_("a count of 1 or more"), lambda n: n >= 1)]
"""How many times a thing may be done: at least once (0 would stop the rule that counts it)."""
Divisor = Annotated[Number, bounded(N_("a step the rules divide by: at least 1"), lambda n: n >= 1)]
"""A value the rules divide by ("per 3 levels", "every 5 XP", "÷ 3"): 0 would stop every rule that reads it."""


class Section(BaseModel):
    """A section of a ruleset's tables: its fields are the keys of that part of ``tables.toml``, and nothing else
    (a key the model does not declare, or a value of another kind, is refused when the tables load)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Keyed(Section):
    """A section whose rows are keyed by data (a unit's quality, a terrain's name) beside a few named values:
    each subclass declares its rows as ``rows: dict[str, Row]``, and the named values as fields. Not a generic
    model: a parametrised one (``Keyed[Row]``) is built when the module is imported, and cost the Mass Combat
    tables' import some 60 ms of start-up where the rest of the models are built only when first read."""

    @model_validator(mode="before")
    @classmethod
    def _split(cls, data: object) -> object:
        if not isinstance(data, dict) or "rows" in data:
            return data
        named = set(cls.model_fields) - {"rows"}
        return {
            **{k: v for k, v in data.items() if k in named},
            "rows": {k: v for k, v in data.items() if k not in named},
        }


class RuleTables(Section):
    """The tables in force at one point of a campaign, as their ruleset's model: the rules read its attributes
    (``tables.morale.leadership_step``), so a name no table has is a type error, not a lookup that fails in play.
    ``values`` keeps each value's provenance by its dotted path, for ``tables`` and house rules."""

    _values: Mapping[str, Sourced] = PrivateAttr(default_factory=dict)
    _refused: Mapping[str, Words] = PrivateAttr(default_factory=dict)

    @classmethod
    def of(cls, values: Mapping[str, Sourced], refused: Mapping[str, Words] | None = None) -> Self:
        """The tables holding ``values`` (by dotted path), checked against the model: refused in words if the
        values do not fit it (a malformed ``tables.toml``, or a house rule of the wrong kind)."""
        try:
            tables = cls.model_validate(unflatten(values))
        except ValidationError as exc:
            raise InvalidInputError.saying(
                "the rule tables do not fit their model: {problems}", problems=worded(exc)
            ) from None
        tables._values = values
        tables._refused = refused or {}
        return tables

    @property
    def values(self) -> Mapping[str, Sourced]:
        return self._values

    @property
    def refused(self) -> Mapping[str, Words]:
        """Paths a house rule may not name, with the words that refuse it (an alternative reading kept as
        data, applied through the house rules on its table paths)."""
        return self._refused

    def source(self, path: str) -> str:
        return self._values[path].source


def pick(rows: Mapping[str, V], key: str, where: str) -> V:
    """The row ``key`` of a section keyed by data (``where`` names it), refused in words if it has none."""
    try:
        return rows[key]
    except KeyError:
        raise InvalidInputError.saying("the rule tables have no {key!r} under {where}", key=key, where=where) from None


_NO_SUCH_KEY = N_("is no key of its table")
"""A key the tables' model does not declare (pydantic's "extra inputs": an input of a command is another thing)."""


def worded(exc: ValidationError) -> Words:
    """A validation error's problems, each at its dotted table path, said in the reader's language where shown."""
    from campaign.rulesets.decision import said_error  # the rules' words for an error: only when refused

    said = Words()
    for error in exc.errors(include_url=False):
        path = ".".join(str(part) for part in error["loc"] if part != "rows")
        problem: str | Words = (
            _declared((error.get("ctx") or {}).get("said", error["msg"]))
            if error["type"] == BOUNDS
            else Words(_NO_SUCH_KEY)
            if error["type"] == "extra_forbidden"
            else said_error(error) or error["msg"].lower()
        )
        shown = "input" in error and not isinstance(error["input"], dict)
        part = Words(
            "{path}: {problem}{value}",
            path=path,
            problem=problem,
            value=Words(" (not {value!r})", value=error["input"]) if shown else Words(),
        )
        said = Words("{some}; {last}", some=said, last=part) if said else part
    return said


def unflatten(values: Mapping[str, Sourced]) -> dict[str, object]:
    """The nested document of ``values`` (dotted paths → their values), as the model reads it."""
    document: dict[str, object] = {}
    for path, sourced in values.items():
        *parents, key = path.split(".")
        node = document
        for part in parents:
            inner = node.setdefault(part, {})
            if not isinstance(inner, dict):  # a value's path is no part of another's (flatten's are not)
                raise TypeError(f"{path}: {part!r} holds a value, not a table")
            node = inner
        node[key] = sourced.value
    return document


LEAF_KEYS = frozenset({"value", "source"})


def _is_leaf(node: object) -> TypeGuard[Mapping[str, object]]:
    return isinstance(node, dict) and LEAF_KEYS <= set(node) <= LEAF_KEYS | {"erratum"}


def table_value(value: object) -> Value:
    """A recorded table value (a house rule's, in the log): a number, a word, a flag or a list."""
    if isinstance(value, int | str | list):  # a bool is an int
        return value
    raise TypeError(f"not a table value: {value!r}")


def flatten(document: Mapping[str, object], prefix: str = "") -> dict[str, Sourced]:
    """Every ``{value, source}`` leaf of a tables document by its dotted path."""
    out: dict[str, Sourced] = {}
    for key, node in document.items():
        path = f"{prefix}{key}"
        if _is_leaf(node):
            value = node["value"]
            if not isinstance(value, int | str | list):  # a bool is an int
                kind = "floats" if isinstance(value, float) else type(value).__name__
                raise ValueError(f"{path}: table values are integers, strings, booleans or lists, not {kind}")
            out[path] = Sourced(value, str(node["source"]), str(node.get("erratum", "")))
        elif isinstance(node, dict):
            out.update(flatten(node, path + "."))
    return out


def _known(values: Mapping[str, Sourced], path: str) -> None:
    """Refuse a path that names no table value, with the close ones."""
    if path in values:
        return
    import difflib  # only for a path that names nothing

    close = difflib.get_close_matches(path.strip(), list(values), n=1, cutoff=0.8)
    top = path.split(".", maxsplit=1)[0]
    under = sorted(p for p in values if p.split(".")[0] == top)
    if close:
        hint = Words("; did you mean {names}?", names=repr(close[0]))
    elif under:
        more = (
            Words(" and {count} more (`tables {top}.` lists them)", count=len(under) - 8, top=top)
            if len(under) > 8
            else Words()
        )
        hint = Words("; values under {top!r}: {values}{more}", top=top, values=", ".join(under[:8]), more=more)
    else:
        hint = Words(
            "; the tables' first parts are {parts}", parts=", ".join(sorted({p.split(".")[0] for p in values}))
        )
    raise InvalidInputError.saying("no table value at {path!r}{hint}", path=path, hint=hint)


def check_path(tables: RuleTables, path: str) -> None:
    """Refuse a house rule on a path that is no field of the tables' model (with the close ones), or on an
    alternative reading (applied through the house rules it names)."""
    _known(tables.values, path)
    if path in tables.refused:
        refusal = tables.refused[path]  # the words are the tables' (campaign/tables.py), said as a whole sentence
        raise InvalidInputError.saying(refusal.template, **refusal.params)


def check_override(tables: RuleTables, path: str, value: Value) -> None:
    """Refuse a house rule that names no field of the ruleset's tables model, or gives a value its field does not
    take (a word for a number), or one out of the bounds its field's type declares (:func:`bounded`: a kind of
    threat row the rules do not know, a count of 0), or one out of a table's range."""
    check_path(tables, path)
    values = tables.values
    try:
        type(tables).model_validate(unflatten({**values, path: Sourced(value, "HOUSE RULE")}))
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        bounds = next((e for e in errors if e["type"] == BOUNDS), None)
        if bounds is not None:  # out of the bounds its field declares, in the field's own words
            ctx = bounds.get("ctx") or {}
            why = ctx.get("why")
            raise InvalidInputError.saying(
                "{path} is {bounds}, not {value!r}{why}",
                path=path,
                bounds=_declared(ctx.get("said", bounds["msg"])),
                value=value,
                why=Words("; {why}", why=_declared(why)) if why else Words(),
            ) from None
        raise InvalidInputError.saying(
            "{path} holds {held!r}; a house rule must give the same kind of value, not {value!r} ({problems})",
            path=path,
            held=values[path].value,
            value=value,
            problems=worded(exc),
        ) from None


def _declared(words: str | Words) -> str | Words:
    """A field's bounds in the words its type declares (:func:`bounded`, marked for the catalogs there), said in
    the reader's language where they are shown; words holding braces (no template of the catalogs) as they are."""
    if isinstance(words, Words) or "{" in words or "}" in words:
        return words
    return Words(words)


def apply_overrides(values: Mapping[str, Sourced], overrides: Iterable[Override]) -> dict[str, Sourced]:
    """The tables in force: base values with each house rule applied in the order it was recorded (each was
    checked against the model when it was recorded, and the tables built from these values are checked again)."""
    out = dict(values)
    for o in overrides:
        _known(out, o.path)
        out[o.path] = Sourced(o.value, o.source, out[o.path].erratum)
    return out


def parse_value(text: str) -> Value:
    """A house-rule value typed at the command line: an integer, true/false, NTR, or a word."""
    stripped = text.strip()
    if stripped.lower() in {"true", "false"}:
        return stripped.lower() == "true"
    try:
        return int(stripped)
    except ValueError:
        pass
    if "." in stripped and stripped.replace(".", "", 1).lstrip("-").isdigit():
        raise InvalidInputError.saying("{text!r}: table values are whole numbers", text=text)
    return stripped


T = TypeVar("T")


def tables_in_force_cache(
    base: Mapping[str, Sourced], typed: Callable[[dict[str, Sourced]], T], size: int = 64
) -> Callable[[Iterable[Override]], T]:
    """``typed`` tables under a campaign's house rules, built once per set of them: a fold asks for them at every
    event. The key is the overrides' JSON, since a house-rule value may be a list (not hashable)."""
    cache: dict[str, T] = {}
    # The last overrides asked for and their tables: a fold asks again with the very same tuple (a state's
    # overrides only change with a house rule), and keying it as JSON cost more than the rest of the fold.
    # Held, so its identity cannot be taken by another tuple while it is compared; one pair, read and replaced
    # whole, so that a thread never pairs one caller's overrides with another's tables.
    last: list[tuple[Iterable[Override], T] | None] = [None]

    def tables(overrides: Iterable[Override]) -> T:
        held = last[0]
        if held is not None and overrides is held[0]:
            return held[1]
        chosen = tuple(overrides)
        key = orjson.dumps([[o.path, o.value] for o in chosen]).decode()
        found = cache.get(key)
        if found is None:
            found = typed(apply_overrides(base, chosen))
            if len(cache) >= size:
                cache.clear()
            cache[key] = found
        if type(overrides) is tuple:
            last[0] = (overrides, found)
        return found

    return tables
