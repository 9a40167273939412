"""A real server on a loopback port, in a thread of the test process (uvicorn, as ``campaign serve`` runs it)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from fastapi import FastAPI

from campaign.server.serving import HEADER_TIMEOUT, config


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(app: FastAPI, *, header_timeout: float = HEADER_TIMEOUT) -> Iterator[str]:
    """``app`` served on http://127.0.0.1:PORT until the block ends, as ``campaign serve`` serves it; yields the
    base URL."""
    port = free_port()
    settings = config(app, "127.0.0.1", port, header_timeout=header_timeout)
    settings.timeout_graceful_shutdown = 1
    server = uvicorn.Server(settings)
    thread = threading.Thread(target=server.run, name="test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
