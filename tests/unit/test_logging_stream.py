"""A log line goes to the standard error of the moment, and a stream that is gone never ends the thread."""

from __future__ import annotations

import io
import sys

import pytest

from campaign.logging import configure_logging, get_logger


def test_a_line_goes_to_the_stderr_of_the_moment_and_a_closed_one_is_not_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    configure_logging(0, json_lines=True)
    gone = io.StringIO()
    gone.close()
    monkeypatch.setattr(sys, "stderr", gone)
    get_logger("test").warning("stream.gone")  # the live listener logs this way after its test ended

    now = io.StringIO()
    monkeypatch.setattr(sys, "stderr", now)
    get_logger("test").warning("stream.here", n=1)
    assert '"event": "stream.here"' in now.getvalue()
    configure_logging(0)
