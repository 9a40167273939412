"""One subpackage per ruleset: pure rule functions and their tables as data (TOML, with provenance tags).

Nothing here may touch a database, a clock, randomness or I/O: dice arrive as a Dice object, tables as
validated data. ``pyproject.toml``'s import-linter contract keeps that true.

Each subpackage declares its plug-in (``RULESET``, a :class:`~campaign.plugins.RulesetInfo`) in its
``__init__.py``, named as an entry point in ``pyproject.toml``; :mod:`campaign.plugins` reads them. The names
below are that module's, for the code that looks a ruleset up from here.
"""

from __future__ import annotations

from campaign.plugins import GROUP, RULESETS, Mutation, RulesetInfo, by_prefix, installed, load, ruleset

__all__ = ["GROUP", "RULESETS", "Mutation", "RulesetInfo", "by_prefix", "installed", "load", "ruleset"]
