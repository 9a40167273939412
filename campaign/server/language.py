"""The page's language: the reader's choice (the switch on every page, kept in a cookie), else the browser's
``Accept-Language``, else English. The JSON API is for scripts and stays language-neutral, as ``--json`` does.

One ASGI middleware sets the reader's language (``campaign.i18n``, a context variable) for the request, so that
the templates, the log's sentences and the refusals a page shows are said in it; the answer says which
(``Content-Language``) and that it depends on those headers (``Vary``). The switch is a plain link, so it works
without JavaScript: ``GET /lang/pl?next=/c/…`` keeps the choice and goes back to the page it was chosen on.
"""

from __future__ import annotations

from http.cookies import SimpleCookie

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from campaign.i18n import LANGUAGES, negotiate, restore, use

COOKIE = "lang"
YEAR = 365 * 24 * 3600


def chosen(scope: Scope) -> str:
    """The reader's language for a request: the switch's cookie, else ``Accept-Language``, else English; English
    for the JSON API whatever the headers say."""
    if scope["path"].startswith("/api/") or scope["path"] == "/api":
        return "en"
    headers = {
        k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"] if k in (b"cookie", b"accept-language")
    }
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except Exception:
        cookie = SimpleCookie()
    picked = cookie.get(COOKIE)
    if picked is not None and picked.value in LANGUAGES:
        return picked.value
    return negotiate(headers.get("accept-language"))


class ReaderLanguage:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lang = chosen(scope)

        async def said_in(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["content-language"] = lang
                headers.append("vary", "Accept-Language, Cookie")
            await send(message)

        token = use(lang)
        try:
            await self.app(scope, receive, said_in)
        finally:
            restore(token)


def back_to(next_page: str | None) -> str:
    """Where the switch goes back to: a path of this server only (never another site: ``//evil`` is refused)."""
    if not next_page or not next_page.startswith("/") or next_page.startswith("//") or "\\" in next_page:
        return "/"
    return next_page
