"""A client that goes away while it sends a form (a phone losing its signal mid-post) is no defect of the server:
its request's log line says the client went away (status 499, as proxies log it) at info level, with no
traceback, and nothing is appended."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from starlette.types import Message
from structlog.testing import capture_logs
from structlog.typing import EventDict

from campaign.logging import configure_logging
from campaign.server.context import SESSION_COOKIE
from tests.server.conftest import World


@pytest.fixture
def logged() -> Iterator[list[EventDict]]:
    configure_logging(1)
    with capture_logs() as lines:
        yield lines
    configure_logging(0)


def post_cut_short(world: World, path: str, kind: bytes = b"application/x-www-form-urlencoded") -> list[Message]:
    """A signed-in page's form post whose client disconnects after the first part of its body; what was sent back."""
    gina = world.client("gina")
    body = b"_command=gf.muster&name=Robot+Sq"
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"cookie", f"{SESSION_COOKIE}={gina.cookies.get(SESSION_COOKIE)}".encode()),
            (b"x-csrf-token", str(gina.headers["X-CSRF-Token"]).encode()),
            (b"hx-request", b"true"),
            (b"content-type", kind),
            (b"content-length", b"4000"),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    parts: list[dict[str, Any]] = [{"type": "http.request", "body": body, "more_body": True}]
    sent: list[Message] = []

    async def receive() -> dict[str, Any]:
        return parts.pop(0) if parts else {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    async def call() -> None:
        await world.app(scope, receive, send)

    anyio.run(call)
    return sent


def test_a_form_post_cut_short_is_logged_as_a_client_gone_away_not_a_defect(
    world: World, logged: list[EventDict]
) -> None:
    cid = world.campaign_id
    before = world.client("gina").get(f"/api/campaigns/{cid}").json()["seq"]
    post_cut_short(world, f"/c/{cid}/command")
    [line] = [line for line in logged if line["event"] == "request" and line["route"] == "/c/{campaign_id}/command"]
    assert line["status"] == 499 and line["gone"] == "client", line
    assert line["log_level"] == "info" and "exc_info" not in line, line
    assert not [x for x in logged if x.get("log_level") in ("error", "critical", "exception")]
    assert world.client("gina").get(f"/api/campaigns/{cid}").json()["seq"] == before


def test_a_command_post_cut_short_is_logged_as_a_client_gone_away(world: World, logged: list[EventDict]) -> None:
    cid = world.campaign_id
    post_cut_short(world, f"/api/campaigns/{cid}/commands", b"application/json")
    [line] = [x for x in logged if x["event"] == "request" and x["route"] == "/api/campaigns/{campaign_id}/commands"]
    assert line["status"] in (400, 499) and line["log_level"] == "info" and "exc_info" not in line, line
