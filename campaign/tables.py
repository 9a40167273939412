"""Reads each ruleset's tables file (the I/O that the pure rules must not do)."""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any

from campaign.rulesets.tables import Sourced, flatten


@functools.cache
def ruleset_document(package: str) -> dict[str, Any]:
    text = resources.files(f"campaign.rulesets.{package}").joinpath("tables.toml").read_text("utf-8")
    return tomllib.loads(text)


@functools.cache
def base_values(package: str) -> dict[str, Sourced]:
    return flatten(ruleset_document(package))
