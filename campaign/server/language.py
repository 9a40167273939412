"""The page's language: the signed-in account's choice (kept with the account, so it follows its holder to
another browser), else the reader's choice in this browser (the switch on every page, kept in a cookie), else
the browser's ``Accept-Language``, else English. The JSON API is for scripts and stays language-neutral, as
``--json`` does.

One ASGI middleware sets the reader's language (``campaign.i18n``, a context variable) for the request, so that
the templates, the log's sentences and the refusals a page shows are said in it; the answer says which
(``Content-Language``) and that it depends on those headers (``Vary``). The switch is a plain link, so it works
without JavaScript: ``GET /lang/pl?next=/c/…`` keeps the choice and goes back to the page it was chosen on.
"""

from __future__ import annotations

from http.cookies import SimpleCookie

import anyio.to_thread
from starlette.datastructures import MutableHeaders
from starlette.types import Message, Receive, Scope, Send

from campaign.i18n import LANGUAGES, negotiate, restore, use
from campaign.server.asgi import HttpMiddleware
from campaign.server.context import SESSION_COOKIE
from campaign.typed_as import as_the_page_names

COOKIE = "lang"
YEAR = 365 * 24 * 3600
READ_IN = "campaign_ledger.lang"
"""Where the request's language waits (in the ASGI scope's ``state``) for a refusal made outside the routes."""


def _cookies(scope: Scope) -> SimpleCookie:
    cookie = SimpleCookie()
    try:
        cookie.load(next((v.decode("latin-1") for k, v in scope["headers"] if k == b"cookie"), ""))
    except Exception:
        cookie = SimpleCookie()
    return cookie


def chosen(scope: Scope, account_language: str | None = None) -> str:
    """The reader's language for a request: the signed-in account's choice, else the switch's cookie, else
    ``Accept-Language``, else English; English for the JSON API whatever the headers say."""
    if is_api(scope):
        return "en"
    if account_language in LANGUAGES:
        return account_language
    picked = _cookies(scope).get(COOKIE)
    if picked is not None and picked.value in LANGUAGES:
        return picked.value
    accept = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"accept-language"), None)
    return negotiate(accept)


def read_in(scope: Scope) -> str:
    """The language a request was read in (the middleware below chose it), for a refusal answered outside it (a
    defect, a database gone away): else, before it chose (a body too large), the one the headers ask for."""
    found = scope.get("state", {}).get(READ_IN)
    return found if found in LANGUAGES else chosen(scope)


def is_api(scope: Scope) -> bool:
    path: str = scope["path"]
    return path.startswith("/api/") or path == "/api"


async def account_language(scope: Scope) -> str | None:
    """The language the account this browser is signed in as chose, if any (a page only: the API is English)."""
    if is_api(scope) or scope["path"].startswith("/static/"):  # no words of a language there: no read
        return None
    secret = _cookies(scope).get(SESSION_COOKIE)
    app = scope.get("app")
    srv = getattr(getattr(app, "state", None), "server", None)
    if secret is None or not secret.value or srv is None:
        return None
    found: str | None = await anyio.to_thread.run_sync(srv.accounts.language_of_session, secret.value)
    return found


class ReaderLanguage(HttpMiddleware):
    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        lang = chosen(scope, await account_language(scope))
        scope.setdefault("state", {})[READ_IN] = lang

        async def said_in(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["content-language"] = lang
                headers.append("vary", "Accept-Language, Cookie")
            await send(message)

        token = use(lang)
        try:
            if is_api(scope):
                await self.app(scope, receive, said_in)
            else:  # a page names a command as its own list does (a script reads the command line's names)
                with as_the_page_names():
                    await self.app(scope, receive, said_in)
        finally:
            restore(token)


def back_to(next_page: str | None) -> str:
    """Where the switch goes back to: a path of this server only (never another site: ``//evil`` is refused)."""
    if not next_page or not next_page.startswith("/") or next_page.startswith("//") or "\\" in next_page:
        return "/"
    return next_page
