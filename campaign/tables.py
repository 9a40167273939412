"""Reads each ruleset's tables file (the I/O that the pure rules must not do), and finds which of its paths the
ruleset's rules read (RULES.md R2-36)."""

from __future__ import annotations

import ast
import functools
import re
import threading
import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any

from campaign.rulesets.tables import Sourced, flatten

READERS = frozenset({"value", "number", "flag", "has", "source", "band", "step_bonus"})
"""The table lookups that take a path (:class:`campaign.rulesets.tables.RuleTables`'s and Mass Combat's bands
and steps): a call to one of them with a path reads it."""

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
    return tomllib.loads(text)


@functools.cache
def base_values(package: str) -> dict[str, Sourced]:
    return flatten(ruleset_document(package))


def _sources(package: str) -> Iterator[str]:
    """The ruleset's rules: its package, and for the four built in, their CLI modules (``campaign/cli/<package>.py``
    and ``campaign/cli/<package>_*.py``, its views) where they read a table."""
    folder = resources.files(module_of(package))
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".py"):
            yield entry.read_text("utf-8")
    if not module_of(package).startswith("campaign.rulesets."):
        return
    package = module_of(package).rpartition(".")[2]
    root = resources.files("campaign")
    cli = root.joinpath("cli")
    views = sorted((e for e in cli.iterdir() if e.name.startswith(f"{package}_") and e.name.endswith(".py")), key=str)
    for module in (root.joinpath(f"{package}.py"), cli.joinpath(f"{package}.py"), *views):
        if module.is_file():
            yield module.read_text("utf-8")


def _template(node: ast.expr, names: dict[str, list[ast.expr]]) -> str | None:
    """A path argument as a regular expression: a literal as itself, an f-string's fields as any text, a name
    as whatever the module assigns to it."""
    if isinstance(node, ast.Name):
        found = [t for value in names.get(node.id, []) if (t := _template(value, {}))]
        return "|".join(f"(?:{t})" for t in found) or None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.escape(node.value)
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(re.escape(value.value))
            else:
                parts.append(r"[^\s]+")
        return "".join(parts)
    if isinstance(node, ast.IfExp):  # tables.value("a" if x else "b")
        both = [_template(node.body, names), _template(node.orelse, names)]
        return "|".join(f"(?:{t})" for t in both if t) or None
    return None


_PARSING = threading.Lock()
"""Two server threads parsing at once made CPython 3.11 fail ("AST constructor recursion depth mismatch",
seen under bench/server_load.py): one parse at a time."""


@functools.cache
def read_templates(package: str) -> tuple[re.Pattern[str], ...]:
    """Every path the ruleset's code looks up through a table reader, as a pattern over dotted paths."""
    found: set[str] = set()
    for text in _sources(package):
        with _PARSING:
            tree = ast.parse(text)
        names: dict[str, list[ast.expr]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                names.setdefault(node.targets[0].id, []).append(node.value)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in READERS
                and node.args
                and (template := _template(node.args[0], names))
            ):
                found.add(template)
    return tuple(re.compile(t) for t in sorted(found))


def is_read(package: str, path: str) -> bool:
    """R2-36: some rule of the ruleset reads ``path``."""
    return any(t.fullmatch(path) for t in read_templates(package))


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


def unread_paths(package: str) -> list[str]:
    """The paths of the ruleset's tables that no rule reads (R2-36 wants none). An alternative reading counts
    as read through the house rules that apply it, so it is unread if one of their paths is."""
    replaced = alternatives(package)
    return [
        p
        for p in sorted(base_values(package))
        if not all(is_read(package, target) for target, _ in replaced.get(p, [(p, "")]))
    ]


@functools.cache
def house_rule_refusals(package: str) -> dict[str, str]:
    """R2-36: each path a house rule may not name, with the words that refuse it: a path that no rule reads (it
    would change nothing), and an alternative reading (applied through the house rules on its table paths)."""
    refusals = {
        path: f"no rule reads {path}: a house rule on it would change nothing"
        for path in base_values(package)
        if not path.startswith(ALTERNATIVES) and not is_read(package, path)
    }
    for path, applied in alternatives(package).items():
        rules = " and ".join(f"`house-rule {table} {value}`" for table, value in applied)
        refusals[path] = f"{path} is an alternative reading kept as data: apply it with {rules}"
    return refusals
