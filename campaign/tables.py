"""Reads each ruleset's tables file (the I/O that the pure rules must not do), checks it against the ruleset's
tables model, and names the house rules it refuses.

R2-36 ("a house rule on a key no rule reads is refused") rests on the models: a ``tables.toml`` key that is not
a field of its ruleset's model is refused when the tables load, a house rule may only name a field, and
``tests/acceptance/test_errata_tables.py`` finds every field read by some rule. So no path a house rule may
name is one no rule reads, and nothing parses the program's source at run time.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any

from campaign.rulesets.tables import Sourced, flatten
from events.errors import InvalidInputError, Words

ALTERNATIVES = "alternatives."
"""Alternative readings kept as data: read through the house rule that applies one to its ``table`` path."""


@functools.cache
def module_of(package: str) -> str:
    """A ruleset's package by its name (its plug-in's ``package``), or a built-in one's by its folder's name
    under ``campaign/rulesets`` (``fighting_spirit``)."""
    built_in = "." not in package and resources.files("campaign.rulesets").joinpath(package).is_dir()
    return f"campaign.rulesets.{package}" if built_in else package


@functools.cache
def ruleset_document(package: str) -> dict[str, Any]:
    text = resources.files(module_of(package)).joinpath("tables.toml").read_text("utf-8")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInputError.saying(
            "the {package} rule tables (tables.toml) are not well-formed TOML: {reason}", package=package, reason=exc
        ) from None


@functools.cache
def base_values(package: str) -> dict[str, Sourced]:
    try:
        return flatten(ruleset_document(package))
    except (ValueError, KeyError) as exc:
        raise InvalidInputError.saying(
            "the {package} rule tables (tables.toml) are malformed: {reason}", package=package, reason=exc
        ) from None


def alternatives(package: str) -> dict[str, list[tuple[str, str]]]:
    """Each alternative reading's value path → the house rules (table path, value) that apply it."""
    found: dict[str, list[tuple[str, str]]] = {}
    for name, entry in ruleset_document(package).get("alternatives", {}).items():
        if "table" in entry:
            found[f"{ALTERNATIVES}{name}.value"] = [(str(entry["table"]), str(entry["value"]["value"]))]
        else:  # ``paths``: "path=value" for each house rule it takes
            pairs = [str(item).split("=", 1) for item in entry["paths"]["value"]]
            found[f"{ALTERNATIVES}{name}.paths"] = [(path, value) for path, value in pairs]
    return found


@functools.cache
def house_rule_refusals(package: str) -> dict[str, Words]:
    """Each table path a house rule may not name although the model has it, with the words that refuse it: an
    alternative reading (applied through the house rules on its table paths)."""
    refusals = {}
    for path, applied in alternatives(package).items():
        rules: str | Words = ""
        for table, value in applied:
            rule = f"`house-rule {table} {value}`"
            rules = Words("{some} and {last}", some=rules, last=rule) if rules else rule
        refusals[path] = Words(
            "{path} is an alternative reading kept as data: apply it with {rules}", path=path, rules=rules
        )
    return refusals
