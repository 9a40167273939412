"""The account's own page: its sessions and tokens (each can be ended) and a change of password, as plain forms.

The same functions as the API's ``/api/sessions`` and ``/api/account/password`` (:mod:`campaign.server.api`),
posted as a browser posts a form (its CSRF token a hidden field, :mod:`campaign.server.nojs`), so a member
without JavaScript, or whose cookie may have been copied, can see where it is signed in and end it.
"""

from __future__ import annotations

from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, Form, HTTPException, Request
from fastapi import Path as InPath
from fastapi.responses import RedirectResponse, Response

from campaign.access.accounts import SignInError
from campaign.i18n import _, ngettext, refusal, words_said
from campaign.server import nojs
from campaign.server.context import SESSION_COOKIE, Account, access, server
from campaign.server.guard import guard
from campaign.server.pages import shown, templates
from events.errors import InvalidInputError

router = APIRouter(include_in_schema=False)
PAGE = "/account"


def _answer(request: Request, text: str, *, error: bool = False, code: int = 200) -> Response:
    """A form's answer: in place (htmx), or back to the account's page, which shows it (a plain post)."""
    if nojs.plain(request):
        return nojs.said(request, PAGE + "#said", {"message": text, "error": error})
    return templates.TemplateResponse(
        request, "message.html", {"message": text, "error": error, "lines": []}, status_code=code
    )


def _moment(at: object) -> str:
    """A time the account store gives (Unix seconds or an ISO string) in the reader's words, or as given."""
    from datetime import datetime

    from campaign.i18n.formats import moment

    if isinstance(at, int):
        return moment(at)
    try:
        return moment(int(datetime.fromisoformat(str(at).replace("Z", "+00:00")).timestamp()))
    except ValueError:
        return str(at)


@router.get(PAGE, openapi_extra=access("account"))
def account_page(request: Request, who: Account) -> Response:
    sessions = server(request).accounts.sessions_of(who.account)
    for session in sessions:
        session["current"] = session["id"] == who.session.public_id
        for key in ("created_at", "last_used_at", "expires_at"):  # the API's ISO times, as a person reads them
            session[key] = _moment(session[key])
    chose = server(request).accounts.language(who.account)
    return shown(
        request,
        "account.html",
        {"account": who.account, "csrf": who.session.csrf, "sessions": sessions, "chosen_language": chose or ""},
    )


@router.post(PAGE + "/language", openapi_extra=access("account"))
async def choose_language(
    request: Request, who: Account, language: Annotated[str, Form(max_length=8)] = ""
) -> Response:
    """The page's language for this account, in every browser it signs in from (none: each browser's own)."""
    from campaign.i18n import LANGUAGES
    from campaign.server.language import COOKIE

    if language and language not in LANGUAGES:
        return _answer(request, _("there is no such language here"), error=True, code=400)
    await anyio.to_thread.run_sync(server(request).accounts.set_language, who.account, language or None)
    # the answer is read in the new language: the page comes back whole, not a fragment in the old one
    response: Response = (
        RedirectResponse(PAGE, status_code=303)
        if nojs.plain(request)
        else Response(status_code=204, headers={"HX-Redirect": PAGE})
    )
    response.delete_cookie(COOKIE)  # this browser's own switch would otherwise speak over the account's choice
    return response


@router.post(PAGE + "/password", openapi_extra=access("account"))
async def change_password(
    request: Request,
    who: Account,
    current: Annotated[str, Form(max_length=1000)] = "",
    new: Annotated[str, Form(max_length=1000)] = "",
) -> Response:
    """A new password (the current one checked, throttled as a sign-in is); every other session and token ends."""
    try:
        ended = await guard(request).change_password(request, who.account, current, new, who.session)
    except SignInError:
        return _answer(request, _("the current password is not right: nothing was changed"), error=True, code=400)
    except InvalidInputError as exc:
        return _answer(request, refusal(exc), error=True, code=400)
    except HTTPException as exc:  # throttled (429) or busy (503)
        return _answer(request, words_said(exc.detail), error=True, code=exc.status_code)
    said = ngettext(
        "Your password is changed; {n} other session or token was ended.",
        "Your password is changed; {n} other sessions or tokens were ended.",
        ended,
    ).format(n=ended)
    return _answer(request, said)


@router.post(PAGE + "/sessions/{session_id}/end", openapi_extra=access("account"))
async def end_session(request: Request, who: Account, session_id: Annotated[str, InPath(max_length=16)]) -> Response:
    """End one of the account's sessions or tokens (a session: with the tokens made in it); this one signs out."""
    accounts = server(request).accounts
    if not await anyio.to_thread.run_sync(accounts.revoke, who.account, session_id):
        return _answer(request, _("that session has ended already"), error=True, code=404)
    if session_id != who.session.public_id:
        return _answer(request, _("That session is ended: it opens nothing any more."))
    response: Response = (
        RedirectResponse("/signin", status_code=303)
        if nojs.plain(request)
        else Response(status_code=204, headers={"HX-Redirect": "/signin"})
    )
    response.delete_cookie(SESSION_COOKIE)
    return response
