"""The ``campaign`` command's entry point: an interrupt (Ctrl-C, SIGINT) at any moment of a command, start-up
included, ends it with one line in words and exit status 130, never a traceback.

The handler is set before anything else is imported. It raises :class:`Interrupted`, which is no ``Exception`` and
no ``KeyboardInterrupt``: nothing on the way out catches it as an error (Click turns a ``KeyboardInterrupt`` into
"Aborted!" and exit status 1, and only inside a command), and every ``finally`` and ``except BaseException`` runs,
so an append in progress is rolled back whole and a file being written is removed, not left half-written."""

from __future__ import annotations

import signal
import sys
from types import FrameType

EXIT_INTERRUPTED = 130
"""128 + SIGINT, as a shell reports a command stopped by Ctrl-C."""


class Interrupted(BaseException):
    """Ctrl-C (SIGINT) arrived."""


def _interrupt(_signum: int, _frame: FrameType | None) -> None:
    raise Interrupted


def main() -> None:
    signal.signal(signal.SIGINT, _interrupt)
    try:
        from campaign.cli.main import main as run

        run()
    except Interrupted:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while saying so changes nothing
        try:
            sys.stderr.write(
                "campaign: interrupted (Ctrl-C). A command's events are appended whole or not at all; "
                "`campaign log` shows whether it was recorded\n"
            )
            sys.stderr.flush()
        except OSError:
            pass
        raise SystemExit(EXIT_INTERRUPTED) from None
