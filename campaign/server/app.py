"""``create_app``: the ASGI application over one database (``campaign serve`` runs it under uvicorn)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio.to_thread
from argon2 import PasswordHasher
from fastapi import FastAPI, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import TimeoutError as PoolTimeout

from campaign.access.accounts import ARGON2, Accounts
from campaign.access.memberships import Memberships
from campaign.bootstrap import App, bootstrap, wall_clock
from campaign.server import api, pages
from campaign.server.context import Server, status_for
from campaign.server.live import Live
from events.errors import CampaignError

STATIC = Path(__file__).parent / "static"
WORKERS = 12
ROUTERS = (api.router, pages.router)


def route_table() -> list[APIRoute]:
    """Every route the application serves (each declaring its access level): what the authorisation test walks."""
    return [r for router in ROUTERS for r in router.routes if isinstance(r, APIRoute)]


def create_app(db: str | App, *, secure_cookies: bool = False, hasher: PasswordHasher = ARGON2) -> FastAPI:
    """The application; ``db`` is a URL (opened and migrated here) or an opened :class:`App`."""
    opened = bootstrap(db, actor="server") if isinstance(db, str) else db

    def head_of(campaign_id: str) -> int:
        info = opened.ledger.directory.get(campaign_id)
        return 0 if info is None else info.last_seq

    srv = Server(
        opened, Accounts(opened.engine, wall_clock, hasher), Memberships(opened.engine), Live(opened.engine, head_of)
    )
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
    )
    app.state.server = srv

    @app.exception_handler(CampaignError)
    async def refused(request: Request, exc: CampaignError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=status_for(exc))

    @app.exception_handler(PoolTimeout)
    async def busy(request: Request, exc: PoolTimeout) -> JSONResponse:
        return JSONResponse({"detail": "the server is busy: nothing was appended, try again"}, status_code=503)

    @app.exception_handler(HTTPException)
    async def http_refusal(request: Request, exc: HTTPException) -> Response:
        """A page asked for without a session goes to the sign-in form; the API answers in JSON."""
        if exc.status_code == 401 and request.method == "GET" and not request.url.path.startswith("/api/"):
            return RedirectResponse("/signin", status_code=303)
        return await http_exception_handler(request, exc)

    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
