"""Clients that send their request's headers slowly (or never) are not held: each connection gets a bounded time
to send them, then a 408 in the API's words and the connection closed; others are served meanwhile."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx2 as httpx
import orjson
import pytest

from campaign.bootstrap import bootstrap
from campaign.server.app import create_app
from tests.live_server import serving
from tests.server.conftest import FAST_HASHER

TIMEOUT = 0.5
"""The header timeout these tests serve with (``campaign serve``'s is 10 s)."""


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    opened = bootstrap(str(tmp_path_factory.mktemp("slow") / "slow.db"), actor="server")
    with serving(create_app(opened, hasher=FAST_HASHER), header_timeout=TIMEOUT) as base:
        yield base
    opened.close()


def connect(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def answer_of(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    got = b""
    while chunk := sock.recv(4096):
        got += chunk
    return got


def test_three_hundred_slow_clients_are_each_closed_and_a_member_is_served_meanwhile(url: str) -> None:
    slow = [connect(url) for _ in range(300)]
    try:
        for i, sock in enumerate(slow):
            sock.sendall(b"GET /signin HTTP/1.1\r\nHost: x\r\n" if i % 2 else b"")  # half say nothing at all
        assert httpx.get(f"{url}/signin", timeout=5).status_code == 200
        started = time.monotonic()
        answers = [answer_of(sock) for sock in slow]
        assert time.monotonic() - started < 10 * TIMEOUT + 5  # closed by the server, not by this test's timeout
    finally:
        for sock in slow:
            sock.close()
    for got in answers:
        head, _, body = got.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), got[:100]
        assert "did not arrive within 0.5 s" in orjson.loads(body)["detail"]


def test_a_kept_alive_connection_is_held_to_the_same_time_for_its_next_request(url: str) -> None:
    sock = connect(url)
    with sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        first = sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 "), first[:100]
        sock.sendall(b"GET /signin HTTP/1.1\r\n")  # the next request's first line, and then nothing
        rest = answer_of(sock)
    assert b"408 Request Timeout" in rest


def test_a_request_whose_headers_arrive_in_time_is_answered(url: str) -> None:
    sock = connect(url)
    with sock:
        for part in (b"GET /signin HTTP/1.1\r\n", b"Host: x\r\n", b"Connection: close\r\n\r\n"):
            sock.sendall(part)
            time.sleep(TIMEOUT / 5)
        assert answer_of(sock).startswith(b"HTTP/1.1 200")
