"""The one shape of this server's ASGI middlewares: each acts on HTTP requests (of some methods only, where it
says) and passes every other message through untouched (lifespan, and a request of another method)."""

from __future__ import annotations

from typing import ClassVar

from starlette.types import ASGIApp, Receive, Scope, Send


class HttpMiddleware:
    """A middleware of HTTP requests: :meth:`http` sees those of :attr:`methods` (all, when None); every other
    scope goes on to the app as it came."""

    methods: ClassVar[frozenset[str] | None] = None

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (self.methods is not None and scope["method"] not in self.methods):
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError
