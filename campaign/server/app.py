"""``create_app``: the ASGI application over one database (``campaign serve`` runs it under uvicorn)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import anyio.to_thread
from argon2 import PasswordHasher
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic_core import ErrorDetails
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException
from starlette.types import Message, Receive, Scope, Send

from campaign.access.accounts import ARGON2, Accounts
from campaign.access.invitations import Invitations
from campaign.access.memberships import Memberships
from campaign.access.throttle import Throttle
from campaign.bootstrap import App, bootstrap, wall_clock
from campaign.rulesets.decision import problems_in
from campaign.server import account_pages, api, health, live_parts, nojs, pages, refusals, report_pages
from campaign.server.asgi import HttpMiddleware
from campaign.server.connections import OneConnection
from campaign.server.context import Server, status_for
from campaign.server.fragments import Fragments
from campaign.server.guard import Guard, Settings
from campaign.server.headers import SecurityHeaders
from campaign.server.language import ReaderLanguage
from campaign.server.live import Live
from campaign.server.refusals import lost_race, said_in_scope, said_to
from campaign.server.request_log import RequestLog
from events.errors import CampaignError, ConcurrencyError, Words
from events.sql import SqlEventStore

STATIC = Path(__file__).parent / "static"
WORKERS = 12
MAX_BODY = 1_000_000
"""The largest request body read, in bytes (a command's inputs are a few hundred; an import is the CLI's)."""
UNREADABLE = "There was an error parsing the body"
"""FastAPI's words for a body its JSON reader gave up on (invalid UTF-8, nested past the stack, a 5,000-digit
number): the only sign of it there is."""


class Boundary(HttpMiddleware):
    """Refuses, in the product's words, an address holding a NUL character, and a body over :data:`MAX_BODY`
    bytes: at once if its ``Content-Length`` says so, or when a body sent in chunks passes the limit (nothing
    past it is read)."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if "\x00" in scope["path"] or b"%00" in scope["query_string"] or b"\x00" in scope["query_string"]:
            # No name or text holds one (events/limits.py), and PostgreSQL refuses to be asked for one.
            said = Words("the address holds a NUL character (%00): no name or text does")
            await said_in_scope(scope, receive, send, said, 400)
            return
        lengths = [v for k, v in scope["headers"] if k == b"content-length"]
        if any(not v.isdigit() for v in lengths):
            await said_in_scope(scope, receive, send, Words("the request's Content-Length is not a number"), 400)
            return
        if any(int(v) > MAX_BODY for v in lengths):
            await said_in_scope(scope, receive, send, TOO_LARGE, 413)
            return
        read = 0

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            read += len(message.get("body", b""))
            if read > MAX_BODY:
                raise HTTPException(413)
            return message

        await self.app(scope, counted, send)


class HeadAsGet(HttpMiddleware):
    """Answers HEAD wherever GET is answered, as RFC 9110 asks (FastAPI's routes, unlike Starlette's, take only the
    methods they name): the request runs as a GET, and its status and headers are sent without the body. The routes
    and the OpenAPI document stay as declared; an address that does not take GET still answers 405."""

    methods = frozenset({"HEAD"})

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        ended = False

        async def headers_only(message: Message) -> None:
            nonlocal ended
            if message["type"] != "http.response.body":
                await send(message)
            elif not ended:  # the first part of the body ends the answer; a stream then sees its client gone
                ended = True
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        await self.app({**scope, "method": "GET"}, receive, headers_only)


TOO_LARGE = Words("the request is larger than {n:,} bytes: nothing was read or appended", n=MAX_BODY)


def http_words(request: Request, exc: HTTPException) -> Words | str:
    """An HTTP refusal's words: the product's for what Starlette and FastAPI refuse in theirs (an address with
    nothing at it, a body too large or unreadable), else its ``detail`` (:class:`Words` where the server raised
    it, said in the reader's language on a page; the API says ``str()`` of it, the English)."""
    if exc.status_code == 404 and exc.detail == "Not Found":
        return Words("there is nothing at {path}", path=request.url.path)
    if exc.status_code == 413:
        return TOO_LARGE
    if exc.status_code == 400 and exc.detail == UNREADABLE:
        return Words(
            "the request's body is not JSON this server reads (invalid UTF-8, nested too deep, or a number too long)"
        )
    detail: Words | str = exc.detail if isinstance(exc.detail, Words) else str(exc.detail)
    return detail


ROUTERS = (api.router, pages.router, account_pages.router, report_pages.router, health.router)


