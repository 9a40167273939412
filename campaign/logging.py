"""structlog configuration. Called once, by the entry point; libraries and rules never configure it.

structlog is imported when a line is first logged at a level the entry point lets through, not before:
importing it (and through it Rich's tracebacks and Pygments) costs a command about a tenth of its start-up,
and at the default level a command logs nothing. Modules log through :func:`get_logger`.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO, cast

if TYPE_CHECKING:
    import structlog

LEVELS = (logging.WARNING, logging.INFO, logging.DEBUG)
"""The level of ``-v`` counted 0, 1, 2 or more times."""


@dataclass
class _Settings:
    level: int | None = None
    """The lowest level logged; None until the entry point configures logging (then structlog's own defaults)."""
    applied: bool = False
    """Whether structlog has been configured with ``level``."""
    json_lines: bool = False
    """JSON lines even on a terminal (the server's log, read by machines)."""


_settings = _Settings()


def configure_logging(verbose: int = 0, *, json_lines: bool = False) -> None:
    _settings.level = LEVELS[min(verbose, 2)]
    _settings.applied = False
    _settings.json_lines = json_lines
    if "structlog" in sys.modules:  # already loaded (e.g. by a test): configure it now, as before
        _structlog()


def verbosity() -> int:
    """How many ``-v`` the entry point was given (0 before it configured logging)."""
    return LEVELS.index(_settings.level) if _settings.level in LEVELS else 0


def _structlog() -> Any:
    """structlog, imported and configured as the entry point asked (the first time a line passes)."""
    import structlog

    if _settings.level is not None and not _settings.applied:
        as_json = _settings.json_lines or not sys.stderr.isatty()
        renderer: structlog.typing.Processor = (
            structlog.processors.JSONRenderer() if as_json else structlog.dev.ConsoleRenderer(colors=False)
        )
        # In JSON, an exception is a field of its line (never a traceback's loose lines between log lines), its
        # frames without their local variables (a request's locals hold passwords and session secrets).
        frames = structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
        tracebacks: list[structlog.typing.Processor] = (
            [structlog.processors.ExceptionRenderer(frames)] if as_json else []
        )
        structlog.configure(
            processors=[
                structlog.contextvars.merge_contextvars,
                structlog.processors.add_log_level,
                structlog.processors.TimeStamper(fmt="iso", utc=True),
                *tracebacks,
                renderer,
            ],
            wrapper_class=structlog.make_filtering_bound_logger(_settings.level),
            logger_factory=structlog.WriteLoggerFactory(file=cast(TextIO, _Stderr())),
            cache_logger_on_first_use=False,
        )
        _settings.applied = True
    return structlog


class _Stderr:
    """The process's standard error as it is when a line is written, not when logging was configured.

    A server's threads (the live listener) outlive whatever stream was ``sys.stderr`` at start-up: a test's
    captured stream, or a terminal since closed. A line that cannot be written is lost, never an exception that
    ends the thread that logged it.
    """

    def write(self, text: str) -> int:
        try:
            return sys.stderr.write(text)
        except (ValueError, OSError):
            return 0

    def flush(self) -> None:
        with contextlib.suppress(ValueError, OSError):
            sys.stderr.flush()


class Logger:
    """A structlog logger by name that loads structlog only for a line the configured level lets through."""

    def __init__(self, name: str) -> None:
        self.name = name

    def _log(self, level: int, event: str, fields: dict[str, object]) -> None:
        if _settings.level is not None and level < _settings.level:
            return
        logger = _structlog().get_logger(self.name)
        getattr(logger, logging.getLevelName(level).lower())(event, **fields)

    def debug(self, event: str, **fields: object) -> None:
        self._log(logging.DEBUG, event, fields)

    def info(self, event: str, **fields: object) -> None:
        self._log(logging.INFO, event, fields)

    def warning(self, event: str, **fields: object) -> None:
        self._log(logging.WARNING, event, fields)

    def error(self, event: str, **fields: object) -> None:
        self._log(logging.ERROR, event, fields)


def get_logger(name: str) -> Logger:
    return Logger(name)
