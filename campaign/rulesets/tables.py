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
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

from events.errors import InvalidInputError

Value = int | str | bool | list[Any]

TAGS = ("SEED-DERIVED", "SEED", "PUB", "INF", "PLACEHOLDER", "HOUSE RULE")
"""RULES.md's provenance tags (and a house rule's), longest first so that SEED-DERIVED is not read as SEED."""
_TAG = re.compile(r"^(" + "|".join(re.escape(t) for t in TAGS) + r")\b")
_ERRATUM = re.compile(r"\bR[23]-\d+\b")


@dataclass(frozen=True, slots=True)
class Sourced:
    value: Any
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
    value: Any
    source: str


@dataclass(frozen=True)
class RuleTables:
    """The tables in force at one point of a campaign; every lookup names the path it read. Each ruleset's
    ``Tables`` adds the lookups its rules need."""

    values: Mapping[str, Sourced]
    refused: Mapping[str, str] = field(default_factory=dict)
    """Paths a house rule may not name, with the words that refuse it (R2-36: no rule reads them)."""

    def value(self, path: str) -> Any:
        try:
            return self.values[path].value
        except KeyError:
            raise InvalidInputError(f"the rule tables have no value at {path!r}") from None

    def number(self, path: str) -> int:
        return int(self.value(path))

    def flag(self, path: str) -> bool:
        return bool(self.value(path))

    def has(self, path: str) -> bool:
        return path in self.values

    def source(self, path: str) -> str:
        return self.values[path].source


LEAF_KEYS = frozenset({"value", "source"})


def _is_leaf(node: Any) -> bool:
    return isinstance(node, dict) and LEAF_KEYS <= set(node) <= LEAF_KEYS | {"erratum"}


def flatten(document: Mapping[str, Any], prefix: str = "") -> dict[str, Sourced]:
    """Every ``{value, source}`` leaf of a tables document by its dotted path."""
    out: dict[str, Sourced] = {}
    for key, node in document.items():
        path = f"{prefix}{key}"
        if _is_leaf(node):
            if isinstance(node["value"], float):
                raise ValueError(f"{path}: table values are integers, strings, booleans or lists, not floats")
            out[path] = Sourced(node["value"], str(node["source"]), str(node.get("erratum", "")))
        elif isinstance(node, dict):
            out.update(flatten(node, path + "."))
    return out


def _same_kind(old: Any, new: Any) -> bool:
    if isinstance(old, bool) or isinstance(new, bool):
        return isinstance(old, bool) and isinstance(new, bool)
    if old == "NTR" or new == "NTR":
        return isinstance(new, int | str)
    return type(old) is type(new)


def check_override(values: Mapping[str, Sourced], path: str, value: Any) -> None:
    """Refuse a house rule that names no table value, or changes its kind (a number for a number)."""
    if path not in values:
        import difflib  # only for a path that names nothing

        close = difflib.get_close_matches(path.strip(), list(values), n=1, cutoff=0.8)
        top = path.split(".", maxsplit=1)[0]
        under = sorted(p for p in values if p.split(".")[0] == top)
        if close:
            hint = f"; did you mean {close[0]!r}?"
        elif under:
            more = f" and {len(under) - 8} more (`tables {top}.` lists them)" if len(under) > 8 else ""
            hint = f"; values under {top!r}: {', '.join(under[:8])}{more}"
        else:
            hint = f"; the tables' first parts are {', '.join(sorted({p.split('.')[0] for p in values}))}"
        raise InvalidInputError(f"no table value at {path!r}{hint}")
    old = values[path].value
    if not _same_kind(old, value):
        raise InvalidInputError(f"{path} holds {old!r}; a house rule must give the same kind of value, not {value!r}")
    if isinstance(value, int) and not isinstance(value, bool) and not -1000 <= value <= 1000:
        raise InvalidInputError(f"{value} is out of range for a rule table (−1000…1000)")


def apply_overrides(values: Mapping[str, Sourced], overrides: Iterable[Override]) -> dict[str, Sourced]:
    """The tables in force: base values with each house rule applied in the order it was recorded."""
    out = dict(values)
    for o in overrides:
        check_override(out, o.path, o.value)
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
        raise InvalidInputError(f"{text!r}: table values are whole numbers")
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
    last: list[tuple[Any, Any]] = [(None, None)]

    def tables(overrides: Iterable[Override]) -> T:
        held = last[0]
        if overrides is held[0]:
            return held[1]  # type: ignore[no-any-return]
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
