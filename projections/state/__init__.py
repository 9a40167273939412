"""Pure folds: ``apply(state, event) -> state``. No database, clock, randomness or I/O (import-linter holds it)."""
