"""One database connection for everything a request does (:func:`events.pg_engine.connection_scope`).

A request reads its session, its campaign, the member's role, the campaign's state and then appends: each of
these checked a connection out of the pool, and each checkout cost a ping and an empty transaction. Here the
first checkout of a request is lent again to the rest of it, and given back when the answer has been sent; a
stream of live updates gives it back before it starts (:func:`events.pg_engine.release_scope`).
"""

from __future__ import annotations

from starlette.types import Receive, Scope, Send

from campaign.server.asgi import HttpMiddleware
from events.pg_engine import connection_scope


class OneConnection(HttpMiddleware):
    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        with connection_scope():
            await self.app(scope, receive, send)
