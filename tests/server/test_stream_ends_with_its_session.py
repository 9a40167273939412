"""A live stream ends when its session or membership does, though the campaign never falls quiet long enough for a
keep-alive: the session and membership are read again before anything is sent (README, the server's section).

In-process: the stream's updates are the real ones, and the session or membership ends as the first of them comes,
before it is sent; the stream then sends nothing (it would have sent ``event: appended``) and ends."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from campaign.access import memberships
from campaign.server.context import SESSION_COOKIE
from tests.server.conftest import World


def bearer(world: World) -> TestClient:
    token = world.client("pat").post("/api/tokens").json()["token"]
    script = TestClient(world.app)
    script.headers["Authorization"] = f"Bearer {token}"
    return script


def signed_out(world: World, reader: TestClient) -> None:
    world.app.state.server.accounts.close_session(world.client("pat").cookies.get(SESSION_COOKIE))


def revoked(world: World, reader: TestClient) -> None:
    accounts = world.app.state.server.accounts
    for s in accounts.sessions_of("pat"):
        accounts.revoke("pat", s["id"])


def removed(world: World, reader: TestClient) -> None:
    srv = world.app.state.server
    memberships.remove(srv.ledger_for("gina"), srv.members, srv.campaign(world.campaign_id), "pat")


ENDS: dict[str, tuple[Callable[[World], TestClient], Callable[[World, TestClient], None]]] = {
    "the page's session signed out": (lambda w: w.client("pat"), signed_out),
    "a token revoked": (bearer, revoked),
    "the member removed": (lambda w: w.client("pat"), removed),
}


@pytest.mark.parametrize("what", list(ENDS))
def test_a_stream_sends_nothing_once_its_session_or_membership_ends(
    world: World, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    reader_of, end = ENDS[what]
    reader = reader_of(world)
    live = world.app.state.server.live
    real = live.updates
    ended: list[bool] = []

    async def first_then_ended(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async for update in real(*args, **kwargs):
            if update is None:
                continue
            end(world, reader)  # as the update comes, before the stream sends it
            ended.append(True)
            yield update
            return  # one update is enough to show it: the stream would otherwise wait for the next

    monkeypatch.setattr(live, "updates", first_then_ended)
    answer = reader.get(f"/api/campaigns/{world.campaign_id}/events", params={"after": 0})
    assert answer.status_code == 200 and ended, answer.text
    assert "event: appended" not in answer.text, answer.text


def test_a_stream_still_signed_in_is_sent_its_update(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other side of the edge: nothing ended, the same update is sent."""
    live = world.app.state.server.live
    real = live.updates

    async def first(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async for update in real(*args, **kwargs):
            if update is not None:
                yield update
                return

    monkeypatch.setattr(live, "updates", first)
    answer = world.client("pat").get(f"/api/campaigns/{world.campaign_id}/events", params={"after": 0})
    assert answer.status_code == 200 and "event: appended" in answer.text, answer.text
