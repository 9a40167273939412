"""Optional parts of the install (``pip install 'campaign-ledger[charts]'``, ``[postgres]``): a command that
needs one that is not installed says so in words, naming what to install, before it starts any work."""

from __future__ import annotations

import importlib.util

from events.errors import ConfigurationError

EXTRAS = {"charts": "matplotlib", "postgres": "psycopg"}
"""Each extra by the module it brings."""


def installed(extra: str) -> bool:
    return importlib.util.find_spec(EXTRAS[extra]) is not None


def need(extra: str, what: str) -> None:
    """Refuse ``what`` unless ``extra`` is installed."""
    if not installed(extra):
        module = EXTRAS[extra]
        raise ConfigurationError(
            f"{what} needs the {extra!r} extra, which is not installed: pip install 'campaign-ledger[{extra}]' "
            f"(with pipx: pipx inject campaign-ledger {module})"
        )
