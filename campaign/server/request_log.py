"""One JSON line per request (structlog): its route, status, account, campaign and milliseconds.

The routes add what only they know through :func:`note` (who signed in, which campaign, why a sign-in was
refused); the line is written when the answer has gone, so a refusal by any layer (a body too large, a
throttled sign-in, a database gone away) has its line too. An exception no handler answered is logged here as
a field of its line, with its traceback as data, never as loose lines of text. A client that went away before
its request was read through is no defect: its line says so (status 499, ``gone: client``) at info level.
"""

from __future__ import annotations

import time

from starlette.requests import ClientDisconnect, Request
from starlette.types import Message, Receive, Scope, Send

from campaign.logging import get_logger
from campaign.server.asgi import HttpMiddleware
from campaign.server.refusals import DEFECT, GONE, RETRY_AFTER_S, out_of_reach, said_in_scope

log = get_logger("campaign.server")
NOTES = "campaign_ledger.log"
"""Where a request's own fields wait for its line (in the ASGI scope's ``state``, shared by every layer)."""


def note(request: Request, **fields: object) -> None:
    """Add ``fields`` to the request's log line."""
    notes: dict[str, object] = request.scope.setdefault("state", {}).setdefault(NOTES, {})
    notes.update(fields)


class RequestLog(HttpMiddleware):
    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        notes: dict[str, object] = scope.setdefault("state", {}).setdefault(NOTES, {})
        status = 500
        started_answer = False

        async def noted(message: Message) -> None:
            nonlocal status, started_answer
            if message["type"] == "http.response.start":
                status, started_answer = message["status"], True
            await send(message)

        failed: BaseException | None = None
        try:
            await self.app(scope, receive, noted)
        except ClientDisconnect:
            # the client went away before its request was read through (a form post cut short: a phone that lost
            # its signal, a tab closed): no defect, nothing was done, and nobody is left to answer. 499, the status
            # proxies log for it, and no traceback.
            if not started_answer:
                status = 499
            notes["gone"] = "client"
        except Exception as exc:  # a defect no handler answered: a 500 in words, and the line below says it all
            if out_of_reach(exc) and not started_answer:
                # the database went away while a middleware read it (PostgreSQL stopped): no defect, a 503
                status = 503
                await said_in_scope(scope, receive, send, GONE, 503, {"Retry-After": str(RETRY_AFTER_S)})
            else:
                failed = exc
                if not started_answer:
                    await said_in_scope(scope, receive, send, DEFECT, 500)
        route = scope.get("route")
        fields = {
            "method": scope["method"],
            "route": getattr(route, "path", None) or scope["path"],
            "status": status,
            "ms": round((time.perf_counter() - started) * 1000, 1),
            "client": (scope.get("client") or ("", 0))[0],
            **notes,
        }
        if failed is not None:
            log.error("request", **fields, exc_info=failed)
        else:
            log.info("request", **fields)
