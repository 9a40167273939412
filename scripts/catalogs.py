"""The message catalogs' developer command: ``update``, ``compile`` or ``check`` (``campaign.i18n.catalogs``).

::

    .venv/bin/python scripts/catalogs.py update    # sources → campaign.pot → new messages in each .po
    .venv/bin/python scripts/catalogs.py compile   # each .po → its .mo (committed: see campaign.i18n)
    .venv/bin/python scripts/catalogs.py check     # what the tests check: complete, placeholders kept

Here, outside the program's layers, because it joins two of them: the catalogs (the i18n layer, under every other)
and the help the command line generates (``campaign.cli.help_texts``, over every other).
"""

from __future__ import annotations

import sys

from campaign.i18n import catalogs


def _help_texts() -> dict[str, str]:
    from campaign.cli.help_texts import command_help  # the whole command line: only for update and check

    return command_help(catalogs.HELP_GROUPS)


if __name__ == "__main__":
    sys.exit(catalogs.main(sys.argv[1:], _help_texts))
