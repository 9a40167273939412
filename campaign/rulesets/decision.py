"""What a rule returns: the facts it caused, the dice it used, and an explanation a person can read."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from campaign.i18n import N_
from events.dice import Roll
from events.errors import Label, Term, Words
from events.families.rules import RuleApplied
from events.recorded import JsonValue
from events.registry import Event

if TYPE_CHECKING:
    from campaign.rulesets import RulesetInfo


@dataclass(frozen=True)
class Decision:
    rule: str
    clause: str
    unit_id: str | None
    inputs: Mapping[str, JsonValue]
    outcome: Mapping[str, JsonValue]
    explanation: str
    facts: tuple[Event, ...] = ()
    rolls: tuple[Roll, ...] = field(default=())
    leading: tuple[Event, ...] = ()
    """Facts recorded ahead of the ``rules.applied`` record rather than after it: where a rule's record has
    always followed its fact (Mass Combat's payday follows the pay settled), logs keep the order they hold."""


_BOUNDS: Mapping[str, tuple[str, str]] = {
    "greater_than_equal": ("ge", N_("must be at least {bound}")),
    "greater_than": ("gt", N_("must be more than {bound}")),
    "less_than_equal": ("le", N_("must be at most {bound}")),
    "less_than": ("lt", N_("must be less than {bound}")),
    "string_too_short": ("min_length", N_("needs at least {bound} characters")),
    "string_too_long": ("max_length", N_("is too long (at most {bound} characters)")),
    "too_short": ("min_length", N_("needs at least {bound}")),
    "too_long": ("max_length", N_("takes at most {bound}")),
    "literal_error": ("expected", N_("must be one of {bound}")),
}
"""A pydantic error kind that names a bound → the bound's key in its context, and the words around it."""
_AT_EDGE: Mapping[tuple[str, object], str] = {
    ("greater_than_equal", 0): N_("cannot be negative"),
    ("string_too_short", 1): N_("cannot be empty"),
}
"""Bounds a person reads better in words of their own."""
_PLAIN: Mapping[str, str] = {
    "int_parsing": N_("must be a whole number"),
    "int_type": N_("must be a whole number"),
    "int_from_float": N_("must be a whole number"),
    "bool_parsing": N_("must be true or false"),
    "bool_type": N_("must be true or false"),
    "missing": N_("is required"),
    "extra_forbidden": N_("is not one of its inputs"),
    "string_unicode": N_("is not valid UTF-8 text"),
    "string_type": N_("must be text"),
    "dict_type": N_("must be a JSON object"),
    "model_attributes_type": N_("must be a JSON object"),
    "model_type": N_("must be a JSON object"),
    "list_type": N_("must be a list"),
    "tuple_type": N_("must be a list"),  # a list input the API was given as one value (a text, a number)
    "finite_number": N_("must be a finite number"),
}
"""The words of each kind of error, as templates said in the reader's language where the refusal is shown."""
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")

Sets = Callable[[list[str]], "str | None"]
"""Which closed set (``"fighting-spirit:action"``) holds the values a refusal lists, as the command model's
field types say (``campaign.i18n.terms.sets_of``)."""


Field = Label
"""An input's name in words, as the command models name it (:class:`events.errors.Label`)."""


def _choices(expected: str, sets: Sets | None) -> str | Term | Words:
    """A closed set's values as pydantic lists them (``'a', 'b' or 'c'``), each a term of the set ``sets`` names
    for them (said in the seed's words where shown), joined in the reader's words; as listed without one."""
    from campaign.rulesets.inputs import terms_listed  # the seed's words: only when refused

    values = _QUOTED.findall(expected)
    named = sets(values) if sets is not None and values else None
    if named is None:
        return expected
    ruleset, _sep, set_name = named.partition(":")
    return terms_listed(ruleset, set_name, values, last="or", quoted=True)


def said_error(error: ErrorDetails, sets: Sets | None = None) -> Words | None:
    """One validation error in the program's words, or None where it has none for its kind (pydantic's own); a
    closed set's values as the terms of the set ``sets`` names (the seed's words)."""
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind in _BOUNDS:
        key, words = _BOUNDS[kind]
        edge = _AT_EDGE.get((kind, ctx.get(key)))
        if edge is not None:
            return Words(edge)
        bound = _choices(str(ctx.get(key)), sets) if kind == "literal_error" else ctx.get(key)
        return Words(words, bound=bound)
    if kind == "json_invalid":
        return Words("is not JSON ({reason})", reason=ctx.get("error", "unreadable"))
    # the program's own words kept in the error: the name rule's (events/limits.py), a model's own check's
    # (inputs.WordedError) — pydantic's message of them is their English, "Value error, " before a check's
    worded = ctx.get("problem") if kind == "name" else getattr(ctx.get("error"), "words", None)
    if isinstance(worded, Words):
        return worded
    plain = _PLAIN.get(kind)
    return Words(plain) if plain else None


def _words(error: ErrorDetails, sets: Sets | None = None) -> str | Words:
    """One validation error in the program's words (pydantic's own as the last resort)."""
    return said_error(error, sets) or str(error["msg"])


def problems(exc: ValidationError, whole: str | Words) -> Words:
    """A pydantic error as one line for a person: each bad field by its path (``whole`` for the whole)."""
    return problems_said(exc.errors(), whole)


def problems_in(errors: Sequence[ErrorDetails], whole: str | Words) -> Words:
    """Validation errors (pydantic's shape) as one line for a person, said in the reader's language where it is
    shown (``str()`` is the English)."""
    return problems_said(errors, whole)


def problems_said(
    errors: Sequence[ErrorDetails],
    whole: str | Words,
    sets: Sets | None = None,
) -> Words:
    """Validation errors as one sentence said in the reader's language where it is shown: each input by its
    name in words (``whole`` for the whole), a closed set's values as terms (:func:`said_error`)."""
    said: Words | None = None
    for error in errors:
        path = ".".join(map(str, error["loc"]))
        field = Field(path) if path else (Field(whole) if isinstance(whole, str) else whole)
        one = Words("{field} {problem}", field=field, problem=_words(error, sets))
        said = one if said is None else Words("{head}; {next}", head=said, next=one)
    return said if said is not None else Words()


def decision_events(decisions: Sequence[Decision], battle_id: str | None, ruleset: RulesetInfo) -> list[Event]:
    """Each decision as a ``rules.applied`` event followed by the facts it caused (its ``leading`` ones ahead)."""
    out: list[Event] = []
    for d in decisions:
        out.extend(d.leading)
        out.append(
            RuleApplied(
                ruleset=ruleset.name,
                ruleset_version=ruleset.version,
                rule=d.rule,
                clause=f"RULES.md {d.clause}",
                battle_id=battle_id,
                unit_id=d.unit_id,
                inputs=dict(d.inputs),
                dice=tuple(r.roll_index for r in d.rolls),
                outcome=dict(d.outcome),
                explanation=d.explanation,
            )
        )
        out.extend(d.facts)
    return out
