"""What a rule returns: the facts it caused, the dice it used, and an explanation a person can read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from events.dice import Roll
from events.families.rules import RuleApplied
from events.registry import Event

if TYPE_CHECKING:
    from campaign.rulesets import RulesetInfo


@dataclass(frozen=True)
class Decision:
    rule: str
    clause: str
    unit_id: str | None
    inputs: Mapping[str, Any]
    outcome: Mapping[str, Any]
    explanation: str
    facts: tuple[Event, ...] = ()
    rolls: tuple[Roll, ...] = field(default=())
    leading: tuple[Event, ...] = ()
    """Facts recorded ahead of the ``rules.applied`` record rather than after it: where a rule's record has
    always followed its fact (Mass Combat's payday follows the pay settled), logs keep the order they hold."""


_BOUNDS: Mapping[str, tuple[str, str]] = {
    "greater_than_equal": ("ge", "must be at least {}"),
    "greater_than": ("gt", "must be more than {}"),
    "less_than_equal": ("le", "must be at most {}"),
    "less_than": ("lt", "must be less than {}"),
    "string_too_short": ("min_length", "needs at least {} characters"),
    "string_too_long": ("max_length", "is too long (at most {} characters)"),
    "too_short": ("min_length", "needs at least {}"),
    "too_long": ("max_length", "takes at most {}"),
    "literal_error": ("expected", "must be one of {}"),
}
"""A pydantic error kind that names a bound → the bound's key in its context, and the words around it."""
_AT_EDGE: Mapping[tuple[str, object], str] = {
    ("greater_than_equal", 0): "cannot be negative",
    ("string_too_short", 1): "cannot be empty",
}
"""Bounds a person reads better in words of their own."""
_PLAIN: Mapping[str, str] = {
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "bool_parsing": "must be true or false",
    "bool_type": "must be true or false",
    "missing": "is required",
    "extra_forbidden": "is not one of its inputs",
    "string_unicode": "is not valid UTF-8 text",
    "string_type": "must be text",
    "dict_type": "must be a JSON object",
    "model_attributes_type": "must be a JSON object",
    "model_type": "must be a JSON object",
    "list_type": "must be a list",
    "finite_number": "must be a finite number",
}


def _words(error: Mapping[str, Any]) -> str:
    """One validation error in the program's words (pydantic's own as the last resort)."""
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind in _BOUNDS:
        key, words = _BOUNDS[kind]
        return _AT_EDGE.get((kind, ctx.get(key))) or words.format(ctx.get(key))
    if kind == "json_invalid":
        return f"is not JSON ({ctx.get('error', 'unreadable')})"
    return _PLAIN.get(kind) or str(error["msg"])


def problems(exc: ValidationError, whole: str) -> str:
    """A pydantic error as one line for a person: each bad field by its path (``whole`` for the whole)."""
    return problems_in(exc.errors(), whole)


def problems_in(errors: Sequence[Mapping[str, Any]], whole: str) -> str:
    """Validation errors (pydantic's shape) as one line for a person."""
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or whole} {_words(e)}" for e in errors)


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
