"""How ``campaign serve`` runs the application under uvicorn, and the connection-level limit it adds.

uvicorn (with h11) waits for a request's headers for as long as the client likes: 300 clients each sending one
header byte a minute hold 300 connections for ever (slowloris). :class:`HeaderTimeout` closes a connection whose
request headers have not all arrived within :data:`HEADER_TIMEOUT` seconds of its first byte (or of the
connection), with a 408 in the API's words. The tests serve through :func:`config` too, so they run what
``campaign serve`` runs.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import h11
import orjson
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    from starlette.types import ASGIApp

HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's headers (a browser sends them at once)."""
MAX_CONNECTIONS = 1000
"""Connections and requests at once; past it uvicorn answers 503 at once rather than queueing without end."""


class HeaderTimeout(H11Protocol):
    header_timeout = HEADER_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._waiting_for_headers: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_header_clock()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:  # the first bytes of the next request on a kept-alive connection
            self._start_header_clock()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # its headers are all in: the request runs
            self._stop_header_clock()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_clock()
        super().connection_lost(exc)

    def _start_header_clock(self) -> None:
        if self._waiting_for_headers is None:
            self._waiting_for_headers = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _stop_header_clock(self) -> None:
        if self._waiting_for_headers is not None:
            self._waiting_for_headers.cancel()
            self._waiting_for_headers = None

    def _headers_too_slow(self) -> None:
        self._waiting_for_headers = None
        if self.transport.is_closing():
            return
        words = f"the request's headers did not arrive within {self.header_timeout:g} s: the connection is closed"
        body = orjson.dumps({"detail": words})
        self.transport.write(
            b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
            + f"content-length: {len(body)}\r\n\r\n".encode()
            + body
        )
        self.transport.close()


def config(
    app: ASGIApp,
    host: str,
    port: int,
    *,
    header_timeout: float = HEADER_TIMEOUT,
    forwarded_allow_ips: str = "127.0.0.1",
    log_level: str = "warning",
) -> uvicorn.Config:
    """uvicorn's settings for the server: h11 with the header timeout, the client's address taken from
    ``X-Forwarded-For`` only when the connection comes from ``forwarded_allow_ips`` (the reverse proxy)."""
    protocol = type("ServedProtocol", (HeaderTimeout,), {"header_timeout": header_timeout})
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        log_level=log_level,
        access_log=False,  # one JSON line per request comes from the application's own log (campaign.server.log)
        timeout_graceful_shutdown=2,
        limit_concurrency=MAX_CONNECTIONS,
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
    )
