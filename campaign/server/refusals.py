"""Refusals for what the routes themselves do not answer, in the API's words and one shape (``{"detail": "…"}``,
English), or on a page in the reader's language for a browser (:func:`said_to`):
a database that went away (503: nothing was appended, the client's next request is served once it is back), a
command that lost a race to another writer (409, naming the campaign by its name), and a defect of the program
(500 in words, from :mod:`campaign.server.request_log`; the traceback goes to the log as data, never to the
client)."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from starlette.types import Receive, Scope, Send

from campaign.i18n import reading_in, words_said
from events.errors import CampaignError, ConcurrencyError, Words
from events.extras import installed

RETRY_AFTER_S = 2
"""What a 503 asks the client to wait: a PostgreSQL restart takes a second or two."""


class Refusal(BaseModel):
    """Every refusal's body: what was wrong, in words (nothing was appended)."""

    detail: str


def _said(status: int, description: str, retry: bool = False) -> dict[str, object]:
    answer: dict[str, object] = {"model": Refusal, "description": description}
    if retry:
        answer["headers"] = {
            "Retry-After": {"description": "Seconds to wait before trying again.", "schema": {"type": "integer"}}
        }
    return answer


REFUSALS: dict[int | str, dict[str, object]] = {
    400: _said(
        400,
        "Well-formed but refused by the rules or the data (an unknown unit, a 7 on a d6, a weak "
        "password, a wrong one): the reason in words; nothing was appended.",
    ),
    401: _said(401, "Not signed in, or the session or token has expired or was revoked: sign in again."),
    403: _said(403, "Signed in, but this account's role does not allow it (or the CSRF token is missing)."),
    404: _said(404, "No such campaign, unit, event, session or address."),
    409: _said(409, "Another command was appended to the campaign first: nothing was recorded; send it again."),
    410: _said(410, "An invitation link that was used, revoked or has expired: ask the game master for a new one."),
    413: _said(413, "The request is larger than the server reads."),
    422: _said(422, "The request does not have the shape this route takes: which input, and what is wrong."),
    429: _said(429, "Too many failed sign-ins for the account or the address: wait, then try again.", retry=True),
    503: _said(503, "The database is not answering, or the server is too busy: try again in a moment.", retry=True),
}
"""Every refusal the API may answer, as its OpenAPI document says them (all in the shape of :class:`Refusal`)."""


def refusal(detail: str, status_code: int, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """A refusal in the product's words; text that is not UTF-8 (a lone surrogate from a ``\\udc80`` in the
    request's JSON, echoed back) is shown escaped, never a failure to answer."""
    safe = detail.encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"detail": safe}, status_code=status_code, headers=headers)


SQLITE_BUSY = ("locked", "busy", "unable to open", "disk i/o")
"""What SQLite says when its file is out of reach for now (its other operational errors are defects)."""


def database_gone(exc: DBAPIError) -> bool:
    """Whether ``exc`` says the database is out of reach (restarting, its connection cut, too busy), not that a
    statement was wrong: SQLAlchemy marks a cut connection ``connection_invalidated`` (and drops the pool's
    others, so the next request connects anew); PostgreSQL's operational errors are a refused or cut connection
    (a restart, a shutdown, too many clients); SQLite's, a locked or unreachable file."""
    if exc.connection_invalidated or isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    if type(exc.orig).__module__.startswith("sqlite3"):
        return any(word in str(exc.orig).lower() for word in SQLITE_BUSY)
    return True


def out_of_reach(exc: BaseException) -> bool:
    """Whether ``exc``, raised where no route's handler answers it (a middleware reading the session or the
    reader's language), says the database is out of reach: it is then a 503 in words, as in a route."""
    if isinstance(exc, DBAPIError):
        return database_gone(exc)
    if installed("postgres"):
        import psycopg

        return isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError)
    return False


def lost_race(request: Request, exc: ConcurrencyError) -> Words:
    """A lost race in words, naming the campaign by its name (its id means nothing to a person)."""
    from campaign.server.context import server  # context imports this module's Refusal for its routes

    name = None
    if exc.campaign_id is not None:
        try:
            found = server(request).app.ledger.directory.get(exc.campaign_id)
            name = found.name if found is not None else None
        except (CampaignError, DBAPIError):
            name = None
    if name:
        return Words(
            "campaign {name!r} was changed by another command at the same moment: nothing was recorded; "
            "read it again and send the command again",
            name=name,
        )
    return Words(
        "the campaign was changed by another command at the same moment: nothing was recorded; "
        "read it again and send the command again"
    )


def install(app: FastAPI) -> None:
    """The application's handlers for the refusals above."""

    @app.exception_handler(DBAPIError)
    async def database_error(request: Request, exc: DBAPIError) -> Response:
        if database_gone(exc):
            return gone(request)
        raise exc  # a defect: the request log answers it (DEFECT) and writes it down

    if installed("postgres"):
        import psycopg

        # The store reads and appends on the driver's own cursor (events/sql.py): its errors come unwrapped.
        @app.exception_handler(psycopg.OperationalError)
        @app.exception_handler(psycopg.InterfaceError)
        async def driver_error(request: Request, exc: Exception) -> Response:
            return gone(request)


GONE = Words("the database is not answering (it may be restarting): nothing was appended; try again in a moment")


def gone(request: Request) -> Response:
    return said_to(request, GONE, 503, {"Retry-After": str(RETRY_AFTER_S)})


DEFECT = Words("the server failed on this request (a defect, logged): nothing was appended")
"""The 500's words (campaign.server.request_log sends it)."""


def said_to(
    request: Request, said: Words | str, status_code: int, headers: Mapping[str, str] | None = None
) -> Response:
    """A refusal as whoever asked reads it: a browser asking for a page gets a page saying it in the reader's
    language (:func:`campaign.server.pages.refused_page`); the API and a script get ``{"detail": …}`` in English,
    as ``--json`` speaks (``str()`` of the words)."""
    from campaign.server.pages import refused_page  # the pages import this module's lost_race

    return refused_page(request, words_said(said), status_code, headers) or refusal(str(said), status_code, headers)


async def said_in_scope(
    scope: Scope, receive: Receive, send: Send, said: Words, status_code: int, headers: Mapping[str, str] | None = None
) -> None:
    """:func:`said_to` for a middleware that answers outside the routes (a body too large, a defect, a database
    gone while a middleware read it): in the language the request was read in, once that was known
    (:func:`campaign.server.language.read_in`), else the one its headers ask for."""
    from campaign.server.language import read_in  # the language's middleware reads the session (context)

    answer: Response
    try:
        with reading_in(read_in(scope)):
            answer = said_to(Request(scope, receive), said, status_code, headers)
    except Exception:  # the page itself failed to render (on a defect's way out): the words in the API's shape
        answer = refusal(str(said), status_code, headers)
    await answer(scope, receive, send)
