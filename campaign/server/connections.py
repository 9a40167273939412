"""One database connection for everything a request does (:func:`events.pg_engine.connection_scope`).

A request reads its session, its campaign, the member's role, the campaign's state and then appends: each of
these checked a connection out of the pool, and each checkout cost a ping and an empty transaction. Here the
first checkout of a request is lent again to the rest of it, and given back when the answer has been sent; a
stream of live updates gives it back before it starts (:func:`events.pg_engine.release_scope`).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from events.pg_engine import connection_scope


class OneConnection:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with connection_scope():
            await self.app(scope, receive, send)
