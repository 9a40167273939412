"""What every request shares: the opened database, the accounts, and who is asking with which role.

Who is asking: a bearer token (``Authorization: Bearer …``, for scripts) or the session cookie (for the page).
A request that changes anything with the cookie must carry the session's CSRF token in ``X-CSRF-Token``: a
page of another site can make the browser send the cookie, never read the token. Bearer tokens are not sent
by a browser on its own, so they need no CSRF token.

Each route declares its access level in its OpenAPI ``x-access`` (read by the authorisation test):
``public``, ``account`` (any signed-in account), ``member`` (any role in the campaign: the read views),
``play`` (GM or player; which commands a player may enter is checked per command), ``gm``.
"""

from __future__ import annotations

import copy
import hmac
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, HTTPException, Request

from campaign.access import memberships
from campaign.access.accounts import Accounts, Session
from campaign.access.asking import asking
from campaign.access.invitations import Invitations, LinkGoneError
from campaign.bootstrap import App
from campaign.executor import Ledger
from campaign.i18n import N_
from campaign.server.fragments import Fragments
from campaign.server.live import Live
from campaign.server.request_log import note
from campaign.server.turns import Turns
from events.dice import AnotherSidesDieError
from events.errors import CampaignError, ConcurrencyError, NotFoundError, Words
from projections.campaign_directory import SqlCampaignDirectory
from projections.state.campaigns import CampaignInfo

SESSION_COOKIE = "campaign_session"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LEVELS = ("public", "account", "member", "play", "gm")
ALLOWED = {"member": ("gm", "player", "observer"), "play": ("gm", "player"), "gm": ("gm",)}
NOT_ALLOWED = {
    ("play", "observer"): N_("only a game master or a player may do this; {account} is observer in {campaign}"),
    ("gm", "player"): N_("only the game master may do this; {account} is player in {campaign}"),
    ("gm", "observer"): N_("only the game master may do this; {account} is observer in {campaign}"),
}
"""A role refused at a level, in words: one whole sentence each, so that each language says the role its way."""
SIGN_IN_FIRST = Words("sign in first")
CSRF_MISSING = "this request lacks the page's CSRF token: reload the page and try again"
"""The API's words for a changing request of a cookie session without its CSRF token (a script's)."""
STALE_FORM = Words(
    "this page is out of date (it was opened before you last signed in): reload the page and send the form again"
)
"""The same refusal on a page: its reader is told why and what to do, not the mechanism's name."""
SESSION_ENDED = Words(
    "your session has ended (you signed out, or it expired while this page was open): sign in again, then reload "
    "the page and send the form again"
)


def access(level: str) -> dict[str, object]:
    """The route's ``openapi_extra``: its access level, for the documentation and the authorisation test."""
    assert level in LEVELS
    return {"x-access": level}


@dataclass
class Server:
    app: App
    accounts: Accounts
    members: memberships.Memberships
    live: Live
    fragments: Fragments
    """The campaign page's live parts, rendered once per head (:mod:`campaign.server.fragments`)."""
    invitations: Invitations
    """The game masters' invitation links (:mod:`campaign.access.invitations`)."""
    secure_cookies: bool = False
    turns: Turns = field(default_factory=Turns)
    """Commands of one campaign take turns in this process (:mod:`campaign.server.turns`)."""

    def ledger_for(self, account: str) -> Ledger:
        """The ledger, recording ``account`` as the actor of what it appends."""
        ledger = copy.copy(self.app.ledger)
        ledger.actor = account
        return ledger

    def campaign(self, campaign_id: str) -> CampaignInfo:
        info = self.app.ledger.directory.get(campaign_id)
        if info is None:
            raise NotFoundError.saying("no campaign {campaign_id!r} on this server", campaign_id=campaign_id)
        return info


@dataclass(frozen=True)
class Caller:
    account: str
    session: Session


@dataclass(frozen=True)
class InCampaign:
    caller: Caller
    info: CampaignInfo
    member: memberships.Member


def server(request: Request) -> Server:
    found: Server = request.app.state.server
    return found


def credentials(request: Request) -> tuple[str, str] | None:
    """The secret the request carries and its kind: a bearer token ('token'), else the session cookie
    ('session'); None for neither."""
    for name in ("authorization", CSRF_HEADER):
        if len(request.headers.getlist(name)) > 1:  # which one counts would be the server's guess
            raise HTTPException(400, Words("this request carries {name} more than once: send it once", name=name))
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip(), "token"
    cookie = request.cookies.get(SESSION_COOKIE)
    return (cookie, "session") if cookie else None


