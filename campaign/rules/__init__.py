"""One subpackage per ruleset: pure rule functions and their tables as data (TOML, with provenance tags).

Nothing here may touch a database, a clock, randomness or I/O: dice arrive as a Dice object, tables as
validated data. ``pyproject.toml``'s import-linter contract keeps that true.
"""
