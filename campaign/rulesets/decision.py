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


_FIXED_WORDS = {
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
"""Validation errors that need no detail of their own, in the program's words."""


def _words(error: Mapping[str, Any]) -> str:
    """One validation error in the program's words (pydantic's own as the last resort)."""
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind in _FIXED_WORDS:
        return _FIXED_WORDS[kind]
    if kind == "greater_than_equal":
        return "cannot be negative" if ctx.get("ge") == 0 else f"must be at least {ctx.get('ge')}"
    if kind == "greater_than":
        return f"must be more than {ctx.get('gt')}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}"
    if kind == "less_than":
        return f"must be less than {ctx.get('lt')}"
    if kind == "string_too_short":
        return "cannot be empty" if ctx.get("min_length") == 1 else f"needs at least {ctx.get('min_length')} characters"
    if kind == "string_too_long":
        return f"is too long (at most {ctx.get('max_length')} characters)"
    if kind == "too_short":
        return f"needs at least {ctx.get('min_length')}"
    if kind == "too_long":
        return f"takes at most {ctx.get('max_length')}"
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected')}"
    if kind == "json_invalid":
        return f"is not JSON ({ctx.get('error', 'unreadable')})"
    return str(error["msg"])


def problems(exc: ValidationError, whole: str) -> str:
    """A pydantic error as one line for a person: each bad field by its path (``whole`` for the whole)."""
    return problems_in(exc.errors(), whole)


def problems_in(errors: Sequence[Mapping[str, Any]], whole: str) -> str:
    """Validation errors (pydantic's shape) as one line for a person."""
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or whole} {_words(e)}" for e in errors)


def decision_events(decisions: Sequence[Decision], battle_id: str | None, ruleset: RulesetInfo) -> list[Event]:
    """Each decision as a ``rules.applied`` event followed by the facts it caused."""
    out: list[Event] = []
    for d in decisions:
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
