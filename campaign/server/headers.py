"""The security headers every answer carries, added by one ASGI middleware (none of the routes repeats them).

- ``Content-Security-Policy``: scripts, styles, images and connections from this server only, no inline script
  or style (the templates hold none: the page's script is ``static/ledger.js``, htmx's settings a ``<meta>``),
  and ``frame-ancestors 'none'`` so no other site can frame the GM's page with its rewind and undo buttons under
  a decoy (clickjacking); ``X-Frame-Options: DENY`` says the same to browsers that predate CSP's word for it.
- ``X-Content-Type-Options: nosniff``: an answer is read as the type it says, never guessed into a script.
- ``Referrer-Policy: no-referrer``: a campaign's address (its id) is not sent to other sites' links.
- ``Cache-Control: no-store`` on every answer but the static files: a signed-in page or a refusal naming an
  account is not kept by the browser or a proxy, for the next person at a shared computer to read.
- ``Strict-Transport-Security`` when the server is told it sits behind HTTPS (``--secure-cookies``).
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from campaign.server.asgi import HttpMiddleware

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HSTS = "max-age=31536000"
"""A year: the browser keeps to HTTPS for this server's name even if a link or a network says http://."""


class SecurityHeaders(HttpMiddleware):
    def __init__(self, app: ASGIApp, *, https: bool = False) -> None:
        super().__init__(app)
        self.fixed = {
            "content-security-policy": CSP,
            "x-frame-options": "DENY",
            "x-content-type-options": "nosniff",
            "referrer-policy": "no-referrer",
            **({"strict-transport-security": HSTS} if https else {}),
        }

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        static = scope["path"].startswith("/static/")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.fixed.items():
                    headers[name] = value
                if not static:
                    headers["cache-control"] = "no-store"
            await send(message)

        await self.app(scope, receive, with_headers)