def caller_or_none(request: Request) -> Caller | None:
    """The signed-in account, if any; a cookie session on a changing request must show its CSRF token."""
    sent = credentials(request)
    if sent is None:
        return None
    secret, kind = sent
    return _caller(request, kind, server(request).accounts.session(secret, kind=kind))


def _caller(request: Request, kind: str, session: Session | None) -> Caller | None:
    """Who ``session`` (read for the request's secret of ``kind``) signs in: a token that opens none is refused,
    and so is a cookie session's changing request without its CSRF token."""
    if session is None:
        if kind == "token":
            raise HTTPException(401, Words("this token opens no session: sign in again"))
        return None
    if kind == "session" and request.method not in SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), session.csrf.encode()):
            # a page's form without the session's token was shown before this session began (the browser signed
            # in again since): its reader is told so, and what to do; a script keeps the API's words
            raise HTTPException(403, CSRF_MISSING if _api(request) else STALE_FORM)
    return Caller(session.account, session)


def _api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def not_signed_in(request: Request) -> HTTPException:
    """The refusal of a request no session opens: "sign in first"; on a page whose browser still holds a session
    cookie, that its session ended while the page was open (signed out, or expired), and what to do."""
    if not _api(request) and request.cookies.get(SESSION_COOKIE):
        return HTTPException(401, SESSION_ENDED)
    return HTTPException(401, SIGN_IN_FIRST)


def signed_in(request: Request) -> Caller:
    found = caller_or_none(request)
    if found is None:
        raise not_signed_in(request)
    note(request, account=found.account)
    return found


def in_campaign(request: Request, campaign_id: str, level: str) -> InCampaign:
    """Who asks, in the campaign, with a role ``level`` allows: the session, the campaign and the membership read
    in one statement (:mod:`campaign.access.asking`); refused 401, 403 or 404 in words."""
    srv = server(request)
    sent = credentials(request)
    if sent is None:
        raise not_signed_in(request)
    secret, kind = sent
    directory = srv.app.ledger.directory
    assert isinstance(directory, SqlCampaignDirectory)  # a server opens a database (campaign.bootstrap)
    found = asking(srv.accounts, directory, secret, kind, campaign_id)
    who = _caller(request, kind, found.session)
    if who is None:
        raise not_signed_in(request)
    note(request, account=who.account)
    info, member = found.info, found.member
    if info is None or member is None:
        # one who is not a member is answered as for a campaign that is not there: neither its name nor that
        # the id is one is told to them
        raise HTTPException(404, Words("no campaign {campaign_id!r} on this server", campaign_id=campaign_id))
    note(request, campaign=info.name, campaign_id=campaign_id)
    if member.role not in ALLOWED[level]:
        said = NOT_ALLOWED[(level, member.role)]  # every role a level refuses: the others are allowed at each
        raise HTTPException(403, Words(said, account=who.account, campaign=info.name))
    return InCampaign(who, info, member)


def member_of(request: Request, campaign_id: str) -> InCampaign:
    return in_campaign(request, campaign_id, "member")


def player_of(request: Request, campaign_id: str) -> InCampaign:
    return in_campaign(request, campaign_id, "play")


def gm_of(request: Request, campaign_id: str) -> InCampaign:
    return in_campaign(request, campaign_id, "gm")


Member = Annotated[InCampaign, Depends(member_of)]
Player = Annotated[InCampaign, Depends(player_of)]
GM = Annotated[InCampaign, Depends(gm_of)]
Account = Annotated[Caller, Depends(signed_in)]
"""Who may call a route, as its handler's parameter: any member, the GM or a player, the GM, any account."""


def ledger_of(request: Request, m: InCampaign) -> Ledger:
    """The ledger, recording the caller as the actor of what it appends."""
    return server(request).ledger_for(m.caller.account)


def status_for(exc: CampaignError) -> int:
    """A refusal's HTTP status: 409 a lost race (nothing appended), 404 not found, 403 another side's roll, 410 an
    invitation link that opens nothing any more, 400 bad input."""
    if isinstance(exc, ConcurrencyError):
        return 409
    if isinstance(exc, NotFoundError):
        return 404
    if isinstance(exc, AnotherSidesDieError):  # another side's roll: not the caller's to make
        return 403
    if isinstance(exc, LinkGoneError):  # a real invitation link, used, revoked or expired
        return 410
    return 400
