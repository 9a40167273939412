"""The message catalogs' developer command: ``update``, ``compile`` or ``check`` (``campaign.i18n.catalogs``).

::

    .venv/bin/python scripts/catalogs.py update    # sources → campaign.pot → new messages in each .po
    .venv/bin/python scripts/catalogs.py compile   # each .po → its .mo (committed: see campaign.i18n)
    .venv/bin/python scripts/catalogs.py check     # what the tests check: complete, placeholders kept

Here, outside the program's layers, because it joins two of them: the catalogs (the i18n layer, under every other)
the help the command line generates (``campaign.cli.help_texts``, over every other) and what the page's
forms say from the command models (``campaign.server.forms.form_texts``).
"""

from __future__ import annotations

import sys

from campaign.i18n import catalogs


def _help_texts() -> dict[str, str]:
    from campaign.cli.help_texts import command_help  # the whole command line: only for update and check

    return command_help(catalogs.HELP_GROUPS)


def _form_texts() -> list[catalogs.FormText]:
    from campaign.server.forms import form_texts  # every ruleset's forms: only for update and check

    return list(form_texts())


if __name__ == "__main__":
    sys.exit(catalogs.main(sys.argv[1:], _help_texts, _form_texts))