def route_table() -> list[APIRoute]:
    """Every route the application serves (each declaring its access level): what the authorisation test walks."""
    return [r for router in ROUTERS for r in router.routes if isinstance(r, APIRoute)]


def create_app(
    db: str | App,
    *,
    secure_cookies: bool = False,
    hasher: PasswordHasher = ARGON2,
    settings: Settings | None = None,
    now: Callable[[], float] = time.time,
) -> FastAPI:
    """The application; ``db`` is a URL (opened and migrated here) or an opened :class:`App`; ``settings`` its
    limits on signing in, ``now`` its clock for sessions' expiry and sign-in throttling."""
    settings = settings or Settings()
    opened = bootstrap(db, actor="server") if isinstance(db, str) else db
    ledger = opened.ledger  # the ledger wired now, once, not by the first requests' threads at once
    if isinstance(ledger.store, SqlEventStore):
        # A server runs for weeks: its commits must reach the .db file as they are acknowledged, not when it stops
        # (a `cp campaign.db` meanwhile would miss them). The cost per command: README, "Storage".
        ledger.store.checkpoint_each_write = True
    members = Memberships(opened.engine)
    fragments = Fragments(ledger, members, live_parts.PAGE)
    live = Live(opened.engine, ledger.directory.get, fragments.at)
    accounts = Accounts(opened.engine, wall_clock, hasher, lifetimes=settings.lifetimes, now=now)
    srv = Server(opened, accounts, members, live, fragments, Invitations(opened.engine, now))
    srv.secure_cookies = secure_cookies

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Requests run in threads, each holding a database connection at a time: no more threads than the
        # engine's pool holds (5 + 10 overflow), so a busy server queues requests instead of timing them out.
        anyio.to_thread.current_default_thread_limiter().total_tokens = WORKERS
        await srv.live.start()
        try:
            yield
        finally:
            await srv.live.stop()

    app = FastAPI(
        title="Campaign Ledger",
        summary="A campaign's log shared by its group: game master, players and observers.",
        version="0.1.0",
        lifespan=lifespan,
        # FastAPI's /docs and /redoc load their script from a CDN (blank on a LAN without internet) and start it
        # with an inline script (which the CSP refuses): off. The document itself is /openapi.json.
        docs_url=None,
        redoc_url=None,
    )
    app.state.server = srv
    app.state.guard = Guard(accounts, Throttle(opened.engine), settings)
    refusals.install(app)

    # A page says each refusal in the reader's language; the API keeps the English, as `--json` does (said_to).
    @app.exception_handler(CampaignError)
    async def refused(request: Request, exc: CampaignError) -> Response:
        if isinstance(exc, ConcurrencyError):
            return said_to(request, lost_race(request, exc), 409)
        return said_to(request, exc.words or str(exc), status_for(exc))

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> Response:
        """A request of the wrong shape (FastAPI's 422), said in words: which input, and what is wrong with it."""
        errors: Sequence[ErrorDetails] = exc.errors()  # FastAPI's are pydantic's (FastAPI leaves them untyped)
        return said_to(request, problems_in([{**e, "loc": e.get("loc", ())[1:]} for e in errors], "the body"), 422)

    @app.exception_handler(PoolTimeout)
    async def busy(request: Request, exc: PoolTimeout) -> Response:
        return said_to(request, Words("the server is busy: nothing was appended, try again"), 503)

    @app.exception_handler(HTTPException)
    async def http_refusal(request: Request, exc: HTTPException) -> Response:
        """A page asked for without a session goes to the sign-in form; the API answers in JSON."""
        if exc.status_code == 401 and request.method == "GET" and not request.url.path.startswith("/api/"):
            return RedirectResponse("/signin", status_code=303)
        if exc.status_code in (204, 304):
            return Response(status_code=exc.status_code, headers=exc.headers)
        if exc.status_code == 405:
            said = Words("{path} does not take {method} requests", path=request.url.path, method=request.method)
            return said_to(request, said, 405, exc.headers)
        return said_to(request, http_words(request, exc), exc.status_code, exc.headers)

    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(nojs.FormToken)  # inside Boundary: a body it reads is already held to MAX_BODY
    app.add_middleware(ReaderLanguage)
    app.add_middleware(HeadAsGet)
    app.add_middleware(Boundary)
    app.add_middleware(OneConnection)
    app.add_middleware(RequestLog)
    app.add_middleware(SecurityHeaders, https=secure_cookies)
    return app
