"""The page without JavaScript: forms post as browsers post them, and the answer is a redirect back.

htmx sends the session's CSRF token in a header (``base.html``); a plain form cannot set one, so every form
also carries it as a hidden ``_csrf`` field, and :class:`FormToken` hands that field to the one check there is
(``context.caller_or_none``) as the header it reads. A field is as secret as a header: another site's page
can make a browser send the cookie, never read the token off our page.

A form's answer is shown where htmx puts it (or sent to a script that sent the header); a plain post gets
``303 See Other`` back to the page it came from (post, redirect, get: a reload does not send it again), with what
to show in a short-lived cookie (:func:`said`),
read and cleared by the next page (:func:`take_said`). The cookie holds only what the page shows the one who
sent the form (escaped when shown), never a decision.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Mapping
from urllib.parse import parse_qs

import orjson
from fastapi import Request
from fastapi.responses import RedirectResponse, Response
from starlette.types import Message, Receive, Scope, Send

from campaign.server.asgi import HttpMiddleware
from campaign.server.context import CSRF_HEADER, SESSION_COOKIE

SAID_COOKIE = "campaign_said"
TOKEN_FIELD = "_csrf"  # noqa: S105 (a field's name, not a secret)
MOST = 3800
"""A cookie's budget (browsers keep 4,096 bytes per cookie): a longer answer drops what the form held first,
then its detail lines."""
READ_AT_MOST = 1_000_000


PLAIN = "campaign.plain_form"
"""Marks a request whose CSRF token came in a form field: a browser's own post, without JavaScript."""


def plain(request: Request) -> bool:
    """Whether the request is a plain form post (its token a field, as no script sent it), answered by a
    redirect back; htmx and scripts send the token in the header, and get the answer itself."""
    return bool(request.scope.get(PLAIN))


def said(request: Request, to: str, what: Mapping[str, object]) -> Response:
    """``303`` back to ``to``, carrying ``what`` (a message, its lines, a form's values and errors) for it to show."""
    response = RedirectResponse(to, status_code=303)
    body = dict(what)
    for drop in ("values", "dice", "lines"):
        packed = base64.urlsafe_b64encode(orjson.dumps(body)).decode()
        if len(packed) <= MOST:
            break
        body.pop(drop, None)
    else:
        body = {"message": str(what.get("message", ""))[:1000], "error": bool(what.get("error"))}
        packed = base64.urlsafe_b64encode(orjson.dumps(body)).decode()
    response.set_cookie(SAID_COOKIE, f"{_seal(request, packed)}.{packed}", max_age=60, httponly=True, samesite="strict")
    return response


def _seal(request: Request, packed: str) -> str:
    """The cookie's seal: an HMAC of it under the browser's own session secret, so that only what this server
    left for this session is read back — a cookie set from elsewhere (a sibling subdomain can set one) made the
    campaign page fail on a shape the page never writes."""
    key = request.cookies.get(SESSION_COOKIE, "").encode()
    return hmac.new(key, packed.encode(), hashlib.sha256).hexdigest()[:32]


def take_said(request: Request) -> dict[str, object] | None:
    """What the last plain form post left to show (None: nothing, or a cookie this page cannot read or did not
    write for this session)."""
    sealed = request.cookies.get(SAID_COOKIE)
    if not sealed:
        return None
    seal, _dot, packed = sealed.partition(".")
    if not hmac.compare_digest(seal, _seal(request, packed)):
        return None
    try:
        found = orjson.loads(base64.urlsafe_b64decode(packed.encode()))
    except (ValueError, orjson.JSONDecodeError):
        return None
    return found if isinstance(found, dict) else None


def cleared(response: Response) -> Response:
    response.delete_cookie(SAID_COOKIE)
    return response


class FormToken(HttpMiddleware):
    """A plain form's ``_csrf`` field, given to the CSRF check as the header htmx would have sent: the body is
    read here (at most :data:`READ_AT_MOST` bytes; a longer one passes on as sent, without the header) and handed
    on unchanged."""

    methods = frozenset({"POST"})

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope["headers"])
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        if CSRF_HEADER.lower().encode() in headers or kind not in (
            b"application/x-www-form-urlencoded",
            b"multipart/form-data",
        ):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > READ_AT_MOST:
                break
        body = b"".join(chunks)
        token = _token(body, kind, headers.get(b"content-type", b"")) if not more else None
        if token:
            scope = {**scope, "headers": [*scope["headers"], (CSRF_HEADER.lower().encode(), token.encode())]}
            scope[PLAIN] = True
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": more}
            return await receive()

        await self.app(scope, replay, send)


def _token(body: bytes, kind: bytes, content_type: bytes) -> str | None:
    if kind == b"application/x-www-form-urlencoded":
        found = parse_qs(body.decode("latin-1"), max_num_fields=1000).get(TOKEN_FIELD)
        return found[0] if found else None
    boundary = next(
        (p.split(b"=", 1)[1].strip(b'"') for p in content_type.split(b";") if p.strip().startswith(b"boundary=")), None
    )
    if not boundary:
        return None
    for part in body.split(b"--" + boundary):
        head, _, value = part.partition(b"\r\n\r\n")
        if b'name="' + TOKEN_FIELD.encode() + b'"' in head:
            return value.rstrip(b"\r\n").decode("latin-1")
    return None
